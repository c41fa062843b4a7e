//! Writing from any tool set: the manifest's and server.json's required metadata taken from
//! the model or generated (and said), each tool's parameters named as lost, options choosing
//! the server.

use serde_json::{Value, json};
use toolport_format_mcpb::{MANIFEST_VERSION, McpServer, Mcpb, SERVER_SCHEMA};
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{expect_ok, render};

/// A tool set as a function-tool format reads one: no id, version, author or description.
fn bare() -> Value {
    json!({"tools": [
        {"name": "get weather", "title": "Get weather", "parameters": [
            {"name": "city", "required": true, "schema": {"type": "string"}},
            {"name": "days", "schema": {"type": "integer", "minimum": 1}}
        ], "http": {"method": "GET", "path": "/weather"}},
        {"name": "translate", "description": "Translates a text.", "prompt": "Translate {{text}}",
         "parameters": [{"name": "text", "required": true, "schema": {"type": "string"}}]},
        {"name": "ping", "description": "Is the service up?"}
    ]})
}

fn write(format: &dyn Format, model: Value, options: &[(&str, &str)]) -> (toolport_plugin::Bundle, String) {
    let model: ToolSet = serde_json::from_value(model).unwrap();
    let mut given = Options::default();
    for (key, value) in options {
        given.set(*key, *value);
    }
    given.set(Options::OUTPUT_NAME, "weather-tools");
    let (bundle, diagnostics) = expect_ok(format.write(&model, &given), "write");
    (bundle, render(&diagnostics))
}

fn document(bundle: &toolport_plugin::Bundle, file: &str) -> Value {
    serde_json::from_str(bundle.get(file).unwrap_or_else(|| panic!("{file} in {:?}", bundle.files.keys()))).unwrap()
}

#[test]
fn a_bare_tool_set_gets_every_required_key_generated_and_said() {
    let (bundle, diagnostics) = write(&Mcpb, bare(), &[]);
    let manifest = document(&bundle, "weather-tools.json");
    assert_eq!(manifest["manifest_version"], MANIFEST_VERSION);
    assert_eq!(manifest["name"], "weather-tools");
    assert_eq!(manifest["author"], json!({"name": "unknown"}));
    assert_eq!(manifest["server"]["type"], "node");
    assert_eq!(
        manifest["tools"],
        json!([
            {"name": "get_weather", "description": "Get weather"},
            {"name": "translate", "description": "Translates a text."},
            {"name": "ping", "description": "Is the service up?"}
        ])
    );
    insta::assert_snapshot!("bare.manifest", bundle.get("weather-tools.json").unwrap());
    // The name, version, description, author and server made up; each tool's parameters,
    // the HTTP binding and the template named as lost.
    insta::assert_snapshot!("bare.diagnostics", diagnostics);
}

#[test]
fn each_tool_with_parameters_has_one_loss_naming_them() {
    let (_, diagnostics) = write(&Mcpb, bare(), &[]);
    let lines: Vec<&str> = diagnostics.lines().filter(|l| l.contains("/parameters")).collect();
    assert_eq!(lines.len(), 2, "{diagnostics}");
    assert!(lines[0].contains("loss/schema") && lines[0].contains("`city`, `days`"), "{}", lines[0]);
    assert!(lines[1].contains("/tools/1/parameters") && lines[1].contains("`text`"), "{}", lines[1]);
}

