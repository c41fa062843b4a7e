//! The writer enforces Anthropic's rules on any model: names, strict mode, and input examples
//! from canonical examples.

use serde_json::{Value, json};
use toolport_format_anthropic::{Anthropic, NAME_RULES};
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{expect_ok, render};

fn check(model: &ToolSet, options: &[(&str, &str)]) -> (Value, String) {
    let mut opts = Options::default();
    for (key, value) in options {
        opts.set(*key, *value);
    }
    let (bundle, diagnostics) = expect_ok(Anthropic.write(model, &opts), "write");
    let text = bundle.get("tools.json").expect("tools.json");
    let (again, _) = expect_ok(Anthropic.write(model, &opts), "write");
    assert_eq!(again.get("tools.json"), Some(text), "output is deterministic");
    let document: Value = serde_json::from_str(text).unwrap();
    let names: Vec<&str> = document.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.iter().all(|n| NAME_RULES.is_valid(n)), "{names:?}");
    assert_eq!(names.iter().collect::<std::collections::HashSet<_>>().len(), names.len(), "{names:?}");
    (document, render(&diagnostics))
}

#[test]
fn strict_mode_drops_constraints_and_refuses_recursion() {
    let model: ToolSet = serde_json::from_value(json!({"tools": [
        {"name": "transfer", "parameters": [
            {"name": "amount", "required": true, "schema": {"type": "number", "minimum": 0.01, "maximum": 10000}},
            {"name": "memo", "schema": {"type": "string", "max_length": 140}},
            {"name": "tags", "schema": {"type": "array", "items": {"type": "string"}, "max_items": 5}}
        ]},
        {"name": "tree", "parameters": [{"name": "node", "schema": {"reference": "node"}}]}
    ], "definitions": {"node": {"type": "object", "properties": [
        {"name": "children", "schema": {"type": "array", "items": {"reference": "node"}}}]}}}))
    .unwrap();
    let (document, diagnostics) = check(&model, &[("strict", "true")]);
    assert_eq!(document[0]["strict"], true);
    assert_eq!(document[1]["strict"], false);
    assert!(document[0]["input_schema"]["properties"]["amount"].get("minimum").is_none());
    // The recursive definition stays a `$ref` into the schema's own `$defs`.
    assert_eq!(document[1]["input_schema"]["properties"]["node"], json!({"$ref": "#/$defs/node"}));
    assert_eq!(document[1]["input_schema"]["$defs"]["node"]["properties"]["children"]["items"]["$ref"], "#/$defs/node");
    insta::assert_snapshot!("strict.diagnostics", diagnostics);
}

#[test]
fn examples_become_input_examples_and_the_rest_is_reported() {
    let model: ToolSet = serde_json::from_value(json!({
        "tools": [{"name": "get weather", "parameters": [
            {"name": "city", "required": true, "schema": {"type": "string"}},
            {"name": "unit", "schema": {"type": "object", "properties": [{"name": "system", "schema": {"type": "string"}}]}}]}],
        "examples": [
            {"prompt": "Weather in Paris?", "expected": [{"calls_tool": {"tool": "get weather",
                "arguments": {"city": {"eq": {"value": "Paris"}}, "unit.system": {"eq": {"value": "metric"}}}}}]},
            {"prompt": "", "expected": [{"includes": "sunny"},
                {"calls_tool": {"tool": "get weather", "arguments": {"city": {"matches": "^L"}}}}]}
        ]}))
    .unwrap();
    let (document, diagnostics) = check(&model, &[]);
    assert_eq!(document[0]["name"], "get_weather");
    assert_eq!(document[0]["input_examples"], json!([{"city": "Paris", "unit": {"system": "metric"}}]));
    insta::assert_snapshot!("examples.diagnostics", diagnostics);
}

#[test]
fn strictness_travels_in_from_openai() {
    // (tool extras, written `strict`, written input_schema additionalProperties)
    let cases = [
        (
            json!({"openai": {"strict": true, "parametersRoot": {"additionalProperties": false}}}),
            Some(json!(true)),
            Some(json!(false)),
        ),
        (json!({"openai": {"parametersRoot": {"additionalProperties": false}}}), None, Some(json!(false))),
        (json!({}), None, None),
    ];
    for (extras, strict, closed) in cases {
        let model: ToolSet = serde_json::from_value(json!({"tools": [{"name": "t", "description": "T.",
            "parameters": [{"name": "x", "required": true, "schema": {"type": "string"}}], "extras": extras}]}))
        .unwrap();
        let (document, diagnostics) = check(&model, &[]);
        assert_eq!(document[0].get("strict"), strict.as_ref(), "{extras}");
        assert_eq!(document[0]["input_schema"].get("additionalProperties"), closed.as_ref(), "{extras}");
        assert!(!diagnostics.contains("loss/extras"), "{diagnostics}");
    }
}

