//! Model fields OpenAPI has no place for, which a toolport writer kept in `x-toolport-*` keys
//! (see `write::x_toolport`), put back: the key `x-toolport-usage-notes` is the field
//! `usage_notes`.

use serde_json::{Map, Value, json};
use toolport_plugin::{Diagnostic, Parameter, Tool, ToolSet, codes};

use super::object_slot;
use crate::bookkeeping::XT;

/// The `x-toolport-*` keys of `map` by the model field each names.
fn fields_in(map: &Map<String, Value>) -> Map<String, Value> {
    let mut found = Map::new();
    for (key, value) in map {
        if let Some(field) = key.strip_prefix(XT) {
            found.insert(field.replace('-', "_"), value.clone());
        }
    }
    found
}

/// Adds the extras a writer kept (`x-toolport-extras`) to those of `current`, a serialized
/// model object; its own extras win.
fn add_extras(current: &mut Map<String, Value>, kept: &Value) {
    let extras = object_slot(current.entry("extras").or_insert_with(|| json!({})));
    for (k, v) in kept.as_object().into_iter().flatten() {
        extras.entry(k.clone()).or_insert_with(|| v.clone());
    }
}

/// The tool-set fields a toolport writer kept in `x-toolport-*` keys of the document.
pub(super) fn restore_set(root: &Map<String, Value>, set: &mut ToolSet, diagnostics: &mut Vec<Diagnostic>) {
    let found = fields_in(root);
    if found.is_empty() {
        return;
    }
    let Ok(Value::Object(mut current)) = serde_json::to_value(&*set) else { return };
    for (field, value) in found {
        if field == "extras" {
            add_extras(&mut current, &value);
        } else {
            current.insert(field, value);
        }
    }
    match serde_json::from_value::<ToolSet>(Value::Object(current)) {
        Ok(restored) => *set = restored,
        Err(e) => diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            "",
            format!("the document's x-toolport-* keys do not describe model fields ({e}); ignored"),
        )),
    }
}

/// The tool fields a toolport writer kept in `x-toolport-*` keys of the operation, and the
/// parameter names Vertex made it change.
pub(super) fn restore_tool(
    operation: &Map<String, Value>,
    tool: &mut Tool,
    at: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let found = fields_in(operation);
    if found.is_empty() {
        return;
    }
    let Ok(Value::Object(mut current)) = serde_json::to_value(&*tool) else { return };
    for (field, value) in found.clone() {
        match field.as_str() {
            "original_name" => {
                if let (Some(http), Some(id)) =
                    (tool.http.as_mut(), operation.get("operationId").and_then(Value::as_str))
                {
                    http.operation_id = Some(id.to_owned());
                }
                current.insert("name".into(), value);
            }
            "extras" => add_extras(&mut current, &value),
            // Vertex parameter names that were changed: written name → original.
            "parameter_names" => {
                if let Some(Value::Array(parameters)) = current.get_mut("parameters") {
                    for parameter in parameters {
                        let written = parameter.get("name").and_then(Value::as_str).unwrap_or_default();
                        if let Some(original) = value.get(written).cloned() {
                            parameter["name"] = original;
                        }
                    }
                }
            }
            _ => drop(current.insert(field, value)),
        }
    }
    if let Some(mut http) = tool.http.clone() {
        // Placeholders were renamed with their parameters.
        for (written, original) in found.get("parameter_names").and_then(Value::as_object).into_iter().flatten() {
            if let Some(original) = original.as_str() {
                http.path = http.path.replace(&format!("{{{written}}}"), &format!("{{{original}}}"));
            }
        }
        current.insert("http".into(), serde_json::to_value(http).unwrap_or_default());
    }
    match serde_json::from_value::<Tool>(Value::Object(current)) {
        Ok(restored) => *tool = restored,
        Err(e) => diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            at,
            format!("the operation's x-toolport-* keys do not describe model fields ({e}); ignored"),
        )),
    }
}

/// A parameter's original name and extras, kept in `x-toolport-*` keys of the parameter.
pub(super) fn restore_parameter(map: &Map<String, Value>, parameter: &mut Parameter) {
    if let Some(Value::String(original)) = map.get("x-toolport-original-name") {
        parameter.name = original.clone();
    }
    if let Some(Value::Object(extras)) = map.get("x-toolport-extras") {
        for (k, v) in extras {
            parameter.extras.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}
