//! Shared by the test files: reading helpers and the Vertex rule validator.
#![allow(dead_code)]

use std::collections::HashSet;

use serde_json::Value;
use toolport_format_openapi::{OpenApi, Vertex};
use toolport_plugin::names::NameRules;
use toolport_plugin::{Bundle, Format, Options, ToolSet};
use toolport_testkit::expect_ok;

pub fn parse(file: &str, text: &str) -> Value {
    if file.ends_with(".json") {
        serde_json::from_str(text).unwrap()
    } else {
        toolport_yaml::parse(file, text).unwrap().value
    }
}

pub fn read_openapi(bundle: &Bundle) -> ToolSet {
    expect_ok(OpenApi.read(bundle, &Options::default()), "openapi read").0
}

pub fn read_vertex(bundle: &Bundle) -> ToolSet {
    expect_ok(Vertex.read(bundle, &Options::default()), "vertex read").0
}

/// A body with snake_case keys turned to camelCase (protobuf JSON parsers read both);
/// free-form values keep their keys.
pub fn camel_keys(value: &Value, free: bool) -> Value {
    match value {
        Value::Object(map) if !free => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key: String = k
                        .split('_')
                        .enumerate()
                        .map(|(i, part)| {
                            if i == 0 || part.is_empty() {
                                part.to_owned()
                            } else {
                                part[..1].to_uppercase() + &part[1..]
                            }
                        })
                        .collect();
                    let free = matches!(key.as_str(), "requestParams" | "responseParams" | "defaultParams");
                    (key, camel_keys(v, free))
                })
                .collect(),
        ),
        Value::Array(items) if !free => Value::Array(items.iter().map(|v| camel_keys(v, false)).collect()),
        other => other.clone(),
    }
}

/// An OpenAPI 3.0 document deserializes into `openapiv3::OpenAPI`, a typed reading of 3.0 (its
/// value types and shapes; it does not refuse unknown keys). A 3.1 document, which that crate
/// does not read, is not checked.
#[track_caller]
pub fn assert_typed_openapi_30(doc: &Value, what: &str) {
    if !doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.0")) {
        return;
    }
    if let Err(e) = serde_json::from_value::<openapiv3::OpenAPI>(doc.clone()) {
        panic!("{what}: openapiv3 does not read the written OpenAPI 3.0 document: {e}");
    }
}

