//! The writer turns any model into prompts: templates into `_meta`, parameters into string
//! arguments, and says what a prompt cannot hold.

use serde_json::{Value, json};
use toolport_format_mcp_prompts::{MESSAGES_META, McpPrompts};
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{expect_ok, render};

fn check(model: Value) -> (Value, String) {
    let model: ToolSet = serde_json::from_value(model).unwrap();
    let (bundle, diagnostics) = expect_ok(McpPrompts.write(&model, &Options::default()), "write");
    let document: Value = serde_json::from_str(bundle.get("tools.json").expect("tools.json")).unwrap();
    (document, render(&diagnostics))
}

#[test]
fn a_template_becomes_a_prompt_with_string_arguments() {
    let (document, diagnostics) = check(json!({"tools": [{
    "name": "translate", "description": "Translates a text.",
    "prompt": "Translate into {{target}} ({{formality}} register):\n{{text}}",
    "model_settings": {"temperature": 0.2},
    "parameters": [
        {"name": "text", "required": true, "schema": {"type": "string", "description": "What to translate"}},
        {"name": "target", "required": true, "schema": {"type": "string", "enum": [{"value": "fr"}, {"value": "de"}]}},
        {"name": "formality", "schema": {"type": "integer", "minimum": 0, "maximum": 2}}
    ]}]}));
    let prompt = &document["prompts"][0];
    assert_eq!(prompt["name"], "translate");
    assert_eq!(
        prompt["_meta"][MESSAGES_META],
        json!([{"role": "user", "content": {"type": "text", "text": "Translate into {{target}} ({{formality}} register):\n{{text}}"}}])
    );
    assert_eq!(
        prompt["arguments"],
        json!([
            {"name": "text", "description": "What to translate", "required": true},
            {"name": "target", "required": true},
            {"name": "formality", "required": false}
        ])
    );
    // Every loss is named: the enum, the bounds, the type, the model settings.
    insta::assert_snapshot!("template.diagnostics", diagnostics);
}

#[test]
fn a_function_tool_without_a_template_gets_none_made_up() {
    let (document, diagnostics) = check(json!({"tools": [{"name": "get weather", "parameters": [
        {"name": "city", "required": true, "schema": {"type": "string"}},
        {"name": "where", "schema": {"type": "object", "properties": [{"name": "lat", "schema": {"type": "number"}}]}}
    ], "http": {"method": "GET", "path": "/weather"}}]}));
    let prompt = &document["prompts"][0];
    assert!(prompt.get("_meta").is_none(), "no template invented: {prompt}");
    assert!(prompt.get("description").is_none(), "no description invented: {prompt}");
    assert_eq!(prompt["name"], "get_weather");
    for expected in ["changed/name", "changed/schema", "loss/http", "properties"] {
        assert!(diagnostics.contains(expected), "{expected} in {diagnostics}");
    }
}

#[test]
fn a_placeholder_without_a_parameter_becomes_an_optional_argument() {
    let (document, diagnostics) = check(json!({"tools": [{"name": "note",
        "prompt": "Write a {{tone}} note to {{ who }} about {{topic}}; {{ }} stays text",
        "parameters": [{"name": "topic", "required": true, "schema": {"type": "string"}}]}]}));
    let names: Vec<&str> =
        document["prompts"][0]["arguments"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["topic", "tone", "who"]);
    assert_eq!(diagnostics.matches("generated/content").count(), 2, "{diagnostics}");
}

#[test]
fn a_template_of_many_placeholders_is_written_in_linear_time() {
    // 40,000 distinct placeholders, each used twice: a scan per placeholder would be 10^9 steps.
    let template: String = (0..40_000).map(|i| format!("{{{{p{i}}}}} {{{{p{i}}}}} ")).collect();
    let (document, _) = check(json!({"tools": [{"name": "many", "prompt": template}]}));
    let arguments = document["prompts"][0]["arguments"].as_array().unwrap();
    assert_eq!(arguments.len(), 40_000);
    assert_eq!(arguments[39_999]["name"], "p39999");
}
