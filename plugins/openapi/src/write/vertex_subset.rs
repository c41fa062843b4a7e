//! Whether an operation as the source wrote it stays inside what Vertex accepts, so a Vertex
//! spec may have it verbatim.

use std::collections::HashSet;

use serde_json::{Map, Value};
use toolport_plugin::ToolSet;
use toolport_plugin::names::NameRules;

use crate::ID;

/// Whether an operation as written (with its `$ref`s, followed through the source's
/// components) stays inside what Vertex accepts, so it may be written verbatim.
/// `components` is [`source_components`].
pub(super) fn raw_is_vertex_clean(raw: &Value, components: Option<&Value>) -> bool {
    let mut visited = HashSet::new();
    clean(raw, components, &mut visited, "")
}

/// [`raw_is_vertex_clean`] for an operation read from the source, whose `$ref`s point into
/// the source document's `components`: the reader keeps no record of an operation the Vertex
/// writer would find unclean (it finds them in those components less the security schemes,
/// which no operation refers to by `$ref`; a reference it cannot follow is unclean).
pub(crate) fn operation_is_vertex_clean(operation: &Map<String, Value>, components: Option<&Value>) -> bool {
    clean_object(operation, components, &mut HashSet::new(), "")
}

/// The source's components, where the operations' `$ref`s (`#/components/...`) point.
pub(super) fn source_components(set: &ToolSet) -> Option<&Value> {
    set.extras.get(ID).and_then(|e| e.get("document")).and_then(|d| d.get("components"))
}

/// What a `$ref` names in the source's components; none for a reference elsewhere.
fn resolve<'a>(reference: &str, components: Option<&'a Value>) -> Option<&'a Value> {
    components?.pointer(reference.strip_prefix("#/components")?)
}

/// Whether `value` (under `key`), and what its `$ref`s name, use only what Vertex accepts:
/// property and parameter names by its rules, no `oneOf`/`allOf`/`not`, string enums, one type.
fn clean(value: &Value, components: Option<&Value>, visited: &mut HashSet<String>, key: &str) -> bool {
    match value {
        Value::Object(map) => clean_object(map, components, visited, key),
        Value::Array(items) => items.iter().all(|v| clean(v, components, visited, "")),
        _ => true,
    }
}

/// [`clean`] for an object.
fn clean_object(
    map: &Map<String, Value>,
    components: Option<&Value>,
    visited: &mut HashSet<String>,
    key: &str,
) -> bool {
    if let Some(Value::String(reference)) = map.get("$ref") {
        if !visited.insert(reference.clone()) {
            return true;
        }
        let Some(target) = resolve(reference, components) else { return false };
        return clean(target, components, visited, "");
    }
    if key == "properties" {
        return map.iter().all(|(k, v)| NameRules::PARAMETER.is_valid(k) && clean(v, components, visited, ""));
    }
    if key != "example" && key != "examples" && key != "default" {
        if map.keys().any(|k| matches!(k.as_str(), "oneOf" | "allOf" | "not")) {
            return false;
        }
        if let Some(Value::Array(values)) = map.get("enum")
            && !values.iter().all(Value::is_string)
        {
            return false;
        }
        if map.get("in").is_some()
            && !map.get("name").and_then(Value::as_str).is_some_and(|n| NameRules::PARAMETER.is_valid(n))
        {
            return false;
        }
        if map.get("type").is_some_and(Value::is_array) {
            return false;
        }
    }
    map.iter()
        .all(|(k, v)| matches!(k.as_str(), "example" | "examples" | "default") || clean(v, components, visited, k))
}
