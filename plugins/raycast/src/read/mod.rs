//! Reading an extension directory: package.json, the AI file (ai.json / ai.yaml / ai.json5)
//! and each tool's TypeScript file.
//!
//! The parts: `manifest` reads package.json and the tool entries, `ai` the AI file or
//! package.json's `ai`, `evals` the evals in it, and `ts` each tool's TypeScript file. Every
//! file of the extension is kept in extras too (`EXTENSION_FILES`), for a Raycast writer to
//! give back.

mod ai;
pub mod evals;
mod manifest;
pub mod ts;

use serde_json::{Map, Value};
use toolport_plugin::source::{Locator, Parsed, parse_json};
use toolport_plugin::{Bundle, Diagnostic, Outcome, ToolSet, codes};

use crate::extension::EXTENSION_FILES;
use crate::{AI_FILES, FORMAT_ID};

pub use crate::extension::parse_json5;
pub use manifest::MAPPED_KEYS;

/// The directory the extension sits in inside the bundle (`""` for the bundle root).
pub fn root(bundle: &Bundle) -> String {
    let names = ["package.json", "ai.json", "ai.yaml", "ai.json5"];
    if let Some(entry) = &bundle.entry
        && let Some(dir) = names.iter().find_map(|n| entry.strip_suffix(n))
        && (dir.is_empty() || dir.ends_with('/'))
    {
        return dir.to_owned();
    }
    String::new()
}

/// Every file of the extension, paths relative to its folder, as a serialized `Bundle`: what a
/// Raycast writer gives back as it was (the tools' bodies, commands, assets, README, ...).
fn extension_files(bundle: &Bundle, root: &str) -> Value {
    let mut files = Bundle::default();
    for (path, text) in &bundle.files {
        if let Some(relative) = path.strip_prefix(root) {
            files.insert(relative, text.as_str());
        }
    }
    for (path, bytes) in &bundle.binary_files {
        if let Some(relative) = path.strip_prefix(root) {
            files.binary_files.insert(relative.to_owned(), bytes.clone());
        }
    }
    serde_json::to_value(files).unwrap_or_default()
}

pub fn read(bundle: &Bundle) -> Outcome<ToolSet> {
    let mut diagnostics = Vec::new();
    let root = root(bundle);
    let package_path = format!("{root}package.json");
    let ai_files: Vec<&str> =
        AI_FILES.iter().copied().filter(|f| bundle.get(&format!("{root}{f}")).is_some()).collect();
    let package = match bundle.get(&package_path) {
        Some(text) => match parse_json(&package_path, text) {
            Ok(Parsed { value: Value::Object(object), tolerated }) => {
                diagnostics.extend(tolerated);
                Some(object)
            }
            Ok(_) => {
                return Outcome::fail(
                    Diagnostic::error(codes::INPUT_INVALID, "", "package.json must be a JSON object").at(
                        &package_path,
                        1,
                        1,
                    ),
                );
            }
            Err(error) => return Outcome::fail(error),
        },
        None if ai_files.is_empty() => {
            return Outcome::fail(Diagnostic::error(
                codes::INPUT_MISSING_FILE,
                "",
                "not a Raycast extension: no package.json, ai.json, ai.yaml or ai.json5 in the input",
            ));
        }
        None => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_MISSING_FILE,
                "",
                "no package.json in the input: only the AI file is read",
            ));
            None
        }
    };
    let package_at = Locator::new(bundle.get(&package_path).unwrap_or_default());
    let mut model = ToolSet::default();
    let mut extras = Map::new();
    if let Some(package) = &package {
        let mut reading = manifest::Manifest {
            at: &package_at,
            file: &package_path,
            model: &mut model,
            extras: &mut extras,
            diagnostics: &mut diagnostics,
        };
        manifest::read_manifest(package, &mut reading);
        manifest::read_tools(bundle, &root, package, &mut reading);
    } else {
        extras.insert("no_package_json".into(), Value::Bool(true));
    }

    // The AI file replaces package.json's `ai` (Raycast reads the file when there is one).
    if ai_files.len() > 1 {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            "",
            format!("several AI files ({}); {} is read, the others are ignored", ai_files.join(", "), ai_files[0]),
        ));
    }
    let package_ai = package.as_ref().and_then(|p| p.get("ai"));
    let mut ai_file_read = false;
    if let Some(file) = ai_files.first() {
        let path = format!("{root}{file}");
        let text = bundle.get(&path).unwrap_or_default();
        match crate::extension::parse_ai_file(file, &path, text) {
            Ok(Parsed { value, tolerated }) => {
                diagnostics.extend(tolerated);
                if let Some(package_ai) = package_ai {
                    let (ai_line, ai_column) = package_at.locate("/ai").unwrap_or((1, 1));
                    diagnostics.push(
                        Diagnostic::warning(
                            codes::INPUT_TOLERATED,
                            "/ai",
                            format!("package.json has `ai` and {file} exists too: {file} wins (Raycast reads the AI file); package.json's `ai` is kept as written but not read"),
                        )
                        .at(&package_path, ai_line, ai_column),
                    );
                    extras.insert("package_ai".into(), package_ai.clone());
                }
                ai::read_ai_file(file, &path, text, value, &mut model, &mut extras, &mut diagnostics);
                ai_file_read = true;
            }
            Err(error) => diagnostics.push(error),
        }
    }
    if !ai_file_read && let Some(package_ai) = package_ai {
        ai::read_package_ai(package_ai, &mut model, &mut extras, &mut diagnostics);
    }
    extras.insert(EXTENSION_FILES.into(), extension_files(bundle, &root));
    model.extras.insert(FORMAT_ID.into(), Value::Object(extras));
    for d in &mut diagnostics {
        if d.span.is_none()
            && !d.path.is_empty()
            && d.path.starts_with("/")
            && package.is_some()
            && let Some((line, column)) = package_at.locate(&d.path)
        {
            d.span = Some(toolport_plugin::SourceSpan { file: package_path.clone(), line, column });
        }
    }
    Outcome::ok(model, diagnostics)
}
