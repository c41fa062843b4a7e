//! What the OpenAPI and Vertex outputs must be for the platforms that read them (issue 18),
//! each behaviour checked over a table of inputs: toolport's bookkeeping kept out of what a
//! model reads, no empty enum, descriptions from summaries, every path placeholder declared,
//! auth schemes OpenAPI accepts, server URLs as text, YAML that reads the same under YAML 1.1,
//! and Vertex bodies with every field the platform requires.

use crate::common;

use common::{parse, read_openapi, read_vertex};
use serde_json::{Value, json};
use toolport_format_openapi::{OpenApi, Vertex};
use toolport_plugin::{Bundle, Diagnostic, Format, Options, ToolSet};
use toolport_testkit::{assert_same_json, corpus, expect_ok, load, load_with_siblings};

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

fn model(value: Value) -> ToolSet {
    serde_json::from_value(value).expect("a model")
}

fn yaml_options() -> Options {
    let mut options = Options::default();
    options.set("syntax", "yaml");
    options
}

/// The written OpenAPI document, its text and the diagnostics.
fn write_openapi(set: &ToolSet, options: &Options) -> (Value, Bundle, Vec<Diagnostic>) {
    let (written, diagnostics) = expect_ok(OpenApi.write(set, options), "openapi write");
    let (file, text) = written.files.iter().next().unwrap();
    let doc = parse(file, text);
    common::assert_typed_openapi_30(&doc, "openapi write");
    (doc, written.clone(), diagnostics)
}

/// The written Vertex body, its inline spec, and the diagnostics.
fn write_vertex(set: &ToolSet) -> (Value, Value, Bundle, Vec<Diagnostic>) {
    let (written, diagnostics) = expect_ok(Vertex.write(set, &Options::default()), "vertex write");
    let body = parse("x.json", written.files.values().next().unwrap());
    let spec =
        toolport_yaml::parse("spec.yaml", body["manifest"]["apiSpec"]["openApiYaml"].as_str().unwrap()).unwrap().value;
    common::assert_typed_openapi_30(&spec, "vertex write");
    (body, spec, written, diagnostics)
}

/// Every `(pointer, key, value)` of objects in `value`, values a user wrote (other `x-`
/// extensions, examples, defaults, enums) not searched.
fn keys(value: &Value, at: &str, out: &mut Vec<(String, String, Value)>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                out.push((at.to_owned(), key.clone(), value.clone()));
                let skip = matches!(key.as_str(), "example" | "examples" | "default" | "enum" | "x-toolport")
                    || (key.starts_with("x-") && !key.starts_with("x-toolport-"));
                if !skip {
                    keys(value, &format!("{at}/{key}"), out);
                }
            }
        }
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| keys(v, &format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// A model read from another format, with every kind of bookkeeping OpenAPI has no place for.
fn foreign_models() -> Vec<(&'static str, ToolSet)> {
    vec![
        (
            "gloodata-like: value set, enum labels, multi-line text, display hints, extras",
            model(json!({
                "id": "sales", "title": "Sales", "description": "Sales reports", "instructions": "Use it for sales.",
                "icon": {"kind": "url", "url": "https://example.com/chart.png"},
                "value_sets": {"Metric": {"name": "Metric", "entries": [
                    {"value": "TOTAL", "label": "Total revenue"}, {"value": "AVG", "label": "Average order"}]}},
                "tools": [{
                    "name": "revenue", "title": "Revenue", "description": "Revenue by metric",
                    "usage_notes": "Ask for the region first.",
                    "parameters": [
                        {"name": "metric", "required": true,
                         "schema": {"type": "string", "enum": [{"value": "TOTAL", "label": "Total revenue"},
                                   {"value": "AVG", "label": "Average order"}], "value_set": "Metric"}},
                        {"name": "note", "schema": {"type": "string", "multiline": true, "description": "a note"},
                         "extras": {"gloodata": {"examples": []}}},
                        {"name": "region", "required": true,
                         "schema": {"type": "string", "enum": [{"value": "EMEA", "label": "Europe"}, {"value": "APAC"}]}}
                    ],
                    "display": {"prefix": "Revenue", "args": {"metric": {"prefix": "as"}, "region": {"prefix": "in"}}},
                    "extras": {"gloodata": {"contextActions": [{"target": {"name": "Metric"}, "handler": "h"}]}}
                }],
                "extras": {"raycast": {"package": {"name": "sales", "commands": [{"name": "a"}], "tools": []}}}
            })),
        ),
        (
            "mcp-like: nested schemas with labels, a definition, and a tool named against Vertex's rules",
            model(json!({
                "title": "Issues",
                "definitions": {"Label": {"type": "object", "properties": [
                    {"name": "color", "schema": {"type": "string", "multiline": true}}]}},
                "tools": [{
                    "name": "issues/create", "description": "Create an issue",
                    "parameters": [
                        {"name": "labels", "schema": {"type": "array", "items": {"reference": "Label"}}},
                        {"name": "priority", "schema": {"type": "integer",
                         "enum": [{"value": 1, "label": "high"}, {"value": 2, "label": "low"}]}}
                    ],
                    "extras": {"mcp": {"annotations": {"title": "Create"}}}
                }]
            })),
        ),
    ]
}

#[test]
fn bookkeeping_stays_out_of_what_a_model_reads() {
    for (case, set) in foreign_models() {
        for options in [Options::default(), yaml_options()] {
            let (doc, written, _) = write_openapi(&set, &options);
            let mut found = Vec::new();
            keys(&doc, "", &mut found);
            for (at, key, value) in &found {
                assert!(!key.starts_with("x-toolport-"), "{case}: `{key}` at {at:?} in the OpenAPI output");
                assert!(!(key == "nullable" && *value == json!(false)), "{case}: `nullable: false` at {at}");
            }
            // Kept for the same-format round trip, in the one top-level section.
            assert!(doc["x-toolport"].is_object(), "{case}: no bookkeeping section");
            let again = read_openapi(&written);
            for field in ["value_sets", "instructions", "icon", "extras"] {
                let (before, after) = (serde_json::to_value(&set).unwrap(), serde_json::to_value(&again).unwrap());
                if field == "extras" {
                    for (k, v) in before["extras"].as_object().into_iter().flatten() {
                        assert_eq!(&after["extras"][k], v, "{case}: set extras `{k}` come back");
                    }
                } else {
                    assert_eq!(after[field], before[field], "{case}: `{field}` comes back");
                }
            }
            for (tool, back) in set.tools.iter().zip(&again.tools) {
                assert_eq!(back.name, tool.name, "{case}");
                assert_eq!(back.display, tool.display, "{case}");
                assert_eq!(back.usage_notes, tool.usage_notes, "{case}");
                for (p, q) in tool.parameters.iter().zip(&back.parameters) {
                    assert_eq!(q.schema.enumeration, p.schema.enumeration, "{case}: {} labels", p.name);
                    assert_eq!(q.schema.value_set, p.schema.value_set, "{case}: {}", p.name);
                    assert_eq!(q.schema.multiline, p.schema.multiline, "{case}: {}", p.name);
                }
            }
            let (rewritten, _) = expect_ok(OpenApi.write(&again, &options), case);
            assert_eq!(written, rewritten, "{case}: writing what was read gives the same document");
        }

        let (_, spec, written, _) = write_vertex(&set);
        let mut found = Vec::new();
        keys(&spec, "", &mut found);
        for (at, key, value) in &found {
            assert!(!key.starts_with("x-toolport-"), "{case}: `{key}` at {at:?} in the Vertex spec");
            assert!(!(key == "nullable" && *value == json!(false)), "{case}: `nullable: false` at {at}");
        }
        let again = read_vertex(&written);
        let names = |s: &ToolSet| s.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&again), names(&set), "{case}: Vertex's renames come back from the section");
        let (rewritten, _) = expect_ok(Vertex.write(&again, &Options::default()), case);
        assert_eq!(written, rewritten, "{case}: writing what was read gives the same body");
    }
}

