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
