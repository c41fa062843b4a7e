//! The command line on first contact, through the real binary: options are declared and
//! checked, diagnostics say what matters without flooding, `--strict` refuses losses of
//! meaning, and mistakes (a misspelt name, a wrong `--from`, a file-like `-o`) are caught
//! with a hint.

use crate::support;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use support::*;

fn fixture(relative: &str) -> String {
    toolport_testkit::fixture(relative).to_str().unwrap().to_owned()
}

/// Runs each case in a fresh folder: arguments (`{mcp}`, `{map}`, `{openai}` stand for
/// fixtures), the exit code, and what stderr must contain.
fn run_cases(cases: &[(&[&str], i32, &[&str])]) {
    let mcp = fixture("mcp/filesystem.json");
    let map = fixture("gloodata/show-map.json");
    let openai = fixture("openai/chat-tools.json");
    for (args, code, says) in cases {
        let dir = tempfile::tempdir().unwrap();
        let args: Vec<String> =
            args.iter().map(|a| a.replace("{mcp}", &mcp).replace("{map}", &map).replace("{openai}", &openai)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = run_in(dir.path(), &args);
        assert_eq!(run.code, Some(*code), "{args:?}: exit code\n{}", run.stderr);
        for said in *says {
            assert!(run.stderr.contains(said), "{args:?} should say {said:?}:\n{}", run.stderr);
        }
    }
}

#[test]
fn options_are_checked_against_what_the_formats_declare() {
    run_cases(&[
        // Unknown keys: a usage error, the closest key and the list.
        (
            &["--to", "openai", "{mcp}", "--option", "strcit=true"],
            2,
            &["did you mean `strict`?", "form=chat|responses"],
        ),
        (&["--to", "mcp", "{mcp}", "--option", "strict=true"], 2, &["takes no option `strict`", "output_schema="]),
        (&["check", "{mcp}", "--option", "strcit=true"], 2, &["did you mean `strict`?"]),
        (&["inspect", "{mcp}", "--option", "nope=1"], 2, &["takes no option `nope`"]),
        // Values outside the declared ones.
        (&["--to", "openai", "{mcp}", "--option", "strict=yes"], 2, &["`strict` of openai takes `true` or `false`"]),
        (&["--to", "gemini", "{mcp}", "--option", "schema=jsonn"], 2, &["did you mean `schema=json`?"]),
        (&["--to", "openai", "{mcp}", "--option", "form=respones"], 2, &["did you mean `form=responses`?"]),
        (&["--to", "vertex", "{mcp}", "--option", "base_url=api.example.com"], 2, &["http:// or https:// URL"]),
        (&["--to", "mcp", "{mcp}", "--option", "output_name=../x"], 2, &["plain name"]),
        (&["-t", "anthropic", "-f", "mcp", "{mcp}", "--option", "strict=maybe"], 2, &["`strict` of anthropic"]),
        // Valid settings pass.
        (&["--to", "openai", "{mcp}", "--option", "strict=true", "--option", "form=responses"], 0, &[]),
        (&["--to", "mcp", "{openai}", "--option", "output_schema=none"], 0, &[]),
        (&["--to", "vertex", "{mcp}", "--option", "base_url=https://api.example.com"], 0, &[]),
        (&["check", "{mcp}", "--to", "openai", "--option", "strict=true"], 0, &[]),
    ]);
    // A conversion from a format to itself names it once, its options listed once.
    let dir = tempfile::tempdir().unwrap();
    let same = ["--from", "openai", "--to", "openai", &fixture("openai/chat-tools.json"), "--option", "nope=1"];
    let run = run_in(dir.path(), &same);
    run.expect_code(2);
    assert!(run.stderr.contains("--option nope=1: openai takes no option `nope`"), "{}", run.stderr);
    assert_eq!(run.stderr.matches("form=chat|responses").count(), 1, "{}", run.stderr);
    // A valid strict=true is applied.
    let run = run_in(dir.path(), &["--to", "openai", &fixture("mcp/filesystem.json"), "--option", "strict=true"]);
    run.expect_code(0);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(doc.to_string().contains("\"strict\":true"), "{}", run.stdout);
}

fn formats_json() -> Value {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(dir.path(), &["formats", "--json"]);
    run.expect_code(0);
    serde_json::from_str(&run.stdout).unwrap()
}

/// (format, key) for every declared option; the common ones under `every format`.
fn declared_options() -> BTreeSet<(String, String)> {
    let doc = formats_json();
    let mut declared = BTreeSet::new();
    for format in doc["formats"].as_array().unwrap() {
        let options = format["options"].as_array().unwrap_or_else(|| panic!("{} declares its options", format["id"]));
        for option in options {
            declared.insert((format["id"].as_str().unwrap().to_owned(), option["key"].as_str().unwrap().to_owned()));
        }
    }
    for option in doc["common_options"].as_array().unwrap() {
        declared.insert(("every format".to_owned(), option["key"].as_str().unwrap().to_owned()));
    }
    declared
}

#[test]
fn formats_show_each_formats_options() {
    let doc = formats_json();
    let openai = doc["formats"].as_array().unwrap().iter().find(|f| f["id"] == "openai").unwrap();
    let strict = openai["options"].as_array().unwrap().iter().find(|o| o["key"] == "strict").unwrap();
    assert_eq!(strict["kind"], "one_of");
    assert_eq!(strict["values"], serde_json::json!(["true", "false"]));
    assert!(strict["help"].as_str().is_some_and(|h| !h.is_empty()), "{strict}");
    assert!(strict["default"].as_str().is_some_and(|h| !h.is_empty()), "{strict}");

    let dir = tempfile::tempdir().unwrap();
    let run = run_in(dir.path(), &["formats", "openai"]);
    run.expect_code(0);
    for said in ["strict=true|false", "form=chat|responses", "output_name=NAME", "default: "] {
        assert!(run.stdout.contains(said), "{said:?}:\n{}", run.stdout);
    }
    let run = run_in(dir.path(), &["formats", "vertex", "--json"]);
    run.expect_code(0);
    let vertex: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(vertex["options"][0]["key"], "base_url");
    assert_eq!(vertex["options"][0]["kind"], "url");
    let run = run_in(dir.path(), &["formats"]);
    assert!(run.stdout.contains("strict,form"), "the table lists option keys:\n{}", run.stdout);
    run_cases(&[(&["formats", "opanai"], 2, &["did you mean `openai`?"])]);
}

/// README's Options table lists exactly the options the formats declare.
#[test]
fn the_readme_options_table_matches_the_declarations() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let section = readme.split("\n## Options\n").nth(1).expect("README has an Options section");
    let section = section.split("\n## ").next().unwrap();
    let mut listed = BTreeSet::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // One option shared by formats is one row naming each (`mcpb, mcp-server`).
        for format in cells[2].split(", ") {
            listed.insert((format.to_owned(), cells[1].trim_matches('`').to_owned()));
        }
    }
    let declared = declared_options();
    let missing: Vec<_> = declared.difference(&listed).collect();
    let extra: Vec<_> = listed.difference(&declared).collect();
    assert!(missing.is_empty(), "README's Options table misses {missing:?}");
    assert!(extra.is_empty(), "README's Options table lists options no format declares: {extra:?}");
    // Every option in the Usage examples is declared too.
    let keys: BTreeSet<&str> = declared.iter().map(|(_, k)| k.as_str()).collect();
    for used in readme.split("--option ").skip(1) {
        let key = used.split('=').next().unwrap();
        if key.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !key.is_empty() {
            assert!(keys.contains(key), "README uses --option {key}, which no format declares");
        }
    }
}