#[test]
fn nullable_false_stays_only_in_its_own_format() {
    // OpenAI's spec says `nullable: false` on several properties.
    let set = read_openapi(&load(&corpus("openapi/openai-2024-09-27/openapi.yaml")));
    let count = |doc: &Value| {
        let mut found = Vec::new();
        keys(doc, "", &mut found);
        found.iter().filter(|(_, k, v)| k == "nullable" && *v == json!(false)).count()
    };
    let (doc, _, _) = write_openapi(&set, &Options::default());
    assert!(count(&doc) > 0, "the same format gets the document back");
    let (_, spec, _, _) = write_vertex(&set);
    assert_eq!(count(&spec), 0, "Vertex gets no `nullable: false`");
}

/// Examples (prompts that select a tool) have no place in OpenAPI: another format's are kept
/// only in the bookkeeping section, a `loss/examples` at `/examples`; an OpenAPI source's own
/// come back as they were, with no loss.
#[test]
fn examples_kept_only_as_bookkeeping_are_reported_lost() {
    let examples = json!([{"prompt": "use it", "expected": [{"calls_tool": {"tool": "t"}}]}]);
    let cases = [
        ("from another format", json!({"extras": {"gloodata": {"handlers": []}}}), vec!["/examples"]),
        ("from OpenAPI", json!({"extras": {"openapi": {"openapi": "3.0.3"}}}), vec![]),
        ("no examples", json!({}), vec![]),
    ];
    for (case, mut set, expect) in cases {
        set["tools"] = json!([{"name": "t"}]);
        if !expect.is_empty() || case == "from OpenAPI" {
            set["examples"] = examples.clone();
        }
        let (doc, _, diagnostics) = write_openapi(&model(set), &Options::default());
        let lost: Vec<&str> =
            diagnostics.iter().filter(|d| d.code == "loss/examples").map(|d| d.path.as_str()).collect();
        assert_eq!(lost, expect, "{case}");
        if case != "no examples" {
            assert_eq!(doc["x-toolport"][""]["x-toolport-examples"], examples, "{case}: still kept for toolport");
        }
    }
}

/// Another format's data on a parameter sent in a request body (a tool with no HTTP binding
/// sends all its arguments there) has no place in OpenAPI or Vertex: a `loss/extras` at the
/// parameter that names it and the keys left out.
#[test]
fn foreign_parameter_data_in_a_body_is_reported_lost_by_name() {
    let set = model(json!({"tools": [{"name": "convert", "parameters": [
        {"name": "distance", "schema": {"type": "number"}, "extras": {"gloodata": {"minimum": 0}}},
        {"name": "unit", "schema": {"type": "string"}}
    ]}]}));
    let lost = |diagnostics: &[Diagnostic]| -> Vec<(String, String)> {
        diagnostics.iter().filter(|d| d.code == "loss/extras").map(|d| (d.path.clone(), d.message.clone())).collect()
    };
    let (_, _, openapi) = write_openapi(&set, &Options::default());
    let (_, _, _, vertex) = write_vertex(&set);
    for (target, found) in [("openapi", lost(&openapi)), ("vertex", lost(&vertex))] {
        assert_eq!(found.len(), 1, "{target}: {found:?}");
        let (path, message) = &found[0];
        assert_eq!(path, "/tools/0/parameters/0/extras/gloodata", "{target}");
        assert!(message.contains("`distance`") && message.contains("`minimum`"), "{target}: {message}");
    }
}

/// Schemas whose enum allows no value: written without it, with a `changed/schema` warning.
#[test]
fn no_empty_enum_is_written() {
    let cases = [
        ("an empty enum", json!({"type": "string", "enum": []})),
        ("a value set without entries", json!({"type": "string", "value_set": "Country"})),
        ("an empty enum inside items", json!({"type": "array", "items": {"type": "string", "enum": []}})),
        (
            "an empty enum in a property",
            json!({"type": "object", "properties": [{"name": "c", "required": true, "schema": {"type": "string", "enum": []}}]}),
        ),
    ];
    for (case, schema) in cases {
        let set = model(json!({
            "title": "T",
            "value_sets": {"Country": {"name": "country", "handlers": {"search": "countries"}}},
            "definitions": {"Held": schema.clone()},
            "tools": [{"name": "t", "parameters": [{"name": "p", "required": true, "schema": schema}]}]
        }));
        let (doc, _, diagnostics) = write_openapi(&set, &Options::default());
        let (_, spec, _, vertex_diagnostics) = write_vertex(&set);
        for (target, output, diagnostics) in [("openapi", &doc, &diagnostics), ("vertex", &spec, &vertex_diagnostics)] {
            let mut found = Vec::new();
            keys(output, "", &mut found);
            let empty: Vec<&String> = found
                .iter()
                .filter(|(_, k, v)| k == "enum" && v.as_array().is_some_and(Vec::is_empty))
                .map(|(a, ..)| a)
                .collect();
            assert!(empty.is_empty(), "{case} -> {target}: empty enum at {empty:?}");
            assert!(
                diagnostics.iter().any(|d| d.code == "changed/schema" && d.message.contains("would allow no value")),
                "{case} -> {target}: the change is reported"
            );
        }
    }
}

