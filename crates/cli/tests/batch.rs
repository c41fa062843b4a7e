//! Batch migration: many inputs in parallel, one bad input never stops the others, outputs
//! never collide, the same bytes whatever --jobs is, and a report a script can parse.

use crate::support;

use std::path::Path;

use serde_json::{Value, json};
use support::*;

fn skydeck(i: usize) -> String {
    serde_json::to_string_pretty(&json!({
        "version": i,
        "model_prompt": format!("Translate {{{{text}}}} into {{{{language}}}} (variant {i})"),
        "metadata": {
            "prompt_name": format!("Translator {i}"),
            "description": "Translates text",
            "variables": [
                {"name": "text", "type": "text", "description": "What to translate", "default": ""},
                {"name": "language", "type": "single-select", "description": "Target", "default": "French",
                 "allowed_values": ["French", "German", "Spanish"]}
            ]
        }
    }))
    .unwrap()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn report(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

fn statuses(report: &Value) -> Vec<(String, String)> {
    report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["input"].as_str().unwrap().to_owned(), i["status"].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn a_mixed_tree_converts_what_it_can_and_reports_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("in/gloodata")).unwrap();
    std::fs::copy(seed_map(), root.join("in/gloodata/map.json")).unwrap();
    write(&root.join("in/skydeck/translate.json"), &skydeck(1));
    write(&root.join("in/skydeck/notes.txt"), "not an input");
    write(&root.join("in/unknown.json"), "{\"hello\": 1}");
    write(&root.join("in/skydeck/broken.json"), "{\n  \"model_prompt\": \"x\",\n  \"metadata\": {]\n}");

    let run = run_in(root, &["--to", "mcp", "in", "-o", "out", "--report", "report.json"]);
    // A malformed file is a failure with its position, not a skip; the others still convert.
    run.expect_code(1);
    assert!(run.stderr.contains("in/unknown.json: warning[run/skipped]"), "{}", run.stderr);
    assert!(run.stderr.contains("in/skydeck/broken.json:3:16: error[input/syntax]"), "{}", run.stderr);
    let report = report(root, "report.json");
    assert_eq!(
        statuses(&report),
        [
            ("in/gloodata/map.json".into(), "converted_with_losses".into()),
            ("in/skydeck/broken.json".into(), "failed".into()),
            ("in/skydeck/translate.json".into(), "converted_with_losses".into()),
            ("in/unknown.json".into(), "skipped".into()),
        ]
    );
    assert_eq!(report["summary"]["converted_with_losses"], 2);
    assert_eq!(report["inputs"][0]["from"], "gloodata");
    assert_eq!(report["inputs"][2]["from"], "skydeck");
    assert_eq!(report["inputs"][0]["outputs"], json!(["out/gloodata/map.mcp.json"]));
    assert!(root.join("out/gloodata/map.mcp.json").exists(), "the input tree is mirrored");
    assert!(root.join("out/skydeck/translate.mcp.json").exists());
    let written: Vec<_> = walk(&root.join("out"));
    assert_eq!(written.len(), 2, "{written:?}");
}

#[test]
fn a_folder_format_keeps_its_own_file_names_whatever_the_input_is_called() {
    // An input whose stem is the name of a file the target writes (mcp-server's manifest.json):
    // the output-name rule is for documents named after the input, not a folder's fixed names.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(&root.join("in/manifest.json"), &skydeck(1));
    write(&root.join("in/other.json"), &skydeck(2));
    for (input, out) in [("in/manifest.json", "one"), ("in", "batch")] {
        let run = run_in(root, &["--from", "skydeck", "--to", "mcp-server", input, "-o", out]);
        run.expect_code(0);
        let written = walk(&root.join(out));
        let names: Vec<&str> = written.iter().map(|p| p.rsplit('/').next().unwrap()).collect();
        assert!(names.iter().all(|n| *n == "manifest.json" || *n == "server.json"), "{written:?}");
        assert_eq!(names.len(), if input == "in" { 4 } else { 2 }, "{written:?}");
    }
}

#[test]
fn one_bad_input_never_stops_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(&root.join("in/a.json"), &skydeck(1));
    write(&root.join("in/b.json"), "{\n  \"model_prompt\": \"x\",\n  \"metadata\": {]\n}");
    write(&root.join("in/c.json"), &skydeck(3));
    let run = run_in(root, &["--from", "skydeck", "--to", "gloodata", "in", "-o", "out", "--report", "r.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("in/b.json:3:") && run.stderr.contains("error[input/syntax]"), "{}", run.stderr);
    assert!(run.stderr.contains("3 inputs: 2 converted"), "{}", run.stderr);
    assert!(root.join("out/a.gloodata.json").exists() && root.join("out/c.gloodata.json").exists());
    let report = report(root, "r.json");
    assert_eq!(report["summary"]["failed"], 1);
    let failed = &report["inputs"][1];
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["diagnostics"][0]["span"]["line"], 3);
    assert_eq!(failed["outputs"], json!([]));

    let run =
        run_in(root, &["--from", "skydeck", "--to", "gloodata", "in", "-o", "out2", "--fail-fast", "--jobs", "1"]);
    run.expect_code(1);
    assert!(run.stderr.contains("1 skipped"), "--fail-fast stops after b: {}", run.stderr);
    assert!(!root.join("out2/c.gloodata.json").exists());
}

#[test]
fn colliding_outputs_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(&root.join("one/x.json"), &skydeck(1));
    write(&root.join("two/x.json"), &skydeck(2));
    write(&root.join("two/y.json"), &skydeck(3));
    let run =
        run_in(root, &["--from", "skydeck", "--to", "gloodata", "one/x.json", "two/x.json", "two/y.json", "-o", "out"]);
    run.expect_code(1);
    assert!(
        run.stderr
            .contains("out/x.gloodata.json: would be written by both one/x.json and two/x.json; nothing was written"),
        "{}",
        run.stderr
    );
    assert_eq!(walk(&root.join("out")), Vec::<String>::new(), "nothing written, not even y.json");
}

