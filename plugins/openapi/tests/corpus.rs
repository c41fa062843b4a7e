//! Every real document in ../shared/corpus/openapi and ../shared/corpus/vertex: reads, tool
//! counts, exact same-format round trips, and Vertex output that follows Vertex's rules.

use crate::common;

use std::collections::HashSet;

use common::{camel_keys, parse, read_openapi, read_vertex, validate_vertex};
use serde_json::{Value, json};
use toolport_format_openapi::{OpenApi, Vertex};
use toolport_plugin::names::NameRules;
use toolport_plugin::{Bundle, Format, Options, ToolSet};
use toolport_testkit::{assert_same_json, corpus, expect_ok, load, load_with_siblings};

/// OpenAPI corpus documents and their operation counts.
const OPENAPI: &[(&str, usize)] = &[
    ("openapi/oai-examples/callback-example.yaml", 1),
    ("openapi/oai-examples/petstore-expanded.yaml", 4),
    ("openapi/oai-examples/petstore.yaml", 3),
    ("openapi/oai-examples/uspto.yaml", 3),
    ("openapi/twilio/twilio_lookups_v1.json", 1),
    ("openapi/twilio/twilio_oauth_v1.json", 2),
    ("openapi/twilio/twilio_studio_v2.json", 19),
    ("openapi/twilio/twilio_verify_v2.json", 57),
    ("openapi/openai-2024-09-27/openapi.yaml", 94),
    ("openapi/github/api.github.com.json", 771),
    ("openapi/stripe/spec3.json", 417),
    ("vertex/code_interpreter/code_interpreter.yaml", 1),
    ("vertex/google_maps_places/maps-extension.yaml", 1),
    ("vertex/hello_extension/hello.yaml", 1),
];

/// Vertex import bodies (read with their siblings) and their tool counts.
const VERTEX: &[(&str, usize)] = &[
    ("vertex/code_interpreter/import_request.docs.json", 1),
    ("vertex/code_interpreter/sdk_hub_entry.json", 1),
    ("vertex/google_maps_places/manifest.json", 1),
    ("vertex/hello_extension/import_request.canonical.json", 1),
    ("vertex/hello_extension/import_request.docs.json", 1),
    ("vertex/hello_extension/sunholo_import_config.json", 1),
];

fn check_openapi(relative: &str, operations: usize) {
    let bundle = load(&corpus(relative));
    let (file, text) = bundle.entry_file().unwrap();
    let original = parse(file, text);
    let model = read_openapi(&bundle);
    assert_eq!(model.tools.len(), operations, "{relative}: one tool per operation");

    // read → write gives back the document; write → read gives back the model.
    let (written, _) = expect_ok(OpenApi.write(&model, &Options::default()), "openapi write");
    let (out_file, out_text) = written.files.iter().next().unwrap();
    assert_eq!(out_file.rsplit('.').next(), file.rsplit('.').next(), "{relative}: same syntax as the source");
    let written_doc = parse(out_file, out_text);
    assert_same_json(&repaired(&original), &written_doc, relative);
    common::assert_typed_openapi_30(&written_doc, relative);
    let again = read_openapi(&written);
    assert_same_json(&serde_json::to_value(&model).unwrap(), &serde_json::to_value(&again).unwrap(), relative);
}

