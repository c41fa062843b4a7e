//! Curation through the binary: --select/--exclude, --overlay in toolport's shape and as an
//! OpenAPI Overlay, and the --names-map a caller executes tool calls with.

use crate::support;

use std::path::Path;

use serde_json::{Value, json};
use support::*;

/// A small API of our own: two tags, four methods, a parameter a model need not see, and
/// names Gemini must rewrite (`meta/root`, `include[]`).
const PETS: &str = r#"openapi: 3.1.0
info: {title: Pets, version: '1'}
servers: [{url: 'https://pets.example.com/v1'}]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      description: Lists pets.
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
        - {name: trace_id, in: header, schema: {type: string}}
        - {name: 'include[]', in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
    post:
      operationId: createPet
      tags: [pets]
      requestBody: {content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses: {'201': {description: ok}}
  /pets/{petId}:
    delete:
      operationId: deletePet
      tags: [admin]
      parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
  /meta:
    get:
      operationId: meta/root
      responses: {'200': {description: ok}}
"#;

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("pets.yaml"), PETS).unwrap();
    dir
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The tool names of an OpenAI tools document.
fn openai_names(document: &Value) -> Vec<String> {
    let tools = document.as_array().or_else(|| document["tools"].as_array()).unwrap();
    tools.iter().map(|t| t["function"]["name"].as_str().or(t["name"].as_str()).unwrap().to_owned()).collect()
}

#[test]
fn select_and_exclude_choose_the_tools_written() {
    let dir = setup();
    // (flags, tools written)
    let cases: &[(&[&str], &[&str])] = &[
        (&["--select", "tag:pets"], &["listPets", "createPet"]),
        (&["--select", "tag:pets", "--exclude", "method:post"], &["listPets"]),
        (&["--select", "path:/pets/*"], &["deletePet"]),
        (&["--select", "list*", "--select", "name:meta/*"], &["listPets", "meta_root"]),
        (&["--exclude", "method:DELETE,POST"], &["listPets", "meta_root"]),
    ];
    for (flags, expect) in cases {
        let mut args = vec!["--to", "openai", "pets.yaml"];
        args.extend_from_slice(flags);
        let run = run_in(dir.path(), &args);
        run.expect_code(0);
        let written: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(openai_names(&written), *expect, "{flags:?}");
    }
    // A pattern matching nothing is said; one of an unknown kind is a usage error.
    let run = run_in(dir.path(), &["--to", "openai", "pets.yaml", "--select", "tag:nothing", "--select", "list*"]);
    run.expect_code(0);
    assert!(run.stderr.contains("--select `tag:nothing` matches no tool"), "{}", run.stderr);
    let run = run_in(dir.path(), &["--to", "openai", "pets.yaml", "--select", "verb:GET"]);
    run.expect_code(2);
    assert!(run.stderr.contains("unknown kind `verb`"), "{}", run.stderr);
    // Nothing left is an error, not an empty file.
    let run = run_in(dir.path(), &["--to", "openai", "pets.yaml", "--exclude", "*"]);
    run.expect_code(1);
    assert!(run.stderr.contains("curate/empty"), "{}", run.stderr);
}

#[test]
fn an_overlay_renames_describes_hides_pins_and_marks_tools_for_every_target() {
    let dir = setup();
    std::fs::write(
        dir.path().join("overlay.yaml"),
        "tools:\n  listPets:\n    name: list_all_pets\n    description: Lists every pet in the store, newest first.\n    hints: {read_only: true}\n    parameters:\n      limit: {value: 20}\n      trace_id: {hidden: true}\n  deletePet:\n    confirmation: {message: Delete this pet?, style: destructive}\n    hints: {destructive: true}\n",
    )
    .unwrap();
    let run = run_in(
        dir.path(),
        &["--to", "mcp", "pets.yaml", "--overlay", "overlay.yaml", "--names-map", "names.json", "-o", "pets.mcp.json"],
    );
    run.expect_code(0);
    let written = json_file(&dir.path().join("pets.mcp.json"));
    let tools = written["tools"].as_array().unwrap();
    let list = tools.iter().find(|t| t["name"] == "list_all_pets").expect("renamed");
    assert_eq!(list["description"], "Lists every pet in the store, newest first.");
    assert_eq!(list["annotations"]["readOnlyHint"], true);
    let properties: Vec<&String> = list["inputSchema"]["properties"].as_object().unwrap().keys().collect();
    assert_eq!(properties, ["include[]"], "limit is pinned and trace_id hidden: the model sees neither");
    let delete = tools.iter().find(|t| t["name"] == "deletePet").unwrap();
    assert_eq!(delete["annotations"]["destructiveHint"], true);
    // The pinned value is where a call is executed: the names map.
    let map = json_file(&dir.path().join("names.json"));
    let entry = &map["inputs"][0]["tools"][0];
    assert_eq!(entry["name"], "list_all_pets");
    assert_eq!(entry["source"], "listPets");
    assert_eq!(entry["pinned"], json!([{"name": "limit", "location": "query", "value": 20}]));
    assert_eq!(entry["http"]["method"], "GET");
    assert_eq!(entry["http"]["servers"], json!(["https://pets.example.com/v1"]));

    // Raycast asks before the destructive call, with the overlay's message.
    let run = run_in(dir.path(), &["--to", "raycast", "pets.yaml", "--overlay", "overlay.yaml", "-o", "ext", "-v"]);
    run.expect_code(0);
    let delete = std::fs::read_to_string(dir.path().join("ext/src/tools/delete-pet.ts")).unwrap();
    assert!(delete.contains("Delete this pet?") && delete.contains("Destructive"), "{delete}");
    // Its generated request sends the pinned value, so nothing is lost.
    let list = std::fs::read_to_string(dir.path().join("ext/src/tools/list-all-pets.ts")).unwrap();
    assert!(list.contains("appendQuery(url, \"limit\", 20, \"form\", true);"), "{list}");
    assert!(!run.stderr.contains("pinned"), "{}", run.stderr);
}

#[test]
fn an_overlay_naming_what_the_source_lacks_is_refused_with_its_place() {
    let dir = setup();
    // (overlay, what the error says, line:column)
    let cases = [
        (
            "tools:\n  listPet:\n    description: x\n",
            "the source has no tool `listPet` (did you mean `listPets`?)",
            "overlay.yaml:2:3",
        ),
        (
            "tools:\n  listPets:\n    parameters:\n      limt: {value: 3}\n",
            "has no parameter `limt` (did you mean `limit`?)",
            "overlay.yaml:4:7",
        ),
        // Flow style too: the place is the key `hidden` inside the braces.
        ("tools:\n  deletePet:\n    parameters:\n      petId: {hidden: true}\n", "is required", "overlay.yaml:4:15"),
        (
            "tools:\n  listPets:\n    descripton: x\n",
            "no key `descripton` (did you mean `description`?)",
            "overlay.yaml:3:5",
        ),
    ];
    for (overlay, says, place) in cases {
        std::fs::write(dir.path().join("overlay.yaml"), overlay).unwrap();
        let run = run_in(dir.path(), &["--to", "openai", "pets.yaml", "--overlay", "overlay.yaml"]);
        assert_ne!(run.code, Some(0), "{overlay}");
        assert!(run.stderr.contains(says), "{overlay}\n{}", run.stderr);
        assert!(run.stderr.contains(place), "{overlay}\n{}", run.stderr);
    }
}

#[test]
fn an_openapi_overlay_changes_the_source_before_it_is_read() {
    let dir = setup();
    std::fs::write(
        dir.path().join("overlay.yaml"),
        "overlay: 1.0.0\ninfo: {title: Trim, version: '1'}\nactions:\n  - target: $.paths['/pets'].get\n    update: {description: Lists every pet.}\n  - target: $.paths[*][?@.tags && @.tags[0] == 'admin']\n    remove: true\n",
    )
    .unwrap();
    let run = run_in(dir.path(), &["--to", "openai", "pets.yaml", "--overlay", "overlay.yaml"]);
    run.expect_code(0);
    let written: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(openai_names(&written), ["listPets", "createPet", "meta_root"]);
    let list = &written.as_array().or_else(|| written["tools"].as_array()).unwrap()[0];
    let description = list["function"]["description"].as_str().or(list["description"].as_str()).unwrap();
    assert_eq!(description, "Lists every pet.");

    // It applies to OpenAPI sources only.
    std::fs::write(dir.path().join("tools.mcp.json"), written_mcp()).unwrap();
    let run = run_in(dir.path(), &["--to", "openai", "tools.mcp.json", "--overlay", "overlay.yaml"]);
    run.expect_code(1);
    assert!(run.stderr.contains("applies to OpenAPI documents; this input is read as mcp"), "{}", run.stderr);
}

fn written_mcp() -> String {
    json!({"tools": [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}},
                     {"name": "send_mail", "inputSchema": {"type": "object"}}]})
    .to_string()
}

