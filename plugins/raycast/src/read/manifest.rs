//! package.json: the extension's own keys (name, title, icon, author, ...) and its `tools`
//! entries, each with the parameters, description and confirmation its TypeScript file gives.
//! Keys the model has no place for are kept in extras, with the manifest's key order.

use serde_json::{Map, Value, json};
use toolport_plugin::source::{Locator, child, line_column};
use toolport_plugin::{Bundle, Creator, Diagnostic, Icon, Tool, ToolSet, Version, codes};

use super::ts;
use crate::FORMAT_ID;
use crate::extension::{Fingerprints, TOOL_SOURCE, ToolSource, is_safe_name, written_request};

/// package.json keys that map into the model; every other key is kept in extras as written.
pub const MAPPED_KEYS: [&str; 8] = ["name", "title", "description", "icon", "author", "version", "tools", "ai"];

/// What reading package.json fills, with where its diagnostics point.
pub(super) struct Manifest<'a> {
    pub at: &'a Locator<'a>,
    pub file: &'a str,
    pub model: &'a mut ToolSet,
    /// Keys kept as written, for writing the same manifest back.
    pub extras: &'a mut Map<String, Value>,
    pub diagnostics: &'a mut Vec<Diagnostic>,
}

/// The extension's own keys: mapped into the model, or kept with the key order.
pub(super) fn read_manifest(package: &Map<String, Value>, reading: &mut Manifest) {
    let (at, file) = (reading.at, reading.file);
    let (model, extras, diagnostics) = (&mut *reading.model, &mut *reading.extras, &mut *reading.diagnostics);
    let mut kept = Map::new();
    for (key, value) in package {
        let mapped = match (key.as_str(), value) {
            ("name", Value::String(s)) => {
                model.id = Some(s.clone());
                true
            }
            ("title", Value::String(s)) => {
                model.title = Some(s.clone());
                true
            }
            ("description", Value::String(s)) => {
                model.description = Some(s.clone());
                true
            }
            ("icon", Value::String(s)) => {
                model.icon = Some(Icon::Path { path: s.clone() });
                true
            }
            ("version", Value::String(s)) => {
                model.version = Some(Version::Text(s.clone()));
                true
            }
            ("author", Value::String(s)) => {
                model.creator = Some(Creator { name: Some(s.clone()), ..Creator::default() });
                true
            }
            ("author", Value::Object(author))
                if author.keys().all(|k| ["name", "email", "url"].contains(&k.as_str())) =>
            {
                let field = |k: &str| author.get(k).and_then(Value::as_str).map(str::to_owned);
                model.creator = Some(Creator {
                    name: field("name"),
                    email: field("email"),
                    url: field("url"),
                    ..Creator::default()
                });
                extras.insert("author_object".into(), Value::Bool(true));
                true
            }
            ("tools", Value::Array(_)) | ("ai", _) => true,
            _ => false,
        };
        if !mapped {
            if MAPPED_KEYS.contains(&key.as_str()) {
                let (line, column) = at.locate(&child("", key)).unwrap_or((1, 1));
                diagnostics.push(
                    Diagnostic::warning(
                        codes::INPUT_INVALID,
                        child("", key),
                        format!("`{key}` has an unexpected type; kept as written"),
                    )
                    .at(file, line, column),
                );
            }
            kept.insert(key.clone(), value.clone());
        }
    }
    extras.insert("manifest".into(), Value::Object(kept));
    extras.insert("key_order".into(), Value::Array(package.keys().map(|k| Value::from(k.as_str())).collect()));
}