fn github() -> Option<String> {
    let path = toolport_testkit::corpus("openapi/github/api.github.com.json");
    path.exists().then(|| path.to_str().unwrap().to_owned())
}

#[test]
fn a_run_prints_actions_and_one_line_per_code() {
    let dir = tempfile::tempdir().unwrap();
    let map = fixture("gloodata/show-map.json");
    let run = run_in(dir.path(), &["--to", "raycast", &map, "-o", "ext"]);
    run.expect_code(0);
    // What the user must act on is shown by default, whatever its severity.
    for said in ["extension-icon.png", "author `unknown` is a placeholder", "[loss/display]"] {
        assert!(run.stderr.contains(said), "{said:?}:\n{}", run.stderr);
    }
    let verbose = run_in(dir.path(), &["--to", "raycast", &map, "-o", "ext2", "-v"]);
    assert!(verbose.stderr.lines().count() >= run.stderr.lines().count(), "{}", verbose.stderr);

    let Some(github) = github() else { return };
    let run = run_in(dir.path(), &["--to", "raycast", &github, "-o", "gh", "--report", "report.json"]);
    run.expect_code(0);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(lines.len() < 40, "a short summary, not a flood ({} lines):\n{}", lines.len(), run.stderr);
    assert!(run.stderr.contains("extension-icon.png"), "{}", run.stderr);
    assert!(run.stderr.contains("warning[loss/extras] "), "{}", run.stderr);
    assert!(run.stderr.contains("more like it"), "repeated actions are folded:\n{}", run.stderr);
    // One line per code, each with its count.
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
    let diagnostics = report["inputs"][0]["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() > 1000, "the report keeps every diagnostic");
    let loss_field = diagnostics.iter().filter(|d| d["code"] == "loss/field").count();
    assert!(run.stderr.contains(&format!("warning[loss/field] {loss_field} times, e.g. ")), "{}", run.stderr);
    let verbose = run_in(dir.path(), &["--to", "raycast", &github, "-o", "gh2", "-v"]);
    assert!(verbose.stderr.lines().count() > 1000, "-v prints every diagnostic");
}

#[test]
fn extras_losses_name_what_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    for (input, to) in
        [("openai/chat-tools.json", "gemini"), ("gloodata/show-map.json", "mcp"), ("mcp/filesystem.json", "skydeck")]
    {
        let out = format!("out-{to}");
        let run = run_in(dir.path(), &["--to", to, &fixture(input), "-o", &out, "--report", "r.json", "--force"]);
        run.expect_code(0);
        let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
        for d in report["inputs"][0]["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "loss/extras") {
            let message = d["message"].as_str().unwrap();
            assert!(!message.contains("data only"), "{input} -> {to}: {message}");
            assert!(message.contains('`'), "{input} -> {to}: names the keys lost: {message}");
        }
    }
}