/// The source with the repairs the reader makes so that the document it writes is valid: a
/// server URL YAML read as a list (`url: [API_SERVICE_URL]`) as the text it means, each
/// `enum` listing its values once, and each path placeholder an operation declares no
/// parameter for declared in that operation (as a sibling operation of the path declares it,
/// else as a required string). Everything else comes back exactly.
fn repaired(original: &Value) -> Value {
    let mut doc = original.clone();
    normalize_servers(&mut doc);
    dedupe_enums(&mut doc);
    let declares = |params: Option<&Value>, name: &str| {
        params.and_then(Value::as_array).into_iter().flatten().any(|p| {
            let p = match p.get("$ref").and_then(Value::as_str) {
                Some(r) => original.pointer(&r[1..]).unwrap_or(&Value::Null),
                None => p,
            };
            p["name"] == name && p["in"] == "path"
        })
    };
    let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
    for (path, item) in doc.get_mut("paths").and_then(Value::as_object_mut).into_iter().flatten() {
        let placeholders: Vec<&str> =
            path.split('{').skip(1).filter_map(|rest| rest.split_once('}')).map(|(name, _)| name).collect();
        let source = item.clone();
        for (method, op) in item.as_object_mut().unwrap() {
            if !methods.contains(&method.as_str()) {
                continue;
            }
            for name in &placeholders {
                if declares(source.get("parameters"), name) || declares(op.get("parameters"), name) {
                    continue;
                }
                let sibling = methods.iter().filter_map(|m| source.get(*m)).find_map(|other| {
                    other["parameters"].as_array().into_iter().flatten().find(|p| declares(Some(&json!([p])), name))
                });
                let declaration = sibling.cloned().unwrap_or_else(
                    || json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}),
                );
                let list = op.as_object_mut().unwrap().entry("parameters").or_insert_with(|| json!([]));
                list.as_array_mut().unwrap().push(declaration);
            }
        }
    }
    doc
}

fn dedupe_enums(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    ("enum", Value::Array(values)) => {
                        let mut seen = HashSet::new();
                        values.retain(|v| seen.insert(v.to_string()));
                    }
                    ("example" | "examples" | "default", _) => {}
                    (key, _) if key.starts_with("x-") => {}
                    (_, value) => dedupe_enums(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(dedupe_enums),
        _ => {}
    }
}

/// `url: [API_SERVICE_URL]` (a placeholder YAML reads as a list) as the text it means.
fn normalize_servers(spec: &mut Value) {
    for server in spec.get_mut("servers").and_then(Value::as_array_mut).into_iter().flatten() {
        if let Some(Value::Array(parts)) = server.get("url").cloned() {
            server["url"] = Value::String(format!("[{}]", parts[0].as_str().unwrap_or_default()));
        }
    }
}

#[test]
fn small_openapi_documents_read_and_round_trip() {
    for (relative, operations) in OPENAPI.iter().filter(|(r, _)| !r.contains("github") && !r.contains("stripe")) {
        check_openapi(relative, *operations);
    }
}

#[test]
fn github_reads_and_round_trips() {
    check_openapi("openapi/github/api.github.com.json", 771);
}

#[test]
fn stripe_reads_and_round_trips() {
    check_openapi("openapi/stripe/spec3.json", 417);
}

#[test]
fn slack_swagger_2_is_rejected_clearly() {
    let bundle = load(&corpus("openapi/slack/slack_web_openapi_v2.json"));
    assert!(OpenApi.detect(&bundle) > 0, "claimed so the user sees the clear error");
    let outcome = OpenApi.read(&bundle, &Options::default());
    assert!(outcome.value.is_none());
    let error = &outcome.diagnostics[0];
    assert_eq!(error.code, "input/unsupported");
    assert!(error.message.starts_with("Swagger 2.0 is not OpenAPI 3"), "{error}");
    assert!(error.span.is_some(), "the error names file, line and column: {error}");
}

#[test]
fn github_written_for_vertex_has_valid_unique_function_names() {
    let model = read_openapi(&load(&corpus("openapi/github/api.github.com.json")));
    let (written, diagnostics) = expect_ok(Vertex.write(&model, &Options::default()), "vertex write");
    let body = parse("x.json", written.files.values().next().unwrap());
    let spec = validate_vertex(&body);
    let mut names = HashSet::new();
    for item in spec["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values().filter_map(|o| o.get("operationId")) {
            let name = op.as_str().unwrap();
            assert!(NameRules::FUNCTION.is_valid(name), "{name}");
            assert!(names.insert(name.to_owned()), "duplicate {name}");
        }
    }
    assert_eq!(names.len(), 771);
    let renamed = diagnostics.iter().filter(|d| d.code == "changed/name" && d.path.ends_with("/name")).count();
    assert_eq!(renamed, 771, "every GitHub operationId has a `/`, and each change is reported");
    // The original names come back on reading the Vertex body.
    let back = read_vertex(&written);
    let original: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
    let restored: Vec<&str> = back.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(original, restored);
}

