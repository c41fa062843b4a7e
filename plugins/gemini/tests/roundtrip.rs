//! Same-format round trips of the hand-written fixtures in fixtures/gemini/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use toolport_format_gemini::Gemini;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::render;

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(Gemini, "gemini", file);
}

#[test]
fn declarations_with_response_behavior_nullable_and_no_parameters() {
    check("lights.json");
}

#[test]
fn request_tools_with_upper_case_types_and_google_search() {
    check("tools-request.json");
}

#[test]
fn array_with_json_schema_variants_refs_and_any_of() {
    check("json-schema.json");
}

#[test]
fn detect_is_specific() {
    let cases: &[(&str, u8)] = &[
        (r#"{"functionDeclarations": [{"name": "a"}]}"#, 95),
        (r#"{"tools": [{"functionDeclarations": [{"name": "a"}]}]}"#, 95),
        (r#"[{"name": "a", "parameters": {"type": "object"}}]"#, 40),
        (r#"[{"type": "function", "function": {"name": "a"}}]"#, 0),
        (r#"[{"name": "a", "inputSchema": {"type": "object"}}]"#, 0),
        (r#"[{"name": "a", "input_schema": {"type": "object"}}]"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(Gemini.detect(&Bundle::single("x.json", *text)), *expect, "{text}");
    }
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text = "{\"functionDeclarations\": [\n  {\"description\": \"no name\"},\n  {\"name\": \"ok\"}\n]}";
    let outcome = Gemini.read(&Bundle::single("bad.json", text), &Options::default());
    assert_eq!(outcome.value.as_ref().expect("the valid tool is read").tools.len(), 1);
    insta::assert_snapshot!("bad-input", render(&outcome.diagnostics));
}
