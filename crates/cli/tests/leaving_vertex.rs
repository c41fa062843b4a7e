//! README's "Leaving Vertex AI Extensions": each command of the section run as written (its
//! fixture path taken from the workspace, its outputs in a temporary folder), and what each
//! writes; and every source format converted to `adk`, whose spec reads back as OpenAPI.

use crate::support;

use std::path::Path;

use support::*;

/// The `convert` command lines of README's section, as written.
fn readme_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let section = readme.split("\n## Leaving Vertex AI Extensions\n").nth(1).expect("README has the section");
    let section = section.split("\n## ").next().unwrap();
    section.lines().filter_map(|l| l.strip_prefix("    convert ")).map(str::to_owned).collect()
}

#[test]
fn the_readme_commands_off_vertex_run_as_written() {
    let commands = readme_commands();
    let targets: Vec<&str> = commands.iter().filter_map(|c| c.split("--to ").nth(1)?.split(' ').next()).collect();
    assert_eq!(targets, ["adk", "gemini", "mcp"], "the section's commands: {commands:?}");
    let dir = tempfile::tempdir().unwrap();
    for command in &commands {
        let args: Vec<String> = command
            .split_whitespace()
            .map(|a| if a.starts_with("fixtures/") { workspace_root().join(a).display().to_string() } else { a.into() })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = run_in(dir.path(), &args);
        run.expect_code(0);
    }
    let out = dir.path();
    let agent = std::fs::read_to_string(out.join("agents/weather_agent/agent.py")).unwrap();
    assert!(agent.contains("root_agent = Agent(") && agent.contains("WEATHER_TOOL_API_KEY"), "{agent}");
    assert!(
        out.join("agents/weather_agent/openapi.json").is_file()
            && out.join("agents/weather_agent/__init__.py").is_file()
    );
    let gemini: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("weather.gemini.json")).unwrap()).unwrap();
    assert!(gemini.to_string().contains("\"current\""), "{gemini}");
    let mcp: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("weather.mcp.json")).unwrap()).unwrap();
    assert!(mcp["tools"].as_array().is_some_and(|t| !t.is_empty()), "{mcp}");
}

#[test]
fn every_format_converts_to_adk_and_its_spec_reads_back_as_openapi() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = |relative: &str| toolport_testkit::fixture(relative).display().to_string();
    let sources = [
        ("vertex", fixture("vertex/weather/import.json")),
        ("gloodata", fixture("gloodata/show-map.json")),
        ("mcp", fixture("mcp/issue-tracker.json")),
        ("openai", fixture("openai/chat-tools.json")),
        ("bedrock", fixture("bedrock/converse-request.json")),
        ("mcp-prompts", fixture("mcp-prompts/prompts.json")),
    ];
    let mut failures = Vec::new();
    for (i, (from, input)) in sources.iter().enumerate() {
        let out = dir.path().join(format!("{i}-{from}"));
        let run =
            run_in(dir.path(), &["--from", from, "--to", "adk", input.as_str(), "-o", out.to_str().unwrap(), "-q"]);
        if run.code != Some(0) {
            failures.push(format!("{from} -> adk: exit {:?}\n{}", run.code, run.stderr));
            continue;
        }
        let spec = only_folder(&out).join("openapi.json");
        let check = run_in(dir.path(), &["check", "--from", "openapi", spec.to_str().unwrap(), "-q"]);
        if check.code != Some(0) {
            failures.push(format!("{from} -> adk: the spec does not read back\n{}", check.stderr));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn only_folder(dir: &Path) -> std::path::PathBuf {
    let folders: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    folders.into_iter().next().unwrap()
}
