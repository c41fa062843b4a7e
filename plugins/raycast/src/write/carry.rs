//! The source extension's own files given back: a Raycast source's every file (kept in the
//! model's extras by the reader) is written as it was, unless the writer writes that file
//! itself. A file the writer writes (package.json, the AI file) is the source's own text again
//! when what it holds is unchanged, so only what changed is rewritten.

use serde::Deserialize;
use serde_json::Value;
use toolport_plugin::{Bundle, Diagnostic, codes};

use super::ts::ToolFiles;
use crate::FORMAT_ID;
use crate::extension::{EXTENSION_FILES, parse_ai_file};

/// The source extension's files, when the model came from a Raycast reader that kept them.
pub(super) fn source_files(set_extras: &serde_json::Map<String, Value>) -> Option<Bundle> {
    set_extras.get(EXTENSION_FILES).and_then(|files| Bundle::deserialize(files).ok())
}

/// `document` as the text of `path`: the source's own text when it holds the same document
/// (JSON, JSON5 or YAML, compared as values), else `written`.
pub(super) fn same_or_written(bundle: &Bundle, path: &str, document: &Value, written: String) -> String {
    match bundle.get(path) {
        Some(text) if parse_ai_file(path, path, text).is_ok_and(|source| &source.value == document) => text.to_owned(),
        _ => written,
    }
}

/// Takes out of `bundle` the source's tool files (`src/tools/<name>.ts` of a tool its
/// package.json named) that no tool was written to: their tool is renamed (its file moved with
/// it, said where it moved) or gone (said here).
pub(super) fn drop_unwritten_tool_files(
    source: &Bundle,
    written: &ToolFiles,
    bundle: &mut Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let package = source.get("package.json").and_then(|text| serde_json::from_str::<Value>(text).ok());
    let names = package.as_ref().and_then(|p| p.get("tools")).and_then(Value::as_array).into_iter().flatten();
    for name in names.filter_map(|entry| entry.get("name").and_then(Value::as_str)) {
        for file in ["ts", "tsx"].map(|ext| format!("src/tools/{name}.{ext}")) {
            if source.get(&file).is_none() || written.paths.contains(&file) {
                continue;
            }
            bundle.files.remove(&file);
            if !written.carried_from.contains(&file) {
                diagnostics.push(Diagnostic::warning(
                    codes::CHANGED_VALUE,
                    format!("/extras/{FORMAT_ID}/{EXTENSION_FILES}"),
                    format!("{file} is left out: no tool of the model is written from it (its tool is no longer part of the model)"),
                ));
            }
        }
    }
}