/// The `tools` entries, each read with its `src/tools/<name>.ts`, where the tool's extras
/// record the file and what was read from it (`ToolSource`).
pub(super) fn read_tools(bundle: &Bundle, root: &str, package: &Map<String, Value>, reading: &mut Manifest) {
    let (at, file) = (reading.at, reading.file);
    let (model, extras, diagnostics) = (&mut *reading.model, &mut *reading.extras, &mut *reading.diagnostics);
    let Some(tools) = package.get("tools") else { return };
    // A `tools` that is not an array was reported and kept by `read_manifest`.
    let Some(tools) = tools.as_array() else { return };
    let mut invalid = Vec::new();
    for (index, entry) in tools.iter().enumerate() {
        let path = child("/tools", index.to_string());
        let Some(object) = entry.as_object().filter(|o| o.get("name").is_some_and(Value::is_string)) else {
            let (line, column) = at.locate(&path).unwrap_or((1, 1));
            diagnostics.push(
                Diagnostic::warning(codes::INPUT_INVALID, &path, "a tool entry needs a `name`; kept as written")
                    .at(file, line, column),
            );
            invalid.push(json!([index, entry]));
            continue;
        };
        let name = object["name"].as_str().unwrap_or_default().to_owned();
        let mut tool = Tool::new(name.clone());
        let mut kept = Map::new();
        for (key, value) in object {
            match (key.as_str(), value) {
                ("name", _) => {}
                ("title", Value::String(s)) => tool.title = Some(s.clone()),
                ("description", Value::String(s)) => tool.description = Some(s.clone()),
                ("instructions", Value::String(s)) => tool.usage_notes = Some(s.clone()),
                ("icon", Value::String(s)) => tool.icon = Some(Box::new(Icon::Path { path: s.clone() })),
                _ => {
                    kept.insert(key.clone(), value.clone());
                }
            }
        }
        let mut tool_extras = Map::new();
        if !kept.is_empty() {
            tool_extras.insert("manifest".into(), Value::Object(kept));
        }
        let source =
            ["ts", "tsx"].iter().map(|ext| format!("{root}src/tools/{name}.{ext}")).find(|p| bundle.get(p).is_some());
        match source {
            Some(source) if is_safe_name(&name) => {
                let found = ts::extract(bundle, &source, diagnostics);
                let parts = found.as_ref().and_then(|found| found.parts.clone());
                if let Some(found) = found {
                    tool.parameters = found.parameters;
                    if tool.description.is_none() && found.description.is_some() {
                        tool.description = found.description;
                        tool_extras.insert("description_in_code".into(), Value::Bool(true));
                    }
                    if let Some(confirmation) = found.confirmation {
                        if confirmation.style.as_deref() == Some("destructive") {
                            tool.hints.destructive = Some(true);
                        }
                        tool.confirmation = Some(Box::new(confirmation));
                    }
                }
                if let Some(text) = bundle.get(&source)
                    && let Some((request, offset)) = written_request(text)
                {
                    let (line, column) = line_column(text, offset);
                    diagnostics.push(
                        Diagnostic::loss(
                            codes::LOSS_HTTP,
                            child(&path, "http"),
                            format!(
                                "tool `{name}` sends `{request}` from its code (the request toolport writes for an HTTP binding); code is not read as a binding, so the tool is read without one and a format that needs one makes up its own"
                            ),
                        )
                        .at(&source, line, column),
                    );
                }
                let file = source.strip_prefix(root).unwrap_or(&source).to_owned();
                let source = ToolSource { file, read: Fingerprints::of(&tool), parts };
                tool_extras.insert(TOOL_SOURCE.into(), serde_json::to_value(source).unwrap_or_default());
            }
            _ => {
                let (line, column) = at.locate(&path).unwrap_or((1, 1));
                diagnostics.push(
                    Diagnostic::warning(
                        codes::INPUT_MISSING_FILE,
                        &path,
                        format!("tool `{name}` has no src/tools/{name}.ts or .tsx; read from the manifest alone (no parameters)"),
                    )
                    .at(file, line, column),
                );
            }
        }
        if !tool_extras.is_empty() {
            tool.extras.insert(FORMAT_ID.into(), Value::Object(tool_extras));
        }
        model.tools.push(tool);
    }
    if !invalid.is_empty() {
        extras.insert("invalid_tools".into(), Value::Array(invalid));
    }
}