/// An operation with only a summary: the tool's description is the summary; OpenAPI gets the
/// summary alone back, a Vertex spec written from OpenAPI gets it as the description too.
#[test]
fn operations_with_only_a_summary_are_described_by_it() {
    for (relative, at_least) in [
        ("openapi/oai-examples/petstore.yaml", 3),
        ("openapi/openai-2024-09-27/openapi.yaml", 94),
        ("openapi/github/api.github.com.json", 116),
    ] {
        let bundle = load(&corpus(relative));
        let (file, text) = bundle.entry_file().unwrap();
        let source = parse(file, text);
        let set = read_openapi(&bundle);
        let mut from_summary = 0;
        for (path, item) in source["paths"].as_object().unwrap() {
            for method in METHODS {
                let Some(op) = item.get(method) else { continue };
                let tool = set
                    .tools
                    .iter()
                    .find(|t| t.http.as_ref().is_some_and(|h| h.path == *path && h.method.eq_ignore_ascii_case(method)))
                    .unwrap();
                let text = |key: &str| op.get(key).and_then(Value::as_str).filter(|t| !t.trim().is_empty());
                let expected = text("description").or(text("summary"));
                assert_eq!(tool.description.as_deref(), expected, "{relative}: {method} {path}");
                if text("description").is_none() && text("summary").is_some() {
                    from_summary += 1;
                }
            }
        }
        assert!(from_summary >= at_least, "{relative}: {from_summary} operations described by their summary");
        if relative.contains("petstore") {
            let (doc, _, _) = write_openapi(&set, &Options::default());
            assert_same_json(&source, &doc, "the OpenAPI output says `summary` only, as its source");
            let (_, spec, _, _) = write_vertex(&set);
            for item in spec["paths"].as_object().unwrap().values() {
                for op in item.as_object().unwrap().values() {
                    assert_eq!(op["description"], op["summary"], "the Vertex spec describes each operation");
                }
            }
        }
    }
}

/// Every placeholder of a path is declared by each of its operations (or the path item), in
/// OpenAPI and in Vertex output, with the declaration a sibling operation makes.
#[test]
fn every_path_placeholder_is_declared() {
    let small = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /users/{user_id}/items/{item}:\n    get:\n      operationId: get\n      parameters: [{name: user_id, in: path, required: true, description: The user, schema: {type: integer}}]\n      responses: {'200': {description: ok}}\n    post:\n      operationId: post\n      responses: {'200': {description: ok}}\n";
    let inputs = [
        ("small", Bundle::single("doc.yaml", small)),
        ("openai", load(&corpus("openapi/openai-2024-09-27/openapi.yaml"))),
    ];
    for (case, bundle) in inputs {
        let outcome = OpenApi.read(&bundle, &Options::default());
        assert!(
            outcome.diagnostics.iter().any(|d| d.code == "input/tolerated" && d.message.contains("placeholder")),
            "{case}: the repair is reported"
        );
        let set = outcome.value.unwrap();
        let (doc, _, _) = write_openapi(&set, &Options::default());
        let (_, spec, _, _) = write_vertex(&set);
        for (target, doc) in [("openapi", &doc), ("vertex", &spec)] {
            for (path, item) in doc["paths"].as_object().unwrap() {
                let declared = |list: &Value, name: &str| {
                    list.as_array().into_iter().flatten().any(|p| {
                        let p = match p.get("$ref").and_then(Value::as_str) {
                            Some(r) => doc.pointer(&r[1..]).unwrap(),
                            None => p,
                        };
                        p["name"] == name && p["in"] == "path"
                    })
                };
                for method in METHODS {
                    let Some(op) = item.get(method) else { continue };
                    for name in path.split('{').skip(1).filter_map(|r| r.split_once('}')).map(|(n, _)| n) {
                        assert!(
                            declared(&item["parameters"], name) || declared(&op["parameters"], name),
                            "{case} -> {target}: {method} {path} does not declare `{name}`"
                        );
                    }
                }
            }
        }
        if case == "small" {
            let post = set.tool("post").unwrap();
            let user = post.parameter("user_id").unwrap();
            assert_eq!(user.schema.description.as_deref(), Some("The user"), "the sibling's declaration");
            assert!(post.parameter("item").unwrap().required, "a required string otherwise");
        }
    }
}

/// Lists OpenAPI needs unique (`enum`, `required`) are read and written with each value once,
/// in what is regenerated and in what is kept as written (another response), both versions.
#[test]
fn repeated_enum_values_and_required_names_are_written_once() {
    let parameter = "/paths/~1a/get/parameters/0/schema";
    let response = "/paths/~1a/get/responses/404/content/application~1json/schema";
    for version in ["3.0.0", "3.1.0"] {
        let doc = format!(
            "openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters: [{{name: m, in: query, schema: {{type: string, enum: [x, y, x]}}}}]\n      responses:\n        '200': {{description: ok}}\n        '404': {{description: no, content: {{application/json: {{schema: {{type: object, required: [c, c], properties: {{c: {{type: string}}}}}}}}}}}}\n"
        );
        let outcome = OpenApi.read(&Bundle::single("doc.yaml", doc.as_str()), &Options::default());
        let tolerated: Vec<&str> =
            outcome.diagnostics.iter().filter(|d| d.code == "input/tolerated").map(|d| d.path.as_str()).collect();
        assert_eq!(tolerated, [format!("{parameter}/enum"), format!("{response}/required")], "{version}");
        let set = outcome.value.unwrap();
        let (written, _, _) = write_openapi(&set, &Options::default());
        let (_, spec, _, _) = write_vertex(&set);
        for (target, doc) in [("openapi", &written), ("vertex", &spec)] {
            assert_eq!(doc.pointer(&format!("{parameter}/enum")), Some(&json!(["x", "y"])), "{version} {target}");
            assert_eq!(doc.pointer(&format!("{response}/required")), Some(&json!(["c"])), "{version} {target}");
        }
    }
}

