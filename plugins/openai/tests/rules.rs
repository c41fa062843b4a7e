//! The writer enforces OpenAI's rules on any model: names, and strict mode when asked for.

mod support;

use serde_json::{Value, json};
use toolport_plugin::{Format, Options, ToolSet};
use toolport_format_openai::OpenAi;
use toolport_testkit::{expect_ok, render};

fn model(value: Value) -> ToolSet {
    serde_json::from_value(value).expect("a canonical model")
}

/// Writes `model` with `options`, checks the output against OpenAI's rules, and returns the
/// written document and the rendered diagnostics.
fn check(model: &ToolSet, options: &[(&str, &str)]) -> (Value, String) {
    let mut opts = Options::default();
    for (key, value) in options {
        opts.set(*key, *value);
    }
    let (bundle, diagnostics) = expect_ok(OpenAi.write(model, &opts), "write");
    let text = bundle.get("tools.json").expect("tools.json");
    let (again, _) = expect_ok(OpenAi.write(model, &opts), "write");
    assert_eq!(again.get("tools.json"), Some(text), "output is deterministic");
    let document: Value = serde_json::from_str(text).unwrap();
    assert_eq!(support::violations(&document), Vec::<String>::new());
    (document, render(&diagnostics))
}

fn tools() -> Value {
    json!({"tools": [
        {"name": "find_flights", "description": "Search flights.", "parameters": [
            {"name": "from", "required": true, "schema": {"type": "string", "pattern": "^[A-Z]{3}$"}},
            {"name": "to", "required": true, "schema": {"type": "string"}},
            {"name": "passengers", "schema": {"type": "integer", "default": 1, "minimum": 1}},
            {"name": "cabin", "schema": {"type": "string", "enum": [{"value": "economy"}, {"value": "business"}]}},
            {"name": "filters", "schema": {"type": "object", "properties": [
                {"name": "max_price", "schema": {"type": "number"}},
                {"name": "airlines", "required": true, "schema": {"type": "array", "items": {"type": "string"}}}
            ]}},
            {"name": "either", "schema": {"any_of": [{"type": "string"}, {"type": "integer"}],
                "extras": {"jsonschema": {"x-toolport-one-of": true, "not": {"type": "null"}}}}}
        ]}
    ]})
}

#[test]
fn strict_mode_rewrites_every_object_and_reports_each_change() {
    let (document, diagnostics) = check(&model(tools()), &[("strict", "true")]);
    insta::assert_json_snapshot!("strict.written", document);
    insta::assert_snapshot!("strict.diagnostics", diagnostics);
}

#[test]
fn without_strict_the_schema_is_written_as_is() {
    let (document, diagnostics) = check(&model(tools()), &[]);
    assert!(document[0].get("function").unwrap().get("strict").is_none());
    assert_eq!(document[0]["function"]["parameters"]["properties"]["passengers"]["default"], 1);
    assert_eq!(diagnostics, "");
}

#[test]
fn strict_mode_is_turned_off_when_a_limit_is_exceeded() {
    let values: Vec<Value> = (0..1001).map(|i| json!({"value": format!("v{i}")})).collect();
    let big = model(json!({"tools": [{"name": "pick", "parameters": [
        {"name": "value", "required": true, "schema": {"type": "string", "enum": values}}
    ]}]}));
    let (document, diagnostics) = check(&big, &[("strict", "true")]);
    assert_eq!(document[0]["function"]["strict"], false);
    insta::assert_snapshot!("strict-limit.diagnostics", diagnostics);
}

#[test]
fn names_are_made_valid_unique_and_deterministic() {
    let long = "get_".repeat(30);
    let names = model(json!({"tools": [
        {"name": "get weather"},
        {"name": "get_weather"},
        {"name": "repos/get-content"},
        {"name": "résumé.upload"},
        {"name": long},
        {"name": format!("{long}x")},
        {"name": ""},
        {"name": "already-valid_Name-1"}
    ]}));
    let (document, diagnostics) = check(&names, &[]);
    let written: Vec<&str> =
        document.as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    insta::assert_json_snapshot!("names.written", written);
    insta::assert_snapshot!("names.diagnostics", diagnostics);
}

#[test]
fn responses_form_on_request() {
    let (document, _) = check(&model(json!({"tools": [{"name": "ping"}]})), &[("form", "responses")]);
    assert_eq!(
        document,
        json!([{"type": "function", "name": "ping", "parameters": {"type": "object", "properties": {}}}])
    );
}
