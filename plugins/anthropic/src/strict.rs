//! Anthropic strict tool use, applied to a written `input_schema`: numeric and length
//! constraints are not supported and are dropped (each reported); a recursive schema cannot be
//! strict at all.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use toolport_plugin::{Diagnostic, codes};

/// Keywords strict mode rejects.
pub const CONSTRAINTS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
];

/// Rewrites `schema` for strict mode, one `changed/schema` diagnostic per dropped keyword.
/// `Err` says why strict mode is impossible; `schema` is then untouched.
pub fn make_strict(schema: &mut Value, path: &str) -> Result<Vec<Diagnostic>, String> {
    if let Some(name) = recursive_definition(schema) {
        return Err(format!("its schema is recursive (through `{name}`), which strict mode forbids"));
    }
    let mut changes = Vec::new();
    drop_constraints(schema, &mut String::from("#"), &mut changes);
    Ok(changes
        .into_iter()
        .map(|message| Diagnostic::warning(codes::CHANGED_SCHEMA, path, format!("strict mode: {message}")))
        .collect())
}

/// Drops the constraint keywords from `node`, found at `at` inside the schema: one buffer, grown
/// and cut back around each child, so a schema without constraints formats no place.
fn drop_constraints(node: &mut Value, at: &mut String, changes: &mut Vec<String>) {
    let parent = at.len();
    match node {
        Value::Object(map) => {
            for keyword in CONSTRAINTS {
                // Only as a keyword: a property may well be named `minimum`.
                if map.get(*keyword).is_some_and(|v| v.is_number()) {
                    map.shift_remove(*keyword);
                    changes.push(format!("`{keyword}` is not supported and was dropped at {at}"));
                }
            }
            for (key, child) in map.iter_mut() {
                at.push('/');
                at.push_str(key);
                if matches!(key.as_str(), "properties" | "$defs" | "definitions") {
                    if let Value::Object(members) = child {
                        let members_at = at.len();
                        for (name, member) in members.iter_mut() {
                            at.push('/');
                            at.push_str(name);
                            drop_constraints(member, at, changes);
                            at.truncate(members_at);
                        }
                    }
                } else if matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    // Values, not schemas.
                } else {
                    drop_constraints(child, at, changes);
                }
                at.truncate(parent);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                use std::fmt::Write;
                let _ = write!(at, "/{i}");
                drop_constraints(item, at, changes);
                at.truncate(parent);
            }
        }
        _ => {}
    }
}

/// The name of a definition that refers to itself, directly or through others.
pub fn recursive_definition(schema: &Value) -> Option<String> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for defs in ["$defs", "definitions"] {
        if let Some(Value::Object(definitions)) = schema.get(defs) {
            for (name, definition) in definitions {
                let mut refs = BTreeSet::new();
                collect_refs(definition, &mut refs);
                graph.insert(format!("#/{defs}/{name}"), refs);
            }
        }
    }
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = graph[start].iter().collect();
        while let Some(next) = stack.pop() {
            if next == start {
                return Some(start.clone());
            }
            if seen.insert(next.clone()) {
                stack.extend(graph.get(next).into_iter().flatten());
            }
        }
    }
    // `#` refers to the root itself.
    let mut refs = BTreeSet::new();
    collect_refs(schema, &mut refs);
    refs.contains("#").then(|| "#".to_owned())
}

fn collect_refs(node: &Value, refs: &mut BTreeSet<String>) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                refs.insert(target.clone());
            }
            map.values().for_each(|v| collect_refs(v, refs));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, refs)),
        _ => {}
    }
}