/// Vertex `authConfig`s without what an OpenAPI scheme needs (OAuth `flows`, OpenID Connect's
/// URL) are written as the bearer token the caller sends, and read back as what they were.
#[test]
fn auth_openapi_cannot_state_is_a_bearer_token_that_comes_back() {
    let bodies = [
        "vertex/code_interpreter/import_request.docs.json",
        "vertex/code_interpreter/sdk_hub_entry.json",
        "vertex/hello_extension/sunholo_import_config.json",
    ];
    for relative in bodies {
        let set = read_vertex(&load_with_siblings(&corpus(relative)));
        let (doc, written, _) = write_openapi(&set, &Options::default());
        for (id, scheme) in doc["components"]["securitySchemes"].as_object().into_iter().flatten() {
            let kind = scheme["type"].as_str().unwrap();
            assert!(kind != "oauth2" || scheme.get("flows").is_some(), "{relative}: {id} is oauth2 without flows");
            assert!(kind != "openIdConnect" || scheme.get("openIdConnectUrl").is_some(), "{relative}: {id}");
        }
        let again = read_openapi(&written);
        let kinds = |s: &ToolSet| s.auth.iter().map(|a| a.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&again), kinds(&set), "{relative}: the auth kinds come back");
    }
    let oidc = model(json!({"title": "T", "auth": [{"kind": "oidc", "id": "o"}], "tools": [{"name": "t"}]}));
    let (doc, written, diagnostics) = write_openapi(&oidc, &Options::default());
    assert_eq!(doc["components"]["securitySchemes"]["o"], json!({"type": "http", "scheme": "bearer"}));
    assert!(diagnostics.iter().any(|d| d.code == "changed/value" && d.path == "/auth/0/kind"));
    assert_eq!(read_openapi(&written).auth, oidc.auth);
}

#[test]
fn a_server_url_read_as_a_yaml_list_is_written_as_text() {
    let inputs = [
        ("openapi", "vertex/hello_extension/hello.yaml"),
        ("vertex", "vertex/hello_extension/import_request.docs.json"),
        ("vertex", "vertex/hello_extension/import_request.canonical.json"),
    ];
    for (from, relative) in inputs {
        let bundle = load_with_siblings(&corpus(relative));
        let set = if from == "openapi" { read_openapi(&bundle) } else { read_vertex(&bundle) };
        let (doc, _, _) = write_openapi(&set, &Options::default());
        assert_eq!(doc["servers"][0]["url"], "[API_SERVICE_URL]", "{relative} -> openapi");
        let (_, spec, _, _) = write_vertex(&set);
        assert_eq!(spec["servers"][0]["url"], "[API_SERVICE_URL]", "{relative} -> vertex");
    }
}

/// Scalars a YAML 1.1 reader (PyYAML, which the validators use) would read as something other
/// than text are quoted in every YAML output: the OpenAPI file and Vertex's inline spec.
#[test]
fn yaml_output_reads_the_same_under_yaml_1_1() {
    let retyped =
        ["NO", "no", "Yes", "on", "OFF", "y", "n", "~", "null", "2020-08-27", "1_000", "0x1F", "012", "1:20", ".inf"];
    let set = model(json!({
        "title": "T", "version": "2020-08-27",
        "tools": [{"name": "t", "parameters": [{"name": "country", "required": true,
            "schema": {"type": "string", "enum": retyped.iter().map(|v| json!({"value": v})).collect::<Vec<_>>()}}]}]
    }));
    let (_, written, _) = write_openapi(&set, &yaml_options());
    let openapi_text = written.files.values().next().unwrap().clone();
    let (body, _, _, _) = write_vertex(&set);
    let spec_text = body["manifest"]["apiSpec"]["openApiYaml"].as_str().unwrap().to_owned();
    for (target, text) in [("openapi", &openapi_text), ("vertex", &spec_text)] {
        for value in retyped {
            let quoted = text.contains(&format!("\"{value}\"")) || text.contains(&format!("'{value}'"));
            assert!(quoted, "{target}: `{value}` is not quoted:\n{text}");
        }
    }
    // Stripe's version date and country codes (`NO`), through the whole document.
    let stripe = read_openapi(&load(&corpus("openapi/stripe/spec3.json")));
    let (_, written, _) = write_openapi(&stripe, &yaml_options());
    let text = written.files.values().next().unwrap();
    assert!(text.contains("version: '2020-08-27'"), "info.version is quoted");
    assert!(text.contains("- 'NO'"), "Norway's code is quoted");
}

