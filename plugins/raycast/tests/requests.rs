//! What the generated tools send at run time: each case runs a written tool under node with a
//! fetch that records the request (tests/tsc/run-tools.js) and compares method, URL,
//! content type and body with what the API expects. Needs node and tests/tsc's node_modules
//! (installed once per run, see `common::node_ready`); TOOLPORT_SKIP_TSC=1 skips it where node
//! is missing.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use toolport_format_raycast::Raycast;
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::render;

/// Tools as an OpenAPI reader gives them: locations, content types and the serialisation
/// hints (`style`, `explode`, a form body's `encoding`) kept beside the model, and values an
/// overlay pinned. The tsc check type-checks what it is written as.
pub(crate) fn model() -> ToolSet {
    let deep = json!({"openapi": {"param": {"style": "deepObject", "explode": true}}});
    let range = json!({"any_of": [
        {"type": "object", "properties": [{"name": "gt", "schema": {"type": "integer"}}, {"name": "lt", "schema": {"type": "integer"}}]},
        {"type": "integer"}
    ]});
    serde_json::from_value(json!({
        "title": "Requests",
        "servers": [{"url": "https://api.example.com/v1/"}],
        "tools": [
            {
                "name": "list-charges",
                "http": {"method": "GET", "path": "/charges", "body_content_type": "application/x-www-form-urlencoded", "body_parameter": "body"},
                "parameters": [
                    {"name": "created", "location": "query", "schema": range, "extras": deep},
                    {"name": "expand", "location": "query", "schema": {"type": "array", "items": {"type": "string"}}, "extras": deep},
                    {"name": "limit", "location": "query", "schema": {"type": "integer"}},
                    {"name": "body", "location": "body", "schema": {"type": "object", "additional_properties": false}}
                ]
            },
            {
                "name": "search",
                "http": {"method": "GET", "path": "/search"},
                "parameters": [
                    {"name": "filter", "location": "query", "schema": {"type": "object", "properties": [{"name": "color", "schema": {"type": "string"}}, {"name": "size", "schema": {"type": "integer"}}]}},
                    {"name": "ids", "location": "query", "schema": {"type": "array", "items": {"type": "integer"}}, "extras": {"openapi": {"param": {"style": "form", "explode": false}}}},
                    {"name": "tags", "location": "query", "schema": {"type": "array", "items": {"type": "string"}}, "extras": {"openapi": {"param": {"style": "pipeDelimited", "explode": false}}}},
                    {"name": "q", "location": "body", "schema": {"type": "string"}}
                ]
            },
            {
                "name": "create-customer",
                "http": {"method": "POST", "path": "/customers", "body_content_type": "application/x-www-form-urlencoded"},
                "extras": {"openapi": {"body": {"media": {"encoding": {
                    "address": {"style": "deepObject", "explode": true},
                    "metadata": {"style": "deepObject", "explode": true},
                    "expand": {"style": "deepObject", "explode": true}
                }}}}},
                "parameters": [
                    {"name": "name", "location": "body", "required": true, "schema": {"type": "string", "nullable": true}},
                    {"name": "address", "location": "body", "schema": {"type": "object", "properties": [{"name": "city", "schema": {"type": "string"}}, {"name": "line1", "schema": {"type": "string"}}]}},
                    {"name": "metadata", "location": "body", "schema": {"type": "object", "additional_properties": {"type": "string"}}},
                    {"name": "expand", "location": "body", "schema": {"type": "array", "items": {"type": "string"}}},
                    {"name": "channels", "location": "body", "schema": {"type": "array", "items": {"type": "string"}}}
                ]
            },
            {
                "name": "update-user",
                "http": {"method": "POST", "path": "/projects/{project_id}/users/{user_id}", "body_content_type": "application/json", "body_parameter": "body"},
                "parameters": [
                    {"name": "body", "location": "body", "required": true, "schema": {"type": "object", "properties": [{"name": "role", "required": true, "schema": {"enum": [{"value": "owner"}, {"value": "member"}]}}]}}
                ]
            },
            {
                "name": "get-item",
                "http": {"method": "GET", "path": "/items/{id}{coords}"},
                "parameters": [
                    {"name": "id", "location": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "coords", "location": "path", "required": true, "schema": {"type": "array", "items": {"type": "number"}}, "extras": {"openapi": {"param": {"style": "matrix", "explode": true}}}},
                    {"name": "X-Trace", "location": "header", "schema": {"type": "string"}},
                    {"name": "session", "location": "cookie", "schema": {"type": "string"}},
                    {"name": "id_query", "location": "query", "schema": {"type": "string"}, "extras": {"openapi": {"name": "id"}}}
                ]
            },
            {
                "name": "upload",
                "http": {"method": "PUT", "path": "/files", "body_content_type": "multipart/form-data"},
                "parameters": [
                    {"name": "purpose", "location": "body", "required": true, "schema": {"type": "string"}},
                    {"name": "labels", "location": "body", "schema": {"type": "array", "items": {"type": "string"}}}
                ]
            },
            {
                "name": "set-config",
                "http": {"method": "PATCH", "path": "/config", "body_content_type": "application/json"},
                "parameters": [
                    {"name": "settings", "location": "body", "required": true, "schema": {"type": "object"}},
                    {"name": "rules", "location": "body", "schema": {"type": "array", "items": {"type": "object", "properties": [{"name": "when", "schema": {"type": "object"}}]}}},
                    {"name": "note", "location": "body", "schema": {"type": "string", "nullable": true}}
                ]
            },
            {
                "name": "add-member",
                "http": {"method": "POST", "path": "/orgs/{org}/members", "body_content_type": "application/json"},
                "parameters": [{"name": "name", "location": "body", "required": true, "schema": {"type": "string"}}],
                "pinned": [
                    {"name": "org", "location": "path", "value": "acme corp"},
                    {"name": "limit", "location": "query", "value": 20},
                    {"name": "X-Api-Version", "location": "header", "value": "2"},
                    {"name": "role", "location": "body", "value": "member"},
                    {"name": "notify", "value": {"email": false}}
                ]
            },
            {
                "name": "summarize",
                "parameters": [{"name": "text", "required": true, "schema": {"type": "string"}}],
                "pinned": [{"name": "style", "value": "short"}]
            }
        ]
    }))
    .expect("model")
}

