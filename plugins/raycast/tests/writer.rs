//! The writer on a model from another format: fetch bodies from HTTP bindings, safe file
//! names, generated manifest fields, and the losses it reports.

use crate::common;

use insta::assert_snapshot;
use toolport_format_raycast::Raycast;
use toolport_plugin::{Format, Options};
use toolport_testkit::{codes, render};

#[test]
fn writes_an_http_model_as_a_buildable_extension() {
    let outcome = Raycast.write(&common::http_model(), &Options::default());
    let bundle = outcome.value.expect("write");
    let files: String = bundle.files.iter().map(|(path, text)| format!("==> {path} <==\n{text}\n")).collect();
    assert_snapshot!("http.written", files);
    assert_snapshot!("http.write-diagnostics", render(&outcome.diagnostics));
}

#[test]
fn no_path_leaves_the_output_directory() {
    let bundle = Raycast.write(&common::http_model(), &Options::default()).value.expect("write");
    let paths: Vec<&str> = bundle.files.keys().map(String::as_str).collect();
    assert_eq!(
        paths,
        [
            "package.json",
            "src/ai-tools.ts",
            "src/lib/http.ts",
            "src/tools/delete-pet.ts",
            "src/tools/summarize-text.ts",
            "src/tools/update-pet.ts",
            "tsconfig.json"
        ]
    );
}

#[test]
fn reports_what_raycast_cannot_hold() {
    let outcome = Raycast.write(&common::http_model(), &Options::default());
    let codes = codes(&outcome.diagnostics);
    for expected in ["loss/prompt", "loss/schema", "changed/name", "generated/content", "changed/value"] {
        assert!(codes.contains(&expected), "missing {expected}:\n{}", render(&outcome.diagnostics));
    }
}

#[test]
fn written_http_model_reads_back_with_its_parameters() {
    let bundle = Raycast.write(&common::http_model(), &Options::default()).value.expect("write");
    let model = Raycast.read(&bundle, &Options::default()).value.expect("read");
    let update = model.tool("update-pet").expect("update-pet");
    let names: Vec<&str> = update.parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["petId", "owner-id", "tags", "verbose", "X-Request-Id", "session", "name", "status"]);
    let delete = model.tool("delete-pet").expect("delete-pet");
    assert_eq!(delete.confirmation.as_ref().and_then(|c| c.style.as_deref()), Some("destructive"));
    assert_eq!(delete.hints.destructive, Some(true));
    assert!(model.examples[0].prompt.starts_with("@pet-store "), "{}", model.examples[0].prompt);
}

/// Each schema becomes a type Raycast's tool-schema generator reads (checked for real by
/// tsc_check.rs), with the diagnostic that says what was simplified.
#[test]
fn every_input_type_is_one_raycast_reads() {
    use serde_json::json;
    let cases = [
        (json!({"type": "string"}), "string", None),
        (json!({"type": "integer"}), "number", Some("changed/schema")),
        (json!({"type": "string", "nullable": true}), "string", Some("changed/schema")),
        (json!({"enum": [{"value": "a"}, {"value": "b"}, {"value": null}]}), "\"a\" | \"b\"", Some("changed/schema")),
        (json!({"enum": [{"value": "only"}]}), "string", Some("changed/schema")),
        (json!({"type": "integer", "enum": [{"value": 1}, {"value": 2}]}), "number", Some("changed/schema")),
        (json!({"any_of": [{"type": "string"}, {"type": "null"}]}), "string", Some("changed/schema")),
        (json!({"any_of": [{"enum": [{"value": "x"}]}, {"enum": [{"value": "y"}]}]}), "\"x\" | \"y\"", None),
        (json!({"any_of": [{"type": "string"}, {"enum": [{"value": ""}]}]}), "string", Some("changed/schema")),
        (
            json!({"any_of": [{"type": "object", "properties": [{"name": "gt", "schema": {"type": "string"}}]}, {"type": "string"}]}),
            "{\n    gt?: string;\n  }",
            Some("changed/schema"),
        ),
        (json!({"type": "object"}), "string", Some("changed/schema")),
        (json!({"type": "object", "additional_properties": {"type": "string"}}), "string", Some("changed/schema")),
        (json!({}), "string", Some("changed/schema")),
        (json!({"type": "array"}), "string[]", Some("changed/schema")),
        (json!({"type": "array", "items": {"type": "object"}}), "string[]", Some("changed/schema")),
        (json!({"type": "array", "items": {"enum": [{"value": "a"}, {"value": "b"}]}}), "Array<\"a\" | \"b\">", None),
        (json!({"type": "boolean", "nullable": true}), "boolean", Some("changed/schema")),
    ];
    for (schema, expected, code) in cases {
        let model: toolport_plugin::ToolSet = serde_json::from_value(json!({
            "tools": [{"name": "t", "parameters": [{"name": "x", "required": true, "schema": schema}]}]
        }))
        .unwrap();
        let outcome = Raycast.write(&model, &Options::default());
        let text = outcome.value.expect("write").get("src/tools/t.ts").unwrap().to_owned();
        assert!(text.contains(&format!("  x: {expected};\n")), "{schema}: expected `{expected}` in\n{text}");
        assert!(!text.contains("| null"), "{schema}:\n{text}");
        let schema_codes: Vec<&str> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.path.starts_with("/tools/0/parameters/0/schema"))
            .map(|d| d.code.as_str())
            .collect();
        match code {
            Some(code) => {
                assert!(schema_codes.contains(&code), "{schema}: no {code}:\n{}", render(&outcome.diagnostics))
            }
            None => assert!(schema_codes.is_empty(), "{schema}: {schema_codes:?}"),
        }
    }
}