#[test]
fn strict_refuses_losses_of_meaning_and_can_be_chosen() {
    run_cases(&[
        // Only bookkeeping (loss/extras) is lost: --strict converts, --strict=all refuses.
        (&["--strict", "--to", "mcp", "{openai}"], 0, &[]),
        (&["--strict", "--to", "anthropic", "{openai}"], 0, &[]),
        (&["--strict=all", "--to", "mcp", "{openai}"], 3, &["refused for losses"]),
        // Display hints and examples are meaning.
        (&["--strict", "--to", "mcp", "{map}"], 3, &["refused for losses"]),
        (&["--strict=loss/display", "--to", "mcp", "{map}"], 3, &[]),
        (&["--strict=loss/http,changed/*", "--to", "mcp", "{map}"], 0, &[]),
        (&["--strict=bogus", "--to", "mcp", "{map}"], 2, &["not a diagnostic code"]),
        // A misspelt code is not taken for one the run never reports.
        (&["--strict=loss/confrmation", "--to", "mcp", "{map}"], 2, &["did you mean `loss/confirmation`?"]),
        (&["--strict=los/*", "--to", "mcp", "{map}"], 2, &["did you mean `loss/*`?"]),
        (&["check", "{map}", "--strict=loss/dispaly"], 2, &["did you mean `loss/display`?"]),
        // A refusal names each refused loss as an error, and only those.
        (&["--strict=loss/display", "--to", "mcp", "{map}"], 3, &["error[loss/display]", "warning[loss/field]"]),
        (&["check", "{openai}", "-t", "mcp", "--strict"], 0, &["ok (openai)"]),
        (&["check", "{map}", "-t", "mcp", "--strict"], 3, &["refused for losses"]),
    ]);
}