struct Case {
    tool: &'static str,
    input: Value,
    method: &'static str,
    url: &'static str,
    content_type: Option<&'static str>,
    body: Option<&'static str>,
}

fn cases() -> Vec<Case> {
    vec![
        // GET sends no body: the empty body parameter is left out; deepObject and form query values.
        Case {
            tool: "list-charges",
            input: json!({"created": {"gt": 1, "lt": 5}, "expand": ["data.customer", "data.invoice"], "limit": 3}),
            method: "GET",
            url: "https://api.example.com/v1/charges?created%5Bgt%5D=1&created%5Blt%5D=5&expand%5B0%5D=data.customer&expand%5B1%5D=data.invoice&limit=3",
            content_type: None,
            body: None,
        },
        // Form explode objects spread their properties; explode=false and pipeDelimited arrays
        // are joined; a body value of a GET goes to the query string.
        Case {
            tool: "search",
            input: json!({"filter": {"color": "red", "size": 2}, "ids": [1, 2], "tags": ["a", "b"], "q": "x y"}),
            method: "GET",
            url: "https://api.example.com/v1/search?color=red&size=2&ids=1%2C2&tags=a%7Cb&q=x+y",
            content_type: None,
            body: None,
        },
        // application/x-www-form-urlencoded: deepObject fields in brackets, maps given as JSON
        // text parsed first, form arrays repeated.
        Case {
            tool: "create-customer",
            input: json!({"name": "Ada", "address": {"city": "Paris"}, "metadata": "{\"order\":\"6735\"}", "expand": ["tax"], "channels": ["sms", "voice"]}),
            method: "POST",
            url: "https://api.example.com/v1/customers",
            content_type: Some("application/x-www-form-urlencoded"),
            body: Some(
                "name=Ada&address%5Bcity%5D=Paris&metadata%5Border%5D=6735&expand%5B0%5D=tax&channels=sms&channels=voice",
            ),
        },
        // Path placeholders no parameter declares become inputs.
        Case {
            tool: "update-user",
            input: json!({"project_id": "p 1", "user_id": "u/2", "body": {"role": "owner"}}),
            method: "POST",
            url: "https://api.example.com/v1/projects/p%201/users/u%2F2",
            content_type: Some("application/json"),
            body: Some("{\"role\":\"owner\"}"),
        },
        // Matrix path style; a renamed parameter goes by its wire name.
        Case {
            tool: "get-item",
            input: json!({"id": "a", "coords": [1.5, 2], "X-Trace": "t", "session": "s", "id_query": "q"}),
            method: "GET",
            url: "https://api.example.com/v1/items/a;coords=1.5;coords=2?id=q",
            content_type: None,
            body: None,
        },
        Case {
            tool: "upload",
            input: json!({"purpose": "fine-tune", "labels": ["x", "y"]}),
            method: "PUT",
            url: "https://api.example.com/v1/files",
            content_type: None,
            body: Some("[[\"purpose\",\"fine-tune\"],[\"labels\",\"x\"],[\"labels\",\"y\"]]"),
        },
        // Pinned values (an overlay's) are sent where the parameters they replace went; one
        // without a location goes where a parameter would (a POST's body).
        Case {
            tool: "add-member",
            input: json!({"name": "Ada"}),
            method: "POST",
            url: "https://api.example.com/v1/orgs/acme%20corp/members?limit=20",
            content_type: Some("application/json"),
            body: Some("{\"name\":\"Ada\",\"role\":\"member\",\"notify\":{\"email\":false}}"),
        },
        // JSON bodies: maps (and maps inside arrays) parsed from their JSON text.
        Case {
            tool: "set-config",
            input: json!({"settings": "{\"a\":1}", "rules": [{"when": "{\"b\":true}"}]}),
            method: "PATCH",
            url: "https://api.example.com/v1/config",
            content_type: Some("application/json"),
            body: Some("{\"settings\":{\"a\":1},\"rules\":[{\"when\":{\"b\":true}}]}"),
        },
    ]
}