#[test]
fn output_is_the_same_whatever_the_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..40 {
        write(&root.join(format!("in/{}/t{i:02}.json", i % 3)), &skydeck(i));
    }
    run_in(root, &["--to", "gloodata", "in", "-o", "one", "--jobs", "1", "--report", "one.json"]).expect_code(0);
    run_in(root, &["--to", "gloodata", "in", "-o", "four", "--jobs", "4", "--report", "four.json"]).expect_code(0);
    let one = walk(&root.join("one"));
    assert_eq!(one.len(), 40);
    assert_eq!(one, walk(&root.join("four")));
    for file in &one {
        assert_eq!(
            std::fs::read(root.join("one").join(file)).unwrap(),
            std::fs::read(root.join("four").join(file)).unwrap(),
            "{file}"
        );
    }
    let strip = |r: Value| r.to_string().replace("\"one/", "\"X/").replace("\"four/", "\"X/");
    assert_eq!(strip(report(root, "one.json")), strip(report(root, "four.json")));
}

#[test]
fn dry_run_says_what_it_would_write_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(&root.join("in/a.json"), &skydeck(1));
    let run = run_in(root, &["--from", "skydeck", "--to", "gloodata", "in/a.json", "-o", "out/", "--dry-run"]);
    run.expect_code(0);
    assert!(run.stderr.contains("would write out/a.gloodata.json"), "{}", run.stderr);
    assert!(!root.join("out/a.gloodata.json").exists());
}

#[test]
fn quoted_glob_patterns_are_expanded() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(&root.join("in/a.json"), &skydeck(1));
    write(&root.join("in/b.json"), &skydeck(2));
    write(&root.join("in/c.txt"), "x");
    run_in(root, &["--from", "skydeck", "--to", "gloodata", "in/*.json", "-o", "out"]).expect_code(0);
    assert_eq!(walk(&root.join("out")), ["a.gloodata.json", "b.gloodata.json"]);
    let run = run_in(root, &["--to", "gloodata", "nothing/*.json", "-o", "out"]);
    run.expect_code(2);
    assert!(run.stderr.contains("nothing/*.json: no file matches this pattern"), "{}", run.stderr);
}

/// Relative paths of the files under `dir`, sorted (none if it does not exist).
fn walk(dir: &Path) -> Vec<String> {
    fn go(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries {
            let path = e.unwrap().path();
            if path.is_dir() {
                go(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    go(dir, dir, &mut out);
    out.sort();
    out
}

/// Without `--report`, `-v`, `--strict` or `--names-map` the plugins give in full only what
/// the run prints and count the rest: what a batch prints is the same as when they give every
/// diagnostic (`--report` asks for all), by default, with `-q`, and for `check`.
#[test]
fn counted_diagnostics_print_as_every_diagnostic_would() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..6 {
        write(&root.join(format!("in/t{i}.json")), &skydeck(i));
    }
    std::fs::copy(seed_map(), root.join("in/map.json")).unwrap();
    write(&root.join("in/broken.json"), "{\n  \"model_prompt\": \"x\",\n  \"metadata\": {]\n}");
    // The last writes r.json, read below.
    for (to, flags) in [("mcp", &["-q"][..]), ("raycast", &[][..]), ("gloodata", &[][..])] {
        let mut runs = Vec::new();
        for (i, report) in [&[][..], &["--report", "r.json", "--force"][..]].into_iter().enumerate() {
            let out = format!("out-{to}-{i}");
            let args = [&["--to", to, "in", "-o", out.as_str()][..], flags, report].concat();
            let run = run_in(root, &args);
            run.expect_code(1);
            runs.push(run.stderr.replace(&out, "OUT"));
        }
        assert!(runs[0].contains("error[input/syntax]"), "{}", runs[0]);
        assert!(flags.contains(&"-q") || runs[0].contains(" times, e.g. "), "folded by code:\n{}", runs[0]);
        assert_eq!(runs[0], runs[1], "-> {to} {flags:?}");
    }
    // `check` counts each input's losses, of which the plugins gave only the first in full.
    let checked = run_in(root, &["check", "--to", "gloodata", "in"]).stderr;
    let report = report(root, "r.json");
    for input in report["inputs"].as_array().unwrap().iter().filter(|i| i["status"] != "failed") {
        let diagnostics = input["diagnostics"].as_array().unwrap();
        let losses = diagnostics.iter().filter(|d| d["code"].as_str().unwrap().starts_with("loss/"));
        let line = format!(
            "{}: ok ({}), 0 errors, {} losses",
            input["input"].as_str().unwrap(),
            input["from"].as_str().unwrap(),
            losses.count()
        );
        assert!(checked.contains(&line), "{line}\n{checked}");
    }
}