#[test]
fn the_names_map_gives_the_way_back_from_renamed_names() {
    let dir = setup();
    let run = run_in(dir.path(), &["--to", "gemini", "pets.yaml", "--names-map", "names.json", "-o", "out.json"]);
    run.expect_code(0);
    let map = json_file(&dir.path().join("names.json"));
    assert_eq!(map["names_map_version"], 1);
    assert_eq!(map["to"], "gemini");
    let tools = map["inputs"][0]["tools"].as_array().unwrap();
    let meta = tools.iter().find(|t| t["source"] == "meta/root").unwrap();
    assert_eq!(meta["name"], "meta_root");
    assert_eq!(meta["http"]["path"], "/meta");
    let list = tools.iter().find(|t| t["source"] == "listPets").unwrap();
    let include = list["parameters"].as_array().unwrap().iter().find(|p| p["source"] == "include[]").unwrap();
    assert_eq!(include["name"], "include_");
    assert_eq!(include["location"], "query");

    // Any source: an MCP file selected by name, its map plain.
    std::fs::write(dir.path().join("tools.mcp.json"), written_mcp()).unwrap();
    let run =
        run_in(dir.path(), &["--to", "anthropic", "tools.mcp.json", "--select", "get_*", "--names-map", "m.json"]);
    run.expect_code(0);
    let map = json_file(&dir.path().join("m.json"));
    assert_eq!(
        map["inputs"][0]["tools"],
        json!([{"name": "get_weather", "source": "get_weather", "parameters": [{"name": "city", "source": "city"}]}])
    );
}

