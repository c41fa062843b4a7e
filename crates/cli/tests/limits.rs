//! Platform limits through the binary: every breach a `limit/*` diagnostic with its path and
//! number (refused by --strict), descriptions cut at a sentence, --split writing one document
//! per request, and output names that say the target.

use crate::support;

use std::path::Path;

use serde_json::{Value, json};
use support::*;

/// An OpenAPI document with `count` operations, tagged `pets` then `users` alternately, the
/// first with `description`, and one parameter whose enum has `enum_values` values.
fn spec(count: usize, description: &str, enum_values: usize) -> String {
    let mut paths = serde_json::Map::new();
    for i in 0..count {
        let tag = if i % 2 == 0 { "pets" } else { "users" };
        let text = if i == 0 { description.to_owned() } else { format!("Operation {i}.") };
        let values: Vec<String> = (0..enum_values).map(|v| format!("v{v}")).collect();
        let mut operation = json!({"operationId": format!("op{i}"), "tags": [tag], "description": text,
            "responses": {"200": {"description": "ok"}}});
        if i == 0 && enum_values > 0 {
            operation["parameters"] =
                json!([{"name": "kind", "in": "query", "schema": {"type": "string", "enum": values}}]);
        }
        paths.insert(format!("/r{i}"), json!({"get": operation}));
    }
    let doc = json!({"openapi": "3.0.3", "info": {"title": "Limits", "version": "1"},
        "servers": [{"url": "https://api.example.com"}], "paths": paths});
    serde_json::to_string_pretty(&doc).unwrap()
}

fn report(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("report.json")).unwrap();
    let report: Value = serde_json::from_str(&text).unwrap();
    report["inputs"][0]["diagnostics"].as_array().unwrap().clone()
}

fn with_code<'a>(diagnostics: &'a [Value], code: &str) -> Vec<&'a Value> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

/// The `limit/*` lines `check -v` printed.
fn limit_lines(stderr: &str) -> Vec<String> {
    stderr.lines().filter(|l| l.contains("[limit/")).map(str::to_owned).collect()
}

fn tools_in(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc.as_array().or_else(|| doc["tools"].as_array()).map_or(0, Vec::len)
}

/// 130 operations to openai (128 per request): a limit/tools warning saying how many
/// requests; --strict refuses it; --split by-count and by-tag write documents within the cap.
#[test]
fn too_many_tools_are_reported_refused_and_split() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spec.json"), spec(130, "Lists.", 0)).unwrap();
    let args = ["--to", "openai", "spec.json", "-o", "out/", "--report", "report.json"];
    run_in(dir.path(), &args).expect_code(0);
    let diagnostics = report(dir.path());
    let limits = with_code(&diagnostics, "limit/tools");
    assert_eq!(limits.len(), 1, "{diagnostics:#?}");
    assert_eq!(limits[0]["path"], "/tools");
    assert!(
        limits[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("130 tools, and a request to openai carries at most 128: they need 2 requests")
    );
    assert_eq!(tools_in(&dir.path().join("out/spec.openai.json")), 130);

    let strict = ["--to", "openai", "spec.json", "-o", "strict/", "--strict"];
    let refused = run_in(dir.path(), &strict);
    refused.expect_code(3);
    assert!(refused.stderr.contains("limit/tools"), "{}", refused.stderr);
    assert!(!dir.path().join("strict").exists());

    let by_count = ["--to", "openai", "spec.json", "-o", "count/", "--split", "by-count", "--strict=limit/*"];
    run_in(dir.path(), &by_count).expect_code(0);
    assert_eq!(tools_in(&dir.path().join("count/spec.openai.part-1.json")), 128);
    assert_eq!(tools_in(&dir.path().join("count/spec.openai.part-2.json")), 2);

    let by_tag = ["--to", "openai", "spec.json", "-o", "tag/", "--split", "by-tag"];
    run_in(dir.path(), &by_tag).expect_code(0);
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("tag"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["spec.openai.pets.json", "spec.openai.users.json"]);
    assert_eq!(tools_in(&dir.path().join("tag/spec.openai.pets.json")), 65);

    // Gemini takes 512: nothing to split, nothing said.
    let gemini =
        ["--to", "gemini", "spec.json", "-o", "gemini/", "--report", "report.json", "--force", "--split", "by-count"];
    run_in(dir.path(), &gemini).expect_code(0);
    assert!(with_code(&report(dir.path()), "limit/tools").is_empty());
    assert!(dir.path().join("gemini/spec.gemini.json").exists());
}

