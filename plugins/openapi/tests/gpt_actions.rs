//! `--option profile=gpt-actions`: texts cut to GPT Actions' limits, `x-openai-isConsequential`
//! on each operation from what the model knows, header parameters named lost, 3.1.0; without
//! the option the document is the plain one.

use crate::common::parse;

use serde_json::{Value, json};
use toolport_format_openapi::OpenApi;
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{expect_ok, render};

/// `n` characters of sentences of 50 characters each.
fn sentences(n: usize) -> String {
    let sentence = "This sentence is exactly fifty characters long ok. ";
    sentence.repeat(n / sentence.len() + 1)[..n].trim_end().to_owned()
}

fn model() -> ToolSet {
    let long_parameter = sentences(800);
    serde_json::from_value(json!({
        "title": "Tasks",
        "tools": [
            {"name": "list_tasks", "title": sentences(320), "description": sentences(400),
             "http": {"method": "GET", "path": "/tasks"},
             "parameters": [
                {"name": "q", "location": "query", "schema": {"type": "string", "description": long_parameter}},
                {"name": "X-Trace", "location": "header", "schema": {"type": "string"}}]},
            {"name": "create_task", "description": "Create a task.", "http": {"method": "POST", "path": "/tasks"},
             "parameters": [{"name": "title", "location": "body", "required": true,
                             "schema": {"type": "string", "description": long_parameter}}]},
            {"name": "preview_task", "description": "Preview a task.", "http": {"method": "POST", "path": "/preview"},
             "hints": {"read_only": true}},
            {"name": "read_secret", "description": "Read a secret.", "http": {"method": "GET", "path": "/secret"},
             "confirmation": {"message": "Read the secret?"}}
        ]
    }))
    .expect("a model")
}

fn write(profile: Option<&str>) -> (Value, String) {
    let mut options = Options::default();
    options.set("syntax", "json");
    if let Some(profile) = profile {
        options.set("profile", profile);
    }
    let (bundle, diagnostics) = expect_ok(OpenApi.write(&model(), &options), "openapi write");
    let (file, text) = bundle.files.iter().next().unwrap();
    (parse(file, text), render(&diagnostics))
}

#[test]
fn the_gpt_actions_profile_fits_chatgpts_rules() {
    let (doc, said) = write(Some("gpt-actions"));
    assert_eq!(doc["openapi"], "3.1.0");
    let list = &doc["paths"]["/tasks"]["get"];
    let create = &doc["paths"]["/tasks"]["post"];
    // (operation, whether ChatGPT asks first): GET reads, POST may change, unless the model says.
    let cases = [
        (list, false),
        (create, true),
        (&doc["paths"]["/preview"]["post"], false),
        (&doc["paths"]["/secret"]["get"], true),
    ];
    for (op, consequential) in cases {
        assert_eq!(op["x-openai-isConsequential"], consequential, "{}", op["operationId"]);
    }
    let length = |v: &Value| v.as_str().unwrap().chars().count();
    assert!(length(&list["summary"]) <= 300 && length(&list["description"]) <= 300, "{list}");
    assert!(list["description"].as_str().unwrap().ends_with('.'), "cut at a sentence: {list}");
    assert!(length(&list["parameters"][0]["description"]) <= 700);
    let body = &create["requestBody"]["content"]["application/json"]["schema"]["properties"]["title"];
    assert!(length(&body["description"]) <= 700, "{body}");
    for at in [
        "changed/description]: summary of operation `list_tasks` cut from 319",
        "(at /tools/0/title)",
        "(at /tools/0/description)",
        "(at /tools/0/parameters/0/schema/description)",
        "(at /tools/1/parameters/0/schema/description)",
        "loss/http]: GPT Actions send no custom headers: header parameter `X-Trace`",
        "(at /tools/0/parameters/1)",
    ] {
        assert!(said.contains(at), "{at:?} not said:\n{said}");
    }
}

#[test]
fn without_the_profile_the_document_is_plain() {
    for profile in [None, Some("plain")] {
        let (doc, said) = write(profile);
        assert_eq!(doc["openapi"], "3.0.3");
        let list = &doc["paths"]["/tasks"]["get"];
        assert!(list.get("x-openai-isConsequential").is_none(), "{list}");
        assert_eq!(list["description"].as_str().unwrap().chars().count(), 400);
        assert!(!said.contains("GPT Actions"), "{said}");
    }
}

#[test]
fn a_source_flag_and_version_are_kept() {
    let source = r#"{"openapi": "3.0.1", "info": {"title": "T", "version": "1"}, "paths": {"/x": {"post": {
        "operationId": "poke", "x-openai-isConsequential": false, "responses": {"200": {"description": "ok"}}}}}}"#;
    let (set, _) =
        expect_ok(OpenApi.read(&toolport_plugin::Bundle::single("t.json", source), &Options::default()), "read");
    let mut options = Options::default();
    options.set("profile", "gpt-actions");
    options.set("syntax", "json");
    let (bundle, _) = expect_ok(OpenApi.write(&set, &options), "write");
    let doc = parse("t.json", bundle.files.values().next().unwrap());
    assert_eq!(doc["openapi"], "3.0.1");
    assert_eq!(doc["paths"]["/x"]["post"]["x-openai-isConsequential"], false);
}
