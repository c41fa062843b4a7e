//! Same-format round trips of the hand-written fixtures in fixtures/mcp-prompts/: read -> write
//! gives back the same JSON document, and the model and the written text are golden snapshots.

use toolport_format_mcp_prompts::McpPrompts;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::render;

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(McpPrompts, "mcp-prompts", file);
}

#[test]
fn list_with_templates_icons_and_a_cursor() {
    check("prompts.json");
}

#[test]
fn json_rpc_response_with_a_template_of_two_messages() {
    check("get-prompts-response.json");
}

#[test]
fn detect_is_specific() {
    let cases: &[(&str, u8)] = &[
        (r#"{"prompts": [{"name": "a", "arguments": []}]}"#, 90),
        (r#"{"jsonrpc": "2.0", "id": 1, "result": {"prompts": [{"name": "a"}]}}"#, 90),
        (r#"{"prompts": [{"name": "a"}, {"title": "no name"}]}"#, 70),
        (r#"{"prompts": []}"#, 0),
        (r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#, 0),
        (r#"[{"name": "a", "arguments": []}]"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(McpPrompts.detect(&Bundle::single("x.json", *text)), *expect, "{text}");
    }
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text = "{\"prompts\": [\n  {\"description\": \"no name\"},\n  {\"name\": \"ok\", \"arguments\": [{\"name\": \"a\", \"required\": \"yes\"}, 3, {\"title\": \"t\"}]},\n  {\"name\": \"bad args\", \"arguments\": {\"a\": 1}}\n]}";
    let outcome = McpPrompts.read(&Bundle::single("bad.json", text), &Options::default());
    assert_eq!(outcome.value.as_ref().expect("the valid prompts are read").tools.len(), 2);
    insta::assert_snapshot!("bad-input", render(&outcome.diagnostics));
}

#[test]
fn a_tool_list_is_not_prompts() {
    let text = r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#;
    let outcome = McpPrompts.read(&Bundle::single("tools.json", text), &Options::default());
    assert!(outcome.value.is_none());
    assert!(render(&outcome.diagnostics).contains("tools.json:1:1: error[input/invalid]: expected MCP prompts"));
}
