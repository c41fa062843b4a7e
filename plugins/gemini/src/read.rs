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
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Outcome, Output, Tool, ToolSet, codes};

use crate::spelling::{DECLARATIONS, SNAKE_CASE, spelled};
use crate::{ID, NAME_RULES, subset};

/// The declarations of a Gemini document: `{"functionDeclarations": [...]}`,
/// `{"tools": [{"functionDeclarations": [...]}, ...]}` (either spelled as REST's snake_case
/// `function_declarations`), an array, or one declaration.
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
/// the document's shape, other keys, other tool entries and key spelling are recorded in
/// `set_extras`. A declarations key whose value is not an array is a located error.
fn declarations<'s>(
    source: &'s Source,
    set_extras: &mut Map<String, Value>,
) -> Result<Vec<(usize, &'s Value, String)>, Diagnostic> {
    let mut declarations = Vec::new();
    let mut snake = false;
    let top_key = source.value.as_object().and_then(|map| spelled(map, DECLARATIONS));
    match (&source.value, top_key) {
        (Value::Object(map), Some(key)) => {
            snake = key != DECLARATIONS;
            set_extras.insert("shape".into(), "declarations".into());
            let others = without(map, key);
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            let at = child("", key);
            for (i, d) in declaration_list(source, &map[key], &at)?.iter().enumerate() {
                declarations.push((0, d, child(&at, i.to_string())));
            }
        }
        (Value::Object(map), None)
            if map.get("tools").and_then(Value::as_array).is_some_and(|t| {
                t.iter().any(|e| e.as_object().is_some_and(|e| spelled(e, DECLARATIONS).is_some()))
            }) =>
        {
            set_extras.insert("shape".into(), "tools".into());
            let others = without(map, "tools");
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            let mut groups = Vec::new();
            for (g, entry) in map["tools"].as_array().into_iter().flatten().enumerate() {
                let object = entry.as_object();
                match object.and_then(|e| spelled(e, DECLARATIONS).map(|key| (e, key))) {
                    Some((object, key)) => {
                        snake |= key != DECLARATIONS;
                        groups.push(Value::Object(without(object, key)));
                        let at = format!("/tools/{g}/{key}");
                        for (i, d) in declaration_list(source, &object[key], &at)?.iter().enumerate() {
                            declarations.push((g, d, child(&at, i.to_string())));
                        }
                    }
                    None => groups.push(json!({"entry": entry})),
                }
            }
            set_extras.insert("groups".into(), Value::Array(groups));
        }
        (Value::Array(items), _) => {
            set_extras.insert("shape".into(), "array".into());
            for (i, d) in items.iter().enumerate() {
                declarations.push((0, d, format!("/{i}")));
            }
        }
        (Value::Object(map), None) if map.contains_key("name") => {
            set_extras.insert("shape".into(), "single".into());
            declarations.push((0, &source.value, String::new()));
        }
        _ => {
            return Err(source.at(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                "expected Gemini function declarations: {\"functionDeclarations\": [...]} (or REST's `function_declarations`), {\"tools\": [...]}, or an array",
            )));
        }
    }
    if snake {
        set_extras.insert(SNAKE_CASE.into(), true.into());
    }
    Ok(declarations)
}

/// The declarations a `functionDeclarations` key at `path` holds: an array, else a located error.
fn declaration_list<'s>(source: &Source, value: &'s Value, path: &str) -> Result<&'s Vec<Value>, Diagnostic> {
    value.as_array().ok_or_else(|| {
        let key = path.rsplit('/').next().unwrap_or(DECLARATIONS);
        source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            path,
            format!("`{key}` must be an array of function declarations, found {}", kind_of(value)),
        ))
    })
}

/// `behavior` is Gemini's own: kept for a Gemini output, without a word.
const DECLARATION_KEYS: ToolKeys = ToolKeys {
    format: ID,
    what: "function declaration",
    known: &[
        "name",
        "description",
        "parameters",
        "parametersJsonSchema",
        "parameters_json_schema",
        "response",
        "responseJsonSchema",
        "response_json_schema",
    ],
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

    // Each schema key as the model's extras name it (camelCase), and as the source spelled it.
    let spelled_as = |key: &'static str| spelled(map, key).map(|written| (key, written));
    let parameters_key = spelled_as("parameters").or_else(|| spelled_as("parametersJsonSchema"));
    if let Some((key, written)) = parameters_key {
        if key == "parametersJsonSchema" {
            extras.insert("jsonSchema".into(), true.into());
        }
        let mut value = map[written].clone();
        if subset::lower_types(&mut value) {
            extras.insert("upperCaseTypes".into(), true.into());
        }
        let at = child(path, written);
        tool.parameters = schema::read_input(source, &value, dialect_of(key), &at, key, extras, diagnostics);
        if tool.parameters.is_empty() {
            extras.insert("emptyParameters".into(), true.into());
        }
        if let Some((_, also)) = spelled_as("parametersJsonSchema").filter(|_| key == "parameters") {
            keep.insert(also.into(), map[also].clone());
        }
    }
    let response_key = spelled_as("response").or_else(|| spelled_as("responseJsonSchema"));
    if let Some((key, written)) = response_key {
        let mut value = map[written].clone();
        if subset::lower_types(&mut value) {
            extras.insert("upperCaseTypes".into(), true.into());
        }
        let at = child(path, written);
        let schema = schema::read_single(source, &value, dialect_of(key), &at, key, extras, diagnostics);
        tool.output = Some(Box::new(Output { schema: Some(schema), ..Output::default() }));
        if let Some((_, also)) = spelled_as("responseJsonSchema").filter(|_| key == "response") {
            keep.insert(also.into(), map[also].clone());
        }
        if key == "responseJsonSchema" {
            extras.insert("responseJsonSchema".into(), true.into());
        }
    }
    keep_unknown(source, map, &DECLARATION_KEYS, path, kept, &mut tool, diagnostics);
    Some(tool)
}
