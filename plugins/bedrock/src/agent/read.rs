//! Reading an action group's function details into the model, mirrored by `write.rs`: the
//! request around the functions, each function's unknown keys and the settings the model has no
//! field for are kept under `extras["bedrock-agent"]`.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::read::{
    Kept, Reading, ToolKeys, keep_unknown, optional_string, tool_name, tool_object, without,
};
use toolport_plugin::source::{child, top_level_keys};
use toolport_plugin::{Detection, Diagnostic, Outcome, Parameter, Schema, SchemaType, Tool, ToolSet, codes};

use super::{AGENT_ID, CONFIRMATION_VALUES, NAME_RULES, PARAMETER_TYPES, is_name};

const EXPECTED: &str = "expected a Bedrock Agents action group: a CreateAgentActionGroup request with \
    `functionSchema`, or a function schema {\"functions\": [{\"name\": ..., \"parameters\": {...}}]}";

/// How sure the reader is that `text` is an action group's function details: 95 for a request
/// (or any object) whose `functionSchema` holds a list of functions; for a bare
/// `{"functions": [...]}`, 90 when the functions say they are Bedrock's (a parameter map of
/// `ParameterDetail`s, a `requireConfirmation`), 30 when they only have names (OpenAI's legacy
/// `functions` look the same), 0 when a function's `parameters` is a JSON Schema.
pub fn detect(text: &str) -> Detection {
    // A linear scan rules out every other document (a multi-megabyte API description) unparsed.
    match top_level_keys(text) {
        Some(keys) if keys.iter().any(|k| *k == "functionSchema" || *k == "functions" || k.contains('\\')) => {}
        _ => return 0,
    }
    let Ok(Value::Object(document)) = serde_json::from_str::<Value>(text) else { return 0 };
    if let Some(schema) = document.get("functionSchema") {
        return match functions_of(schema) {
            Some(functions) if functions.iter().all(is_function) => 95,
            _ => 0,
        };
    }
    match functions_of(&Value::Object(document)) {
        Some(functions) if !functions.is_empty() && functions.iter().all(is_function) => {
            if functions.iter().any(says_bedrock) { 90 } else { 30 }
        }
        _ => 0,
    }
}

/// The `functions` list of a function schema.
fn functions_of(schema: &Value) -> Option<&Vec<Value>> {
    schema.get("functions").and_then(Value::as_array)
}

/// Whether `value` can be a Bedrock function: an object with a string `name` whose
/// `parameters`, if any, is a map of parameter details (not a JSON Schema).
fn is_function(value: &Value) -> bool {
    let Some(map) = value.as_object() else { return false };
    map.get("name").is_some_and(Value::is_string)
        && match map.get("parameters") {
            None => true,
            Some(Value::Object(parameters)) => parameters.values().all(Value::is_object),
            Some(_) => false,
        }
}

/// Whether a function has what only Bedrock's have: a parameter detail's `type` among Bedrock's,
/// or `requireConfirmation`.
fn says_bedrock(value: &Value) -> bool {
    let detail_typed =
        |detail: &Value| detail.get("type").and_then(Value::as_str).is_some_and(|t| PARAMETER_TYPES.contains(&t));
    value.get("requireConfirmation").is_some_and(Value::is_string)
        || value
            .get("parameters")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty() && p.values().all(detail_typed))
}

/// The functions of an action group document: a request holding `functionSchema`, or the
/// function schema itself.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    let mut reading = Reading::new(source);
    let Some(root) = source.value.as_object() else {
        return Outcome::fail(source.at(Diagnostic::error(codes::INPUT_INVALID, "", EXPECTED)));
    };
    let (schema, at) = match root.get("functionSchema") {
        Some(schema) => {
            read_request(&mut reading, root);
            (schema, "/functionSchema")
        }
        None => {
            reading.set_extras.insert("shape".into(), "functionSchema".into());
            (&source.value, "")
        }
    };
    let Some(functions) = schema.as_object().filter(|s| s.get("functions").is_some_and(Value::is_array)) else {
        return Outcome::fail(source.at(Diagnostic::error(codes::INPUT_INVALID, at, EXPECTED)));
    };
    let others = without(functions, "functions");
    if !others.is_empty() {
        for key in others.keys() {
            reading.diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(at, key),
                format!("unknown function schema key `{key}`; kept as written"),
            )));
        }
        reading.set_extras.insert("document".into(), Value::Object(others));
    }
    let list = child(at, "functions");
    for (i, item) in functions["functions"].as_array().into_iter().flatten().enumerate() {
        let path = child(&list, i.to_string());
        let mut diagnostics = Vec::new();
        if let Some(tool) = read_function(source, item, &path, &mut diagnostics) {
            reading.diagnostics.append(&mut diagnostics);
            reading.add(tool, "function name", child(&path, "name"));
        } else {
            reading.diagnostics.append(&mut diagnostics);
        }
    }
    reading.finish(AGENT_ID)
}

