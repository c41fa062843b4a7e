//! Same-format round trips of the hand-written fixtures in fixtures/openai/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use serde_json::Value;
use toolport_format_openai::OpenAi;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{assert_same_json, expect_ok, fixture, load, read_ok, render};

fn check(file: &str) {
    let path = fixture(&format!("openai/{file}"));
    let stem = file.trim_end_matches(".json");
    let (model, read_diagnostics) = read_ok(&OpenAi, &load(&path));
    let mut options = Options::default();
    options.set(Options::OUTPUT_NAME, stem);
    let (bundle, write_diagnostics) = expect_ok(OpenAi.write(&model, &options), "write");
    assert!(write_diagnostics.is_empty(), "same-format write reported:\n{}", render(&write_diagnostics));
    let text = bundle.get(&format!("{stem}.json")).expect("the output file");
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_same_json(&original, &serde_json::from_str(text).unwrap(), file);
    let (again, _) = read_ok(&OpenAi, &Bundle::single(format!("{stem}.json"), text));
    assert_eq!(again, model, "read -> write -> read changed the model");
    insta::assert_json_snapshot!(format!("{stem}.model"), model);
    insta::assert_snapshot!(format!("{stem}.read-diagnostics"), render(&read_diagnostics));
    insta::assert_snapshot!(format!("{stem}.written"), text);
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