#[test]
fn generated_tools_send_what_the_api_expects() {
    if !common::node_ready() {
        return;
    }
    let outcome = Raycast.write(&model(), &Options::default());
    let bundle = outcome.value.expect("write");
    let dir = tempfile::tempdir().unwrap();
    common::write_to_disk(&bundle, dir.path());
    let cases = cases();
    let calls: Vec<Value> = cases.iter().map(|c| json!({"tool": c.tool, "input": c.input})).collect();
    let project = common::npm_project();
    let mut child = Command::new("node")
        .arg(project.join("run-tools.js"))
        .arg(dir.path())
        .current_dir(&project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run node");
    child.stdin.take().unwrap().write_all(serde_json::to_string(&calls).unwrap().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "run-tools.js failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let sent: Vec<Value> = serde_json::from_slice(&output.stdout).expect("requests");
    let mut failures = Vec::new();
    for (case, sent) in cases.iter().zip(&sent) {
        let content_type = sent["headers"].get("Content-Type").and_then(Value::as_str);
        let got = (sent["method"].as_str(), sent["url"].as_str(), content_type, sent["body"].as_str());
        let want = (Some(case.method), Some(case.url), case.content_type, case.body);
        if got != want {
            failures.push(format!("{}: sent {sent}\n  expected {want:?}", case.tool));
        }
    }
    // A header and a cookie go where they belong.
    let item = &sent[4];
    assert_eq!(item["headers"]["X-Trace"], "t", "{item}");
    assert_eq!(item["headers"]["Cookie"], "session=s", "{item}");
    let member = &sent[cases.iter().position(|c| c.tool == "add-member").unwrap()];
    assert_eq!(member["headers"]["X-Api-Version"], "2", "a pinned header is sent: {member}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every case's tool is a request; the tool without an HTTP binding is a visible stub.
    let stubs: Vec<&str> =
        outcome.diagnostics.iter().filter(|d| d.code == "generated/stub").map(|d| d.path.as_str()).collect();
    assert_eq!(stubs, ["/tools/8"], "{}", render(&outcome.diagnostics));
}

#[test]
fn get_bodies_and_undeclared_path_parameters_are_reported() {
    let outcome = Raycast.write(&model(), &Options::default());
    let bundle = outcome.value.expect("write");
    let list = bundle.get("src/tools/list-charges.ts").unwrap();
    assert!(!list.contains("body"), "a GET sends no body:\n{list}");
    let update = bundle.get("src/tools/update-user.ts").unwrap();
    assert!(update.contains("  project_id: string;\n  user_id: string;\n"), "{update}");
    let wanted = [
        ("loss/http", "/tools/0/parameters/3", "GET sends no body"),
        ("loss/http", "/tools/1/parameters/3", "sent in the query string"),
        ("generated/content", "/tools/3/http", "`{project_id}`"),
        ("changed/schema", "/tools/2/parameters/2/schema", "written as `string` holding JSON"),
        ("changed/schema", "/tools/2/parameters/0/schema/nullable", "`null` is left out"),
        // A pinned value has a request to go into only where the tool has an HTTP binding.
        ("loss/http", "/tools/8/pinned/0", "no HTTP request to send pinned `style` in"),
    ];
    for (code, path, text) in wanted {
        assert!(
            outcome.diagnostics.iter().any(|d| d.code == code && d.path == path && d.message.contains(text)),
            "missing {code} at {path} ({text}):\n{}",
            render(&outcome.diagnostics)
        );
    }
    let sent_pinned = outcome.diagnostics.iter().filter(|d| d.path.starts_with("/tools/7/pinned"));
    assert_eq!(
        sent_pinned.count(),
        0,
        "pinned values the request sends are no loss:\n{}",
        render(&outcome.diagnostics)
    );
}
