//! Same-format round trips of the hand-written fixtures in fixtures/mcp/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use toolport_format_mcp::Mcp;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::render;

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(Mcp, "mcp", file);
}

#[test]
fn tools_list_result_with_output_schema_annotations_meta_and_icons() {
    check("filesystem.json");
}

#[test]
fn bare_array_with_refs_defs_and_one_of() {
    check("issue-tracker.json");
}

#[test]
fn one_tool_with_annotations_title() {
    check("weather-tool.json");
}

#[test]
fn detect_is_specific() {
    let cases: &[(&str, u8)] = &[
        (r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#, 90),
        (r#"[{"name": "a", "inputSchema": {"type": "object"}}]"#, 85),
        (r#"{"name": "a", "inputSchema": {"type": "object"}}"#, 80),
        (r#"[{"type": "function", "function": {"name": "a"}}]"#, 0),
        (r#"[{"name": "a", "input_schema": {"type": "object"}}]"#, 0),
        (r#"{"functionDeclarations": [{"name": "a"}]}"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(Mcp.detect(&Bundle::single("x.json", *text)), *expect, "{text}");
    }
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text =
        "{\"tools\": [\n  {\"title\": \"no name\"},\n  {\"name\": \"ok\", \"inputSchema\": {\"type\": \"object\"}}\n]}";
    let outcome = Mcp.read(&Bundle::single("bad.json", text), &Options::default());
    let model = outcome.value.as_ref().expect("the valid tool is read");
    assert_eq!(model.tools.len(), 1);
    insta::assert_snapshot!("bad-input", render(&outcome.diagnostics));
    let broken = Mcp.read(&Bundle::single("broken.json", "{\"tools\": [}"), &Options::default());
    assert!(broken.value.is_none());
    insta::assert_snapshot!("broken-json", render(&broken.diagnostics));
}