#[test]
fn a_multi_file_target_refuses_a_file_like_output() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = fixture("mcp/filesystem.json");
    let run = run_in(dir.path(), &["--to", "skydeck", &mcp, "-o", "fs.skydeck.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("looks like a file name"), "{}", run.stderr);
    assert!(!dir.path().join("fs.skydeck.json").exists(), "nothing made");
    // A new name without an extension becomes a folder, and the run says so.
    let run = run_in(dir.path(), &["--to", "skydeck", &mcp, "-o", "fs-skydeck"]);
    run.expect_code(0);
    assert!(run.stderr.contains("they are in the folder fs-skydeck/"), "{}", run.stderr);
    assert!(dir.path().join("fs-skydeck").is_dir());
    // An existing folder is a folder, extension or not.
    std::fs::create_dir(dir.path().join("out.d")).unwrap();
    run_in(dir.path(), &["--to", "skydeck", &mcp, "-o", "out.d"]).expect_code(0);
}

/// A folder format's output is a folder even when its writer wrote one file (an MCP plugin's
/// manifest alone): never a file put where the folder belongs, on disk or to standard output.
#[test]
fn a_folder_target_writes_a_folder_even_of_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = fixture("m365/mcp-docs");
    let run = run_in(dir.path(), &["--to", "m365", &plugin, "-o", "out"]);
    run.expect_code(0);
    assert!(dir.path().join("out/ai-plugin.json").is_file(), "{}", run.stderr);
    assert!(run.stderr.contains("m365 writes a folder of 1 file: out/ (ai-plugin.json)"), "{}", run.stderr);
    let run = run_in(dir.path(), &["--to", "m365", &plugin]);
    run.expect_code(1);
    assert!(run.stderr.contains("m365 writes a folder; give an output directory with -o DIR"), "{}", run.stderr);
}

#[test]
fn a_wrong_from_says_what_the_input_looks_like() {
    run_cases(&[
        (&["--from", "mcp", "--to", "skydeck", "{map}"], 1, &["looks like gloodata", "--from gloodata"]),
        (&["check", "-f", "mcp", "{map}"], 1, &["looks like gloodata"]),
        (&["inspect", "-f", "mcp", "{map}"], 1, &["looks like gloodata"]),
    ]);
}

#[test]
fn misspelt_names_get_a_did_you_mean() {
    run_cases(&[
        (&["--to", "antropic", "{mcp}"], 2, &["unknown format `antropic` (did you mean `anthropic`?)"]),
        (&["--from", "gloodta", "--to", "mcp", "{map}"], 2, &["did you mean `gloodata`?"]),
        (&["check", "{map}", "--to", "skydek"], 2, &["did you mean `skydeck`?"]),
        (&["formatz"], 2, &["did you mean `convert formats`?"]),
        (&["chek", "{map}", "--to", "mcp"], 2, &["did you mean `convert check`?"]),
        (&["inspekt", "{map}"], 2, &["did you mean `convert inspect`?"]),
        (&["{map}"], 2, &["--to FORMAT is required"]),
    ]);
}

#[test]
fn inspect_and_check_take_convert_flags() {
    run_cases(&[
        (&["inspect", "-f", "gloodata", "{map}"], 0, &[]),
        (&["check", "-f", "gloodata", "-t", "skydeck", "{map}"], 0, &["ok (gloodata)", "losses writing skydeck"]),
    ]);
    let dir = tempfile::tempdir().unwrap();
    for command in ["inspect", "check"] {
        let run = run_in(dir.path(), &[command, "--help"]);
        run.expect_code(0);
        // check's inputs are optional (piped standard input is read without -): `[INPUT]...`.
        for flag in ["-f, --from <FORMAT>", "--option <KEY=VALUE>", "INPUT"] {
            let line = run.stdout.lines().find(|l| l.contains(flag)).unwrap_or_else(|| panic!("{command}: {flag}"));
            let help_follows = line.trim_start().len() > flag.len() + 4
                || run.stdout.lines().skip_while(|l| !l.contains(flag)).nth(1).is_some_and(|l| !l.trim().is_empty());
            assert!(help_follows, "{command} --help explains {flag}:\n{}", run.stdout);
        }
    }
    let run = run_in(dir.path(), &["check", "--help"]);
    assert!(run.stdout.contains("-t, --to <FORMAT>") && run.stdout.contains("--strict"), "{}", run.stdout);
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// check and convert treat inputs alike: a walked file no format knows is skipped with a
/// warning; one named on the command line is an error.
#[test]
fn check_and_convert_agree_on_unrecognised_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("in")).unwrap();
    std::fs::copy(seed_map(), dir.path().join("in/map.json")).unwrap();
    write(&dir.path().join("in/unknown.json"), "{\"hello\": 1}");
    for args in [&["--to", "mcp", "in", "-o", "out"][..], &["check", "in"], &["check", "in", "--to", "mcp"]] {
        let run = run_in(dir.path(), args);
        run.expect_code(0);
        assert!(run.stderr.contains("in/unknown.json: warning[run/skipped]"), "{args:?}:\n{}", run.stderr);
    }
    for args in [&["--to", "mcp", "in/unknown.json"][..], &["check", "in/unknown.json"]] {
        let run = run_in(dir.path(), args);
        run.expect_code(1);
        assert!(run.stderr.contains("no format recognises this input"), "{args:?}:\n{}", run.stderr);
    }
}