/// A request's action group name and description become the tool set's id and description;
/// the request itself is kept, its `functionSchema` emptied, for a same-format write.
fn read_request(reading: &mut Reading, request: &Map<String, Value>) {
    let source = reading.source;
    reading.set_extras.insert("shape".into(), "request".into());
    if let Some(name) = request.get("actionGroupName").and_then(Value::as_str) {
        if !is_name(name) {
            reading.diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                "/actionGroupName",
                format!("action group name `{name}` breaks Bedrock's rule {}", NAME_RULES.pattern),
            )));
        }
        reading.model.id = Some(name.to_owned());
    }
    if let Some(description) = request.get("description").and_then(Value::as_str) {
        reading.model.description = Some(description.to_owned());
    }
    let mut kept = request.clone();
    // Filled again with the written function schema.
    kept.insert("functionSchema".into(), Value::Null);
    reading.set_extras.insert("request".into(), Value::Object(kept));
}

const FUNCTION_KEYS: ToolKeys = ToolKeys {
    format: AGENT_ID,
    what: "function",
    known: &["name", "description", "parameters", "requireConfirmation"],
    quiet: &[],
};

fn read_function(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let map = tool_object(source, value, path, "function", diagnostics)?;
    let name = tool_name(source, map, path, "function", diagnostics)?;
    if !is_name(&name) {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            child(path, "name"),
            format!("function name `{name}` breaks Bedrock's rule {}", NAME_RULES.pattern),
        )));
    }
    let mut kept = Kept::default();
    let mut tool = Tool::new(name);
    tool.description = optional_string(source, map, "description", path, &mut kept.keep, diagnostics);
    match map.get("parameters") {
        None => {}
        Some(Value::Object(parameters)) => {
            let at = child(path, "parameters");
            for (name, detail) in parameters {
                if let Some(parameter) = read_parameter(source, name, detail, &child(&at, name), diagnostics) {
                    tool.parameters.push(parameter);
                } else {
                    // Kept whole, as written: the model has no parameter to hold it.
                    let keep = kept.keep.entry("parameters").or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(keep) = keep {
                        keep.insert(name.clone(), detail.clone());
                    }
                }
            }
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::error(
                codes::INPUT_INVALID,
                child(path, "parameters"),
                "`parameters` must be an object of parameter details (name -> {\"type\", \"description\", \"required\"})",
            )));
            kept.keep.insert("parameters".into(), other.clone());
        }
    }
    match map.get("requireConfirmation") {
        None => {}
        Some(Value::String(flag)) if flag == "ENABLED" => tool.confirmation = Some(Box::default()),
        Some(Value::String(flag)) if CONFIRMATION_VALUES.contains(&flag.as_str()) => {
            kept.extras.insert("requireConfirmation".into(), flag.clone().into());
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "requireConfirmation"),
                format!("`requireConfirmation` is ENABLED or DISABLED, not {other}; kept as written"),
            )));
            kept.keep.insert("requireConfirmation".into(), other.clone());
        }
    }
    keep_unknown(source, map, &FUNCTION_KEYS, path, kept, &mut tool, diagnostics);
    Some(tool)
}

/// One parameter detail: its `type` (one of [`PARAMETER_TYPES`]), `description` and `required`.
/// A detail that is not an object is no parameter (`None`, with a warning: the caller keeps it as
/// written); a wrong type or an unknown key is kept as written in the parameter's extras, with
/// a warning.
fn read_parameter(
    source: &Source,
    name: &str,
    detail: &Value,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Parameter> {
    let Some(detail) = detail.as_object() else {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            format!(
                "parameter `{name}` must be an object {{\"type\", \"description\", \"required\"}}; kept as written"
            ),
        )));
        return None;
    };
    if !is_name(name) {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            format!("parameter name `{name}` breaks Bedrock's rule {}", NAME_RULES.pattern),
        )));
    }
    let mut keep = Map::new();
    let mut schema = Schema::default();
    match detail.get("type") {
        Some(Value::String(kind)) if PARAMETER_TYPES.contains(&kind.as_str()) => schema.kind = SchemaType::parse(kind),
        found => {
            let said = found.map_or("none".to_owned(), Value::to_string);
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "type"),
                format!(
                    "parameter `{name}`'s `type` must be one of {} (Bedrock requires it), not {said}; read as any value",
                    PARAMETER_TYPES.join(", ")
                ),
            )));
            if let Some(found) = found {
                keep.insert("type".into(), found.clone());
            }
        }
    }
    schema.description = optional_string(source, detail, "description", path, &mut keep, diagnostics);
    let mut required = false;
    match detail.get("required") {
        None => {}
        Some(Value::Bool(true)) => required = true,
        Some(flag @ Value::Bool(false)) => {
            // Written back only for a same-format write: the model's `false` is no `required`.
            keep.insert("required".into(), flag.clone());
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "required"),
                "`required` should be a boolean; kept as written",
            )));
            keep.insert("required".into(), other.clone());
        }
    }
    for (key, value) in detail {
        if !["type", "description", "required"].contains(&key.as_str()) {
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(path, key),
                format!("unknown parameter detail key `{key}` of parameter `{name}`; kept as written"),
            )));
            keep.insert(key.clone(), value.clone());
        }
    }
    let mut parameter = Parameter::new(name, schema);
    parameter.required = required;
    if !keep.is_empty() {
        let mut extras = Map::new();
        extras.insert("keep".into(), Value::Object(keep));
        parameter.extras.insert(AGENT_ID.into(), Value::Object(extras));
    }
    Some(parameter)
}
