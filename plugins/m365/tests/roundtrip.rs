//! Same-format round trips of the hand-written plugin folders (fixtures/m365/): every file
//! comes back as the same document (the manifest with its keys in their order, the spec in its
//! own syntax and place as the openapi format gives a spec back, the function left without an
//! operation), and reading the written folder gives the same model; the models and the
//! diagnostics are golden snapshots.

use serde_json::Value;
use toolport_format_m365::M365;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{assert_same_json, expect_ok, fixture, load, render};

/// A document's value: JSON, or YAML by its file name.
fn value(file: &str, text: &str) -> Value {
    if file.ends_with(".yaml") {
        toolport_plugin::yaml::parse(file, text).unwrap().value
    } else {
        serde_json::from_str(text).unwrap()
    }
}

/// Keys in their order, all the way down (serde_json's maps compare without order).
fn ordered(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

fn check(folder: &str) {
    let input = load(&fixture(&format!("m365/{folder}")));
    // As the host reads it for this target.
    let mut options = Options::default();
    options.set(Options::TARGET_FORMAT, "m365");
    let (model, read_diagnostics) = expect_ok(M365.read(&input, &options), "read");
    let (written, write_diagnostics) = expect_ok(M365.write(&model, &Options::default()), "write");
    assert!(write_diagnostics.iter().all(|d| !d.is_loss()), "same-format write lost:\n{}", render(&write_diagnostics));
    let files: Vec<&String> = written.files.keys().collect();
    assert_eq!(files, input.files.keys().collect::<Vec<_>>(), "the folder's files");
    for (file, text) in &input.files {
        let (expected, actual) = (value(file, text), value(file, written.get(file).unwrap()));
        if file.ends_with("apiplugin.json") || file == "ai-plugin.json" {
            assert_eq!(ordered(&expected), ordered(&actual), "{folder}/{file} changed");
        } else {
            // The spec as the openapi format gives its own back: the same document.
            assert_same_json(&expected, &actual, &format!("{folder}/{file}"));
        }
    }
    let (again, _) = expect_ok(M365.read(&written, &options), "read again");
    assert_eq!(again, model, "read -> write -> read changed the model");
    insta::assert_json_snapshot!(format!("{folder}.model"), model);
    insta::assert_snapshot!(format!("{folder}.read-diagnostics"), render(&read_diagnostics));
    insta::assert_snapshot!(format!("{folder}.write-diagnostics"), render(&write_diagnostics));
}

#[test]
fn a_toolkit_plugin_with_its_yaml_spec_in_a_subfolder() {
    check("repairs");
}

#[test]
fn a_kiota_plugin_with_oauth_and_a_function_of_another_api() {
    check("budgets");
}

#[test]
fn functions_merge_into_their_operations() {
    let input = load(&fixture("m365/budgets"));
    let (model, _) = expect_ok(M365.read(&input, &Options::default()), "read");
    let names: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["getBudgets", "chargeBudget"]);
    assert_eq!(model.title.as_deref(), Some("Budgets"));
    assert_eq!(model.id.as_deref(), Some("budgets"));
    assert_eq!(model.description.as_deref(), Some("Check and charge team budgets."));
    // The function's description is the model's; a function without one keeps the operation's.
    assert_eq!(model.tools[0].description.as_deref(), Some("Finds budgets by name and returns what is left in each."));
    assert_eq!(model.tools[1].description.as_deref(), Some("Charges an amount to a budget."));
    // `type: None` asks nothing; an Adaptive Card's body is the message.
    assert!(model.tools[0].confirmation.is_none());
    let message = model.tools[1].confirmation.as_ref().and_then(|c| c.message.as_deref());
    assert_eq!(message, Some("Charge {{function.parameters.amount}} to {{function.parameters.budgetName}}?"));
    let parameters: Vec<&str> = model.tools[1].parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(parameters, ["budgetName", "amount", "receipt"]);
}

