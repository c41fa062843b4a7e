//! Same-format round trips of the hand-written fixtures in fixtures/anthropic/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use toolport_format_anthropic::Anthropic;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::render;

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(Anthropic, "anthropic", file);
}

#[test]
fn array_with_input_examples_and_cache_control() {
    check("support-tools.json");
}

#[test]
fn wrapped_with_strict_recursive_schema_and_empty_examples() {
    check("strict-tools.json");
}

#[test]
fn one_tool_with_examples_and_an_unknown_key() {
    check("one-tool.json");
}

#[test]
fn detect_is_specific() {
    let cases: &[(&str, u8)] = &[
        (r#"[{"name": "a", "input_schema": {"type": "object"}}]"#, 90),
        (
            r#"{"tools": [{"name": "a", "input_schema": {}}, {"type": "web_search_20250305", "name": "web_search"}]}"#,
            70,
        ),
        (r#"{"name": "a", "input_schema": {"type": "object"}}"#, 85),
        (r#"[{"name": "a", "inputSchema": {"type": "object"}}]"#, 0),
        (r#"[{"type": "function", "function": {"name": "a"}}]"#, 0),
        (r#"{"functionDeclarations": [{"name": "a"}]}"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(Anthropic.detect(&Bundle::single("x.json", *text)), *expect, "{text}");
    }
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text = "[\n  {\"description\": \"no name\"},\n  {\"name\": \"ok\", \"input_schema\": {\"type\": \"object\"}, \"input_examples\": \"oops\"}\n]";
    let outcome = Anthropic.read(&Bundle::single("bad.json", text), &Options::default());
    assert_eq!(outcome.value.as_ref().expect("the valid tool is read").tools.len(), 1);
    insta::assert_snapshot!("bad-input", render(&outcome.diagnostics));
}