/// Advice names the option only when it was not given.
#[test]
fn base_url_advice_is_never_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = fixture("mcp/filesystem.json");
    let run = run_in(dir.path(), &["--to", "vertex", &mcp, "--option", "base_url=https://api.example.com", "-v"]);
    run.expect_code(0);
    assert!(!run.stderr.contains("set it with the `base_url` option"), "{}", run.stderr);
    let run = run_in(dir.path(), &["--to", "vertex", &mcp, "-v"]);
    assert!(run.stderr.contains("base_url"), "{}", run.stderr);
}

/// A target that needs a title or namespace the source lacks makes it from the input's file
/// name, never a generic word.
#[test]
fn missing_titles_come_from_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let weather = fixture("mcp/weather-tool.json");
    let cases: [(&[&str], &str, &str, &str); 3] = [
        (&["--to", "vertex"], "weather-tool.vertex.json", "/displayName", "Weather Tool"),
        (&["--to", "openapi", "--option", "syntax=json"], "weather-tool.openapi.json", "/info/title", "Weather Tool"),
        (&["--to", "gloodata"], "weather-tool.gloodata.json", "/ns", "weather-tool"),
    ];
    for (flags, file, pointer, expected) in cases {
        let out = dir.path().join(flags[1]);
        let folder = format!("{}/", out.display());
        let mut args = flags.to_vec();
        args.extend([weather.as_str(), "-o", &folder]);
        run_in(dir.path(), &args).expect_code(0);
        let document: Value = serde_json::from_str(&std::fs::read_to_string(out.join(file)).unwrap()).unwrap();
        assert_eq!(document.pointer(pointer).and_then(Value::as_str), Some(expected), "{flags:?}: {document}");
    }
}

/// Names a target must sanitise are transliterated to ASCII first: `áreas de enfoque` becomes
/// `areas_de_enfoque`, not `_reas_de_enfoque`, in every target with name rules.
#[test]
fn names_are_transliterated_before_they_are_sanitised() {
    let dir = tempfile::tempdir().unwrap();
    let spanish = fixture("skydeck/es-resumen.json");
    for target in ["vertex", "gemini", "openai", "mcp", "anthropic"] {
        let out = dir.path().join(target);
        let folder = format!("{}/", out.display());
        run_in(dir.path(), &["--to", target, &spanish, "-o", &folder, "-q"]).expect_code(0);
        let written = std::fs::read_to_string(out.join(format!("es-resumen.{target}.json"))).unwrap();
        assert!(!written.contains("_reas"), "{target}: {written}");
        if target == "vertex" || target == "gemini" {
            assert!(written.contains("areas_de_enfoque"), "{target}: {written}");
        }
    }
}

/// Tools written as stubs (no implementation in the source) are counted in the summary line
/// and the report, not hidden among the converted.
#[test]
fn stub_tools_are_counted_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let weather = fixture("mcp/weather-tool.json");
    let run = run_in(dir.path(), &["--to", "raycast", &weather, "-o", "out/", "--report", "report.json"]);
    run.expect_code(0);
    assert!(run.stderr.contains("1 with stub tools to fill in"), "{}", run.stderr);
    assert!(run.stderr.contains("warning[generated/stub]"), "{}", run.stderr);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(report["summary"]["with_stubs"], 1, "{report}");
}

