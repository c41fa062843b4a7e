//! A validator for what Gemini accepts: function names and the schema subset.

use serde_json::Value;
use toolport_format_gemini::subset;
use toolport_plugin::names::NameRules;

/// Every problem Gemini would find in a written `{"functionDeclarations": [...]}` document.
pub fn violations(document: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut names = std::collections::HashSet::new();
    for declaration in document["functionDeclarations"].as_array().into_iter().flatten() {
        let name = declaration["name"].as_str().unwrap_or_default();
        if !NameRules::FUNCTION.is_valid(name) || !names.insert(name.to_owned()) {
            out.push(format!("bad or duplicate name `{name}`"));
        }
        for key in ["parameters", "response"] {
            if let Some(schema) = declaration.get(key) {
                node(schema, &format!("{name}.{key}"), &mut out);
            }
        }
    }
    out
}

fn node(schema: &Value, at: &str, out: &mut Vec<String>) {
    let Some(map) = schema.as_object() else { return out.push(format!("{at}: not an object")) };
    for key in map.keys() {
        if !subset::KEYWORDS.contains(&key.as_str()) {
            out.push(format!("{at}: keyword `{key}`"));
        }
    }
    let kind = map.get("type").and_then(Value::as_str).unwrap_or_default();
    if let Some(values) = map.get("enum")
        && (kind != "string" || !values.as_array().is_some_and(|v| v.iter().all(Value::is_string)))
    {
        out.push(format!("{at}: enum must be strings of type string"));
    }
    if let Some(format) = map.get("format").and_then(Value::as_str)
        && !subset::format_allowed(kind, format)
    {
        out.push(format!("{at}: format `{format}`"));
    }
    if kind == "object" && map.get("properties").and_then(Value::as_object).is_some_and(|p| p.is_empty()) {
        out.push(format!("{at}: object with empty properties"));
    }
    for (name, property) in map.get("properties").and_then(Value::as_object).into_iter().flatten() {
        node(property, &format!("{at}.{name}"), out);
    }
    if let Some(items) = map.get("items") {
        node(items, &format!("{at}[]"), out);
    }
    for (i, member) in map.get("anyOf").and_then(Value::as_array).into_iter().flatten().enumerate() {
        node(member, &format!("{at}|{i}"), out);
    }
}