#[test]
fn input_examples_are_written_only_when_the_schema_accepts_them() {
    let parameters = json!([
        {"name": "city", "required": true, "schema": {"type": "string"}},
        {"name": "unit", "required": true, "schema": {"type": "string", "enum": [{"value": "c"}, {"value": "f"}], "default": "c"}},
        {"name": "days", "schema": {"type": "integer", "minimum": 1, "maximum": 7}},
        {"name": "where", "schema": {"reference": "Place"}}
    ]);
    let definitions = json!({"Place": {"type": "object", "properties": [
        {"name": "lat", "required": true, "schema": {"type": "number"}},
        {"name": "datum", "required": true, "schema": {"type": "string", "default": "WGS84"}}]}});
    // (arguments, extras of the tool, written input example; None: left out, and the words
    // its loss/examples diagnostic must have)
    let cases: Vec<(Value, Value, Option<Value>, &[&str])> = vec![
        (json!({"city": "Paris", "unit": "f"}), json!({}), Some(json!({"city": "Paris", "unit": "f"})), &[]),
        // A required value missing: completed from its default, nested ones too.
        (json!({"city": "Paris"}), json!({}), Some(json!({"city": "Paris", "unit": "c"})), &[]),
        (
            json!({"city": "Oslo", "where": {"lat": 59.9}}),
            json!({}),
            Some(json!({"city": "Oslo", "where": {"lat": 59.9, "datum": "WGS84"}, "unit": "c"})),
            &[],
        ),
        (json!({"unit": "c"}), json!({}), None, &["tool `forecast`", "`city` is required and has no default"]),
        (json!({"city": 3}), json!({}), None, &["`city` should be string, not a number"]),
        (json!({"city": "Rome", "unit": "k"}), json!({}), None, &["`unit` is \"k\", not one of"]),
        (json!({"city": "Rome", "days": 9}), json!({}), None, &["`days` is 9, outside the schema's bounds"]),
        (json!({"city": "Rome", "where": {}}), json!({}), None, &["`where.lat` is required"]),
        // An extra key: fine in an open schema, refused by a closed one.
        (json!({"city": "Rome", "x": 1}), json!({}), Some(json!({"city": "Rome", "x": 1, "unit": "c"})), &[]),
        (
            json!({"city": "Rome", "x": 1}),
            json!({"openai": {"parametersRoot": {"additionalProperties": false}}}),
            None,
            &["`x` is not a property of the closed schema"],
        ),
    ];
    for (arguments, extras, expect, words) in cases {
        let equalities: serde_json::Map<String, Value> =
            arguments.as_object().unwrap().iter().map(|(k, v)| (k.clone(), json!({"eq": {"value": v}}))).collect();
        let model: ToolSet = serde_json::from_value(json!({"definitions": definitions,
            "tools": [{"name": "forecast", "description": "Forecast.", "parameters": parameters, "extras": extras}],
            "examples": [{"prompt": "", "expected": [{"calls_tool": {"tool": "forecast", "arguments": equalities}}]}]}))
        .unwrap();
        let (document, diagnostics) = check(&model, &[]);
        let completed = expect.as_ref().is_some_and(|e| *e != arguments);
        assert_eq!(
            diagnostics.contains("completed from the schema's defaults"),
            completed,
            "{arguments}: {diagnostics}"
        );
        assert_eq!(document[0].get("input_examples"), expect.map(|e| json!([e])).as_ref(), "{arguments}");
        let lost = diagnostics.lines().filter(|l| l.contains("loss/examples")).collect::<Vec<_>>().join("\n");
        assert_eq!(lost.contains("(at /examples/0/expected/0)"), !words.is_empty(), "{arguments}: {diagnostics}");
        for word in words {
            assert!(lost.contains(word), "{arguments}: `{word}` in {lost}");
        }
    }
}

/// Each dropped constraint names its place in the schema, through properties, definitions,
/// items and alternatives; a property named like a keyword is a property, not a constraint.
#[test]
fn a_dropped_constraint_names_its_place_at_any_depth() {
    let mut schema = json!({"type": "object", "properties": {
        "list": {"type": "array", "items": {"anyOf": [{"type": "string", "maxLength": 3}, {"$ref": "#/$defs/n"}]}},
        "minimum": {"type": "string"}},
        "$defs": {"n": {"type": "integer", "minimum": 1}}});
    let said: Vec<String> = toolport_format_anthropic::strict::make_strict(&mut schema, "/tools/0/parameters")
        .unwrap()
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert_eq!(
        said,
        [
            "strict mode: `maxLength` is not supported and was dropped at #/properties/list/items/anyOf/0",
            "strict mode: `minimum` is not supported and was dropped at #/$defs/n",
        ]
    );
    assert_eq!(schema["properties"]["minimum"], json!({"type": "string"}));
}
