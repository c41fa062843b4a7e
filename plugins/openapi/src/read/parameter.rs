//! Parameters: an operation's own and its path item's, merged; path placeholders an operation
//! declares no parameter for; and one parameter → a model parameter.

use serde_json::{Map, Value, json};
use toolport_plugin::jsonschema::Reader;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, ParamLocation, Parameter, Schema, Tool, codes};

use super::{OperationContext, pointer_join, read_required, x_toolport};
use crate::ID;
use crate::bookkeeping::XT;
use crate::http::{METHODS, location};

/// Reads the operation's parameters into `tool`: path-item level first, an operation-level one
/// with the same name and location replacing it in place; then the other operation-level ones.
/// `at` is the operation's pointer. Returns the `(name, in)` of each parameter declared.
pub(super) fn read_parameters(
    reader: &mut Reader,
    cx: &OperationContext,
    operation: &Map<String, Value>,
    at: &str,
    tool: &mut Tool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let mut merged: Vec<(&Value, String)> = Vec::new();
    let mut keys: Vec<(String, String)> = Vec::new();
    let levels = [
        (cx.item.get("parameters"), child(cx.at, "parameters")),
        (operation.get("parameters"), child(at, "parameters")),
    ];
    for (list, list_at) in levels {
        let Some(list) = list else { continue };
        let Some(list) = list.as_array() else {
            diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, &list_at, "`parameters` must be an array"));
            continue;
        };
        for (i, raw) in list.iter().enumerate() {
            let p_at = child(&list_at, i.to_string());
            let Some((param, target_at)) = reader.follow(raw, &p_at) else {
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    &p_at,
                    "this parameter's `$ref` names nothing; skipped",
                ));
                continue;
            };
            let key = (
                param.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                param.get("in").and_then(Value::as_str).unwrap_or_default().to_owned(),
            );
            match keys.iter().position(|k| *k == key) {
                Some(index) => merged[index] = (param, target_at),
                None => {
                    keys.push(key);
                    merged.push((param, target_at));
                }
            }
        }
    }
    for (param, p_at) in merged {
        if let Some(parameter) = read_parameter(reader, param, &p_at, tool, diagnostics) {
            tool.parameters.push(parameter);
        }
    }
    keys
}

/// A placeholder of the path that this operation declares no parameter for (OpenAI's spec
/// declares `user_id` on GET /organization/users/{user_id} but not on its POST): no valid
/// call exists without it. It is read as the declaration a sibling operation of the path
/// makes, else as a required string, and added to the operation as written: the declarations
/// added are returned.
pub(super) fn read_undeclared_placeholders(
    reader: &mut Reader,
    cx: &OperationContext,
    at: &str,
    declared: &[(String, String)],
    tool: &mut Tool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Value> {
    let declared: Vec<&str> = declared.iter().filter(|(_, place)| place == "path").map(|(n, _)| n.as_str()).collect();
    let mut added = Vec::new();
    for placeholder in placeholders(cx.path).filter(|p| !declared.contains(p)) {
        let same = |raw: &&Value| {
            reader.follow(raw, "").is_some_and(|(p, _)| {
                p.get("name").and_then(Value::as_str) == Some(placeholder)
                    && p.get("in").and_then(Value::as_str) == Some("path")
            })
        };
        let sibling = cx
            .item
            .iter()
            .filter(|(method, _)| METHODS.contains(&method.as_str()))
            .filter_map(|(_, op)| op.get("parameters").and_then(Value::as_array))
            .flatten()
            .find(same);
        let generated = json!({"name": placeholder, "in": "path", "required": true, "schema": {"type": "string"}});
        let declaration = sibling.cloned().unwrap_or(generated);
        let resolved = match sibling.and_then(|raw| reader.follow(raw, "")) {
            Some((value, _)) => value.clone(),
            None => declaration.clone(),
        };
        let p_at = child(at, "parameters");
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            &p_at,
            format!(
                "the path has a `{{{placeholder}}}` placeholder this operation declares no parameter for; {}",
                if sibling.is_some() {
                    "read as another operation of the path declares it, and written with the operation"
                } else {
                    "read as a required string, and written with the operation"
                }
            ),
        ));
        if let Some(parameter) = read_parameter(reader, &resolved, &p_at, tool, diagnostics) {
            tool.parameters.push(parameter);
            added.push(declaration);
        }
    }
    added
}