/// Vertex bodies carry every field the platform requires, whatever the model lacks.
#[test]
fn vertex_bodies_have_what_the_platform_requires() {
    // Snake_case sources (the SDK's hub entry, a manifest file) are written camelCase.
    for relative in ["vertex/code_interpreter/sdk_hub_entry.json", "vertex/google_maps_places/manifest.json"] {
        let (body, _, _, _) = write_vertex(&read_vertex(&load_with_siblings(&corpus(relative))));
        assert!(body["displayName"].as_str().is_some_and(|d| !d.is_empty()), "{relative}: displayName");
        assert!(body["manifest"]["apiSpec"]["openApiYaml"].is_string(), "{relative}: manifest.apiSpec");
        assert!(body.get("display_name").is_none(), "{relative}");
    }
    // manifest.description: instructions, else the description, else the title; never blank.
    let descriptions = [
        (json!({"instructions": "", "description": "Manage tasks"}), "Manage tasks"),
        (json!({"instructions": "  ", "title": "Swagger Petstore"}), "Swagger Petstore"),
        (json!({"title": "Swagger Petstore"}), "Swagger Petstore"),
        (json!({"instructions": "Use it well", "description": "d"}), "Use it well"),
    ];
    for (fields, expected) in descriptions {
        let mut value = json!({"tools": [{"name": "t"}]});
        value.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
        let (body, _, _, _) = write_vertex(&model(value));
        assert_eq!(body["manifest"]["description"], expected, "{fields}");
    }
    // createTime/updateTime are protobuf timestamps: RFC 3339, or left out with a diagnostic.
    let times = [
        ("2023-11-02", Some("2023-11-02T00:00:00Z"), "changed/value"),
        ("2023-11", None, "loss/field"),
        ("2023-11-02T10:00:00.5+01:00", Some("2023-11-02T10:00:00.5+01:00"), ""),
        ("yesterday", None, "loss/field"),
    ];
    for (time, expected, code) in times {
        let set = model(json!({"title": "T", "timestamps": {"updated": time}, "tools": [{"name": "t"}]}));
        let (body, _, _, diagnostics) = write_vertex(&set);
        assert_eq!(body["updateTime"].as_str(), expected, "{time}");
        if !code.is_empty() {
            assert!(diagnostics.iter().any(|d| d.code == code && d.path == "/timestamps/updated"), "{time}");
        }
    }
    // Tool-use examples name an operation of the spec and have a query and a display name.
    let set = model(json!({
        "title": "T",
        "tools": [{"name": "known"}],
        "examples": [
            {"prompt": "use it", "expected": [{"calls_tool": {"tool": "known"}}]},
            {"prompt": "other", "expected": [{"calls_tool": {"tool": "not_listed"}}]},
            {"prompt": "", "name": "arguments only", "expected": [{"calls_tool": {"tool": "known"}}]},
            {"prompt": "named blank", "name": "", "expected": [{"calls_tool": {"tool": "known"}}]}
        ]
    }));
    let (body, _, _, diagnostics) = write_vertex(&set);
    let examples = body["toolUseExamples"].as_array().unwrap();
    let queries: Vec<&str> = examples.iter().map(|e| e["query"].as_str().unwrap()).collect();
    assert_eq!(queries, ["use it", "named blank"]);
    assert_eq!(examples[1]["displayName"], "named blank");
    let lost: Vec<&str> = diagnostics.iter().filter(|d| d.code == "loss/examples").map(|d| d.path.as_str()).collect();
    assert_eq!(lost, ["/examples/1/expected", "/examples/2/prompt"]);
    // No example left: no `toolUseExamples`.
    let set = model(json!({"title": "T", "tools": [{"name": "a"}],
        "examples": [{"prompt": "x", "expected": [{"calls_tool": {"tool": "b"}}]}]}));
    assert!(write_vertex(&set).0.get("toolUseExamples").is_none());
}

/// Under Vertex's name rules a name that is already valid keeps itself; the newcomer that
/// sanitises to the same name is the one renamed (tools and parameters alike).
#[test]
fn valid_names_are_kept_and_newcomers_renamed() {
    let set = model(json!({
        "title": "Items",
        "tools": [
            {"name": "list items", "description": "first, not a valid function name",
             "parameters": [{"name": "page-size", "schema": {"type": "integer"}},
                            {"name": "page_size", "schema": {"type": "integer"}}]},
            {"name": "list_items", "description": "second, valid", "parameters": []}
        ]
    }));
    let (_, spec, _, diagnostics) = write_vertex(&set);
    let mut operations: Vec<(String, String, Vec<String>)> = Vec::new();
    for item in spec["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            let parameters = operation["requestBody"]["content"]["application/json"]["schema"]["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            let id = operation["operationId"].as_str().unwrap().to_owned();
            operations.push((id, operation["description"].as_str().unwrap_or_default().to_owned(), parameters));
        }
    }
    assert_eq!(operations.len(), 2, "{spec}");
    let kept = operations.iter().find(|(id, ..)| id == "list_items").expect("a tool written as list_items");
    assert_eq!(kept.1, "second, valid", "the valid name is kept, the newcomer renamed: {operations:?}");
    let first = operations.iter().find(|(_, description, _)| description.starts_with("first")).unwrap();
    assert!(first.2.contains(&"page_size".to_owned()), "the valid parameter name is kept: {operations:?}");
    let renamed: Vec<&str> =
        diagnostics.iter().filter(|d| d.code == "changed/name").map(|d| d.message.as_str()).collect();
    assert!(renamed.iter().any(|m| m.contains("`list items`")), "{renamed:?}");
    assert!(renamed.iter().any(|m| m.contains("`page-size`")), "{renamed:?}");
    assert!(!renamed.iter().any(|m| m.contains("`list_items` is written")), "{renamed:?}");
    assert!(!renamed.iter().any(|m| m.contains("`page_size` is written")), "{renamed:?}");
}