/// A description past OpenAI's 1,024 characters is cut at a sentence with changed/description;
/// --strict keeps it and refuses the conversion with limit/description.
#[test]
fn long_descriptions_are_cut_at_a_sentence_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let long = "This sentence is exactly fifty characters long ok. ".repeat(21);
    std::fs::write(dir.path().join("spec.json"), spec(1, long.trim_end(), 0)).unwrap();
    // The reader's plugin makes the cut in process (the model then written as it is) and
    // isolated (the model crossing as JSON): the same cut, said once.
    for isolate in ["never", "always"] {
        let args = [
            "--to",
            "openai",
            "spec.json",
            "-o",
            "out.json",
            "--report",
            "report.json",
            "--force",
            "--isolate",
            isolate,
        ];
        run_in(dir.path(), &args).expect_code(0);
        let changed = with_code(&report(dir.path()), "changed/description").len();
        assert_eq!(changed, 1, "{isolate}");
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.json")).unwrap()).unwrap();
        let written = doc[0]["function"]["description"].as_str().unwrap();
        assert_eq!(written.chars().count(), 50 * 20 + 19, "{isolate}: {written}");
        assert!(written.ends_with("ok."));
    }

    let strict = ["--to", "openai", "spec.json", "-o", "strict.json", "--strict", "--report", "report.json", "--force"];
    run_in(dir.path(), &strict).expect_code(3);
    let refused = report(dir.path());
    let breach = with_code(&refused, "limit/description");
    assert_eq!(breach.len(), 1, "{refused:#?}");
    assert_eq!(breach[0]["path"], "/tools/0/description");
    assert!(breach[0]["message"].as_str().unwrap().contains("has 1070 characters; openai takes at most 1024"));
    assert!(with_code(&refused, "changed/description").is_empty());
}

/// Strict mode's budgets hold only with strict=true: 1,001 enum values break OpenAI's 1,000.
#[test]
fn strict_schema_budgets_hold_only_in_strict_mode() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spec.json"), spec(1, "Lists.", 1001)).unwrap();
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "-v", "--to", "openai", "spec.json"];
        args.extend_from_slice(extra);
        let run = run_in(dir.path(), &args);
        (run.code, limit_lines(&run.stderr))
    };
    let (code, plain) = check(&[]);
    assert_eq!(code, Some(0));
    assert!(plain.is_empty(), "{plain:#?}");
    let (_, strict) = check(&["--option", "strict=true"]);
    assert_eq!(strict.len(), 1, "{strict:#?}");
    assert!(strict[0].contains("warning[limit/schema]") && strict[0].ends_with("(at /tools/0/parameters)"));
    assert!(strict[0].contains("enum values 1001; openai with strict=true takes at most 1000"));
}

/// MCP clients' name lengths and Vertex's display name are checked against the model.
#[test]
fn client_name_lengths_and_display_names_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let long_name = "a".repeat(70);
    let tools = json!({"tools": [{"name": long_name, "description": "d", "inputSchema": {"type": "object"}}]});
    std::fs::write(dir.path().join("tools.mcp.json"), tools.to_string()).unwrap();
    let run = run_in(dir.path(), &["check", "-v", "--to", "mcp", "tools.mcp.json"]);
    run.expect_code(0);
    let messages = limit_lines(&run.stderr);
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(messages[0].contains("70 characters, at most 64 allowed") && messages[0].contains("Claude Desktop"));
    assert!(messages[1].contains("70 characters, at most 60 allowed") && messages[1].contains("Cursor"));

    let mut doc: Value = serde_json::from_str(&spec(1, "Lists.", 0)).unwrap();
    doc["info"]["title"] = Value::from("T".repeat(130));
    std::fs::write(dir.path().join("wide.json"), doc.to_string()).unwrap();
    let run = run_in(dir.path(), &["check", "-v", "--to", "vertex", "wide.json"]);
    run.expect_code(0);
    let display = limit_lines(&run.stderr);
    assert_eq!(display.len(), 1, "{display:#?}");
    assert!(
        display[0].contains("limit/name")
            && display[0].contains("display name of 130 characters; vertex takes at most 128")
    );
}

/// A known format suffix in the input's name is replaced by the target's; without one the
/// target's is added, so two targets into one folder never collide. A name the user gives
/// (-o FILE) is kept.
#[test]
fn output_names_say_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let tools = json!({"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"}}]});
    std::fs::write(dir.path().join("tools.mcp.json"), tools.to_string()).unwrap();
    std::fs::write(dir.path().join("spec.json"), spec(1, "Lists.", 0)).unwrap();
    run_in(dir.path(), &["--to", "openai", "tools.mcp.json", "-o", "out/"]).expect_code(0);
    assert!(dir.path().join("out/tools.openai.json").exists());
    assert!(!dir.path().join("out/tools.mcp.json").exists());
    run_in(dir.path(), &["--to", "openai", "spec.json", "-o", "out/"]).expect_code(0);
    run_in(dir.path(), &["--to", "mcp", "spec.json", "-o", "out/"]).expect_code(0);
    assert!(dir.path().join("out/spec.openai.json").exists() && dir.path().join("out/spec.mcp.json").exists());
    run_in(dir.path(), &["--to", "mcp", "spec.json", "-o", "mine.json"]).expect_code(0);
    assert!(dir.path().join("mine.json").exists());
}

/// `convert formats FORMAT` shows each limit with its source.
#[test]
fn formats_show_limits_with_their_sources() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(dir.path(), &["formats", "gemini"]);
    run.expect_code(0);
    assert!(run.stdout.contains("tools per request: 512"), "{}", run.stdout);
    assert!(run.stdout.contains("https://ai.google.dev/gemini-api/docs/function-calling"), "{}", run.stdout);
    let json = run_in(dir.path(), &["formats", "openai", "--json"]);
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    let limits = doc["limits"].as_array().unwrap();
    assert!(limits.iter().any(|l| l["kind"] == "tools-per-request" && l["max"] == 128));
    assert!(limits.iter().all(|l| l["source"].as_str().is_some_and(|s| s.contains("https://"))));
}
