//! Same-format round trips of the hand-written fixtures in fixtures/mcp/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use serde_json::Value;
use toolport_format_mcp::Mcp;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{assert_same_json, expect_ok, fixture, load, read_ok, render};

fn check(file: &str) {
    let path = fixture(&format!("mcp/{file}"));
    let stem = file.trim_end_matches(".json");
    let (model, read_diagnostics) = read_ok(&Mcp, &load(&path));
    let mut options = Options::default();
    options.set(Options::OUTPUT_NAME, stem);
    let (bundle, write_diagnostics) = expect_ok(Mcp.write(&model, &options), "write");
    assert!(write_diagnostics.is_empty(), "same-format write reported:\n{}", render(&write_diagnostics));
    let text = bundle.get(&format!("{stem}.json")).expect("the output file");
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_same_json(&original, &serde_json::from_str(text).unwrap(), file);
    let (again, _) = read_ok(&Mcp, &Bundle::single(format!("{stem}.json"), text));
    assert_eq!(again, model, "read -> write -> read changed the model");
    insta::assert_json_snapshot!(format!("{stem}.model"), model);
    insta::assert_snapshot!(format!("{stem}.read-diagnostics"), render(&read_diagnostics));
    insta::assert_snapshot!(format!("{stem}.written"), text);
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
