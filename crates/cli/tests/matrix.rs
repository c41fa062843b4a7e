//! Every format to every format, through the loaded plugins: each output must convert without
//! an error and read back with its own format; the seed's map tool survives a trip through
//! every format and back to Gloodata with its parameters.

use crate::support;

use std::path::PathBuf;

use support::*;

const TARGETS: [&str; 15] = [
    "gloodata",
    "skydeck",
    "raycast",
    "vertex",
    "openapi",
    "mcp",
    "mcp-prompts",
    "mcpb",
    "mcp-server",
    "m365",
    "openai",
    "anthropic",
    "bedrock",
    "bedrock-agent",
    "gemini",
];

/// One representative input per source format.
fn sources() -> Vec<(&'static str, PathBuf)> {
    let corpus = toolport_testkit::corpus;
    let fixture = toolport_testkit::fixture;
    vec![
        ("gloodata", fixture("gloodata/show-map.json")),
        ("gloodata", corpus("gloodata/ext-rs-service-status.json")),
        ("skydeck", corpus("skydeck/synthetic--llm-tool--strict.json")),
        ("openapi", corpus("openapi/oai-examples/petstore-expanded.yaml")),
        ("vertex", corpus("vertex/code_interpreter/import_request.docs.json")),
        ("raycast", corpus("raycast/obsidian")),
        ("mcp", fixture("mcp/issue-tracker.json")),
        ("openai", fixture("openai/chat-tools.json")),
        ("anthropic", fixture("anthropic/support-tools.json")),
        ("bedrock", fixture("bedrock/converse-request.json")),
        ("bedrock-agent", fixture("bedrock-agent/create-request.json")),
        ("mcp-prompts", fixture("mcp-prompts/prompts.json")),
        ("mcpb", fixture("mcpb/weather-bundle.json")),
        ("mcp-server", fixture("mcp-server/tide-tables")),
        ("m365", fixture("m365/repairs")),
    ]
}

/// Targets whose document is a folder, read back as a whole.
const FOLDERS: [&str; 3] = ["raycast", "mcp-server", "m365"];

/// Targets that list tools without their parameters (each loss named): the map tool's
/// parameters cannot come back through them.
const WITHOUT_PARAMETERS: [&str; 2] = ["mcpb", "mcp-server"];

