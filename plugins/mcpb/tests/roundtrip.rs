//! Same-format round trips of the hand-written fixtures: MCPB manifests (fixtures/mcpb/) read
//! and written back as the same JSON, and an MCP server folder (fixtures/mcp-server/) whose
//! manifest and server.json both come back; the models are golden snapshots.

use serde_json::Value;
use toolport_format_mcpb::{MANIFEST_FILE, McpServer, Mcpb, SERVER_FILE};
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{assert_same_json, expect_ok, fixture, render};

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(Mcpb, "mcpb", file);
}

#[test]
fn manifest_with_server_user_config_prompts_and_a_tool_without_description() {
    check("weather-bundle.json");
}

#[test]
fn dxt_manifest_of_the_first_version() {
    check("minimal-dxt.json");
}

/// The folder `fixtures/mcp-server/<name>/` as the host loads it: its files by name.
fn folder(name: &str) -> Bundle {
    let mut bundle = Bundle::default();
    for file in [MANIFEST_FILE, SERVER_FILE] {
        bundle.insert(file, std::fs::read_to_string(fixture(&format!("mcp-server/{name}/{file}"))).unwrap());
    }
    bundle
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn server_folder_gives_back_both_files() {
    let input = folder("tide-tables");
    let (model, read_diagnostics) = expect_ok(McpServer.read(&input, &Options::default()), "read");
    let (written, write_diagnostics) = expect_ok(McpServer.write(&model, &Options::default()), "write");
    assert!(write_diagnostics.is_empty(), "same-format write reported:\n{}", render(&write_diagnostics));
    for file in [MANIFEST_FILE, SERVER_FILE] {
        assert_same_json(&json(input.get(file).unwrap()), &json(written.get(file).unwrap()), file);
    }
    let (again, _) = expect_ok(McpServer.read(&written, &Options::default()), "read again");
    assert_eq!(again, model, "read -> write -> read changed the model");
    insta::assert_json_snapshot!("tide-tables.model", model);
    insta::assert_snapshot!("tide-tables.read-diagnostics", render(&read_diagnostics));
}

#[test]
fn detect_is_specific() {
    let server = r#"{"manifest_version": "0.3", "name": "a", "server": {"type": "node"}}"#;
    let cases: &[(&str, u8)] = &[
        (server, 95),
        (r#"{"dxt_version": "0.1", "name": "a", "tools": [{"name": "t"}]}"#, 95),
        // An MCP tools/list result and a Raycast-style package are not manifests.
        (r#"{"tools": [{"name": "a", "description": "d"}]}"#, 0),
        (r#"{"name": "a", "version": "1.0.0", "server": {}}"#, 0),
        (r#"{"manifest_version": 3, "name": "a", "server": {}}"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(Mcpb.detect(&Bundle::single("manifest.json", *text)), *expect, "{text}");
    }
    assert_eq!(McpServer.detect(&folder("tide-tables")), 90);
    let mut manifest_only = Bundle::default();
    manifest_only.insert(MANIFEST_FILE, server);
    assert_eq!(McpServer.detect(&manifest_only), 0, "a folder without server.json");
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text = "{\"manifest_version\": \"0.3\", \"name\": \"x\", \"version\": 2,\n \"author\": {\"name\": \"A\", \"nickname\": \"a\"},\n \"server\": {\"type\": \"node\"},\n \"tools\": [\n  {\"description\": \"no name\"},\n  {\"name\": \"ok\", \"description\": 7, \"inputSchema\": {}},\n  \"just text\",\n  {\"name\": \"ok\"}\n]}";
    let outcome = Mcpb.read(&Bundle::single("bad.json", text), &Options::default());
    assert_eq!(outcome.value.as_ref().expect("the valid tools are read").tools.len(), 2);
    insta::assert_snapshot!("bad-input", render(&outcome.diagnostics));
}

#[test]
fn a_tool_list_is_not_a_manifest() {
    let text = r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#;
    let outcome = Mcpb.read(&Bundle::single("tools.json", text), &Options::default());
    assert!(outcome.value.is_none());
    assert!(render(&outcome.diagnostics).contains("tools.json:1:1: error[input/invalid]: expected an MCPB manifest"));
}

#[test]
fn a_server_folder_without_its_manifest_is_refused_by_name() {
    let mut input = Bundle::default();
    input.insert(SERVER_FILE, r#"{"name": "io.github.a/b", "description": "d", "version": "1.0.0"}"#);
    let outcome = McpServer.read(&input, &Options::default());
    assert!(outcome.value.is_none());
    let said = render(&outcome.diagnostics);
    assert!(said.contains("input/missing-file") && said.contains("manifest.json"), "{said}");
}

#[test]
fn a_server_folder_gives_back_its_other_files_code_and_icons_included() {
    let mut input = folder("tide-tables");
    input.insert("server/index.js", "import { serve } from './serve.js';\nserve();\n");
    input.binary_files.insert("icon.png".into(), vec![0x89, b'P', b'N', b'G', 0, 0xff]);
    let (model, _) = expect_ok(McpServer.read(&input, &Options::default()), "read");
    let (written, _) = expect_ok(McpServer.write(&model, &Options::default()), "write");
    assert_eq!(written.get("server/index.js"), input.get("server/index.js"));
    assert_eq!(written.binary_files.get("icon.png"), input.binary_files.get("icon.png"));
    for file in [MANIFEST_FILE, SERVER_FILE] {
        assert_same_json(&json(input.get(file).unwrap()), &json(written.get(file).unwrap()), file);
    }
    // Another target cannot give the files back: its loss names each one.
    let (_, diagnostics) = expect_ok(Mcpb.write(&model, &Options::default()), "write mcpb");
    let said = render(&diagnostics);
    assert!(said.contains("loss/extras") && said.contains("`server/index.js`, `icon.png`"), "{said}");
}
