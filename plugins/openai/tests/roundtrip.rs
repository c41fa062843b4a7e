//! Same-format round trips of the hand-written fixtures in fixtures/openai/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use toolport_format_openai::OpenAi;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::render;

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(OpenAi, "openai", file);
}

#[test]
fn chat_completions_array_with_strict_optional_and_parameterless_tools() {
    check("chat-tools.json");
}

#[test]
fn responses_flat_form_with_built_in_tools_and_document_keys() {
    check("responses-tools.json");
}

#[test]
fn one_strict_tool_with_recursive_defs_and_any_of() {
    check("ui-function.json");
}

#[test]
fn detect_is_specific() {
    let cases: &[(&str, u8)] = &[
        (r#"[{"type": "function", "function": {"name": "a"}}]"#, 90),
        (r#"{"tools": [{"type": "function", "name": "a"}, {"type": "web_search"}]}"#, 70),
        (r#"{"type": "function", "function": {"name": "a"}}"#, 85),
        (r#"[{"name": "a", "inputSchema": {"type": "object"}}]"#, 0),
        (r#"[{"name": "a", "input_schema": {"type": "object"}}]"#, 0),
        (r#"{"functionDeclarations": [{"name": "a"}]}"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(OpenAi.detect(&Bundle::single("x.json", *text)), *expect, "{text}");
    }
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text = "[\n  {\"type\": \"function\", \"function\": {\"description\": \"no name\"}},\n  {\"type\": \"function\", \"function\": {\"name\": \"ok\"}}\n]";
    let outcome = OpenAi.read(&Bundle::single("bad.json", text), &Options::default());
    assert_eq!(outcome.value.as_ref().expect("the valid tool is read").tools.len(), 1);
    insta::assert_snapshot!("bad-input", render(&outcome.diagnostics));
}

/// A schema the model cannot give back as spelled (here through `allOf`) is kept as written
/// only when the conversion may go back to openai (`Options::TARGET_FORMAT` openai, or none);
/// toward another format the reader keeps only the root's keys the model lacks, and the same
/// parameters are read either way.
#[test]
fn a_schema_is_kept_as_written_only_toward_openai() {
    use toolport_plugin::{Bundle, Format, Options};
    let tools = serde_json::json!([{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "additionalProperties": false,
        "properties": {"a": {"allOf": [{"type": "string"}, {"maxLength": 3}]}}}}}]);
    let input = Bundle::single("tools.json", tools.to_string());
    let read = |target: Option<&str>| {
        let mut options = Options::default();
        if let Some(target) = target {
            options.set(Options::TARGET_FORMAT, target);
        }
        let (model, _) = toolport_testkit::expect_ok(toolport_format_openai::OpenAi.read(&input, &options), "read");
        model
    };
    let kept = |model: &toolport_plugin::ToolSet| {
        let extras = model.tools[0].extras.get("openai").and_then(|e| e.as_object()).cloned().unwrap_or_default();
        (extras.contains_key("parameters"), extras.get("parametersRoot").cloned())
    };
    let (back, elsewhere, unnamed) = (read(Some("openai")), read(Some("anthropic")), read(None));
    assert_eq!(kept(&back), (true, None));
    assert_eq!(kept(&unnamed), (true, None));
    assert_eq!(kept(&elsewhere), (false, Some(serde_json::json!({"additionalProperties": false}))));
    assert_eq!(elsewhere.tools[0].parameters, back.tools[0].parameters);
}