/// Detection through the real plugins on files larger than the first look (64 KiB): a format
/// whose telling key comes late is still found, a tool list whose key is written with escapes
/// is not ruled out by the cheap key scan, and a truncated large document is a located syntax
/// error, not an unrecognised file.
#[test]
fn large_inputs_are_detected_past_their_start() {
    let dir = tempfile::tempdir().unwrap();
    let padding: String = (0..4000).map(|i| format!("\"pad{i}\": {{\"type\": \"string\"}}, ")).collect();
    let late_openapi = format!(
        r#"{{"components": {{"schemas": {{{padding}"Pet": {{"type": "object"}}}}}}, "info": {{"title": "Late", "version": "1"}}, "openapi": "3.0.3", "paths": {{"/pets": {{"get": {{"operationId": "listPets", "description": "List pets", "responses": {{"200": {{"description": "ok"}}}}}}}}}}}}"#
    );
    assert!(late_openapi.len() > 100 << 10);
    write(&dir.path().join("late.json"), &late_openapi);
    let tools: Vec<String> = (0..1500)
        .map(|i| format!(r#"{{"name": "tool_{i}", "description": "d", "inputSchema": {{"type": "object"}}}}"#))
        .collect();
    let escaped_mcp = format!(r#"{{"\u0074ools": [{}]}}"#, tools.join(", "));
    assert!(escaped_mcp.len() > 100 << 10);
    write(&dir.path().join("escaped.json"), &escaped_mcp);
    for (file, format) in [("late.json", "openapi"), ("escaped.json", "mcp")] {
        let run = run_in(dir.path(), &["check", file]);
        assert!(run.stderr.contains(&format!("ok ({format})")), "{file} should read as {format}: {}", run.stderr);
    }
    write(&dir.path().join("cut.json"), &late_openapi[..late_openapi.len() / 2]);
    let run = run_in(dir.path(), &["--to", "openai", "cut.json", "-o", "out/"]);
    run.expect_code(1);
    assert!(run.stderr.contains("cut.json:1:"), "a located syntax error: {}", run.stderr);
}

#[test]
fn codes_and_explain_cover_every_diagnostic_code() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(dir.path(), &["codes", "--json"]);
    run.expect_code(0);
    let listed: Value = serde_json::from_str(&run.stdout).unwrap();
    let codes: Vec<&str> = listed["codes"].as_array().unwrap().iter().map(|c| c["code"].as_str().unwrap()).collect();
    let table: Vec<&str> = toolport_core::diagnostic::EXPLANATIONS.iter().map(|e| e.code).collect();
    assert_eq!(codes, table);
    assert!(listed["codes"][0]["action"].as_str().is_some_and(|a| !a.is_empty()), "{}", listed["codes"][0]);
    let text = run_in(dir.path(), &["codes"]);
    for code in &table {
        assert!(text.stdout.contains(&format!("  {code}\n")), "`convert codes` lists {code}");
    }
    let explained = run_in(dir.path(), &["explain", "loss/http"]);
    explained.expect_code(0);
    assert!(
        explained.stdout.starts_with("loss/http\n") && explained.stdout.contains("what to do: "),
        "{}",
        explained.stdout
    );
    let family = run_in(dir.path(), &["explain", "changed/*"]);
    family.expect_code(0);
    assert!(["changed/name", "changed/schema", "changed/value"].iter().all(|c| family.stdout.contains(c)));
    assert!(!family.stdout.contains("loss/"), "{}", family.stdout);
    run_cases(&[
        (&["explain", "loss/confrmation"], 2, &["did you mean `loss/confirmation`?", "convert codes"]),
        (&["explain", "nothing"], 2, &["not a diagnostic code"]),
        (&["explian", "loss/http"], 2, &["did you mean `convert explain`?"]),
    ]);
}

#[test]
fn check_ends_with_a_summary_line() {
    run_cases(&[
        (&["check", "{map}", "{mcp}"], 0, &["0 errors", "2 inputs checked: 2 ok"]),
        (&["check", "{map}", "-t", "mcp", "--strict"], 3, &["1 input checked: 1 refused for losses (--strict)"]),
    ]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.json"), "{\"tools\": [").unwrap();
    let run = run_in(dir.path(), &["check", "broken.json", &fixture("mcp/filesystem.json")]);
    run.expect_code(1);
    assert!(run.stderr.contains("broken.json: invalid (format unknown), 1 error\n"), "{}", run.stderr);
    assert!(run.stderr.ends_with("2 inputs checked: 1 ok, 1 invalid\n"), "{}", run.stderr);
}

/// With no input, a document piped or redirected into standard input is read as `-` is;
/// an empty /dev/null (what a test or a job gets) is a usage error.
#[test]
fn piped_input_needs_no_dash() {
    let home = tempfile::tempdir().unwrap();
    require_plugins();
    let map = std::fs::File::open(fixture("gloodata/show-map.json")).unwrap();
    let output = command(home.path()).args(["--to", "mcp", "-q"]).stdin(map).output().unwrap();
    let run = finish(output);
    run.expect_code(0);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["tools"][0]["name"], "showMapAtAddressAndZoom", "{}", run.stdout);
    let mut piped = command(home.path())
        .arg("check")
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let text = std::fs::read(fixture("mcp/filesystem.json")).unwrap();
    std::io::Write::write_all(&mut piped.stdin.take().unwrap(), &text).unwrap();
    let run = finish(piped.wait_with_output().unwrap());
    run.expect_code(0);
    assert!(run.stderr.contains("<stdin>: ok (mcp)"), "{}", run.stderr);
    run_cases(&[
        (&["--to", "mcp"], 2, &["no input given", "- reads standard input"]),
        (&["check"], 2, &["no input given"]),
    ]);
}

#[test]
fn completions_and_the_manual_page_come_from_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let bash = run_in(dir.path(), &["completions", "bash"]);
    bash.expect_code(0);
    assert!(bash.stdout.contains("_convert()") && bash.stdout.contains("--strict"), "{}", bash.stdout);
    let zsh = run_in(dir.path(), &["completions", "zsh"]);
    assert!(zsh.stdout.starts_with("#compdef convert"), "{}", zsh.stdout);
    let man = run_in(dir.path(), &["man"]);
    man.expect_code(0);
    assert!(man.stdout.contains(".TH convert 1") && man.stdout.contains("explain"), "{}", man.stdout);
    run_cases(&[(&["completions", "tcsh"], 2, &["invalid value 'tcsh'"])]);
}

/// `convert` remembers what each plugin says of itself in the user's cache folder; the next
/// run, which loads only the plugins it uses, writes the same bytes and messages (and
/// `convert formats`, which loads every plugin, lists the same). `TOOLPORT_PLUGIN_CACHE`
/// moves the file, or (`off`) does without it.
#[test]
fn a_run_from_the_description_cache_lists_and_writes_the_same() {
    require_plugins();
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("mcp/weather-tool.json");
    let run = |home: &Path, envs: &[(&str, &str)], args: &[&str]| {
        finish(command(home).current_dir(dir.path()).envs(envs.iter().copied()).args(args).output().unwrap())
    };
    let cache = home.path().join(".cache/toolport/plugin-descriptions.json");
    let mut runs = Vec::new();
    for i in 0..2 {
        let out = format!("out-{i}.json");
        let listed = run(home.path(), &[], &["formats"]);
        listed.expect_code(0);
        let converted = run(home.path(), &[], &["--from", "mcp", "--to", "openai", &input, "-o", &out, "-v"]);
        converted.expect_code(0);
        let written = std::fs::read_to_string(dir.path().join(&out)).unwrap();
        runs.push((listed.stdout, converted.stderr.replace(&out, "OUT"), written));
        assert!(cache.is_file(), "run {i}: no cache at {}", cache.display());
    }
    assert_eq!(runs[0], runs[1]);
    assert!(std::fs::read_to_string(&cache).unwrap().contains("toolport-plugin-openai"));

    let elsewhere = dir.path().join("elsewhere.json");
    let off = tempfile::tempdir().unwrap();
    run(off.path(), &[("TOOLPORT_PLUGIN_CACHE", elsewhere.to_str().unwrap())], &["formats"]).expect_code(0);
    assert!(elsewhere.is_file() && !off.path().join(".cache").exists());
    run(off.path(), &[("TOOLPORT_PLUGIN_CACHE", "off")], &["formats"]).expect_code(0);
    assert!(!off.path().join(".cache").exists());
}