/// What a function format kept of a tool's input schema root (`additionalProperties: false`, a
/// description, …) is said by the request body's schema where that schema is the whole input,
/// comes back on reading, and is reported lost where the body cannot say it.
#[test]
fn input_schema_root_keywords_go_into_the_request_body() {
    let closed = json!({"additionalProperties": false, "description": "Search arguments", "title": "Search",
        "minProperties": 1, "examples": [{"q": "rust"}], "$schema": "http://json-schema.org/draft-07/schema#"});
    let query = json!({"name": "q", "required": true, "schema": {"type": "string"}});
    let http = json!({"method": "POST", "path": "/items/{id}"});
    let id = json!({"name": "id", "required": true, "location": "path", "schema": {"type": "string"}});
    let in_body = json!({"name": "name", "location": "body", "schema": {"type": "string"}});
    // (case, tool, keys and values the openapi body schema has, losses at these paths: openapi, vertex)
    let cases = [
        (
            "mcp, every parameter in the body",
            json!({"name": "search", "parameters": [query], "extras": {"mcp": {"inputSchemaRoot": closed}}}),
            json!({"additionalProperties": false, "description": "Search arguments", "title": "Search",
                "minProperties": 1, "example": {"q": "rust"}}),
            vec![],
            vec!["/tools/0/extras/mcp/inputSchemaRoot/minProperties"],
        ),
        (
            "openai, a schema kept whole (allOf) gives its root keywords but what made the parameters",
            json!({"name": "search", "parameters": [query], "extras": {"openai": {"parameters": {"type": "object",
                "allOf": [{"properties": {"q": {"type": "string"}}}], "required": ["q"], "maxProperties": 3}}}}),
            json!({"maxProperties": 3}),
            vec![],
            vec!["/tools/0/extras/openai/parameters/maxProperties"],
        ),
        (
            "anthropic, parameters split between the path and the body: only additionalProperties fits",
            json!({"name": "rename", "http": http, "parameters": [id, in_body],
                "extras": {"anthropic": {"input_schemaRoot": {"additionalProperties": false, "description": "d"}}}}),
            json!({"additionalProperties": false}),
            vec!["/tools/0/extras/anthropic/input_schemaRoot/description"],
            vec!["/tools/0/extras/anthropic/input_schemaRoot/description"],
        ),
        (
            "gemini, a body that is one parameter",
            json!({"name": "put", "http": {"method": "PUT", "path": "/x", "body_parameter": "body"},
                "parameters": [{"name": "body", "location": "body", "schema": {"type": "array", "items": {"type": "string"}}}],
                "extras": {"gemini": {"parametersRoot": {"additionalProperties": false}}}}),
            json!({"type": "array"}),
            vec!["/tools/0/extras/gemini/parametersRoot/additionalProperties"],
            vec!["/tools/0/extras/gemini/parametersRoot/additionalProperties"],
        ),
        (
            "mcp, no parameters and no body: closed says nothing more, a reference cannot go",
            json!({"name": "ping", "extras": {"mcp": {"inputSchemaRoot": {"additionalProperties": false,
                "propertyNames": {"$ref": "#/$defs/Name"}}}}}),
            Value::Null,
            vec!["/tools/0/extras/mcp/inputSchemaRoot/propertyNames"],
            vec!["/tools/0/extras/mcp/inputSchemaRoot/propertyNames"],
        ),
    ];
    let losses = |diagnostics: &[Diagnostic]| -> Vec<String> {
        diagnostics.iter().filter(|d| d.code == "loss/schema").map(|d| d.path.clone()).collect()
    };
    for (case, tool, expected, openapi_losses, vertex_losses) in cases {
        let set = model(json!({"title": "T", "tools": [tool]}));
        let (doc, written, diagnostics) = write_openapi(&set, &Options::default());
        let operation = doc["paths"].as_object().unwrap().values().next().unwrap().as_object().unwrap();
        let operation = operation.values().next().unwrap();
        let body = &operation["requestBody"]["content"]["application/json"]["schema"];
        match expected.as_object() {
            Some(expected) => {
                for (key, value) in expected {
                    assert_eq!(&body[key], value, "{case}: `{key}` of the OpenAPI body schema {body}");
                }
            }
            None => assert!(operation.get("requestBody").is_none(), "{case}: {operation}"),
        }
        assert!(body.get("$schema").is_none(), "{case}: the body is in the document's dialect");
        assert_eq!(losses(&diagnostics), openapi_losses, "{case}: openapi");
        let (_, spec, _, diagnostics) = write_vertex(&set);
        let vertex_body = spec["paths"].as_object().unwrap().values().next().unwrap().as_object().unwrap();
        let vertex_body = &vertex_body.values().next().unwrap()["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(
            vertex_body.get("additionalProperties"),
            body.get("additionalProperties").filter(|_| expected.is_object()),
            "{case}: vertex"
        );
        assert_eq!(losses(&diagnostics), vertex_losses, "{case}: vertex");

        // Read back: the body says the same, the kept root comes back, and writing again gives
        // the same document.
        let again = read_openapi(&written);
        let kept = |s: &ToolSet| {
            s.tools[0]
                .extras
                .iter()
                .filter(|(k, _)| k.as_str() != "openapi")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(kept(&again), kept(&set), "{case}: the source format's record comes back");
        let (doc_again, _, _) = write_openapi(&again, &Options::default());
        assert_same_json(&doc, &doc_again, case);
    }
}

/// A 3.1 source written as OpenAPI 3.0 (Vertex's spec) holds nothing only 3.1 has: what the
/// source kept as written is rewritten in 3.0's form or left out, each change said where it is.
/// (The `openapi` writer keeps a 3.1 source's version.)
#[test]
fn a_3_1_source_is_written_as_3_0_without_what_only_3_1_has() {
    let source = r##"openapi: 3.1.0
info: {title: T, version: "1", summary: Short, license: {name: MIT, identifier: MIT}}
jsonSchemaDialect: https://json-schema.org/draft/2020-12/schema
webhooks: {ping: {post: {responses: {'200': {description: ok}}}}}
security: [{tls: []}, {key: []}]
paths:
  /a:
    post:
      operationId: a
      parameters: [{name: q, in: query, schema: {type: string}}]
      responses:
        '200': {description: ok}
        '410': {$ref: '#/components/responses/Gone'}
        '409':
          description: conflict
          headers: {X-Rate: {schema: {type: [integer, string]}}}
          content:
            application/json:
              schema:
                type: object
                required: [a, a]
                properties:
                  a: {type: [string, "null"], const: b, examples: [p, q]}
                  n: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 10, maximum: 20}
                  f: false
                  m: {type: string, contentMediaType: text/plain}
      callbacks:
        done: {'{$request.query.q}': {$ref: '#/components/pathItems/Done'}}
components:
  securitySchemes:
    tls: {type: mutualTLS}
    key: {type: apiKey, in: header, name: X-Key}
  pathItems:
    Done: {post: {responses: {'200': {description: ok, content: {text/plain: {schema: {type: [string]}}}}}}}
  responses:
    Gone: {description: gone, content: {application/json: {schema: {$ref: '#/components/schemas/E'}}}}
  schemas:
    E: {type: object, $schema: "https://json-schema.org/draft/2020-12/schema", required: [], properties: {m: {type: "null"}}}
"##;
    let set = read_openapi(&Bundle::single("doc.yaml", source));
    let (body, spec, _, diagnostics) = write_vertex(&set);
    assert_eq!(spec["openapi"], "3.0.3");
    // Every `$ref` resolves: the other components stay.
    common::validate_vertex(&body);
    let response = "/paths/~1a/post/responses/409/content/application~1json/schema";
    // (where in the written spec, what is there (null: nothing), the diagnostic said there)
    let cases = [
        ("/info/summary", Value::Null, "loss/field"),
        ("/info/license", json!({"name": "MIT"}), ""),
        ("/info/license/identifier", Value::Null, "loss/field"),
        ("/jsonSchemaDialect", Value::Null, "changed/schema"),
        ("/webhooks", Value::Null, "loss/http"),
        ("/components/securitySchemes/tls", Value::Null, "loss/auth"),
        ("/security", json!([{"key": []}]), ""),
        ("/components/pathItems", Value::Null, "loss/field"),
        (
            "/paths/~1a/post/callbacks/done/{$request.query.q}",
            json!({"post": {"responses": {"200": {"description": "ok",
                "content": {"text/plain": {"schema": {"type": "string"}}}}}}}),
            "changed/schema",
        ),
        ("/paths/~1a/post/responses/409/headers/X-Rate/schema/type", Value::Null, "changed/schema"),
        (
            "/paths/~1a/post/responses/409/headers/X-Rate/schema/anyOf",
            json!([{"type": "integer"}, {"type": "string"}]),
            "",
        ),
        (&format!("{response}/required"), json!(["a"]), ""),
        (&format!("{response}/properties/a/type"), json!("string"), "changed/schema"),
        (&format!("{response}/properties/a/nullable"), json!(true), ""),
        (&format!("{response}/properties/a/const"), Value::Null, "changed/schema"),
        (&format!("{response}/properties/a/enum"), json!(["b"]), ""),
        (&format!("{response}/properties/a/examples"), Value::Null, "loss/schema"),
        (&format!("{response}/properties/a/example"), json!("p"), ""),
        (&format!("{response}/properties/n/minimum"), json!(0), ""),
        (&format!("{response}/properties/n/exclusiveMinimum"), json!(true), "changed/schema"),
        (&format!("{response}/properties/n/maximum"), json!(10), ""),
        (&format!("{response}/properties/n/exclusiveMaximum"), json!(true), "changed/schema"),
        (&format!("{response}/properties/f"), json!({"not": {}}), "changed/schema"),
        (&format!("{response}/properties/m/contentMediaType"), Value::Null, "loss/schema"),
        ("/components/responses/Gone/content/application~1json/schema", json!({"$ref": "#/components/schemas/E"}), ""),
        ("/components/schemas/E/$schema", Value::Null, "changed/schema"),
        ("/components/schemas/E/required", Value::Null, "changed/schema"),
        ("/components/schemas/E/properties/m", json!({"nullable": true}), ""),
        ("/components/schemas/E/properties/m/type", Value::Null, "changed/schema"),
    ];
    for (pointer, expected, code) in cases {
        assert_eq!(spec.pointer(pointer).unwrap_or(&Value::Null), &expected, "{pointer} in\n{spec:#}");
        let said: Vec<&str> = diagnostics.iter().filter(|d| d.path == pointer).map(|d| d.code.as_str()).collect();
        let expected_codes: Vec<&str> = [code].into_iter().filter(|c| !c.is_empty()).collect();
        assert_eq!(said, expected_codes, "the diagnostics at {pointer}");
    }
    // The other components stay, so what refers to them resolves; the written spec is 3.0
    // again on reading, and writing it gives the same document.
    let again = read_vertex(&write_vertex(&set).2);
    let (_, spec_again, _, diagnostics_again) = write_vertex(&again);
    assert_same_json(&spec, &spec_again, "a Vertex spec written from the 3.0 spec");
    assert!(diagnostics_again.iter().all(|d| !d.path.starts_with("/paths") && !d.path.starts_with("/components")));
}