/// `--names-map` is planned like an output: it never replaces an input (even with --force, or
/// through a link), nor an existing file without --force, and a refused map writes nothing.
#[test]
fn the_names_map_never_overwrites_an_input_or_a_file() {
    let dir = setup();
    let pets = std::fs::read_to_string(dir.path().join("pets.yaml")).unwrap();
    let refused = run_in(dir.path(), &["--to", "mcp", "pets.yaml", "--names-map", "pets.yaml", "-o", "a/", "--force"]);
    refused.expect_code(2);
    assert!(refused.stderr.contains("--names-map"), "{}", refused.stderr);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("pets.yaml", dir.path().join("link.json")).unwrap();
        run_in(dir.path(), &["--to", "mcp", "pets.yaml", "--names-map", "link.json", "-o", "b/", "--force"])
            .expect_code(2);
    }
    std::fs::write(dir.path().join("taken.json"), "mine").unwrap();
    run_in(dir.path(), &["--to", "mcp", "pets.yaml", "--names-map", "taken.json", "-o", "c/"]).expect_code(2);
    assert_eq!(std::fs::read_to_string(dir.path().join("taken.json")).unwrap(), "mine");
    assert_eq!(std::fs::read_to_string(dir.path().join("pets.yaml")).unwrap(), pets);
    assert!(!dir.path().join("a").exists() && !dir.path().join("c").exists());
}