#[test]
fn detect_claims_plugin_folders_only() {
    let manifest =
        r#"{"schema_version": "v2.4", "name_for_human": "A", "namespace": "a", "description_for_human": "d"}"#;
    let folder = |files: &[(&str, &str)]| {
        let mut bundle = Bundle::default();
        for (name, text) in files {
            bundle.insert(*name, *text);
        }
        bundle
    };
    let cases: &[(&[(&str, &str)], u8)] = &[
        (&[("a-apiplugin.json", manifest), ("a-openapi.json", "{\"openapi\": \"3.0.3\"}")], 90),
        (&[("ai-plugin.json", &manifest.replace("v2.4", "v2.1"))], 90),
        // A ChatGPT plugin manifest (v1), an MCP bundle, a Raycast package, an OpenAPI spec.
        (&[("ai-plugin.json", r#"{"schema_version": "v1", "name_for_human": "A", "name_for_model": "a"}"#)], 0),
        (&[("manifest.json", r#"{"manifest_version": "0.3", "name": "a", "server": {}}"#), ("server.json", "{}")], 0),
        (&[("package.json", r#"{"name": "a", "tools": [{"name": "t"}]}"#)], 0),
        (&[("openapi.json", r#"{"openapi": "3.1.0", "info": {"title": "schema_version"}}"#)], 0),
        // A manifest below the folder's top level is not this folder's.
        (&[("appPackage/ai-plugin.json", manifest)], 0),
        (&[("ai-plugin.json", "{not json")], 0),
    ];
    for (files, expect) in cases {
        assert_eq!(M365.detect(&folder(files)), *expect, "{files:?}");
    }
}

/// A manifest of `functions` (or none) and a runtime whose spec is `spec` (a `url` or an
/// `api_description`), alone in its folder but for `files`.
fn plugin(functions: Option<Value>, spec: Value, files: &[(&str, &str)]) -> Bundle {
    let mut manifest = serde_json::json!({
        "schema_version": "v2.3", "name_for_human": "Ping", "namespace": "ping", "description_for_human": "Is it up?",
        "runtimes": [{"type": "OpenApi", "auth": {"type": "None"}, "spec": spec}]
    });
    if let Some(functions) = functions {
        manifest["functions"] = functions;
    }
    let mut bundle = Bundle::single("ping-apiplugin.json", serde_json::to_string_pretty(&manifest).unwrap());
    for (name, text) in files {
        bundle.insert(*name, *text);
    }
    bundle
}

const PING_SPEC: &str = r#"{"openapi": "3.0.3", "info": {"title": "Ping", "version": "1"}, "paths": {"/ping": {"get": {"operationId": "ping", "description": "Pings.", "responses": {"200": {"description": "Up."}}}}}}"#;

fn same_format_trip(input: &Bundle) -> Bundle {
    let mut options = Options::default();
    options.set(Options::TARGET_FORMAT, "m365");
    let (model, _) = expect_ok(M365.read(input, &options), "read");
    let (written, _) = expect_ok(M365.write(&model, &Options::default()), "write");
    written
}

#[test]
fn a_spec_written_inline_is_read_and_given_back_inline() {
    let input = plugin(None, serde_json::json!({"api_description": PING_SPEC}), &[]);
    let (model, _) = expect_ok(M365.read(&input, &Options::default()), "read");
    assert_eq!(model.tools.len(), 1);
    assert_eq!(model.tools[0].name, "ping");
    let written = same_format_trip(&input);
    let files: Vec<&String> = written.files.keys().collect();
    assert_eq!(files, ["ping-apiplugin.json"], "no spec file beside an inline one");
    let manifest = value("ping-apiplugin.json", written.get("ping-apiplugin.json").unwrap());
    let inline = manifest["runtimes"][0]["spec"]["api_description"].as_str().expect("inline spec");
    assert_same_json(&value("x.json", PING_SPEC), &value("x.json", inline), "the inline spec");
}

#[test]
fn a_manifest_without_functions_is_given_back_without_them() {
    let input = plugin(None, serde_json::json!({"url": "ping.json"}), &[("ping.json", PING_SPEC)]);
    let written = same_format_trip(&input);
    let manifest = value("ping-apiplugin.json", written.get("ping-apiplugin.json").unwrap());
    assert!(manifest.get("functions").is_none(), "{manifest}");
    let original = value("ping-apiplugin.json", input.get("ping-apiplugin.json").unwrap());
    assert_eq!(ordered(&original), ordered(&manifest));
    // With functions, a function's own description is the tool's, and the spec keeps its own.
    let functions = serde_json::json!([{"name": "ping", "description": "Checks that the service answers."}]);
    let input = plugin(Some(functions), serde_json::json!({"url": "ping.json"}), &[("ping.json", PING_SPEC)]);
    let (model, _) = expect_ok(M365.read(&input, &Options::default()), "read");
    assert_eq!(model.tools[0].description.as_deref(), Some("Checks that the service answers."));
    let written = same_format_trip(&input);
    assert_same_json(&value("ping.json", PING_SPEC), &value("ping.json", written.get("ping.json").unwrap()), "spec");
}

/// An MCP plugin (manifest 2.4, a `RemoteMCPServer` runtime): one function with `parameters`,
/// one described only by the runtime's inline tool description, one by neither, and one that
/// no runtime runs.
fn mcp_plugin() -> Bundle {
    let manifest = serde_json::json!({
        "schema_version": "v2.4", "name_for_human": "Docs", "namespace": "docs", "description_for_human": "Search the docs.",
        "functions": [
            {"name": "search", "description": "Searches the docs.", "parameters": {"type": "object",
                "properties": {"query": {"type": "string", "description": "What to find."},
                               "limit": {"type": "integer", "default": 10}},
                "required": ["query"]}},
            {"name": "fetch", "description": "Fetches one page."},
            {"name": "ping"},
            {"name": "other", "description": "Run elsewhere."}
        ],
        "runtimes": [{"type": "RemoteMCPServer", "auth": {"type": "None"},
            "spec": {"url": "https://docs.example.org/mcp", "mcp_tool_description": {"tools": [
                {"name": "fetch", "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}}
            ]}},
            "run_for_functions": ["search", "fetch", "ping"]}]
    });
    Bundle::single("ai-plugin.json", serde_json::to_string_pretty(&manifest).unwrap())
}

#[test]
fn an_mcp_plugins_functions_are_its_tools_and_come_back_with_their_parameters() {
    let input = mcp_plugin();
    let read = M365.read(&input, &Options::default());
    let said = render(&read.diagnostics);
    let (model, _) = expect_ok(read, "read");
    let names: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["search", "fetch", "ping"]);
    let parameters = |i: usize| -> Vec<(&str, bool)> {
        model.tools[i].parameters.iter().map(|p| (p.name.as_str(), p.required)).collect()
    };
    assert_eq!(parameters(0), [("query", true), ("limit", false)]);
    assert_eq!(model.tools[0].description.as_deref(), Some("Searches the docs."));
    assert_eq!(parameters(1), [("url", true)], "from the runtime's tool description");
    assert!(parameters(2).is_empty());
    assert!(
        said.contains("function `ping` has no `parameters`, and its MCP runtime describes no tools statically"),
        "{said}"
    );
    assert!(said.contains("function `other` is run by no MCP runtime"), "{said}");

    let written = same_format_trip(&input);
    let files: Vec<&String> = written.files.keys().collect();
    assert_eq!(files, ["ai-plugin.json"], "no spec for an MCP plugin");
    let original = value("ai-plugin.json", input.get("ai-plugin.json").unwrap());
    assert_eq!(ordered(&original), ordered(&value("ai-plugin.json", written.get("ai-plugin.json").unwrap())));
    let (again, _) = expect_ok(M365.read(&written, &Options::default()), "read again");
    assert_eq!(again, model);
}

#[test]
fn an_mcp_plugins_changed_parameters_are_written_from_the_model() {
    let (mut model, _) = expect_ok(M365.read(&mcp_plugin(), &Options::default()), "read");
    model.tools[0].parameters.retain(|p| p.name == "query");
    let (written, _) = expect_ok(M365.write(&model, &Options::default()), "write");
    let manifest = value("ai-plugin.json", written.get("ai-plugin.json").unwrap());
    let parameters = &manifest["functions"][0]["parameters"];
    assert_eq!(
        parameters["properties"].as_object().map(|p| p.keys().collect::<Vec<_>>()),
        Some(vec![&"query".to_owned()])
    );
    assert_eq!(parameters["required"], serde_json::json!(["query"]));
    // The function the runtime describes keeps leaving its parameters to it.
    assert!(manifest["functions"][1].get("parameters").is_none(), "{manifest}");
}

/// An MCP runtime whose static tool description is a file of the folder (a tools/list result):
/// read from there; one that names a file outside the folder is refused with a located
/// warning, nothing read, and the function read without parameters.
#[test]
fn an_mcp_plugins_tool_description_file_is_read_inside_the_folder_only() {
    let plugin = |file: &str| {
        let manifest = serde_json::json!({
            "schema_version": "v2.4", "name_for_human": "Docs", "namespace": "docs", "description_for_human": "d",
            "functions": [{"name": "fetch", "description": "Fetches one page."}],
            "runtimes": [{"type": "RemoteMCPServer", "auth": {"type": "None"},
                "spec": {"url": "https://docs.example.org/mcp", "mcp_tool_description": {"file": file}}}]
        });
        let mut bundle = Bundle::single("ai-plugin.json", serde_json::to_string_pretty(&manifest).unwrap());
        let tools = r#"{"tools": [{"name": "fetch", "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}}]}"#;
        bundle.insert("tools/list.json", tools);
        bundle
    };
    let (model, _) = expect_ok(M365.read(&plugin("tools/list.json"), &Options::default()), "read");
    let parameters: Vec<&str> = model.tools[0].parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(parameters, ["url"]);
    // The file is given back by a same-format write, as the folder's other files are.
    let written = same_format_trip(&plugin("tools/list.json"));
    assert!(written.get("tools/list.json").is_some(), "{:?}", written.files.keys().collect::<Vec<_>>());

    let read = M365.read(&plugin("../tools/list.json"), &Options::default());
    let said = render(&read.diagnostics);
    let (model, _) = expect_ok(read, "read");
    assert!(model.tools[0].parameters.is_empty());
    assert!(said.contains("warning[input/invalid]") && said.contains("leaves the plugin's folder"), "{said}");
    assert!(said.contains("/runtimes/0/spec/mcp_tool_description/file"), "{said}");
}

#[test]
fn an_mcp_plugins_repeated_function_is_said_as_such_and_kept() {
    let manifest = serde_json::json!({
        "schema_version": "v2.4", "name_for_human": "Docs", "namespace": "docs", "description_for_human": "d",
        "functions": [{"name": "fetch", "description": "One."}, {"name": "fetch", "description": "Two."}],
        "runtimes": [{"type": "RemoteMCPServer", "auth": {"type": "None"}, "spec": {"url": "https://docs.example.org/mcp"}}]
    });
    let input = Bundle::single("ai-plugin.json", serde_json::to_string_pretty(&manifest).unwrap());
    let read = M365.read(&input, &Options::default());
    let said = render(&read.diagnostics);
    let (model, _) = expect_ok(read, "read");
    assert_eq!(model.tools.len(), 1);
    assert_eq!(model.tools[0].description.as_deref(), Some("One."));
    assert!(said.contains("a second function named `fetch`: kept as written"), "{said}");
    // Both come back in their places.
    let written = same_format_trip(&input);
    let original = value("ai-plugin.json", input.get("ai-plugin.json").unwrap());
    assert_eq!(ordered(&original), ordered(&value("ai-plugin.json", written.get("ai-plugin.json").unwrap())));
}