#[test]
fn the_model_metadata_fills_the_manifest() {
    let mut model = bare();
    model["id"] = json!("weather");
    model["title"] = json!("Weather");
    model["description"] = json!("Weather for everyone.");
    model["version"] = json!("3.1.0");
    model["creator"] =
        json!({"name": "Ada", "email": "not an address", "url": "https://example.org", "organization": "Ex"});
    model["icon"] = json!({"kind": "url", "url": "https://example.org/icon.png"});
    let (bundle, diagnostics) = write(&Mcpb, model, &[("server_type", "python")]);
    let manifest = document(&bundle, "weather-tools.json");
    assert_eq!(manifest["name"], "weather");
    assert_eq!(manifest["display_name"], "Weather");
    assert_eq!(manifest["version"], "3.1.0");
    assert_eq!(manifest["description"], "Weather for everyone.");
    assert_eq!(manifest["author"], json!({"name": "Ada", "url": "https://example.org"}));
    assert_eq!(manifest["icon"], "https://example.org/icon.png");
    assert_eq!(
        manifest["server"],
        json!({"type": "python", "entry_point": "server/main.py",
               "mcp_config": {"command": "python", "args": ["${__dirname}/server/main.py"]}})
    );
    for said in ["/creator/email", "/creator/organization", "--option entry_point"] {
        assert!(diagnostics.contains(said), "{said} in {diagnostics}");
    }
    for not_said in ["(at /version)", "(at /description)", "(at /id)", "(at /creator)"] {
        assert!(!diagnostics.contains(not_said), "{not_said} in {diagnostics}");
    }
}

#[test]
fn both_server_options_leave_no_placeholder() {
    let (bundle, diagnostics) = write(&Mcpb, bare(), &[("server_type", "binary"), ("entry_point", "bin/weather")]);
    let manifest = document(&bundle, "weather-tools.json");
    assert_eq!(manifest["server"]["mcp_config"], json!({"command": "${__dirname}/bin/weather"}));
    let server_lines: Vec<&str> = diagnostics.lines().filter(|l| l.contains("manifest/server")).collect();
    assert_eq!(server_lines.len(), 1);
    assert!(server_lines[0].contains("info[generated/content]"), "{}", server_lines[0]);
}

#[test]
fn a_server_folder_holds_server_json_and_the_manifest() {
    let mut model = bare();
    model["title"] = json!("Weather");
    model["description"] = json!(
        "Weather for everyone, everywhere, at any hour. Forecasts, alerts and history for every city on the planet, free."
    );
    let (bundle, diagnostics) = write(&McpServer, model, &[("namespace", "io.github.ada")]);
    let names: Vec<&String> = bundle.files.keys().collect();
    assert_eq!(names, ["manifest.json", "server.json"]);
    let server = document(&bundle, "server.json");
    let manifest = document(&bundle, "manifest.json");
    assert_eq!(server["$schema"], SERVER_SCHEMA);
    assert_eq!(server["name"], "io.github.ada/weather");
    assert_eq!(server["version"], manifest["version"]);
    assert_eq!(server["description"], "Weather for everyone, everywhere, at any hour.");
    assert!(manifest["description"].as_str().unwrap().ends_with("free."), "the manifest has it whole");
    insta::assert_snapshot!("server.json", bundle.get("server.json").unwrap());
    insta::assert_snapshot!("server.diagnostics", diagnostics);
}

#[test]
fn without_a_namespace_the_registry_name_is_a_placeholder() {
    let (bundle, diagnostics) = write(&McpServer, bare(), &[("namespace", "io.github.ada lovelace")]);
    assert_eq!(document(&bundle, "server.json")["name"], "io.github.ada-lovelace/weather-tools");
    assert!(diagnostics.contains("changed/name"), "{diagnostics}");
    let (bundle, diagnostics) = write(&McpServer, bare(), &[]);
    assert_eq!(document(&bundle, "server.json")["name"], "io.github.unknown/weather-tools");
    assert!(diagnostics.contains("generated/placeholder]: a registry name"), "{diagnostics}");
    assert!(diagnostics.contains("(at /extras/mcp-server/server/packages)"), "{diagnostics}");
}

#[test]
fn an_empty_title_is_not_written_to_server_json() {
    let mut model = bare();
    model["title"] = json!(" ");
    let (bundle, _) = write(&McpServer, model, &[("namespace", "io.github.ada")]);
    let server = document(&bundle, "server.json");
    assert!(server.get("title").is_none(), "the registry takes no empty title: {server}");
}