/// An operation of a 3.0 source that Vertex accepts as written goes to the spec verbatim, its
/// `$ref`s followed through the source's components to decide it; one whose `$ref` leads to
/// what Vertex refuses (a parameter name outside its rules, a `oneOf`), or to nothing, is
/// written again from the model.
#[test]
fn a_vertex_operation_is_kept_as_written_only_when_what_it_refers_to_is_clean() {
    let source = r##"openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /clean:
    get:
      operationId: clean
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}}
  /bad-name:
    get:
      operationId: badName
      parameters: [{$ref: '#/components/parameters/Bad'}]
      responses: {'200': {description: ok}}
  /union:
    get:
      operationId: union
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Either'}}}}}
components:
  parameters:
    Limit: {name: limit, in: query, schema: {type: integer}}
    Bad: {name: 'bad name!', in: query, schema: {type: string}}
  schemas:
    Pet: {type: object, properties: {name: {type: string}}}
    Either: {oneOf: [{type: string}, {type: integer}]}
"##;
    let set = read_openapi(&Bundle::single("doc.yaml", source));
    let (body, spec, _, _) = write_vertex(&set);
    common::validate_vertex(&body);
    let parameter_ref = |path: &str| spec.pointer(&format!("/paths/{path}/get/parameters/0/$ref")).cloned();
    assert_eq!(parameter_ref("~1clean"), Some(json!("#/components/parameters/Limit")), "{spec:#}");
    assert_eq!(parameter_ref("~1bad-name"), None, "{spec:#}");
    assert_eq!(parameter_ref("~1union"), None, "{spec:#}");
}

/// Operations Vertex can and cannot write as the source did (`kept`, the first, it can).
const OPERATIONS_FOR_VERTEX: &str = r##"openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /kept:
    get:
      operationId: kept
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok}}
  /renamed:
    get:
      operationId: meta/root
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok}}
  /shared/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get:
      operationId: shared
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok}}
  /either:
    get:
      operationId: either
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Either'}}}}}
  /numbered:
    get:
      operationId: numbered
      parameters: [{$ref: '#/components/parameters/Limit'}, {name: size, in: query, schema: {enum: [1, 2]}}]
      responses: {'200': {description: ok}}
  /typed:
    get:
      operationId: typed
      parameters: [{name: size, in: query, schema: {type: [integer, string]}}]
      responses: {'200': {description: ok}}
  /unnamed:
    get:
      operationId: unnamed
      parameters: [{$ref: '#/components/parameters/Limit'}, {name: 'page size', in: query, schema: {type: integer}}]
      responses: {'200': {description: ok}}
  /tree:
    get:
      operationId: tree
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Tree'}}}}}
  /forest:
    get:
      operationId: forest
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Forest'}}}}}
  /tree-again:
    get:
      operationId: treeAgain
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Tree'}}}}}
  /ping:
    get:
      operationId: ping
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Ping'}}}}}
  /pong:
    get:
      operationId: pong
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pong'}}}}}
  /served:
    get:
      operationId: served
      servers: [{url: 'https://elsewhere.example.com'}]
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok}}
  /served-path:
    servers: [{url: 'https://elsewhere.example.com'}]
    get:
      operationId: servedPath
      parameters: [{$ref: '#/components/parameters/Limit'}]
      responses: {'200': {description: ok}}
