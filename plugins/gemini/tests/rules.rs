//! The writer enforces Gemini's rules on any model: function names and the schema subset.

use crate::support;

use serde_json::{Value, json};
use support::violations;
use toolport_format_gemini::Gemini;
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{expect_ok, render};

fn check(model: &ToolSet) -> (Value, String) {
    let (bundle, diagnostics) = expect_ok(Gemini.write(model, &Options::default()), "write");
    let text = bundle.get("tools.json").expect("tools.json");
    let (again, _) = expect_ok(Gemini.write(model, &Options::default()), "write");
    assert_eq!(again.get("tools.json"), Some(text), "output is deterministic");
    let document: Value = serde_json::from_str(text).unwrap();
    assert_eq!(violations(&document), Vec::<String>::new());
    (document, render(&diagnostics))
}

#[test]
fn schemas_are_brought_into_the_subset_with_a_diagnostic_per_change() {
    let model: ToolSet = serde_json::from_value(json!({"tools": [{"name": "configure", "parameters": [
        {"name": "level", "required": true, "schema": {"type": "integer", "enum": [{"value": 1}, {"value": 2}]}},
        {"name": "homepage", "schema": {"type": "string", "format": "uri", "pattern": "^https://"}},
        {"name": "ratio", "schema": {"type": "number", "exclusive_minimum": 0, "format": "double"}},
        {"name": "tags", "schema": {"type": "array", "unique_items": true, "items": {"type": "string"}}},
        {"name": "labels", "schema": {"type": "object", "additional_properties": {"type": "string"}}},
        {"name": "target", "schema": {"any_of": [{"type": "string"}, {"type": "integer"}],
            "extras": {"jsonschema": {"x-toolport-one-of": true, "$comment": "either"}}}},
        {"name": "note", "schema": {"type": "string", "nullable": true, "multiline": true}}
    ]}, {"name": "no_arguments"}]}))
    .unwrap();
    let (document, diagnostics) = check(&model);
    insta::assert_json_snapshot!("subset.written", document);
    insta::assert_snapshot!("subset.diagnostics", diagnostics);
}

#[test]
fn names_are_made_valid_unique_and_deterministic() {
    let long = "list_".repeat(20);
    let model: ToolSet = serde_json::from_value(json!({"tools": [
        {"name": "repos/get-content"}, {"name": "repos get-content"}, {"name": "1password.lookup"},
        {"name": long}, {"name": format!("{long}_v2")}, {"name": "weather:today"}, {"name": "ok.name-1"}
    ]}))
    .unwrap();
    let (document, diagnostics) = check(&model);
    let names: Vec<&str> =
        document["functionDeclarations"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    insta::assert_json_snapshot!("names.written", names);
    insta::assert_snapshot!("names.diagnostics", diagnostics);
}

#[test]
fn json_schema_variant_on_request() {
    let model: ToolSet = serde_json::from_value(json!({"tools": [{"name": "f", "description": "F.", "parameters": [
        {"name": "n", "schema": {"type": "integer", "enum": [{"value": 1}]}}]}]}))
    .unwrap();
    let mut options = Options::default();
    options.set("schema", "json");
    let (bundle, diagnostics) = expect_ok(Gemini.write(&model, &options), "write");
    let document: Value = serde_json::from_str(bundle.get("tools.json").unwrap()).unwrap();
    assert_eq!(document["functionDeclarations"][0]["parametersJsonSchema"]["properties"]["n"]["enum"], json!([1]));
    assert!(diagnostics.is_empty(), "{}", render(&diagnostics));
}

#[test]
fn parameter_names_follow_gemini_rule_in_both_schema_forms() {
    let model: ToolSet = serde_json::from_value(json!({"tools": [{"name": "f", "description": "F.", "parameters": [
        {"name": "include[]", "required": true, "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "áreas de enfoque", "schema": {"type": "object", "properties": [{"name": "Details.Message", "schema": {"type": "string"}}]}},
        {"name": "list_id", "schema": {"type": "string"}},
        {"name": "list-id", "schema": {"type": "string"}}]}],
        "extras": {"gemini": {}}}))
    .unwrap();
    for (option, key) in [(None, "parameters"), (Some("json"), "parametersJsonSchema")] {
        let mut options = Options::default();
        if let Some(form) = option {
            options.set("schema", form);
        }
        let (bundle, diagnostics) = expect_ok(Gemini.write(&model, &options), "write");
        let document: Value = serde_json::from_str(bundle.get("tools.json").unwrap()).unwrap();
        let schema = &document["functionDeclarations"][0][key];
        let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(names, ["include_", "areas_de_enfoque", "list_id", "list_id_82def689"], "{key}");
        assert_eq!(schema["required"], json!(["include_"]));
        assert!(schema["properties"]["areas_de_enfoque"]["properties"].get("Details_Message").is_some());
        let rendered = render(&diagnostics);
        assert!(rendered.contains("(map back: `include_` -> `include[]`)"), "{rendered}");
    }
}

#[test]
fn json_schema_form_uses_json_schema_type_names() {
    let source = json!({"functionDeclarations": [{"name": "f", "description": "F.",
        "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}]});
    let (model, _) = toolport_testkit::read_ok(&Gemini, &toolport_plugin::Bundle::single("t.json", source.to_string()));
    let mut options = Options::default();
    options.set("schema", "json");
    let (bundle, _) = expect_ok(Gemini.write(&model, &options), "write");
    let document: Value = serde_json::from_str(bundle.get("tools.json").unwrap()).unwrap();
    assert_eq!(
        document["functionDeclarations"][0]["parametersJsonSchema"],
        json!({"type": "object", "properties": {"a": {"type": "string"}}})
    );
    // The same document written back in its own form keeps its upper-case spelling.
    let (bundle, _) = expect_ok(Gemini.write(&model, &Options::default()), "write");
    assert!(bundle.get("tools.json").unwrap().contains("\"OBJECT\""));
}

/// Declarations whose results are the same bare reference share one written `response` while
/// the document's budget affords it again, what it said (Gemini has no `uniqueItems`) said again
/// at each declaration's place: the same document and diagnostics as written one by one.
#[test]
fn responses_shared_by_declarations_are_those_written_one_by_one() {
    toolport_testkit::check_shared_outputs(
        &Gemini,
        |document| {
            let declarations = document["functionDeclarations"].as_array_mut().unwrap().iter_mut();
            declarations.map(|declaration| &mut declaration["response"]).collect()
        },
        300,
    );
}