/// Checks every rule Vertex sets on an import body and its inline spec; returns the spec.
pub fn validate_vertex(body: &Value) -> Value {
    let body = &camel_keys(body, false);
    let mut problems = Vec::new();
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let display = text(body, "displayName").unwrap_or_default();
    if display.is_empty() || display.chars().count() > 128 {
        problems.push(format!("displayName {display:?}"));
    }
    let manifest = &body["manifest"];
    let name = text(manifest, "name").unwrap_or_default();
    if name.is_empty() || name.chars().count() > 128 {
        problems.push(format!("manifest.name {name:?}"));
    }
    if text(manifest, "description").is_none_or(|d| d.is_empty()) {
        problems.push("manifest.description missing".into());
    }
    if !manifest["authConfig"]["authType"].is_string() {
        problems.push("authConfig.authType missing".into());
    }
    let yaml = manifest["apiSpec"]["openApiYaml"].as_str().expect("openApiYaml inline");
    let spec = toolport_yaml::parse("spec.yaml", yaml).expect("the inline spec parses").value;
    if !spec["openapi"].as_str().is_some_and(|v| v.starts_with("3.0")) {
        problems.push(format!("openapi version {}", spec["openapi"]));
    }
    assert_typed_openapi_30(&spec, "the Vertex spec");
    match spec["servers"].as_array() {
        Some(servers) if servers.len() == 1 && servers[0]["url"].is_string() => {}
        other => problems.push(format!("servers must be one URL: {other:?}")),
    }
    let mut ids = HashSet::new();
    let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
    for (path, item) in spec["paths"].as_object().into_iter().flatten() {
        if item.get("servers").is_some() {
            problems.push(format!("servers on path {path}"));
        }
        for (method, op) in item.as_object().into_iter().flatten() {
            if !methods.contains(&method.as_str()) {
                continue;
            }
            let where_ = format!("{method} {path}");
            if op.get("servers").is_some() {
                problems.push(format!("servers on {where_}"));
            }
            match op["operationId"].as_str() {
                Some(id) if NameRules::FUNCTION.is_valid(id) => {
                    if !ids.insert(id.to_owned()) {
                        problems.push(format!("duplicate operationId {id}"));
                    }
                }
                other => problems.push(format!("{where_}: bad operationId {other:?}")),
            }
            if op["responses"].as_object().is_none_or(|r| r.is_empty()) {
                problems.push(format!("{where_}: no response"));
            }
            for p in op["parameters"].as_array().into_iter().flatten() {
                let p = resolve(&spec, p);
                let n = p["name"].as_str().unwrap_or_default();
                if !NameRules::PARAMETER.is_valid(n) {
                    problems.push(format!("{where_}: parameter name {n:?}"));
                }
                check_schema(&spec, &p["schema"], &where_, &mut problems, &mut HashSet::new());
            }
            if let Some(content) = op["requestBody"]["content"].as_object() {
                for media in content.values() {
                    let schema = resolve(&spec, &media["schema"]);
                    for name in schema["properties"].as_object().into_iter().flat_map(|p| p.keys()) {
                        if !NameRules::PARAMETER.is_valid(name) {
                            problems.push(format!("{where_}: body parameter name {name:?}"));
                        }
                    }
                    check_schema(&spec, &media["schema"], &where_, &mut problems, &mut HashSet::new());
                }
            }
        }
    }
    // Every local `$ref` (schemas in `components.schemas` included) resolves inside the spec.
    let mut refs = Vec::new();
    toolport_plugin::definitions::refs_in_value(&spec, &mut refs);
    for reference in refs.into_iter().filter(|r| r.starts_with('#')) {
        if spec.pointer(&reference[1..]).is_none() {
            problems.push(format!("`$ref` {reference} does not resolve in the spec"));
        }
    }
    assert!(
        problems.is_empty(),
        "Vertex rules broken ({}):\n{}",
        problems.len(),
        problems.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
    spec
}

fn resolve<'a>(spec: &'a Value, value: &'a Value) -> &'a Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(r) => spec.pointer(r.trim_start_matches('#')).unwrap_or(&Value::Null),
        None => value,
    }
}

/// The Gemini/Vertex schema subset: string enums only, no oneOf/allOf/not, no type arrays.
fn check_schema(spec: &Value, schema: &Value, at: &str, problems: &mut Vec<String>, seen: &mut HashSet<String>) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        if seen.insert(r.to_owned()) {
            check_schema(spec, resolve(spec, schema), at, problems, seen);
        }
        return;
    }
    let Some(map) = schema.as_object() else { return };
    for key in ["oneOf", "allOf", "not", "const", "$defs", "uniqueItems", "exclusiveMinimum", "exclusiveMaximum"] {
        if map.contains_key(key) {
            problems.push(format!("{at}: schema has `{key}`"));
        }
    }
    if map.get("type").is_some_and(|t| !t.is_string()) {
        problems.push(format!("{at}: type {}", map["type"]));
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array)
        && !values.iter().all(Value::is_string)
    {
        problems.push(format!("{at}: non-string enum {values:?}"));
    }
    if let Some(items) = map.get("items") {
        check_schema(spec, items, at, problems, seen);
    }
    for value in map.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.values()) {
        check_schema(spec, value, at, problems, seen);
    }
    for value in map.get("anyOf").and_then(Value::as_array).into_iter().flatten() {
        check_schema(spec, value, at, problems, seen);
    }
    if let Some(additional) = map.get("additionalProperties").filter(|a| a.is_object()) {
        check_schema(spec, additional, at, problems, seen);
    }
}
