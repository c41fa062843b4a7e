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

/// A schema the writer changes is reported with the property and the tool in words (the model
/// path names neither): `parameter `x` of tool `t``, or a nested property's path from it.
#[test]
fn schema_changes_name_the_property_and_the_tool() {
    use serde_json::json;
    let integer = json!({"type": "integer"});
    let model: toolport_plugin::ToolSet = serde_json::from_value(json!({"tools": [{"name": "t", "parameters": [
        {"name": "count", "schema": integer},
        {"name": "dob", "schema": {"type": "object", "properties": [{"name": "day", "required": true, "schema": integer}]}},
        {"name": "rows", "schema": {"type": "array", "items": {"type": "object", "properties": [{"name": "n", "schema": integer}]}}},
        {"name": "body", "schema": {"any_of": [{"type": "object", "properties": [{"name": "a", "schema": {"type": "string"}}]}, {"type": "string"}]}}
    ]}]}))
    .unwrap();
    let outcome = Raycast.write(&model, &Options::default());
    let said = |path: &str| {
        let found = outcome.diagnostics.iter().find(|d| d.path == path);
        let found = found.unwrap_or_else(|| panic!("nothing at {path}:\n{}", render(&outcome.diagnostics)));
        (found.severity, found.message.clone())
    };
    let whole = "TypeScript has no integer type; written as `number`";
    let warning = toolport_plugin::Severity::Warning;
    assert_eq!(said("/tools/0/parameters/0/schema/type"), (warning, format!("parameter `count` of tool `t`: {whole}")));
    assert_eq!(
        said("/tools/0/parameters/1/schema/properties/0/schema/type"),
        (warning, format!("`dob.day` (parameter `dob` of tool `t`): {whole}"))
    );
    assert_eq!(
        said("/tools/0/parameters/2/schema/items/properties/0/schema/type"),
        (warning, format!("`rows[].n` (parameter `rows` of tool `t`): {whole}"))
    );
    let (_, union) = said("/tools/0/parameters/3/schema/any_of");
    assert!(union.starts_with("parameter `body` of tool `t`: `anyOf` is written as its first alternative"), "{union}");
}

/// A request the writer made is code when read back: the reader says, per tool, that the HTTP
/// binding stays in the code (a format that needs one makes up its own), with the file and
/// line of the call; a tool without a request gets no such word.
#[test]
fn a_written_request_read_back_is_named_as_a_binding_left_in_code() {
    let bundle = Raycast.write(&common::http_model(), &Options::default()).value.expect("write");
    let outcome = Raycast.read(&bundle, &Options::default());
    let model = outcome.value.as_ref().expect("read");
    let http: Vec<_> = outcome.diagnostics.iter().filter(|d| d.code == "loss/http").collect();
    let mut expected = Vec::new();
    for (i, tool) in model.tools.iter().enumerate() {
        let text = bundle.get(&format!("src/tools/{}.ts", tool.name)).unwrap();
        if text.contains("readResponse(response, ") {
            expected.push(format!("/tools/{i}/http"));
        }
    }
    assert_eq!(http.iter().map(|d| d.path.clone()).collect::<Vec<_>>(), expected, "{}", render(&outcome.diagnostics));
    assert_eq!(expected.len(), 2, "update-pet and delete-pet send requests; summarize-text does not");
    let update = http.iter().find(|d| d.message.contains("`update-pet`")).expect("update-pet");
    assert!(update.message.contains("sends `PATCH /pets/{petId}/owners/{owner-id}`"), "{}", update.message);
    let span = update.span.as_ref().expect("a position");
    assert_eq!(span.file, "src/tools/update-pet.ts");
    let text = bundle.get("src/tools/update-pet.ts").unwrap();
    assert_eq!(text.lines().nth(span.line as usize - 1).map(|l| l.contains("readResponse(")), Some(true));
}