#[test]
fn corpus_openapi_written_as_vertex_follows_vertex_rules() {
    for (relative, _) in OPENAPI.iter().filter(|(r, _)| !r.contains("github")) {
        let model = read_openapi(&load(&corpus(relative)));
        let (written, _) = expect_ok(Vertex.write(&model, &Options::default()), relative);
        validate_vertex(&parse("x.json", written.files.values().next().unwrap()));
    }
}

/// The body with snake_case keys turned to camelCase (protobuf JSON reads both), and the spec
/// (inline or beside it) parsed, for comparing what a body means.
fn normalized_body(body: &Value, spec: Value) -> Value {
    let mut body = camel_keys(body, false);
    let mut spec = spec;
    normalize_servers(&mut spec);
    body["manifest"]["apiSpec"] = spec;
    body
}

fn spec_of(body: &Value, bundle: &Bundle, model: &ToolSet) -> Value {
    let api_spec = &normalized_body(body, Value::Null)["manifest"];
    let _ = api_spec;
    let inline =
        body["manifest"]["apiSpec"]["openApiYaml"].as_str().or(body["manifest"]["api_spec"]["open_api_yaml"].as_str());
    match inline {
        Some(yaml) => toolport_yaml::parse("spec.yaml", yaml).unwrap().value,
        None => {
            // The spec beside the body, found the way the reader found it.
            let uri = model.extras["vertex"]["openApiGcsUri"].as_str().unwrap();
            let base = uri.rsplit('/').next().unwrap();
            let (file, text) = bundle
                .files
                .iter()
                .find(|(p, _)| p.as_str() == base)
                .or_else(|| bundle.files.iter().find(|(p, t)| p.ends_with(".yaml") && t.starts_with("openapi")))
                .unwrap();
            parse(file, text)
        }
    }
}

#[test]
fn vertex_bodies_read_and_round_trip() {
    for (relative, tools) in VERTEX {
        let bundle = load_with_siblings(&corpus(relative));
        let model = read_vertex(&bundle);
        assert_eq!(model.tools.len(), *tools, "{relative}");
        let (written, _) = expect_ok(Vertex.write(&model, &Options::default()), relative);
        let again = read_vertex(&written);
        let mut first = serde_json::to_value(&model).unwrap();
        let mut second = serde_json::to_value(&again).unwrap();
        // Where the spec came from (a file beside the body) is the one thing that changes:
        // the written body carries the spec inline.
        first["extras"]["vertex"].as_object_mut().unwrap().remove("openApiGcsUri");
        second["extras"]["vertex"].as_object_mut().unwrap().remove("openApiGcsUri");
        // And the key style: bodies are written camelCase, as extensions:import documents them
        // (the same protobuf message as a snake_case body).
        first["extras"]["vertex"].as_object_mut().unwrap().remove("keyStyle");
        // Vertex needs one server and OpenAPI 3.0: a spec without a server gets a generated
        // one, and a 3.1 spec is rewritten as 3.0, once; after that writing is a fixed point.
        let had_servers = !model.servers.is_empty();
        let version_changed = model.extras["openapi"]["openapi"].as_str().is_some_and(|v| v.starts_with("3.1"));
        if !had_servers {
            second.as_object_mut().unwrap().remove("servers");
        }
        if !version_changed {
            assert_same_json(&first, &second, relative);
            // The written body means what the source meant, spec included.
            let original = parse(relative, bundle.entry_file().unwrap().1);
            let output = parse("x.json", written.files.values().next().unwrap());
            let original = normalized_body(&original, spec_of(&original, &bundle, &model));
            let mut output = normalized_body(&output, spec_of(&output, &written, &again));
            if !had_servers {
                output["manifest"]["apiSpec"].as_object_mut().unwrap().remove("servers");
            }
            assert_same_json(&original, &output, relative);
        } else {
            let strip = |set: &ToolSet| -> Vec<Value> {
                set.tools
                    .iter()
                    .map(|t| {
                        let mut t = t.clone();
                        t.extras.clear();
                        serde_json::to_value(t).unwrap()
                    })
                    .collect()
            };
            assert_same_json(&Value::from(strip(&model)), &Value::from(strip(&again)), relative);
        }
        let (rewritten, _) = expect_ok(Vertex.write(&again, &Options::default()), relative);
        assert_eq!(written, rewritten, "{relative}: writing what was written gives the same bytes");
        validate_vertex(&parse("x.json", written.files.values().next().unwrap()));
    }
}