components:
  parameters:
    Limit: {name: limit, in: query, schema: {type: integer}}
  schemas:
    Either: {oneOf: [{type: string}, {type: integer}]}
    Tree: {type: object, properties: {name: {type: string}, children: {type: array, items: {$ref: '#/components/schemas/Tree'}}}}
    Forest: {type: object, properties: {trees: {type: array, items: {$ref: '#/components/schemas/Tree'}}, odd: {$ref: '#/components/schemas/Either'}}}
    Ping: {type: object, properties: {pong: {$ref: '#/components/schemas/Pong'}, odd: {oneOf: [{type: string}, {type: integer}]}}}
    Pong: {type: object, properties: {ping: {$ref: '#/components/schemas/Ping'}}}
"##;

/// The tools whose operation the reader recorded as written.
fn recorded(set: &ToolSet) -> Vec<&str> {
    let has_record = |t: &&toolport_plugin::Tool| t.extras.get("openapi").is_some_and(|e| e.get("raw").is_some());
    set.tools.iter().filter(has_record).map(|t| t.name.as_str()).collect()
}

/// Read for Vertex alone, the reader leaves out the records of operations Vertex never writes
/// as the source did (a name outside its function names, a path item with parameters of its
/// own, a schema outside what Vertex accepts behind a `$ref`, an enum of numbers, a list of
/// types, a parameter name Vertex does not take, a schema that leads to one of those), and what
/// Vertex writes is the same as from a model that kept every record.
#[test]
fn reading_for_vertex_keeps_only_the_operations_vertex_can_write_as_written() {
    let source = OPERATIONS_FOR_VERTEX;
    let bundle = Bundle::single("doc.yaml", source);
    let mut for_vertex = Options::default();
    for_vertex.set(Options::TARGET_FORMAT, "vertex");
    let everything = read_openapi(&bundle);
    let only_vertex = expect_ok(OpenApi.read(&bundle, &for_vertex), "openapi read for vertex").0;
    assert_eq!(
        recorded(&everything),
        [
            "kept",
            "meta/root",
            "shared",
            "either",
            "numbered",
            "typed",
            "unnamed",
            "tree",
            "forest",
            "treeAgain",
            "ping",
            "pong",
            "served",
            "servedPath"
        ]
    );
    // A recursive schema is clean when all it leads to is; one that leads to a clean schema
    // and to an unclean one is not; what was found of a schema holds for the next operation,
    // but not what was assumed of it while a cycle through it was walked (Pong, reached from
    // Ping before Ping's unclean member). Servers of an operation's own (or its path item's)
    // Vertex leaves out, saying so: such an operation is always regenerated.
    assert_eq!(recorded(&only_vertex), ["kept", "tree", "treeAgain"]);
    let (body, spec, _, diagnostics) = write_vertex(&only_vertex);
    let (body_from_everything, _, _, diagnostics_from_everything) = write_vertex(&everything);
    assert_same_json(&body, &body_from_everything, "vertex body read for vertex and for any target");
    assert_eq!(diagnostics, diagnostics_from_everything);
    assert_eq!(
        spec.pointer("/paths/~1kept/get/parameters/0/$ref"),
        Some(&json!("#/components/parameters/Limit")),
        "{spec:#}"
    );
}

/// The import body is serde_json's pretty text of itself, its spec escaped line by line (a
/// multi-line description, quotes, backslashes, a tab), and so it is when a text of the
/// source holds what stands for the spec while the rest is printed.
#[test]
fn the_import_body_is_printed_as_serde_json_prints_it() {
    let source = |description: &str| {
        let info = json!({"title": "T", "version": "1", "description": description});
        let doc = json!({"openapi": "3.0.3", "info": info, "paths": {"/a": {"get": {
            "operationId": "a", "description": "Line one,\nline \"two\" \\ with\ta tab.\n\n  Indented.",
            "responses": {"200": {"description": "ok"}}}}}});
        Bundle::single("doc.json", doc.to_string())
    };
    for description in ["Plain.", "\u{0}toolport:openApiYaml\u{0}", "Quoted \"yaml\":\n- a\n- b\\"] {
        let (_, spec, written, _) = write_vertex(&read_openapi(&source(description)));
        let text = written.files.values().next().unwrap();
        let reparsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(*text, format!("{}\n", serde_json::to_string_pretty(&reparsed).unwrap()), "{description:?}");
        assert_eq!(spec["info"]["description"], json!(description));
    }
}

/// A record of an operation as written whose `raw` is not an operation (a hand-edited model)
/// is not written in its place: Vertex gets the operation regenerated.
#[test]
fn a_vertex_record_that_holds_no_operation_is_not_written() {
    let mut set = read_openapi(&Bundle::single("doc.yaml", OPERATIONS_FOR_VERTEX));
    assert_eq!(set.tools[0].name, "kept");
    let (_, spec, _, _) = write_vertex(&set);
    assert_eq!(spec.pointer("/paths/~1kept/get/parameters/0/$ref"), Some(&json!("#/components/parameters/Limit")));
    let record = set.tools[0].extras.get_mut("openapi").and_then(Value::as_object_mut).unwrap();
    record.insert("raw".into(), json!("not an operation"));
    let (_, spec, _, _) = write_vertex(&set);
    let operation = &spec["paths"]["/kept"]["get"];
    assert_eq!(operation["operationId"], json!("kept"), "{spec:#}");
    assert_eq!(operation["parameters"][0]["name"], json!("limit"), "{spec:#}");
}
