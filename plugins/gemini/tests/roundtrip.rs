//! Same-format round trips of the hand-written fixtures in fixtures/gemini/: read -> write gives
//! back the same JSON document, and the model and the written text are golden snapshots.

use serde_json::json;
use toolport_format_gemini::Gemini;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{render, round_trip};

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
        (r#"{"function_declarations": [{"name": "a"}]}"#, 95),
        (r#"{"tools": [{"function_declarations": [{"name": "a"}]}]}"#, 95),
        // Recognised, so the reader's located error is what the user sees.
        (r#"{"functionDeclarations": {"name": "a"}}"#, 95),
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

#[test]
fn rest_snake_case_documents_are_read_and_written_back_so() {
    let parameters = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    let cases = [
        json!({"function_declarations": [{"name": "get_weather", "description": "Weather.", "parameters": parameters}]}),
        json!({"tools": [
            {"function_declarations": [{"name": "get_weather", "description": "Weather.",
                "parameters_json_schema": parameters, "response_json_schema": {"type": "string"}}]},
            {"google_search": {}}
        ]}),
    ];
    for document in cases {
        let bundle = Bundle::single("tools.json", document.to_string());
        let trip = round_trip(&Gemini, &bundle, &Options::default(), &document.to_string());
        let tool = &trip.model.tools[0];
        assert_eq!((tool.name.as_str(), tool.parameters.len()), ("get_weather", 1), "{document}");
        assert!(tool.parameters[0].required, "{document}");
        assert!(trip.read_diagnostics.is_empty(), "{}", render(&trip.read_diagnostics));
        assert!(trip.write_diagnostics.is_empty(), "{}", render(&trip.write_diagnostics));
    }
}

#[test]
fn declarations_of_the_wrong_type_are_a_located_error() {
    // (document, where the error points)
    let cases = [
        ("{\n  \"functionDeclarations\": {\"name\": \"a\"}\n}", "t.json:2:27", "/functionDeclarations", "an object"),
        ("{\"function_declarations\": \"a\"}", "t.json:1:27", "/function_declarations", "a string"),
        (
            "{\"tools\": [{\"functionDeclarations\": []}, {\"functionDeclarations\": 3}]}",
            "t.json:1:67",
            "/tools/1/functionDeclarations",
            "a number",
        ),
    ];
    for (text, place, path, found) in cases {
        let outcome = Gemini.read(&Bundle::single("t.json", text), &Options::default());
        let rendered = render(&outcome.diagnostics);
        assert!(outcome.value.is_none(), "{text}: {rendered}");
        assert!(rendered.contains(&format!("{place}: error[input/invalid]")), "{text}: {rendered}");
        assert!(
            rendered.contains(&format!("must be an array of function declarations, found {found} (at {path})")),
            "{text}: {rendered}"
        );
    }
}
