//! Same-format round trips of the hand-written fixtures in fixtures/mcp/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use serde_json::{Value, json};
use toolport_format_mcp::Mcp;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{read_ok, render, round_trip};

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
        (r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {}}]}}"#, 90),
        (r#"{"jsonrpc": "2.0", "id": 1, "result": {"content": []}}"#, 0),
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

#[test]
fn a_json_rpc_tools_list_response_is_read_and_written_back_in_its_envelope() {
    let response = json!({"jsonrpc": "2.0", "id": 7, "result": {
        "tools": [{"name": "get_weather", "description": "Weather.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
        "nextCursor": "abc"}});
    let trip = round_trip(&Mcp, &Bundle::single("tools.json", response.to_string()), &Options::default(), "envelope");
    assert_eq!(trip.model.tools[0].parameters[0].name, "city");
    assert!(trip.write_diagnostics.is_empty(), "{}", render(&trip.write_diagnostics));
    // Diagnostics point into the response.
    let unknown = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {}, "x": 1}]}});
    let (_, diagnostics) = read_ok(&Mcp, &Bundle::single("r.json", unknown.to_string()));
    assert!(render(&diagnostics).contains("(at /result/tools/0/x)"), "{}", render(&diagnostics));
    let failed = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}});
    let outcome = Mcp.read(&Bundle::single("r.json", failed.to_string()), &Options::default());
    assert!(render(&outcome.diagnostics).contains("error[input/invalid]: a JSON-RPC error response holds no tools"));
}

#[test]
fn other_languages_type_names_are_written_as_json_schema_types() {
    // A function-calling dataset's `dict`, `str`, `int`: written as JSON Schema, never as read.
    let tool = json!({"name": "f", "description": "F.",
        "inputSchema": {"type": "dict", "properties": {"a": {"type": "str"}, "n": {"type": "int"}}, "required": ["a"]},
        "outputSchema": {"type": "dict", "properties": {"ok": {"type": "bool"}}}});
    let outcome = Mcp.read(&Bundle::single("t.json", tool.to_string()), &Options::default());
    let model = outcome.value.expect("read");
    let changed: Vec<&str> =
        outcome.diagnostics.iter().filter(|d| d.code == "changed/schema").map(|d| d.path.as_str()).collect();
    assert_eq!(
        changed,
        [
            "/inputSchema/type",
            "/inputSchema/properties/a/type",
            "/inputSchema/properties/n/type",
            "/outputSchema/type",
            "/outputSchema/properties/ok/type"
        ]
    );
    let (bundle, _) = toolport_testkit::write_ok(&Mcp, &model);
    let written: Value = serde_json::from_str(bundle.get("tools.json").unwrap()).unwrap();
    assert_eq!(
        written["inputSchema"],
        json!({"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "integer"}}, "required": ["a"]})
    );
    assert_eq!(written["outputSchema"], json!({"type": "object", "properties": {"ok": {"type": "boolean"}}}));
}
