//! The AI part of an extension: `instructions` and `evals`, from the AI file (ai.json,
//! ai.yaml, ai.json5; wrapped in `{"ai": …}` or not) or from package.json's `ai`. Where it came
//! from and its shape are kept in extras so the writer puts it back the same way.

use serde_json::{Map, Value};
use toolport_plugin::nesting::{self, Syntax};
use toolport_plugin::source::{Locator, Parsed, child, parse_json};
use toolport_plugin::{Diagnostic, ToolSet, codes};

use super::evals;

/// Reads the AI file `file` (at `path`, already parsed into `value`) into the model.
pub(super) fn read_ai_file(
    file: &str,
    path: &str,
    text: &str,
    value: Value,
    model: &mut ToolSet,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    extras.insert("ai_source".into(), Value::from(file));
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
    read_ai(&ai, file, if wrapped { "/ai" } else { "" }, model, extras, &mut found);
    let ai_at = Locator::new(text);
    for d in &mut found {
        if d.span.is_none()
            && !file.ends_with(".yaml")
            && let Some((line, column)) = ai_at.locate(&d.path)
        {
            d.span = Some(toolport_plugin::SourceSpan { file: path.to_owned(), line, column });
        }
    }
    diagnostics.append(&mut found);
}

/// Reads package.json's `ai` into the model (when there is no AI file, or it did not parse).
pub(super) fn read_package_ai(
    package_ai: &Value,
    model: &mut ToolSet,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    extras.insert("ai_source".into(), Value::from("package.json"));
    read_ai(package_ai, "package.json", "/ai", model, extras, diagnostics);
}

pub(super) fn parse_ai_file(file: &str, path: &str, text: &str) -> Result<Parsed, Diagnostic> {
    if file.ends_with(".yaml") {
        toolport_plugin::yaml::parse(path, text)
    } else if file.ends_with(".json5") {
        parse_json5(path, text).map(|value| Parsed { value, tolerated: Vec::new() })
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