#[test]
fn every_format_converts_to_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (i, (from, input)) in sources().into_iter().enumerate() {
        for to in TARGETS {
            let out = dir.path().join(format!("{i}-{from}-to-{to}"));
            let run = run_in(
                dir.path(),
                &["--from", from, "--to", to, input.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"],
            );
            if run.code != Some(0) {
                failures.push(format!("{from} {} -> {to}: exit {:?}\n{}", input.display(), run.code, run.stderr));
                continue;
            }
            // The output reads back with its own format.
            let back = if FOLDERS.contains(&to) { out.clone() } else { first_file(&out) };
            let check = run_in(dir.path(), &["check", "--from", to, back.to_str().unwrap(), "-q"]);
            if check.code != Some(0) {
                failures.push(format!("{from} -> {to}: output does not read back\n{}", check.stderr));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn first_file(dir: &std::path::Path) -> PathBuf {
    if dir.is_file() {
        return dir.to_path_buf();
    }
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    files.sort();
    files.into_iter().next().unwrap_or_else(|| panic!("{} is empty", dir.display()))
}

#[test]
fn the_seed_map_tool_goes_everywhere_and_back_with_its_parameters() {
    let dir = tempfile::tempdir().unwrap();
    for via in TARGETS.into_iter().filter(|via| !WITHOUT_PARAMETERS.contains(via)) {
        let there = dir.path().join(format!("there-{via}"));
        run_in(
            dir.path(),
            &["--from", "gloodata", "--to", via, seed_map().to_str().unwrap(), "-o", there.to_str().unwrap(), "-q"],
        )
        .expect_code(0);
        let input = if FOLDERS.contains(&via) { there.clone() } else { first_file(&there) };
        let back = run_in(dir.path(), &["--from", via, "--to", "gloodata", input.to_str().unwrap(), "-q"]);
        back.expect_code(0);
        let doc: serde_json::Value = serde_json::from_str(&back.stdout).unwrap();
        let tools = doc["tools"].as_object().unwrap();
        assert_eq!(tools.len(), 1, "via {via}: {doc}");
        let fields = tools.values().next().unwrap()["schema"]["fields"].as_object().unwrap();
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        assert_eq!(names, ["address", "zoom"], "via {via}: {doc}");
        // SkyDeck variables and MCP prompt arguments are text; TypeScript has only `number`:
        // each says so in diagnostics.
        let zoom = match via {
            "skydeck" | "mcp-prompts" => "string",
            "raycast" => "number",
            _ => "integer",
        };
        assert_eq!(fields["zoom"]["type"], zoom, "via {via}");
        assert_eq!(fields["address"]["description"], "the address to display in the map", "via {via}");
    }
}

/// What a Raycast model keeps through a format that holds parameters, descriptions,
/// instructions and tool-use examples (prompt, called tool, equality arguments).
fn carried_by_vertex(model: &serde_json::Value) -> serde_json::Value {
    let set = &model["tool_set"];
    let tools: Vec<serde_json::Value> = set["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let parameters: Vec<serde_json::Value> = t["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| serde_json::json!([p["name"], p["schema"]["description"], p["required"], p["schema"]["type"]]))
                .collect();
            serde_json::json!({"name": t["name"], "description": t["description"], "parameters": parameters})
        })
        .collect();
    let examples: Vec<serde_json::Value> = set["examples"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            let call = e["expected"].as_array().into_iter().flatten().find_map(|x| x.get("calls_tool"));
            let arguments: serde_json::Map<String, serde_json::Value> = call
                .and_then(|c| c["arguments"].as_object())
                .into_iter()
                .flatten()
                .filter_map(|(k, m)| m.get("eq").map(|eq| (k.clone(), eq["value"].clone())))
                .collect();
            serde_json::json!({"prompt": e["prompt"], "tool": call.map(|c| c["tool"].clone()), "arguments": arguments})
        })
        .collect();
    serde_json::json!({"instructions": set["instructions"], "tools": tools, "examples": examples})
}

#[test]
fn raycast_through_vertex_keeps_what_vertex_can_carry() {
    let dir = tempfile::tempdir().unwrap();
    let source = toolport_testkit::fixture("raycast/ai-yaml");
    let source = source.to_str().unwrap();
    run_in(dir.path(), &["--from", "raycast", "--to", "vertex", source, "-o", "v.json", "-q"]).expect_code(0);
    run_in(dir.path(), &["--from", "vertex", "--to", "raycast", "v.json", "-o", "back", "-q"]).expect_code(0);
    let inspect = |path: &str, from: &str| {
        let run = run_in(dir.path(), &["inspect", "--from", from, path, "-q"]);
        run.expect_code(0);
        serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap()
    };
    let before = carried_by_vertex(&inspect(source, "raycast"));
    let after = carried_by_vertex(&inspect("back", "raycast"));
    assert_eq!(before["tools"].as_array().unwrap().len(), 2);
    assert_eq!(before["examples"].as_array().unwrap().len(), 4);
    assert_eq!(before["examples"][1]["arguments"], serde_json::json!({"user.name": "thomas", "tags": ["shopping"]}));
    assert!(before["instructions"].as_str().unwrap().starts_with("When you don't know"));
    assert!(before["tools"][1]["parameters"].as_array().unwrap().len() >= 3, "{before}");
    toolport_testkit::assert_same_json(&before, &after, "raycast -> vertex -> raycast");
}

/// An extension's own files (code, assets, dot files) are Raycast's to give back: an OpenAPI
/// document or a Vertex body written from one holds none of them, and the report says they
/// were left out.
#[test]
fn an_extensions_own_files_stay_out_of_openapi_documents() {
    let extension = toolport_testkit::fixture("raycast/extension");
    let code = "Newest first: the store keeps insertion order.";
    assert!(std::fs::read_to_string(extension.join("src/tools/find-notes.ts")).unwrap().contains(code));
    let dir = tempfile::tempdir().unwrap();
    for target in ["openapi", "vertex"] {
        let out = dir.path().join(target);
        let report = dir.path().join(format!("{target}.report.json"));
        let args = ["--to", target, extension.to_str().unwrap(), "-o", out.to_str().unwrap()];
        run_in(dir.path(), &[&args[..], &["--report", report.to_str().unwrap()]].concat()).expect_code(0);
        let written = std::fs::read_to_string(first_file(&out)).unwrap();
        for secret_or_code in [code, "prettierrc", "eslint.config"] {
            assert!(!written.contains(secret_or_code), "{target}: `{secret_or_code}` is in the output");
        }
        let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let said = report.to_string();
        assert!(said.contains("/extras/raycast/source_files") && said.contains("loss/extras"), "{target}: {said}");
    }
}
