//! OpenAI strict mode (Structured Outputs for function calling), applied to a written
//! `parameters` schema: every object closed and every property required (an optional one
//! becomes nullable), only the documented subset of keywords ([`KEYWORDS`]; `allOf`, `not`,
//! `default`, `minLength`, `readOnly`, … are dropped, each named) and of string formats
//! ([`FORMATS`]), `oneOf` read as `anyOf`, a `$ref` alone in its schema (a description beside
//! it moves to an `anyOf` around it), and at most 5,000 properties, 10 levels of nesting and
//! 1,000 enum values.

use serde_json::{Map, Value, json};
use toolport_plugin::{Diagnostic, codes};

pub const MAX_PROPERTIES: usize = 5000;
pub const MAX_DEPTH: usize = 10;
pub const MAX_ENUM_VALUES: usize = 1000;

/// The keywords strict mode supports (OpenAI's Structured Outputs guide, "Supported schemas");
/// every other keyword is dropped.
pub const KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$defs",
    "definitions",
    "$ref",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];

/// The string formats strict mode supports.
pub const FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// What may stay beside a `$ref` once it is wrapped in an `anyOf`.
const ANNOTATIONS: &[&str] = &["description", "title"];

#[derive(Debug, Default)]
struct Walk {
    changes: Vec<String>,
    properties: usize,
    depth: usize,
    enum_values: usize,
}

/// Rewrites `schema` for strict mode. Each change is one `changed/schema` diagnostic at `path`.
/// `Err` says why strict mode is impossible (a limit exceeded); `schema` is then untouched.
pub fn make_strict(schema: &mut Value, path: &str) -> Result<Vec<Diagnostic>, String> {
    let mut candidate = schema.clone();
    let mut walk = Walk::default();
    if !candidate.get("type").is_some_and(|t| t == "object") {
        return Err("strict mode needs an object schema at the root".into());
    }
    visit(&mut candidate, "#", 1, &mut walk);
    if walk.properties > MAX_PROPERTIES {
        return Err(format!("{} properties exceed strict mode's limit of {MAX_PROPERTIES}", walk.properties));
    }
    if walk.depth > MAX_DEPTH {
        return Err(format!("{} levels of nesting exceed strict mode's limit of {MAX_DEPTH}", walk.depth));
    }
    if walk.enum_values > MAX_ENUM_VALUES {
        return Err(format!("{} enum values exceed strict mode's limit of {MAX_ENUM_VALUES}", walk.enum_values));
    }
    *schema = candidate;
    Ok(walk
        .changes
        .into_iter()
        .map(|message| Diagnostic::warning(codes::CHANGED_SCHEMA, path, format!("strict mode: {message}")))
        .collect())
}

fn visit(node: &mut Value, at: &str, depth: usize, walk: &mut Walk) {
    let Value::Object(map) = node else { return };
    walk.depth = walk.depth.max(depth);
    if let Some(one_of) = map.shift_remove("oneOf") {
        walk.changes.push(format!("`oneOf` was written as `anyOf` at {at}"));
        if !map.contains_key("anyOf") {
            map.insert("anyOf".into(), one_of);
        }
    }
    let unsupported: Vec<String> = map.keys().filter(|k| !KEYWORDS.contains(&k.as_str())).cloned().collect();
    for keyword in unsupported {
        map.shift_remove(&keyword);
        walk.changes.push(format!("`{keyword}` is not supported and was dropped at {at}"));
    }
    if let Some(Value::String(format)) = map.get("format")
        && !FORMATS.contains(&format.as_str())
    {
        walk.changes.push(format!("format `{format}` is not supported and was dropped at {at}"));
        map.shift_remove("format");
    }
    if map.contains_key("$ref") && map.len() > 1 {
        lone_reference(map, at, walk);
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        walk.enum_values += values.len();
    }
    if is_object(map) {
        close_object(map, at, walk);
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            walk.properties += properties.len();
            for (name, property) in properties.iter_mut() {
                visit(property, &format!("{at}/properties/{name}"), depth + 1, walk);
            }
        }
    }
    if let Some(items) = map.get_mut("items") {
        visit(items, &format!("{at}/items"), depth + 1, walk);
    }
    if let Some(Value::Array(alternatives)) = map.get_mut("anyOf") {
        for (i, alternative) in alternatives.iter_mut().enumerate() {
            visit(alternative, &format!("{at}/anyOf/{i}"), depth, walk);
        }
    }
    for defs in ["$defs", "definitions"] {
        if let Some(Value::Object(definitions)) = map.get_mut(defs) {
            for (name, definition) in definitions.iter_mut() {
                visit(definition, &format!("{at}/{defs}/{name}"), 1, walk);
            }
        }
    }
}

