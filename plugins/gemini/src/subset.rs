//! The Gemini developer API's schema subset, enforced on a written `parameters`/`response`
//! schema after toolport-jsonschema's Gemini dialect: keywords outside the subset are dropped
//! and `format` is limited per type, each reported.

use serde_json::{Map, Value};
use toolport_plugin::{Diagnostic, codes};

/// Keywords of Gemini's `Schema` object.
pub const KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// Formats Gemini accepts, by type.
pub fn format_allowed(kind: &str, format: &str) -> bool {
    match kind.to_ascii_lowercase().as_str() {
        "string" => matches!(format, "enum" | "date-time"),
        "number" => matches!(format, "float" | "double"),
        "integer" => matches!(format, "int32" | "int64"),
        _ => false,
    }
}

/// Rewrites `schema` into the subset; one diagnostic per dropped keyword, at `path`.
pub fn enforce(schema: &mut Value, path: &str, diagnostics: &mut Vec<Diagnostic>) {
    visit(schema, &mut String::from("#"), path, diagnostics);
}

/// Enforces the subset on `node`, found at `at` inside the schema: one buffer, grown and cut
/// back around each child, so a schema without losses formats no place.
fn visit(node: &mut Value, at: &mut String, path: &str, diagnostics: &mut Vec<Diagnostic>) {
    let Value::Object(map) = node else { return };
    if map.keys().any(|k| !KEYWORDS.contains(&k.as_str())) {
        let unknown: Vec<String> = map.keys().filter(|k| !KEYWORDS.contains(&k.as_str())).cloned().collect();
        for key in unknown {
            map.shift_remove(&key);
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                path,
                format!("Gemini schemas have no `{key}`; it was left out at {at}"),
            ));
        }
    }
    let kind = map.get("type").and_then(Value::as_str).unwrap_or_default();
    if let Some(Value::String(format)) = map.get("format")
        && !format_allowed(kind, format)
    {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_SCHEMA,
            path,
            format!("Gemini does not accept format `{format}` for type `{kind}`; it was left out at {at}"),
        ));
        map.shift_remove("format");
    }
    children(map, at, path, diagnostics);
}

fn children(map: &mut Map<String, Value>, at: &mut String, path: &str, diagnostics: &mut Vec<Diagnostic>) {
    let parent = at.len();
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            at.push_str("/properties/");
            at.push_str(name);
            visit(property, at, path, diagnostics);
            at.truncate(parent);
        }
    }
    if let Some(items) = map.get_mut("items") {
        at.push_str("/items");
        visit(items, at, path, diagnostics);
        at.truncate(parent);
    }
    if let Some(Value::Array(members)) = map.get_mut("anyOf") {
        for (i, member) in members.iter_mut().enumerate() {
            use std::fmt::Write;
            let _ = write!(at, "/anyOf/{i}");
            visit(member, at, path, diagnostics);
            at.truncate(parent);
        }
    }
}

/// Lower-cases `type` values (`"STRING"` → `"string"`) everywhere; whether any was upper-case.
pub fn lower_types(node: &mut Value) -> bool {
    let mut changed = false;
    match node {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "type"
                    && let Value::String(kind) = value
                    && kind.chars().any(|c| c.is_ascii_uppercase())
                {
                    *kind = kind.to_ascii_lowercase();
                    changed = true;
                } else if !matches!(key.as_str(), "enum" | "default" | "example") {
                    changed |= lower_types(value);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                changed |= lower_types(item);
            }
        }
        _ => {}
    }
    changed
}

/// Upper-cases `type` values, for a document that wrote them so.
pub fn upper_types(node: &mut Value) {
    match node {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "type"
                    && let Value::String(kind) = value
                {
                    *kind = kind.to_ascii_uppercase();
                } else if !matches!(key.as_str(), "enum" | "default" | "example") {
                    upper_types(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(upper_types),
        _ => {}
    }
}
