//! Reading an extension directory: package.json, the AI file (ai.json / ai.yaml / ai.json5)
//! and each tool's TypeScript file.

use serde_json::{Map, Value, json};
use toolport_plugin::nesting::{self, Syntax};
use toolport_plugin::source::{Locator, child, parse_json};
use toolport_plugin::{Bundle, Creator, Diagnostic, Icon, Outcome, Tool, ToolSet, Version, codes};

use crate::{AI_FILES, FORMAT_ID, evals};

pub mod ts;

/// package.json keys that map into the model; every other key is kept in extras as written.
pub const MAPPED_KEYS: [&str; 8] = ["name", "title", "description", "icon", "author", "version", "tools", "ai"];
/// Tool entry keys that map into the model.
pub const TOOL_KEYS: [&str; 5] = ["name", "title", "description", "icon", "instructions"];

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

pub fn read(bundle: &Bundle) -> Outcome<ToolSet> {
    let mut diagnostics = Vec::new();
    let root = root(bundle);
    let package_path = format!("{root}package.json");
    let ai_files: Vec<&str> =
        AI_FILES.iter().copied().filter(|f| bundle.get(&format!("{root}{f}")).is_some()).collect();
    let package = match bundle.get(&package_path) {
        Some(text) => match parse_json(&package_path, text) {
            Ok(Value::Object(object)) => Some(object),
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
        read_manifest(package, &package_at, &package_path, &mut model, &mut extras, &mut diagnostics);
        read_tools(bundle, &root, package, &package_at, &package_path, &mut model, &mut extras, &mut diagnostics);
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
    if let Some(file) = ai_files.first() {
        let path = format!("{root}{file}");
        let text = bundle.get(&path).unwrap_or_default();
        match parse_ai_file(file, &path, text) {
            Ok(value) => {
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
                extras.insert("ai_source".into(), Value::from(*file));
                let (ai, wrapped, other) = unwrap_ai(value);
                if wrapped {
                    extras.insert("ai_wrapped".into(), Value::Bool(true));
                }
                if !other.is_empty() {
                    diagnostics.push(Diagnostic::warning(
                        codes::INPUT_UNKNOWN_KEY,
                        "",
                        format!("{file}: keys beside `ai` are kept as written"),
                    ));
                    extras.insert("ai_file_other".into(), Value::Object(other));
                }
                let mut found = Vec::new();
                read_ai(&ai, file, if wrapped { "/ai" } else { "" }, &mut model, &mut extras, &mut found);
                let ai_at = Locator::new(text);
                for d in &mut found {
                    if d.span.is_none()
                        && !file.ends_with(".yaml")
                        && let Some((line, column)) = ai_at.locate(&d.path)
                    {
                        d.span = Some(toolport_plugin::SourceSpan { file: path.clone(), line, column });
                    }
                }
                diagnostics.append(&mut found);
            }
            Err(error) => {
                diagnostics.push(error);
                if let Some(package_ai) = package_ai {
                    extras.insert("ai_source".into(), Value::from("package.json"));
                    read_ai(package_ai, "package.json", "/ai", &mut model, &mut extras, &mut diagnostics);
                }
            }
        }
    } else if let Some(package_ai) = package_ai {
        extras.insert("ai_source".into(), Value::from("package.json"));
        read_ai(package_ai, "package.json", "/ai", &mut model, &mut extras, &mut diagnostics);
    }
    if !extras.is_empty() {
        model.extras.insert(FORMAT_ID.into(), Value::Object(extras));
    }
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

fn parse_ai_file(file: &str, path: &str, text: &str) -> Result<Value, Diagnostic> {
    if file.ends_with(".yaml") {
        toolport_plugin::yaml::parse(path, text)
    } else if file.ends_with(".json5") {
        parse_json5(path, text)
    } else {
        parse_json(path, text)
    }
}

/// Parses a JSON5 file, refusing nesting deeper than the limit first (json5 recurses once per
/// level); errors are located in `path`.
pub fn parse_json5(path: &str, text: &str) -> Result<Value, Diagnostic> {
    nesting::check(path, text, Syntax::JSON5)?;
    json5::from_str::<Value>(text).map_err(|error| {
        let json5::Error::Message { msg, location } = &error;
        let diagnostic = Diagnostic::error(
            codes::INPUT_SYNTAX,
            "",
            format!("invalid JSON5: {}", msg.lines().last().unwrap_or(msg).trim()),
        );
        match location {
            Some(at) => diagnostic.at(path, at.line as u32, at.column as u32),
            None => diagnostic,
        }
    })
}

/// `{"ai": {...}}` or the inner object: the ai object, whether it was wrapped, and any other
/// top-level keys of a wrapped file.
fn unwrap_ai(value: Value) -> (Value, bool, Map<String, Value>) {
    match value {
        Value::Object(mut object)
            if object.get("ai").is_some_and(Value::is_object)
                && !object.contains_key("instructions")
                && !object.contains_key("evals") =>
        {
            let ai = object.shift_remove("ai").unwrap_or_default();
            (ai, true, object)
        }
        other => (other, false, Map::new()),
    }
}

fn read_ai(
    ai: &Value,
    file: &str,
    path: &str,
    model: &mut ToolSet,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(object) = ai.as_object() else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            format!("{file}: `ai` must be an object; kept as is"),
        ));
        extras.insert("ai_verbatim".into(), ai.clone());
        return;
    };
    let mut other = Map::new();
    for (key, value) in object {
        match (key.as_str(), value) {
            ("instructions", Value::String(text)) => model.instructions = Some(text.clone()),
            ("evals", evals) => model.examples = evals::read_evals(evals, file, &child(path, "evals"), diagnostics),
            _ => {
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_UNKNOWN_KEY,
                    child(path, key),
                    format!("{file}: `ai.{key}` is not read; kept as written"),
                ));
                other.insert(key.clone(), value.clone());
            }
        }
    }
    let order: Vec<&str> = object.keys().map(String::as_str).collect();
    let evals_at = order.iter().position(|k| *k == "evals");
    let instructions_at = order.iter().position(|k| *k == "instructions");
    if evals_at.is_some() && instructions_at.is_some() && evals_at < instructions_at {
        extras.insert("ai_evals_first".into(), Value::Bool(true));
    }
    if !other.is_empty() {
        extras.insert("ai_other".into(), Value::Object(other));
    }
}

fn read_manifest(
    package: &Map<String, Value>,
    at: &Locator,
    file: &str,
    model: &mut ToolSet,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
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

#[allow(clippy::too_many_arguments)] // the reader's shared state, passed explicitly
fn read_tools(
    bundle: &Bundle,
    root: &str,
    package: &Map<String, Value>,
    at: &Locator,
    file: &str,
    model: &mut ToolSet,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
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
                ("icon", Value::String(s)) => tool.icon = Some(Icon::Path { path: s.clone() }),
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
                if let Some(found) = ts::extract(bundle, &source, diagnostics) {
                    tool.parameters = found.parameters;
                    if tool.description.is_none() && found.description.is_some() {
                        tool.description = found.description;
                        tool_extras.insert("description_in_code".into(), Value::Bool(true));
                    }
                    if let Some(confirmation) = found.confirmation {
                        if confirmation.style.as_deref() == Some("destructive") {
                            tool.hints.destructive = Some(true);
                        }
                        tool.confirmation = Some(confirmation);
                    }
                }
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

/// A tool name that can be a file name as it is (no path separators or dots).
pub fn is_safe_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.len() <= 80
}