/// A `$ref` with keywords beside it: strict mode wants it alone. A description or title moves
/// to an `anyOf` holding the reference alone; anything else beside it is dropped.
fn lone_reference(map: &mut Map<String, Value>, at: &str, walk: &mut Walk) {
    let reference = map.shift_remove("$ref").unwrap_or(Value::Null);
    let others: Vec<String> = map.keys().filter(|k| !ANNOTATIONS.contains(&k.as_str())).cloned().collect();
    for keyword in others {
        map.shift_remove(&keyword);
        walk.changes.push(format!("`{keyword}` beside a `$ref` is not supported and was dropped at {at}"));
    }
    if map.is_empty() {
        map.insert("$ref".into(), reference);
    } else {
        walk.changes
            .push(format!("a `$ref` with a description was written as an `anyOf` of that `$ref` alone at {at}"));
        map.insert("anyOf".into(), json!([{"$ref": reference}]));
    }
}

fn is_object(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => map.contains_key("properties"),
    }
}

/// `additionalProperties: false`, and every property required (optional ones made nullable).
fn close_object(map: &mut Map<String, Value>, at: &str, walk: &mut Walk) {
    match map.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        Some(other) => {
            walk.changes.push(format!("`additionalProperties: {other}` became `false` at {at}"));
            map.insert("additionalProperties".into(), false.into());
        }
        None => {
            walk.changes.push(format!("`additionalProperties: false` was added at {at}"));
            map.insert("additionalProperties".into(), false.into());
        }
    }
    let required: Vec<String> = match map.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        if !map.contains_key("properties") {
            map.insert("properties".into(), Value::Object(Map::new()));
            walk.changes.push(format!("an empty `properties` was added at {at}"));
        }
        return;
    };
    let mut all = Vec::with_capacity(properties.len());
    for (name, property) in properties.iter_mut() {
        if !required.contains(name) {
            make_nullable(property);
            walk.changes.push(format!("optional property `{name}` became required and nullable at {at}"));
        }
        all.push(Value::String(name.clone()));
    }
    if map.get("required") != Some(&Value::Array(all.clone())) {
        map.insert("required".into(), Value::Array(all));
    }
}

/// Lets a schema also accept `null` (how strict mode says "optional").
fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    match map.get_mut("type") {
        Some(Value::String(kind)) if kind != "null" => {
            let kind = std::mem::take(kind);
            map.insert("type".into(), json!([kind, "null"]));
        }
        Some(Value::Array(kinds)) if !kinds.iter().any(|k| k == "null") => kinds.push("null".into()),
        Some(_) => {}
        None => {
            let alternatives = match map.contains_key("anyOf") {
                true => map.get_mut("anyOf"),
                false => map.get_mut("oneOf"),
            };
            if let Some(Value::Array(alternatives)) = alternatives {
                if !alternatives.iter().any(|a| a.get("type").is_some_and(|t| t == "null")) {
                    alternatives.push(json!({"type": "null"}));
                }
            } else if let Some(reference) = map.shift_remove("$ref") {
                // The `$ref` alone in its member; a description stays outside.
                map.insert("anyOf".into(), json!([{"$ref": reference}, {"type": "null"}]));
            }
        }
    }
}

/// Why `schema` breaks strict mode, empty when it is valid. Used by tests and by the writer to
/// decide whether a source's schema already is strict.
pub fn violations(schema: &Value) -> Vec<String> {
    let mut copy = schema.clone();
    match make_strict(&mut copy, "") {
        Ok(changes) => changes.into_iter().map(|d| d.message).collect(),
        Err(reason) => vec![reason],
    }
}
