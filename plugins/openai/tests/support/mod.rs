//! A validator for what OpenAI accepts: tool names, and strict-mode schemas.

use std::collections::HashSet;

use serde_json::Value;
use toolport_format_openai::strict::{MAX_DEPTH, MAX_ENUM_VALUES, MAX_PROPERTIES};

/// Every problem OpenAI would find in a written document of function tools.
pub fn violations(document: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let tools = match document {
        Value::Array(tools) => tools.clone(),
        Value::Object(map) if map.contains_key("tools") => map["tools"].as_array().cloned().unwrap_or_default(),
        other => vec![other.clone()],
    };
    let mut names = HashSet::new();
    for tool in tools.iter().filter(|t| t["type"] == "function") {
        let function = tool.get("function").unwrap_or(tool);
        let name = function["name"].as_str().unwrap_or_default();
        let valid = !name.is_empty()
            && name.len() <= 64
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            out.push(format!("invalid name `{name}`"));
        }
        if !names.insert(name.to_owned()) {
            out.push(format!("duplicate name `{name}`"));
        }
        if function.get("strict") == Some(&Value::Bool(true)) {
            let schema = &function["parameters"];
            if schema["type"] != "object" {
                out.push(format!("{name}: strict root is not an object"));
            }
            let mut counts = (0, 0, 0);
            strict_node(schema, name, 1, &mut counts, &mut out);
            if counts.0 > MAX_PROPERTIES || counts.1 > MAX_DEPTH || counts.2 > MAX_ENUM_VALUES {
                out.push(format!("{name}: strict limits exceeded {counts:?}"));
            }
        }
    }
    out
}

fn strict_node(node: &Value, at: &str, depth: usize, counts: &mut (usize, usize, usize), out: &mut Vec<String>) {
    let Some(map) = node.as_object() else { return };
    counts.1 = counts.1.max(depth);
    for keyword in ["allOf", "not", "if", "then", "else", "default", "oneOf"] {
        if map.contains_key(keyword) {
            out.push(format!("{at}: strict schema has `{keyword}`"));
        }
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        counts.2 += values.len();
    }
    let is_object = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => map.contains_key("properties"),
    };
    if is_object {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            out.push(format!("{at}: object without additionalProperties: false"));
        }
        let properties = map.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        counts.0 += properties.len();
        let required: Vec<&str> =
            map.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        for (name, property) in &properties {
            if !required.contains(&name.as_str()) {
                out.push(format!("{at}: property `{name}` not required"));
            }
            strict_node(property, &format!("{at}.{name}"), depth + 1, counts, out);
        }
    }
    if let Some(items) = map.get("items") {
        strict_node(items, &format!("{at}[]"), depth + 1, counts, out);
    }
    for key in ["anyOf"] {
        for (i, member) in map.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            strict_node(member, &format!("{at}|{i}"), depth, counts, out);
        }
    }
    for key in ["$defs", "definitions"] {
        for (name, member) in map.get(key).and_then(Value::as_object).into_iter().flatten() {
            strict_node(member, &format!("{at}#{name}"), 1, counts, out);
        }
    }
}
