//! What a model reads in a tool's schemas is the schema and nothing else: toolport's own
//! bookkeeping (`x-toolport-value-set`, `x-toolport-enum-labels`, …, which other formats keep
//! for round trips through OpenAPI) and OpenAPI-only keywords (`nullable`, `example`,
//! `discriminator`, …, which mean nothing in JSON Schema and which validators such as AJV
//! refuse) are left out of a written JSON Schema, and an empty `enum` (a value set without
//! fixed values: no value would be valid) is never written. Each is reported.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;
use toolport_core::source::push_segment;
use toolport_core::{Diagnostic, codes};
use toolport_jsonschema::Dialect;

/// Keys toolport writes for its own round trips.
pub const BOOKKEEPING_PREFIX: &str = "x-toolport-";

/// OpenAPI 3.0 schema keywords that JSON Schema 2020-12 does not have. `example` becomes
/// `examples` (when the schema has none); the others are left out.
pub const OPENAPI_ONLY: &[&str] = &["nullable", "example", "discriminator", "xml", "externalDocs"];

/// Keys whose value is a map of schemas.
const SCHEMA_MAPS: &[&str] = &["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"];
/// Keys whose value is a schema.
const SCHEMA_VALUES: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "contains",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
];
/// Keys whose value is a list of schemas.
const SCHEMA_LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// What one [`clean`] left out.
#[derive(Debug, Default)]
struct Found {
    /// Key → how many times.
    dropped: BTreeMap<String, usize>,
    /// `example`s moved to `examples`.
    examples_moved: usize,
    /// Where an empty `enum` was left out, and the value set it came from.
    empty_enums: Vec<(String, Option<String>)>,
}

/// Cleans a written schema (`value`, at model path `path`) of `dialect`: JSON Schema loses
/// `x-toolport-*` keys and OpenAPI-only keywords; every dialect loses empty `enum`s. One
/// diagnostic for the keys left out, one per empty `enum`.
pub fn clean(value: &mut Value, dialect: Dialect, path: &str, diagnostics: &mut Vec<Diagnostic>) {
    let mut found = Found::default();
    visit(value, dialect, &mut "#".to_owned(), &mut found);
    report(found, path, diagnostics);
}

/// `at` is the node's pointer, grown and shrunk in place (every node of every schema written
/// is visited; only an empty `enum` keeps its pointer).
fn visit(node: &mut Value, dialect: Dialect, at: &mut String, found: &mut Found) {
    let Value::Object(map) = node else { return };
    let value_set = map.get("x-toolport-value-set").and_then(Value::as_str).map(str::to_owned);
    if dialect == Dialect::JsonSchema {
        let drop: Vec<String> = map
            .keys()
            .filter(|k| k.starts_with(BOOKKEEPING_PREFIX) || OPENAPI_ONLY.contains(&k.as_str()))
            .cloned()
            .collect();
        for key in drop {
            let Some(value) = map.shift_remove(&key) else { continue };
            if key == "example" && !map.contains_key("examples") {
                map.insert("examples".into(), Value::Array(vec![value]));
                found.examples_moved += 1;
            } else if !(key == "nullable" && value == Value::Bool(false)) {
                *found.dropped.entry(key).or_default() += 1;
            }
        }
    }
    if map.get("enum").is_some_and(|e| e.as_array().is_some_and(Vec::is_empty)) {
        map.shift_remove("enum");
        found.empty_enums.push((at.clone(), value_set));
    }
    let len = at.len();
    for (key, child) in map.iter_mut() {
        let key = key.as_str();
        if SCHEMA_MAPS.contains(&key) {
            if let Value::Object(members) = child {
                for (name, member) in members.iter_mut() {
                    at.truncate(len);
                    at.push('/');
                    at.push_str(key);
                    at.push('/');
                    push_segment(at, name);
                    visit(member, dialect, at, found);
                }
            }
        } else if SCHEMA_VALUES.contains(&key) || SCHEMA_LISTS.contains(&key) {
            match child {
                Value::Array(members) => {
                    for (i, member) in members.iter_mut().enumerate() {
                        at.truncate(len);
                        // Writing to a String cannot fail.
                        let _ = write!(at, "/{key}/{i}");
                        visit(member, dialect, at, found);
                    }
                }
                other => {
                    at.truncate(len);
                    at.push('/');
                    at.push_str(key);
                    visit(other, dialect, at, found);
                }
            }
        }
    }
    at.truncate(len);
}

