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
    clean(raw, components, &mut HashSet::new(), "")
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
/// `visited` holds the references followed (each once: a repeat is as clean as its first).
fn clean<'a>(value: &'a Value, components: Option<&'a Value>, visited: &mut HashSet<&'a str>, key: &str) -> bool {
    match value {
        Value::Object(map) => clean_object(map, components, visited, key),
        Value::Array(items) => items.iter().all(|v| clean(v, components, visited, "")),
        _ => true,
    }
}

/// [`clean`] for an object.
fn clean_object<'a>(
    map: &'a Map<String, Value>,
    components: Option<&'a Value>,
    visited: &mut HashSet<&'a str>,
    key: &str,
) -> bool {
    // One look at the members for what the rules ask (every object of an operation and of
    // what it refers to comes here, and a lookup hashes the key).
    let mut found = Found::default();
    for (k, v) in map {
        match (k.as_str(), v) {
            ("$ref", Value::String(reference)) => found.reference = Some(reference),
            ("oneOf" | "allOf" | "not", _) => found.combinator = true,
            ("enum", Value::Array(values)) => found.enum_not_of_strings = !values.iter().all(Value::is_string),
            ("in", _) => found.located = true,
            ("name", Value::String(name)) => found.name = Some(name),
            ("type", Value::Array(_)) => found.type_list = true,
            _ => {}
        }
    }
    if let Some(reference) = found.reference {
        if !visited.insert(reference) {
            return true;
        }
        let Some(target) = resolve(reference, components) else { return false };
        return clean(target, components, visited, "");
    }
    if key == "properties" {
        return map.iter().all(|(k, v)| NameRules::PARAMETER.is_valid(k) && clean(v, components, visited, ""));
    }
    if key != "example" && key != "examples" && key != "default" {
        let unnamed = found.located && !found.name.is_some_and(|n| NameRules::PARAMETER.is_valid(n));
        if found.combinator || found.enum_not_of_strings || unnamed || found.type_list {
            return false;
        }
    }
    map.iter()
        .all(|(k, v)| matches!(k.as_str(), "example" | "examples" | "default") || clean(v, components, visited, k))
}

/// What [`clean_object`] looks for among an object's members.
#[derive(Default)]
struct Found<'a> {
    reference: Option<&'a str>,
    combinator: bool,
    enum_not_of_strings: bool,
    /// An `in` (a parameter), whose `name` must then be one of Vertex's.
    located: bool,
    name: Option<&'a str>,
    type_list: bool,
}
