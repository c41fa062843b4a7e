//! Reading Gemini function declarations into the model, mirrored by [`crate::write`]: the
//! document's shape and other tool entries (`googleSearch`, …) with their position, which
//! schema keys a declaration used, upper-case type names, unknown keys and schemas the model
//! cannot reproduce are kept under `extras["gemini"]`.

use serde_json::{Map, Value, json};
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::read::{
    Kept, Reading, ToolKeys, check_name, keep_unknown, optional_string, tool_name, tool_object, without,
};
use toolport_plugin::function_tools::schema;
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Outcome, Output, Tool, ToolSet, codes};

use crate::{ID, NAME_RULES, subset};

/// The declarations of a Gemini document: `{"functionDeclarations": [...]}`,
/// `{"tools": [{"functionDeclarations": [...]}, ...]}`, an array, or one declaration.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    let mut reading = Reading::new(source);
    let declarations = match declarations(source, &mut reading.set_extras) {
        Ok(declarations) => declarations,
        Err(error) => return Outcome::fail(error),
    };
    for (group, value, path) in declarations {
        if let Some(mut tool) = read_declaration(source, value, &path, &mut reading.diagnostics) {
            if group > 0 {
                let extras = tool.extras.entry(ID.to_owned()).or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(map) = extras {
                    map.insert("group".into(), group.into());
                }
            }
            reading.add(tool, "function name", child(&path, "name"));
        }
    }
    reading.finish(ID)
}

/// Each declaration of the document with its group (its index in `tools`, else 0) and path;
/// the document's shape, other keys and other tool entries are recorded in `set_extras`.
fn declarations<'s>(
    source: &'s Source,
    set_extras: &mut Map<String, Value>,
) -> Result<Vec<(usize, &'s Value, String)>, Diagnostic> {
    let mut declarations = Vec::new();
    let list = |value: &Value| value.get("functionDeclarations").and_then(Value::as_array).cloned();
    match &source.value {
        Value::Object(map) if map.contains_key("functionDeclarations") => {
            set_extras.insert("shape".into(), "declarations".into());
            let others = without(map, "functionDeclarations");
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            for (i, d) in map["functionDeclarations"].as_array().into_iter().flatten().enumerate() {
                declarations.push((0, d, format!("/functionDeclarations/{i}")));
            }
        }
        Value::Object(map)
            if map.get("tools").and_then(Value::as_array).is_some_and(|t| t.iter().any(|e| list(e).is_some())) =>
        {
            set_extras.insert("shape".into(), "tools".into());
            let others = without(map, "tools");
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            let mut groups = Vec::new();
            for (g, entry) in map["tools"].as_array().into_iter().flatten().enumerate() {
                match entry.get("functionDeclarations").and_then(Value::as_array) {
                    Some(items) => {
                        let rest = entry.as_object().map(|m| without(m, "functionDeclarations")).unwrap_or_default();
                        groups.push(Value::Object(rest));
                        for (i, d) in items.iter().enumerate() {
                            declarations.push((g, d, format!("/tools/{g}/functionDeclarations/{i}")));
                        }
                    }
                    None => groups.push(json!({"entry": entry})),
                }
            }
            set_extras.insert("groups".into(), Value::Array(groups));
        }
        Value::Array(items) => {
            set_extras.insert("shape".into(), "array".into());
            for (i, d) in items.iter().enumerate() {
                declarations.push((0, d, format!("/{i}")));
            }
        }
        Value::Object(map) if map.contains_key("name") => {
            set_extras.insert("shape".into(), "single".into());
            declarations.push((0, &source.value, String::new()));
        }
        _ => {
            return Err(source.at(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                "expected Gemini function declarations: {\"functionDeclarations\": [...]}, {\"tools\": [...]}, or an array",
            )));
        }
    }
    Ok(declarations)
}

/// `behavior` is Gemini's own: kept for a Gemini output, without a word.
const DECLARATION_KEYS: ToolKeys = ToolKeys {
    format: ID,
    what: "function declaration",
    known: &["name", "description", "parameters", "parametersJsonSchema", "response", "responseJsonSchema"],
    quiet: &["behavior"],
};

/// The dialect of a schema key.
fn dialect_of(key: &str) -> Dialect {
    if key.ends_with("JsonSchema") { Dialect::JsonSchema } else { Dialect::Gemini }
}

fn read_declaration(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let map = tool_object(source, value, path, "function declaration", diagnostics)?;
    let name = tool_name(source, map, path, "function declaration", diagnostics)?;
    check_name(source, &name, NAME_RULES, "function", "Gemini", path, diagnostics);
    let mut kept = Kept::default();
    let mut tool = Tool::new(name);
    tool.description = optional_string(source, map, "description", path, &mut kept.keep, diagnostics);
    let (extras, keep) = (&mut kept.extras, &mut kept.keep);

    let parameters_key = ["parameters", "parametersJsonSchema"].into_iter().find(|k| map.contains_key(*k));
    if let Some(key) = parameters_key {
        if key == "parametersJsonSchema" {
            extras.insert("jsonSchema".into(), true.into());
        }
        let mut value = map[key].clone();
        if subset::lower_types(&mut value) {
            extras.insert("upperCaseTypes".into(), true.into());
        }
        let at = child(path, key);
        tool.parameters = schema::read_input(source, &value, dialect_of(key), &at, key, extras, diagnostics);
        if tool.parameters.is_empty() {
            extras.insert("emptyParameters".into(), true.into());
        }
        if key == "parameters" && map.contains_key("parametersJsonSchema") {
            keep.insert("parametersJsonSchema".into(), map["parametersJsonSchema"].clone());
        }
    }
    let response_key = ["response", "responseJsonSchema"].into_iter().find(|k| map.contains_key(*k));
    if let Some(key) = response_key {
        let mut value = map[key].clone();
        if subset::lower_types(&mut value) {
            extras.insert("upperCaseTypes".into(), true.into());
        }
        let at = child(path, key);
        let schema = schema::read_single(source, &value, dialect_of(key), &at, key, extras, diagnostics);
        tool.output = Some(Output { schema: Some(schema), ..Output::default() });
        if key == "response" && map.contains_key("responseJsonSchema") {
            keep.insert("responseJsonSchema".into(), map["responseJsonSchema"].clone());
        }
        if key == "responseJsonSchema" {
            extras.insert("responseJsonSchema".into(), true.into());
        }
    }
    keep_unknown(source, map, &DECLARATION_KEYS, path, kept, &mut tool, diagnostics);
    Some(tool)
}
