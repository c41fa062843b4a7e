//! Hand-written fixtures (fixtures/openapi, fixtures/vertex): golden models and outputs, and
//! exact same-format round trips.

use crate::common;

use common::{parse, read_openapi, read_vertex, validate_vertex};
use toolport_format_openapi::{OpenApi, Vertex};
use toolport_plugin::{Format, Options};
use toolport_testkit::{assert_same_json, codes, expect_ok, fixture, load, load_with_siblings, render};

fn only_file(bundle: &toolport_plugin::Bundle) -> &str {
    bundle.files.values().next().unwrap()
}

#[test]
fn tasks_openapi_reads_writes_and_converts_to_vertex() {
    let bundle = load(&fixture("openapi/tasks.yaml"));
    let outcome = OpenApi.read(&bundle, &Options::default());
    insta::assert_snapshot!("tasks_read_diagnostics", render(&outcome.diagnostics));
    let model = outcome.value.unwrap();
    insta::assert_json_snapshot!("tasks_model", model);

    let (written, _) = expect_ok(OpenApi.write(&model, &Options::default()), "openapi write");
    let written_doc = parse("t.yaml", only_file(&written));
    assert_same_json(&parse("t.yaml", only_file(&bundle)), &written_doc, "tasks round trip");
    common::assert_typed_openapi_30(&written_doc, "tasks");

    let (vertex, diagnostics) = expect_ok(Vertex.write(&model, &Options::default()), "vertex write");
    let spec = validate_vertex(&parse("v.json", only_file(&vertex)));
    insta::assert_yaml_snapshot!("tasks_vertex_spec", spec);
    insta::assert_snapshot!("tasks_vertex_diagnostics", render(&diagnostics));
    assert!(codes(&diagnostics).contains(&"changed/name"));
    // The names the Vertex rules changed come back on reading.
    let back = read_vertex(&vertex);
    assert_eq!(back.tools[0].name, "tasks/list");
    assert_eq!(back.tools[0].parameters[0].name, "list-id");
    assert_eq!(back.tools[0].http.as_ref().unwrap().path, "/lists/{list-id}/tasks");
}

#[test]
fn weather_vertex_reads_and_round_trips() {
    let bundle = load_with_siblings(&fixture("vertex/weather/import.json"));
    let outcome = Vertex.read(&bundle, &Options::default());
    let model = outcome.value.unwrap();
    insta::assert_json_snapshot!("weather_model", model);
    let (written, _) = expect_ok(Vertex.write(&model, &Options::default()), "vertex write");
    insta::assert_snapshot!("weather_vertex_body", only_file(&written));
    validate_vertex(&parse("v.json", only_file(&written)));
    let again = read_vertex(&written);
    assert_eq!(again.examples, model.examples);
    assert_eq!(again.auth, model.auth);
    assert_eq!(again.runtime_defaults, model.runtime_defaults);
    assert_eq!(again.tools, model.tools);
}

/// One helper, many small documents: what the reader makes of each (tool names and parameter
/// locations), or the error it gives.
#[track_caller]
fn check(document: &str, expect: &str) {
    let outcome = OpenApi.read(&toolport_plugin::Bundle::single("doc.yaml", document), &Options::default());
    let got = match outcome.value {
        Some(model) => model
            .tools
            .iter()
            .map(|t| {
                let params: Vec<String> = t
                    .parameters
                    .iter()
                    .map(|p| format!("{}@{}", p.name, p.location.map_or("-", |l| l.as_str())))
                    .collect();
                format!("{}({})", t.name, params.join(","))
            })
            .collect::<Vec<_>>()
            .join(" "),
        None => outcome.diagnostics.iter().map(|d| d.code.clone()).collect::<Vec<_>>().join(" "),
    };
    assert_eq!(got, expect, "{document}");
    let _ = read_openapi;
}

#[test]
fn reader_cases() {
    check("swagger: '2.0'\npaths: {}\n", "input/unsupported");
    check("openapi: 2.0.0\n", "input/unsupported");
    check("info: {title: x}\n", "input/invalid");
    check(
        "openapi: 3.0.0\npaths:\n  /a/{id}:\n    parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n    get: {operationId: a, parameters: [{name: id, in: query, schema: {type: string}}]}\n",
        "a(id@path,id_query@query)",
    );
    check(
        "openapi: 3.0.0\npaths:\n  /a:\n    post:\n      requestBody: {content: {application/json: {schema: {type: array, items: {type: string}}}}}\n",
        "POST /a(body@body)",
    );
    check(
        "openapi: 3.0.0\npaths:\n  /a:\n    put:\n      operationId: x\n      requestBody: {content: {application/json: {schema: {properties: {n: {type: integer}}}}}}\n    post: {operationId: x}\n",
        "x(n@body) x_2()",
    );
}

/// Parts kept as written are records only the openapi and vertex writers use: the reader makes
/// them toward those targets and when it is not told the target (`inspect`), and toward any
/// other target leaves them out, regenerating no operation to compare, the model otherwise
/// the same. Toward vertex, an operation whose path item has parameters of its own is not
/// kept (Vertex writes it regenerated, with them merged).
#[test]
fn parts_are_kept_as_written_only_toward_openapi_and_vertex() {
    // A path item's parameter is merged into its operation, and the server has a key the
    // model does not give back: both are kept.
    let source = r#"{"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
        "servers": [{"url": "https://pets.example.com/v1", "x-region": "eu"}],
        "paths": {"/pets/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "get": {"operationId": "getPet", "responses": {"200": {"description": "the pet"}}}}}}"#;
    let bundle = toolport_plugin::Bundle::single("pets.json", source);
    let read_toward = |target: Option<&str>| {
        let mut options = Options::default();
        if let Some(target) = target {
            options.set(Options::TARGET_FORMAT, target);
        }
        expect_ok(OpenApi.read(&bundle, &options), "openapi read").0
    };
    let records = |model: &toolport_plugin::ToolSet| {
        let set = &model.extras["openapi"];
        let tools = model.tools.iter().filter(|t| t.extras.get("openapi").is_some_and(|e| e.get("digest").is_some()));
        ["servers", "securitySchemes"].iter().filter(|k| set.get(**k).is_some()).count() + tools.count()
    };
    let everything = read_toward(None);
    assert_eq!(records(&everything), 2, "the operation and the servers are kept");
    assert_eq!(read_toward(Some("openapi")), everything, "toward openapi");
    let without_operation_records = |mut model: toolport_plugin::ToolSet| {
        for tool in &mut model.tools {
            let own = tool.extras.get_mut("openapi").and_then(|e| e.as_object_mut()).unwrap();
            own.remove("raw");
            own.remove("digest");
        }
        model
    };
    let toward_vertex = read_toward(Some("vertex"));
    assert_eq!(records(&toward_vertex), 1, "toward vertex, the servers are kept");
    assert_eq!(toward_vertex, without_operation_records(everything.clone()), "toward vertex");
    let mut without_records = without_operation_records(everything.clone());
    let set = without_records.extras.get_mut("openapi").and_then(|e| e.as_object_mut()).unwrap();
    set.remove("servers");
    set.remove("securitySchemes");
    for target in ["mcp", "openai", "gemini", "gloodata"] {
        let model = read_toward(Some(target));
        assert_eq!(records(&model), 0, "nothing kept toward {target}");
        assert_eq!(model, without_records, "toward {target}, the model is otherwise the same");
    }
}
