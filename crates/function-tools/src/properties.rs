//! Property names in written schemas that must follow a target's rule (Gemini's parameter
//! names, `^[A-Za-z_][A-Za-z0-9_]{0,63}$`): each object's property names are transliterated
//! to ASCII and sanitised, names that already follow the rule kept, `required` (and
//! `propertyOrdering`) following the renames, each rename a `changed/name` diagnostic that
//! states the way back.

use serde_json::{Map, Value};
use toolport_core::names::NameRules;
use toolport_core::{Diagnostic, codes};

use crate::names::name_map;

/// Renames the properties of every object in `schema` (at model path `path`) that break
/// `rules`; `target` names the platform in the diagnostics.
pub fn sanitize_property_names(
    schema: &mut Value,
    rules: NameRules,
    target: &str,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    visit(schema, rules, target, path, "#", diagnostics);
}

fn visit(node: &mut Value, rules: NameRules, target: &str, path: &str, at: &str, out: &mut Vec<Diagnostic>) {
    let Value::Object(map) = node else { return };
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        if properties.keys().any(|k| !rules.is_valid(k)) {
            let renames = rename(properties, rules, target, path, at, out);
            for key in ["required", "propertyOrdering"] {
                if let Some(Value::Array(names)) = map.get_mut(key) {
                    for name in names.iter_mut() {
                        if let Some(new) = name.as_str().and_then(|n| renames.iter().find(|(old, _)| old == n)) {
                            *name = Value::String(new.1.clone());
                        }
                    }
                }
            }
        }
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                visit(property, rules, target, path, &format!("{at}/properties/{name}"), out);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = map.get_mut(key) {
            visit(child, rules, target, path, &format!("{at}/{key}"), out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(members)) = map.get_mut(key) {
            for (i, member) in members.iter_mut().enumerate() {
                visit(member, rules, target, path, &format!("{at}/{key}/{i}"), out);
            }
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(definitions)) = map.get_mut(key) {
            for (name, definition) in definitions.iter_mut() {
                visit(definition, rules, target, path, &format!("{at}/{key}/{name}"), out);
            }
        }
    }
}

/// Renames the keys of `properties` in place (order kept); the (old, new) pairs.
fn rename(
    properties: &mut Map<String, Value>,
    rules: NameRules,
    target: &str,
    path: &str,
    at: &str,
    out: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let old = std::mem::take(properties);
    let mut map = name_map(rules);
    let names = map.assign_all(old.keys().map(String::as_str));
    let mut renames = Vec::new();
    for ((original, value), name) in old.into_iter().zip(names) {
        if name != original {
            out.push(Diagnostic::warning(
                codes::CHANGED_NAME,
                path,
                format!(
                    "{target} parameter names must match {}: `{original}` was written as `{name}` at {at}/properties (map back: `{name}` -> `{original}`)",
                    rules.pattern
                ),
            )
            .renaming(&original, &name, Some(at.to_owned())));
            renames.push((original, name.clone()));
        }
        properties.insert(name, value);
    }
    renames
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn property_names_follow_the_rule_and_required_follows_them() {
        // (schema, written, renames as "old -> new")
        let cases = [
            (
                json!({"type": "object", "properties": {"include[]": {"type": "string"}, "list-id": {}, "ok": {}},
                    "required": ["list-id", "ok"], "propertyOrdering": ["include[]", "list-id", "ok"]}),
                json!({"type": "object", "properties": {"include_": {"type": "string"}, "list_id": {}, "ok": {}},
                    "required": ["list_id", "ok"], "propertyOrdering": ["include_", "list_id", "ok"]}),
                vec!["include[] -> include_", "list-id -> list_id"],
            ),
            (
                json!({"type": "object", "properties": {"áreas de enfoque": {"type": "array", "items": {
                    "type": "object", "properties": {"Details.Message": {}, "focus areas": {}}}}}}),
                json!({"type": "object", "properties": {"areas_de_enfoque": {"type": "array", "items": {
                    "type": "object", "properties": {"Details_Message": {}, "focus_areas": {}}}}}}),
                vec![
                    "áreas de enfoque -> areas_de_enfoque",
                    "Details.Message -> Details_Message",
                    "focus areas -> focus_areas",
                ],
            ),
            // The name that follows the rule keeps itself; the one that had to change is suffixed.
            (
                json!({"type": "object", "properties": {"a-b": {}, "a_b": {}}}),
                json!({"type": "object", "properties": {"a_b_04644883": {}, "a_b": {}}}),
                vec!["a-b -> a_b_04644883"],
            ),
        ];
        for (mut schema, expect, renames) in cases {
            let mut diagnostics = Vec::new();
            sanitize_property_names(
                &mut schema,
                NameRules::PARAMETER,
                "Gemini",
                "/tools/0/parameters",
                &mut diagnostics,
            );
            assert_eq!(schema, expect);
            let got: Vec<String> = diagnostics
                .iter()
                .map(|d| {
                    let (_, map_back) = d.message.rsplit_once("(map back: ").unwrap();
                    let (new, old) = map_back.trim_end_matches(')').split_once(" -> ").unwrap();
                    format!("{} -> {}", old.trim_matches('`'), new.trim_matches('`'))
                })
                .collect();
            assert_eq!(got, renames);
            assert!(diagnostics.iter().all(|d| d.code == codes::CHANGED_NAME));
        }
    }
}
