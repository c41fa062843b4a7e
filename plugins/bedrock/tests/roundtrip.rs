//! Same-format round trips of the hand-written fixtures in fixtures/bedrock/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use toolport_format_bedrock::Bedrock;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::render;

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(Bedrock, "bedrock", file);
}

#[test]
fn tool_configuration_with_strict_refs_cache_point_and_tool_choice() {
    check("weather-config.json");
}

#[test]
fn whole_converse_request_with_a_system_tool() {
    check("converse-request.json");
}

#[test]
fn one_tool_with_strict_off_and_no_description() {
    check("one-tool.json");
}

#[test]
fn detect_is_specific() {
    let cases: &[(&str, u8)] = &[
        (r#"{"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": {}}}}]}"#, 90),
        (
            r#"{"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": {}}}}, {"cachePoint": {"type": "default"}}]}"#,
            70,
        ),
        (r#"{"modelId": "m", "toolConfig": {"tools": []}}"#, 95),
        (r#"[{"toolSpec": {"name": "a", "inputSchema": {"json": {}}}}]"#, 90),
        (r#"{"toolSpec": {"name": "a", "inputSchema": {"json": {}}}}"#, 85),
        (r#"{"modelId": "m", "messages": []}"#, 0),
        (r#"[{"name": "a", "input_schema": {"type": "object"}}]"#, 0),
        (r#"[{"name": "a", "inputSchema": {"type": "object"}}]"#, 0),
        (r#"[{"type": "function", "function": {"name": "a"}}]"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(Bedrock.detect(&Bundle::single("x.json", *text)), *expect, "{text}");
    }
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text = "{\"tools\": [\n  {\"toolSpec\": {\"description\": \"no name\"}},\n  {\"toolSpec\": {\"name\": \"ok\", \"inputSchema\": {\"type\": \"object\"}}, \"cachePoint\": {}},\n  \"oops\",\n  {\"toolSpec\": {\"name\": \"has space\", \"input_schema\": {}, \"inputSchema\": {\"json\": {}}, \"x-owner\": \"ops\"}}\n]}";
    let outcome = Bedrock.read(&Bundle::single("bad.json", text), &Options::default());
    // The valid tools are read (the errors still fail the input: Bedrock refuses the document).
    assert_eq!(outcome.value.as_ref().expect("the valid tools are read").tools.len(), 2);
    insta::assert_snapshot!("bad-input", render(&outcome.diagnostics));
}

#[test]
fn a_request_without_a_tool_list_is_an_error_naming_the_place() {
    let outcome = Bedrock.read(
        &Bundle::single("req.json", r#"{"modelId": "m", "toolConfig": {"toolChoice": {}}}"#),
        &Options::default(),
    );
    assert!(outcome.value.is_none());
    let text = render(&outcome.diagnostics);
    assert!(text.contains("req.json:1:") && text.contains("/toolConfig"), "{text}");
}
