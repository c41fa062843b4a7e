//! Whether an operation as the source wrote it stays inside what Vertex accepts, so a Vertex
//! spec may have it verbatim.

use std::collections::HashSet;

use serde_json::{Value, json};
use toolport_plugin::ToolSet;
use toolport_plugin::names::NameRules;

use crate::ID;

/// Whether an operation as written (with its `$ref`s, followed through the source's
/// components) stays inside what Vertex accepts, so it may be written verbatim.
/// `root` is [`components_root`], built once per document (the components can be most of it).
pub(super) fn raw_is_vertex_clean(raw: &Value, root: &Value) -> bool {
    let mut visited = HashSet::new();
    clean(raw, root, &mut visited, "")
}

/// The source's components under `components`, the root the operations' `$ref`s point into.
pub(super) fn components_root(set: &ToolSet) -> Value {
    let components = set.extras.get(ID).and_then(|e| e.get("document")).and_then(|d| d.get("components"));
    json!({ "components": components.cloned().unwrap_or(Value::Null) })
}

/// Whether `value` (under `key`), and what its `$ref`s name, use only what Vertex accepts:
/// property and parameter names by its rules, no `oneOf`/`allOf`/`not`, string enums, one type.
fn clean(value: &Value, root: &Value, visited: &mut HashSet<String>, key: &str) -> bool {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                if !visited.insert(reference.clone()) {
                    return true;
                }
                let Some(target) = reference.strip_prefix('#').and_then(|p| root.pointer(p)) else { return false };
                return clean(target, root, visited, "");
            }
            if key == "properties" {
                return map.iter().all(|(k, v)| NameRules::PARAMETER.is_valid(k) && clean(v, root, visited, ""));
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
                .all(|(k, v)| matches!(k.as_str(), "example" | "examples" | "default") || clean(v, root, visited, k))
        }
        Value::Array(items) => items.iter().all(|v| clean(v, root, visited, "")),
        _ => true,
    }
}