/// The `{name}` placeholders of a path template.
fn placeholders(path: &str) -> impl Iterator<Item = &str> {
    path.split('{').skip(1).filter_map(|rest| rest.split_once('}')).map(|(name, _)| name).filter(|n| !n.is_empty())
}

/// The operation as written, with the path parameters the reader added (see
/// [`read_undeclared_placeholders`]) in its `parameters`, placed before the request body and
/// responses.
pub(super) fn with_added_parameters(operation: Map<String, Value>, added: Vec<Value>) -> Map<String, Value> {
    let mut out = operation;
    if added.is_empty() {
        return out;
    }
    match out.get_mut("parameters") {
        Some(Value::Array(list)) => list.extend(added),
        _ => {
            let mut ordered = Map::new();
            let mut added = Some(added);
            for (key, value) in out {
                if matches!(key.as_str(), "requestBody" | "responses" | "callbacks")
                    && let Some(list) = added.take()
                {
                    ordered.insert("parameters".into(), Value::Array(list));
                }
                ordered.insert(key, value);
            }
            if let Some(list) = added {
                ordered.insert("parameters".into(), Value::Array(list));
            }
            out = ordered;
        }
    }
    out
}

fn read_parameter(
    reader: &mut Reader,
    param: &Value,
    at: &str,
    tool: &Tool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Parameter> {
    let Some(map) = param.as_object() else {
        diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, at, "a parameter must be an object; skipped"));
        return None;
    };
    let name = map.get("name").and_then(Value::as_str);
    let place = map.get("in").and_then(Value::as_str).and_then(location).filter(|l| *l != ParamLocation::Body);
    let (Some(name), Some(place)) = (name, place) else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            at,
            "a parameter needs a `name` and an `in` of path, query, header or cookie; skipped",
        ));
        return None;
    };
    let mut ext = Map::new();
    let mut schema = match (map.get("schema"), map.get("content")) {
        (Some(schema), _) => reader.read(schema, &child(at, "schema")),
        (None, Some(Value::Object(content))) => match content.iter().next() {
            Some((media_type, media)) => {
                ext.insert("content".into(), Value::String(media_type.clone()));
                match media.get("schema") {
                    Some(schema) => reader.read(schema, &pointer_join(at, &["content", media_type, "schema"])),
                    None => Schema::default(),
                }
            }
            None => Schema::default(),
        },
        _ => Schema::default(),
    };
    match (map.get("description").and_then(Value::as_str), schema.description.take()) {
        (Some(text), own) => {
            if let Some(own) = own {
                ext.insert("schemaDescription".into(), Value::String(own));
            }
            schema.description = Some(text.to_owned());
        }
        (None, Some(own)) => {
            ext.insert("descriptionOnSchema".into(), Value::Bool(true));
            schema.description = Some(own);
        }
        (None, None) => {}
    }
    let mut leftovers = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "name" | "in" | "schema" | "description" => {}
            // Read below, as a boolean whatever was written.
            "required" => {}
            "content" if ext.contains_key("content") => {
                // Everything of the media type but its schema.
                if let Some((_, media)) = value.as_object().and_then(|c| c.iter().next()) {
                    let mut media = media.as_object().cloned().unwrap_or_default();
                    media.remove("schema");
                    if !media.is_empty() {
                        ext.insert("media".into(), Value::Object(media));
                    }
                }
            }
            _ if key.starts_with(XT) => {}
            _ => {
                leftovers.insert(key.clone(), value.clone());
            }
        }
    }
    if !leftovers.is_empty() {
        ext.insert("param".into(), Value::Object(leftovers));
    }
    let required = read_required(map, at, diagnostics);
    if required == Some(false) {
        ext.insert("requiredFalse".into(), Value::Bool(true));
    }
    let mut parameter = Parameter::new(name, schema);
    parameter.required = required.unwrap_or(false);
    parameter.location = Some(place);
    // Names are unique within a tool; `id` in both path and query keeps the first as is.
    if tool.parameter(name).is_some() {
        parameter.name = format!("{name}_{}", place.as_str());
        ext.insert("name".into(), Value::String(name.to_owned()));
        diagnostics.push(Diagnostic::info(
            codes::INPUT_TOLERATED,
            at,
            format!(
                "a second parameter named `{name}` (in {}) is called `{}` in the model",
                place.as_str(),
                parameter.name
            ),
        ));
    }
    if !ext.is_empty() {
        parameter.extras.insert(ID.into(), Value::Object(ext));
    }
    x_toolport::restore_parameter(map, &mut parameter);
    Some(parameter)
}