fn report(found: Found, path: &str, diagnostics: &mut Vec<Diagnostic>) {
    if !found.dropped.is_empty() {
        let listed: Vec<String> = found
            .dropped
            .iter()
            .map(|(key, n)| if *n == 1 { format!("`{key}`") } else { format!("`{key}` ({n}x)") })
            .collect();
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_SCHEMA,
            path,
            format!(
                "left out of a schema a model reads: {} (toolport's `x-toolport-*` bookkeeping and OpenAPI-only keywords have no meaning in JSON Schema)",
                listed.join(", ")
            ),
        ));
    }
    if found.examples_moved > 0 {
        diagnostics.push(Diagnostic::info(
            codes::CHANGED_SCHEMA,
            path,
            format!("OpenAPI's `example` was written as JSON Schema's `examples` ({}x)", found.examples_moved),
        ));
    }
    for (at, value_set) in found.empty_enums {
        let from = value_set.map(|set| format!("value set `{set}` has no fixed values: ")).unwrap_or_default();
        diagnostics.push(Diagnostic::warning(
            codes::CHANGED_SCHEMA,
            path,
            format!("{from}an empty `enum` (no value would be valid) was left out at {at}"),
        ));
    }
}

/// Whether `value` holds anything [`clean`] would change, without changing it.
pub fn needs_cleaning(value: &Value, dialect: Dialect) -> bool {
    let mut copy = value.clone();
    let mut found = Found::default();
    visit(&mut copy, dialect, &mut "#".to_owned(), &mut found);
    copy != *value
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// (dialect, schema written, schema cleaned, diagnostics as `code: message` prefixes)
    fn cases() -> Vec<(Dialect, Value, Value, Vec<&'static str>)> {
        vec![
            (
                Dialect::JsonSchema,
                json!({"type": "object", "properties": {
                    "color": {"type": "string", "enum": ["r", "g"], "x-toolport-enum-labels": ["Red", null],
                        "x-toolport-value-set": "colors"},
                    "city": {"type": "string", "enum": [], "x-toolport-value-set": "cities"},
                    "note": {"type": "string", "nullable": false, "example": "hi", "x-toolport-multiline": true},
                    "x-toolport-value-set": {"type": "string", "xml": {"name": "n"}}}}),
                json!({"type": "object", "properties": {
                    "color": {"type": "string", "enum": ["r", "g"]},
                    "city": {"type": "string"},
                    "note": {"type": "string", "examples": ["hi"]},
                    "x-toolport-value-set": {"type": "string"}}}),
                vec![
                    "loss/schema: left out of a schema a model reads: `x-toolport-enum-labels`, `x-toolport-multiline`, `x-toolport-value-set` (2x), `xml`",
                    "changed/schema: OpenAPI's `example` was written as JSON Schema's `examples` (1x)",
                    "changed/schema: value set `cities` has no fixed values: an empty `enum` (no value would be valid) was left out at #/properties/city",
                ],
            ),
            (
                Dialect::JsonSchema,
                json!({"$defs": {"A": {"anyOf": [{"enum": []}, {"type": "null", "discriminator": {}}]}}}),
                json!({"$defs": {"A": {"anyOf": [{}, {"type": "null"}]}}}),
                vec![
                    "loss/schema: left out of a schema a model reads: `discriminator`",
                    "changed/schema: an empty `enum` (no value would be valid) was left out at #/$defs/A/anyOf/0",
                ],
            ),
            // Gemini's subset has its own `nullable`; only empty enums go.
            (
                Dialect::Gemini,
                json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true, "enum": []}}}),
                json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}}),
                vec!["changed/schema: an empty `enum` (no value would be valid) was left out at #/properties/a"],
            ),
            (
                Dialect::JsonSchema,
                json!({"type": "string", "enum": ["a"]}),
                json!({"type": "string", "enum": ["a"]}),
                vec![],
            ),
        ]
    }

    #[test]
    fn bookkeeping_openapi_keywords_and_empty_enums_are_left_out() {
        for (dialect, mut value, expect, messages) in cases() {
            assert_eq!(needs_cleaning(&value, dialect), value != expect);
            let mut diagnostics = Vec::new();
            clean(&mut value, dialect, "/tools/0/parameters", &mut diagnostics);
            assert_eq!(value, expect);
            let got: Vec<String> = diagnostics.iter().map(|d| format!("{}: {}", d.code, d.message)).collect();
            assert_eq!(got.len(), messages.len(), "{got:?}");
            for (got, expect) in got.iter().zip(&messages) {
                assert!(got.starts_with(expect), "{got:?} should start with {expect:?}");
            }
            assert!(diagnostics.iter().all(|d| d.path == "/tools/0/parameters"));
        }
    }
}
