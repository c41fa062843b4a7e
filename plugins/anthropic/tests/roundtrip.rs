//! Same-format round trips of the hand-written fixtures in fixtures/anthropic/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use serde_json::Value;
use toolport_format_anthropic::Anthropic;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{assert_same_json, expect_ok, fixture, load, read_ok, render};

fn check(file: &str) {
    let path = fixture(&format!("anthropic/{file}"));
    let stem = file.trim_end_matches(".json");
    let (model, read_diagnostics) = read_ok(&Anthropic, &load(&path));
    let mut options = Options::default();
    options.set(Options::OUTPUT_NAME, stem);
    let (bundle, write_diagnostics) = expect_ok(Anthropic.write(&model, &options), "write");
    assert!(write_diagnostics.is_empty(), "same-format write reported:\n{}", render(&write_diagnostics));
    let text = bundle.get(&format!("{stem}.json")).expect("the output file");
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_same_json(&original, &serde_json::from_str(text).unwrap(), file);
    let (again, _) = read_ok(&Anthropic, &Bundle::single(format!("{stem}.json"), text));
    assert_eq!(again, model, "read -> write -> read changed the model");
    insta::assert_json_snapshot!(format!("{stem}.model"), model);
    insta::assert_snapshot!(format!("{stem}.read-diagnostics"), render(&read_diagnostics));
    insta::assert_snapshot!(format!("{stem}.written"), text);
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