/// Reads a body naming its spec `gs://bucket/spec.yaml` beside `files`: the spec's title and
/// the diagnostics at the URI, or the error.
fn read_gcs_body(files: &[(&str, &str)]) -> String {
    let body = "{\"displayName\": \"x\", \"manifest\": {\"name\": \"x\", \"description\": \"d\",\n  \
        \"apiSpec\": {\"openApiGcsUri\": \"gs://bucket/spec.yaml\"}, \"authConfig\": {\"authType\": \"NO_AUTH\"}}}";
    let mut bundle = Bundle::single("import.json", body);
    for (name, text) in files {
        bundle.insert(*name, *text);
    }
    let outcome = Vertex.read(&bundle, &Options::default());
    let at_uri = outcome.diagnostics.iter().filter(|d| d.path == "/manifest/apiSpec/openApiGcsUri");
    let said: Vec<String> = at_uri.map(ToString::to_string).collect();
    match outcome.value {
        Some(set) => format!("{} {said:?}", set.extras["vertex"]["specInfo"]["title"]),
        None => format!("failed {said:?}"),
    }
}

/// The spec of `openApiGcsUri` is the file beside the body of that name; when there is none
/// (a placeholder URI), the only OpenAPI document beside it, said with a located warning
/// naming the URI and the file; with several or none, a clear error naming the file to put
/// there. Other documents, and files that do not parse, are no candidates.
#[test]
fn a_gcs_spec_is_the_named_file_else_the_only_openapi_document_beside() {
    let spec = |title: &str| format!("openapi: 3.0.0\ninfo: {{title: {title}, version: '1'}}\npaths: {{}}\n");
    let (named, other, third) = (spec("named"), spec("other"), spec("third"));
    let not_specs = [("notes.json", r#"{"manifest": {}}"#), ("broken.yaml", "openapi: [")];
    let missing = "error[input/missing-file]: the spec is at gs://bucket/spec.yaml, which the converter does not \
        fetch: put a copy named `spec.yaml` beside the import body";
    let cases: Vec<(Vec<(&str, &str)>, String)> = vec![
        (vec![("spec.yaml", &named), ("other.yaml", &other)], r#""named" []"#.into()),
        (
            [("other.yaml", other.as_str())].into_iter().chain(not_specs).collect(),
            r#""other" ["import.json:2:32: warning[input/tolerated]: no file named `spec.yaml` (from gs://bucket/spec.yaml) is beside the import body; used `other.yaml`, the only OpenAPI document there (at /manifest/apiSpec/openApiGcsUri)"]"#.into(),
        ),
        (
            vec![("other.yaml", &other), ("third.yaml", &third)],
            format!(
                "failed [\"import.json:2:32: {missing} (`other.yaml` and `third.yaml` beside it are both OpenAPI \
                 documents: which one is meant cannot be told) (at /manifest/apiSpec/openApiGcsUri)\"]"
            ),
        ),
        (not_specs.to_vec(), format!("failed [\"import.json:2:32: {missing} (at /manifest/apiSpec/openApiGcsUri)\"]")),
    ];
    for (files, expect) in cases {
        assert_eq!(read_gcs_body(&files), expect, "{files:?}");
    }
}
