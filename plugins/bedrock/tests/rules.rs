//! The writer keeps Bedrock's rules on any model: names, non-empty descriptions, strictness
//! carried from OpenAI and Anthropic, and what Bedrock cannot hold reported.

use serde_json::{Value, json};
use toolport_format_bedrock::{Bedrock, NAME_RULES};
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{expect_ok, render};

/// Writes `model` twice (deterministic), checks every name against Bedrock's rule and their
/// uniqueness, and gives the tool configuration and the rendered diagnostics.
fn check(model: Value) -> (Value, String) {
    let model: ToolSet = serde_json::from_value(model).unwrap();
    let (bundle, diagnostics) = expect_ok(Bedrock.write(&model, &Options::default()), "write");
    let text = bundle.get("tools.json").expect("tools.json");
    let (again, _) = expect_ok(Bedrock.write(&model, &Options::default()), "write");
    assert_eq!(again.get("tools.json"), Some(text), "output is deterministic");
    let document: Value = serde_json::from_str(text).unwrap();
    let names: Vec<&str> =
        document["tools"].as_array().unwrap().iter().map(|t| t["toolSpec"]["name"].as_str().unwrap()).collect();
    assert!(names.iter().all(|n| NAME_RULES.is_valid(n)), "{names:?}");
    assert_eq!(names.iter().collect::<std::collections::HashSet<_>>().len(), names.len(), "{names:?}");
    (document, render(&diagnostics))
}

#[test]
fn names_descriptions_and_what_bedrock_cannot_hold() {
    let (document, diagnostics) = check(json!({
        "tools": [
            {"name": "pets/list all", "description": "", "title": "List pets",
             "parameters": [{"name": "limit", "schema": {"type": "integer"}}],
             "output": {"schema": {"type": "array", "items": {"type": "string"}}}},
            {"name": "pets_list_all", "description": "Same name once written."}
        ],
        "examples": [{"prompt": "List my pets", "expected": [{"calls_tool": {"tool": "pets/list all", "arguments": {}}}]}]
    }));
    let tools = document["tools"].as_array().unwrap();
    // An empty description is none; the title stands in (Bedrock refuses an empty one).
    assert_eq!(tools[0]["toolSpec"]["description"], "List pets");
    assert_eq!(tools[0]["toolSpec"]["inputSchema"]["json"]["properties"]["limit"], json!({"type": "integer"}));
    assert!(diagnostics.contains("changed/name"), "{diagnostics}");
    assert!(diagnostics.contains("loss/examples"), "{diagnostics}");
    assert!(diagnostics.contains("/tools/0/output"), "{diagnostics}");
    insta::assert_snapshot!("rules.diagnostics", diagnostics);
}

#[test]
fn strictness_from_openai_and_anthropic_is_carried() {
    let (document, diagnostics) = check(json!({"tools": [
        {"name": "a", "parameters": [{"name": "x", "required": true, "schema": {"type": "string"}}],
         "extras": {"openai": {"strict": true, "parametersRoot": {"additionalProperties": false}}}},
        {"name": "b", "extras": {"anthropic": {"input_schema": {"type": "object", "additionalProperties": false}}}},
        {"name": "c"}
    ]}));
    let tools = document["tools"].as_array().unwrap();
    assert_eq!(tools[0]["toolSpec"]["strict"], true);
    assert_eq!(tools[0]["toolSpec"]["inputSchema"]["json"]["additionalProperties"], false);
    assert!(tools[1]["toolSpec"].get("strict").is_none());
    assert_eq!(tools[1]["toolSpec"]["inputSchema"]["json"]["additionalProperties"], false);
    assert!(tools[2]["toolSpec"].get("strict").is_none());
    assert!(!diagnostics.contains("strict"), "strictness travelled, nothing to report: {diagnostics}");
}

#[test]
fn an_empty_tool_set_is_refused_not_written() {
    // Bedrock refuses a tool configuration without tools.
    let model: ToolSet = serde_json::from_value(json!({"tools": []})).unwrap();
    let outcome = Bedrock.write(&model, &Options::default());
    assert!(outcome.value.is_none());
    assert!(render(&outcome.diagnostics).contains("error[input/invalid]: the tool set has no tools"));
}
