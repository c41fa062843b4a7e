//! The writer enforces OpenAI's rules on any model: names, and strict mode when asked for.

use crate::support;

use serde_json::{Value, json};
use toolport_format_openai::OpenAi;
use toolport_plugin::{Format, Options, ToolSet};
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
    let (document, _) =
        check(&model(json!({"tools": [{"name": "ping", "description": "Ping."}]})), &[("form", "responses")]);
    assert_eq!(
        document,
        json!([{"type": "function", "name": "ping", "description": "Ping.", "parameters": {"type": "object", "properties": {}}, "strict": false}])
    );
}

#[test]
fn strict_outputs_keep_only_the_documented_subset_each_drop_named() {
    // (parameter schema, written strict schema of `p`, names the diagnostics must mention)
    let cases = [
        (
            json!({"type": "string", "min_length": 1, "max_length": 9, "format": "uri",
                "extras": {"jsonschema": {"readOnly": true, "deprecated": true}}}),
            json!({"type": "string"}),
            vec!["`minLength`", "`maxLength`", "format `uri`", "`readOnly`", "`deprecated`"],
        ),
        (json!({"type": "string", "format": "date-time"}), json!({"type": "string", "format": "date-time"}), vec![]),
        (
            json!({"any_of": [{"reference": "A", "description": "An A."}, {"type": "integer"}]}),
            json!({"anyOf": [{"description": "An A.", "anyOf": [{"$ref": "#/$defs/A"}]}, {"type": "integer"}]}),
            vec!["a `$ref` with a description"],
        ),
    ];
    for (schema, expect, named) in cases {
        let model = model(json!({"definitions": {"A": {"type": "string"}},
            "tools": [{"name": "t", "description": "T.", "parameters": [{"name": "p", "required": true, "schema": schema}]}]}));
        let (document, diagnostics) = check(&model, &[("strict", "true")]);
        assert_eq!(document[0]["function"]["parameters"]["properties"]["p"], expect, "{schema}");
        for name in named {
            assert!(diagnostics.contains(name), "{name} in {diagnostics}");
        }
    }
}

#[test]
fn strictness_travels_in_from_anthropic_and_built_in_tools_are_named() {
    let model = model(json!({"tools": [{"name": "t", "description": "T.",
        "parameters": [{"name": "x", "required": true, "schema": {"type": "string"}}],
        "extras": {"anthropic": {"strict": true}}}]}));
    let (document, _) = check(&model, &[]);
    assert_eq!(document[0]["function"]["strict"], json!(true));
    assert_eq!(document[0]["function"]["parameters"]["additionalProperties"], json!(false));

    let source =
        json!([{"type": "web_search_preview"}, {"type": "function", "name": "f", "parameters": {"type": "object"}}]);
    let (_, diagnostics) =
        toolport_testkit::read_ok(&OpenAi, &toolport_plugin::Bundle::single("tools.json", source.to_string()));
    assert!(render(&diagnostics).contains("built-in tool `web_search_preview`"), "{}", render(&diagnostics));
}

#[test]
fn responses_tools_always_say_strict_and_read_back_the_same() {
    let parameters = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"],
        "additionalProperties": false});
    let responses = |strict: Option<Value>| {
        let mut tool = json!({"type": "function", "name": "find", "description": "Find.", "parameters": parameters});
        if let Some(strict) = strict {
            tool["strict"] = strict;
        }
        json!([tool])
    };
    let chat =
        json!([{"type": "function", "function": {"name": "find", "description": "Find.", "parameters": parameters}}]);
    // (source, options, written `strict`, a changed/value diagnostic about it)
    let cases = [
        (responses(Some(json!(true))), vec![], Some(json!(true)), false),
        (responses(Some(json!(false))), vec![], Some(json!(false)), false),
        (responses(Some(Value::Null)), vec![], Some(Value::Null), false),
        (responses(None), vec![], Some(json!(false)), true),
        (responses(None), vec![("strict", "true")], Some(json!(true)), false),
        (chat.clone(), vec![("form", "responses")], Some(json!(false)), false),
        (chat.clone(), vec![("form", "responses"), ("strict", "true")], Some(json!(true)), false),
        // The Chat form and the legacy `functions` list (no `type`) need no `strict`.
        (chat, vec![], None, false),
        (json!([{"name": "find", "parameters": parameters}]), vec![], None, false),
    ];
    for (source, options, strict, reported) in cases {
        let bundle = toolport_plugin::Bundle::single("tools.json", source.to_string());
        let (model, _) = toolport_testkit::read_ok(&OpenAi, &bundle);
        let (document, diagnostics) = check(&model, &options);
        let tool = document[0].get("function").unwrap_or(&document[0]);
        assert_eq!(tool.get("strict"), strict.as_ref(), "{source} {options:?}");
        assert_eq!(diagnostics.contains("the Responses form requires `strict`"), reported, "{source}: {diagnostics}");
        // Reading the output back and writing it again gives the same document.
        let written = toolport_plugin::Bundle::single("tools.json", document.to_string());
        let (again, _) = toolport_testkit::read_ok(&OpenAi, &written);
        let (twice, _) = check(&again, &options);
        assert_eq!(twice, document, "{source} {options:?}");
    }
}

#[test]
fn a_responses_tool_without_parameters_gets_them_with_a_word() {
    let source = json!([{"type": "function", "name": "ping", "description": "Ping.", "strict": false}]);
    let (model, _) =
        toolport_testkit::read_ok(&OpenAi, &toolport_plugin::Bundle::single("tools.json", source.to_string()));
    let (document, diagnostics) = check(&model, &[]);
    assert_eq!(document[0]["parameters"], json!({"type": "object", "properties": {}}));
    assert!(diagnostics.contains("the Responses form requires `parameters`"), "{diagnostics}");
    // The Chat form may leave them out, as its source did.
    let chat = json!([{"type": "function", "function": {"name": "ping", "description": "Ping."}}]);
    let (model, _) =
        toolport_testkit::read_ok(&OpenAi, &toolport_plugin::Bundle::single("tools.json", chat.to_string()));
    let (document, diagnostics) = check(&model, &[]);
    assert_eq!(document[0]["function"].get("parameters"), None);
    assert_eq!(diagnostics, "");
}
