//! convert under hostile and unusual input, through the real binary: no write leaves the
//! output folder or goes through a link, no input is overwritten, a run is atomic per input
//! and always ends with its summary and report, outputs honour the umask, staging never
//! outlives a run, and no input aborts the process or runs away with time or memory.

use crate::support;

use std::path::{Path, PathBuf};

use support::*;

fn skydeck_tool() -> PathBuf {
    workspace_root().join("fixtures/skydeck/es-resumen.json")
}

/// Names of every file and folder under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.map(Result::unwrap) {
            let path = entry.path();
            out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            if entry.file_type().unwrap().is_dir() {
                walk(root, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn no_staging_left(dir: &Path) {
    let left: Vec<String> = tree(dir).into_iter().filter(|p| p.contains(".toolport")).collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
}

/// An input named `...json` has the stem `..`: its outputs still land inside `-o`.
#[test]
fn hostile_input_names_stay_inside_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(work.join("in")).unwrap();
    std::fs::copy(skydeck_tool(), work.join("in/...json")).unwrap();
    std::fs::copy(skydeck_tool(), work.join("in/..json")).unwrap();
    std::fs::copy(skydeck_tool(), work.join("in/plain.json")).unwrap();
    // Named one by one: walking a folder skips hidden files such as these.
    let run = run_in(
        &work,
        &["-q", "--from", "skydeck", "--to", "raycast", "in/...json", "in/..json", "in/plain.json", "-o", "out"],
    );
    run.expect_code(0);
    let outside: Vec<String> =
        tree(&work).into_iter().filter(|p| !p.starts_with("in") && !p.starts_with("out")).collect();
    assert!(outside.is_empty(), "written outside the output folder: {outside:?}");
    let packages: Vec<String> = tree(&work.join("out")).into_iter().filter(|p| p.ends_with("package.json")).collect();
    assert_eq!(packages.len(), 3, "each input has its own folder inside out/: {packages:?}");
    no_staging_left(&work);
}

#[cfg(unix)]
#[test]
fn links_inside_the_output_are_never_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("src")).unwrap();
    let tool = skydeck_tool();
    let run = run_in(dir.path(), &["-q", "--to", "raycast", tool.to_str().unwrap(), "-o", "out"]);
    run.expect_code(1);
    assert!(run.stderr.contains("out/src: is a symbolic link; toolport never writes through links"), "{}", run.stderr);
    assert!(tree(&elsewhere).is_empty(), "nothing written through the link");
    assert_eq!(tree(&out), ["src"], "nothing placed at all");

    // A link in the output file's own place, even with --force.
    let victim = elsewhere.join("victim.json");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, dir.path().join("target.json")).unwrap();
    let run = run_in(dir.path(), &["-q", "--to", "gloodata", tool.to_str().unwrap(), "-o", "target.json", "--force"]);
    run.expect_code(1);
    assert!(run.stderr.contains("target.json: is a symbolic link"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

#[test]
fn every_file_read_for_an_input_and_the_report_are_protected() {
    let dir = tempfile::tempdir().unwrap();
    let weather = dir.path().join("weather");
    std::fs::create_dir_all(&weather).unwrap();
    for file in ["import.json", "weather.yaml"] {
        std::fs::copy(workspace_root().join("fixtures/vertex/weather").join(file), weather.join(file)).unwrap();
    }
    let spec = std::fs::read(weather.join("weather.yaml")).unwrap();
    // The body's sibling spec was read for it: an input, even with --force.
    let run =
        run_in(dir.path(), &["-q", "--to", "openapi", "weather/import.json", "-o", "weather/weather.yaml", "--force"]);
    run.expect_code(1);
    assert!(run.stderr.contains("weather/weather.yaml: is an input"), "{}", run.stderr);
    assert_eq!(std::fs::read(weather.join("weather.yaml")).unwrap(), spec);

    // --report onto an input, or onto an existing file without --force: refused before converting.
    let run = run_in(
        dir.path(),
        &["--to", "openapi", "weather/import.json", "-o", "out.yaml", "--report", "weather/import.json"],
    );
    run.expect_code(2);
    assert!(run.stderr.contains("--report weather/import.json: is an input"), "{}", run.stderr);
    assert!(!dir.path().join("out.yaml").exists());
    std::fs::write(dir.path().join("report.json"), "keep me").unwrap();
    let run =
        run_in(dir.path(), &["--to", "openapi", "weather/import.json", "-o", "out.yaml", "--report", "report.json"]);
    run.expect_code(2);
    assert!(run.stderr.contains("report.json: already exists; use --force"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(dir.path().join("report.json")).unwrap(), "keep me");
}

/// A directory where one input's file should go fails that input alone: none of its files
/// are placed, the others are, and the summary and the report are still written.
#[test]
fn a_failed_input_places_nothing_and_the_run_still_reports() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(skydeck_tool(), inputs.join("a.json")).unwrap();
    std::fs::copy(skydeck_tool(), inputs.join("b.json")).unwrap();
    // A file where b's `src` folder must go: planning cannot see it (nothing is created
    // yet), so it fails while placing b, after b's package.json (sorted first) was placed.
    std::fs::create_dir_all(dir.path().join("out/b")).unwrap();
    std::fs::write(dir.path().join("out/b/src"), "in the way").unwrap();
    let run = run_in(
        dir.path(),
        &["--from", "skydeck", "--to", "raycast", "in", "-o", "out", "--force", "--report", "report.json"],
    );
    run.expect_code(1);
    // Which of b's folders fails first depends on its file names; each lies under the file.
    assert!(run.stderr.contains("out/b/src") && run.stderr.contains(": cannot be written: "), "{}", run.stderr);
    assert!(run.stderr.contains("none of this input's files were placed"), "{}", run.stderr);
    assert!(run.stderr.contains("2 inputs: 1 converted"), "the summary is printed: {}", run.stderr);
    let doubled = run.stderr.lines().find(|l| l.matches("os error").count() > 1);
    assert!(doubled.is_none(), "an error said twice: {doubled:?}");
    assert!(dir.path().join("out/a/package.json").exists(), "the good input is placed");
    assert!(!dir.path().join("out/b/package.json").exists(), "the failed input places nothing");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
    let statuses: Vec<&str> =
        report["inputs"].as_array().unwrap().iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == "failed").count(), 1, "{report}");
    no_staging_left(dir.path());
}

#[cfg(unix)]
#[test]
fn outputs_honour_the_umask_and_force_keeps_the_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let tool = skydeck_tool();
    let shell = |umask: &str, extra: &str| {
        let script = format!("umask {umask}; exec \"$0\" -q --to gloodata \"$1\" -o out.json {extra}");
        let home = tempfile::tempdir().unwrap();
        let output = std::process::Command::new("sh")
            .current_dir(dir.path())
            .env("HOME", home.path())
            .env_remove("TOOLPORT_PLUGIN_PATH")
            .env_remove("XDG_DATA_HOME")
            .args(["-c", &script, exe().to_str().unwrap(), tool.to_str().unwrap()])
            .output()
            .unwrap();
        finish(output).expect_code(0);
        std::fs::metadata(dir.path().join("out.json")).unwrap().permissions().mode() & 0o777
    };
    assert_eq!(shell("022", ""), 0o644);
    std::fs::remove_file(dir.path().join("out.json")).unwrap();
    assert_eq!(shell("027", ""), 0o640);
    std::fs::set_permissions(dir.path().join("out.json"), std::fs::Permissions::from_mode(0o604)).unwrap();
    assert_eq!(shell("022", "--force"), 0o604, "--force keeps an existing file's mode");
}

#[test]
fn staging_left_by_a_killed_run_is_removed_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    // A process id no system hands out.
    let stale = dir.path().join("out/.toolport-staging-4294967295-0");
    std::fs::create_dir_all(stale.join("deep")).unwrap();
    std::fs::write(stale.join("deep/0"), "half a file").unwrap();
    let tool = skydeck_tool();
    run_in(dir.path(), &["-q", "--to", "gloodata", tool.to_str().unwrap(), "-o", "out/"]).expect_code(0);
    if cfg!(target_os = "linux") {
        assert_eq!(tree(&dir.path().join("out")), ["es-resumen.json"]);
    }
}

#[cfg(unix)]
#[test]
fn an_interrupted_batch_places_nothing_and_leaves_no_staging() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let text = std::fs::read_to_string(skydeck_tool()).unwrap();
    for i in 0..3000 {
        std::fs::write(inputs.join(format!("t{i}.json")), &text).unwrap();
    }
    let home = tempfile::tempdir().unwrap();
    let child = command(home.path())
        .current_dir(dir.path())
        .args(["-q", "--from", "skydeck", "--to", "gloodata", "in", "-o", "out", "--jobs", "1"])
        .spawn()
        .unwrap();
    // Once staging exists the run is converting: interrupt it.
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    while !tree(&out).iter().any(|p| p.starts_with(".toolport-staging-")) && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let output = child.wait_with_output().unwrap();
    match output.status.code() {
        Some(130) => assert!(tree(&out).is_empty(), "an interrupted run places nothing: {:?}", tree(&out)),
        // The signal came after the run had committed: then everything is in place.
        Some(0) => assert_eq!(tree(&out).len(), 3000),
        other => panic!("exit {other:?}: {}", String::from_utf8_lossy(&output.stderr)),
    }
    no_staging_left(dir.path());
}

/// Each syntax nested far past the limit: a located error for that file, exit 1, and the
/// other input of the batch still converts (no stack overflow, no abort).
#[test]
fn deep_nesting_is_a_located_error_never_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(skydeck_tool(), inputs.join("good.json")).unwrap();
    let deep = "[".repeat(20_000);
    std::fs::write(inputs.join("deep.json"), format!("{{\"tools\": {deep}")).unwrap();
    std::fs::write(inputs.join("deep.yaml"), format!("openapi: 3.0.0\npaths: {deep}\n")).unwrap();
    let run = run_in(dir.path(), &["--to", "gloodata", "in", "-o", "out"]);
    run.expect_code(1);
    for file in ["deep.json", "deep.yaml"] {
        let line = run.stderr.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("{file}: {}", run.stderr));
        assert!(line.contains(&format!("in/{file}:")) && line.contains("error[input/syntax]"), "{line}");
    }
    assert!(dir.path().join("out/good.json").exists(), "{}", run.stderr);

    // SkyDeck's lenient reader and Raycast's TypeScript reader, each past the limit.
    let mut skydeck: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(skydeck_tool()).unwrap()).unwrap();
    skydeck["metadata"]["deep"] = serde_json::Value::String("X".into());
    let text = serde_json::to_string(&skydeck)
        .unwrap()
        .replace("\"X\"", &format!("{}1{}", "[".repeat(20_000), "]".repeat(20_000)));
    std::fs::write(dir.path().join("deep-skydeck.json"), text).unwrap();
    let run = run_in(dir.path(), &["--from", "skydeck", "--to", "gloodata", "deep-skydeck.json", "-o", "x.json"]);
    run.expect_code(1);
    assert!(
        run.stderr.contains("deep-skydeck.json:1:") && run.stderr.contains("error[input/syntax]"),
        "{}",
        run.stderr
    );

    let ext = dir.path().join("ext");
    std::fs::create_dir_all(ext.join("src/tools")).unwrap();
    std::fs::write(
        ext.join("package.json"),
        r#"{"name": "deep", "title": "Deep", "description": "d", "tools": [{"name": "t", "title": "T", "description": "d"}]}"#,
    )
    .unwrap();
    std::fs::write(ext.join("src/tools/t.ts"), format!("const x = {deep};\nexport default function () {{}}\n"))
        .unwrap();
    let run = run_in(dir.path(), &["--from", "raycast", "--to", "gloodata", "ext", "-o", "ext.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("t.ts:") && run.stderr.contains("error[input/syntax]"), "{}", run.stderr);
}

/// A schema nested 60 levels (within the input limit) crosses from reader to every kind of
/// writer: the model's JSON form nests several levels per schema level.
#[test]
fn deep_but_valid_schemas_cross_to_any_writer() {
    let dir = tempfile::tempdir().unwrap();
    let mut schema = serde_json::json!({"type": "string"});
    for i in 0..60 {
        schema = serde_json::json!({"type": "object", "properties": {format!("a{i}"): schema}});
    }
    let doc = serde_json::json!({"tools": [{"name": "deep", "description": "d", "inputSchema": {"type": "object", "properties": {"x": schema}}}]});
    std::fs::write(dir.path().join("deep.json"), doc.to_string()).unwrap();
    for (to, out) in [("openapi", "deep.yaml"), ("gemini", "deep.gemini.json"), ("openai", "deep.openai.json")] {
        let run = run_in(dir.path(), &["-q", "--from", "mcp", "--to", to, "deep.json", "-o", out]);
        run.expect_code(0);
        let written = std::fs::read_to_string(dir.path().join(out)).unwrap();
        assert!(written.contains("a0"), "{to}: the innermost property is carried");
    }
}

#[test]
fn malformed_files_in_a_walked_folder_fail_with_their_position() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let full = std::fs::read_to_string(skydeck_tool()).unwrap();
    std::fs::write(inputs.join("truncated.json"), &full[..full.len() / 2]).unwrap();
    std::fs::write(inputs.join("bad.yaml"), "openapi: 3.0.0\npaths: [a, b\n").unwrap();
    std::fs::write(inputs.join("latin1.json"), b"{\n  \"name\": \"caf\xe9\"\n}").unwrap();
    std::fs::write(inputs.join("unrelated.json"), "{\"compilerOptions\": {}}").unwrap();
    let run = run_in(dir.path(), &["--to", "gloodata", "in", "-o", "out"]);
    run.expect_code(1);
    for (file, position) in [("truncated.json", ":"), ("bad.yaml", ":3:"), ("latin1.json", ":2:15:")] {
        let line = run.stderr.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("{file}: {}", run.stderr));
        assert!(line.contains(&format!("{file}{position}")), "{line}");
    }
    assert!(run.stderr.contains("unrelated.json: warning[run/skipped]"), "{}", run.stderr);
}

/// A named pipe among the inputs is refused at once (opening it would block for ever); the
/// other input converts.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(skydeck_tool(), dir.path().join("good.json")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(dir.path().join("pipe.json")).status().unwrap();
    assert!(made.success());
    let run = run_in(dir.path(), &["--from", "skydeck", "--to", "gloodata", "pipe.json", "good.json", "-o", "out"]);
    run.expect_code(1);
    assert!(run.stderr.contains("pipe.json: error[input/invalid]: is not a regular file"), "{}", run.stderr);
    assert!(dir.path().join("out/good.json").exists(), "{}", run.stderr);
}

/// Two input names that differ only in bytes that are not UTF-8 stay two inputs: each is
/// reported under its own name and written to its own file (`%XX` for such bytes), where a
/// replacement character would have merged them.
#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_stay_apart() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    std::fs::create_dir_all(work.join("in")).unwrap();
    for name in [&b"x\xff.json"[..], &b"x\xfe.json"[..]] {
        std::fs::copy(skydeck_tool(), work.join("in").join(std::ffi::OsStr::from_bytes(name))).unwrap();
    }
    let run = run_in(work, &["-q", "--from", "skydeck", "--to", "gloodata", "in", "-o", "out", "--report", "r.json"]);
    run.expect_code(0);
    let mut written = tree(&work.join("out"));
    written.sort();
    assert_eq!(written, ["x%FE.json", "x%FF.json"]);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("r.json")).unwrap()).unwrap();
    let inputs: Vec<&str> = report["inputs"].as_array().unwrap().iter().map(|i| i["input"].as_str().unwrap()).collect();
    assert_eq!(inputs.len(), 2);
    assert_ne!(inputs[0], inputs[1], "each input keeps its own name: {inputs:?}");
    no_staging_left(work);
}

// ---------------------------------------------------------------------------------------------
// Silent wrong successes and nesting without brackets (hostile input, round three): each is a
// located warning or error now, never exit 0 without a word, never a crash.
// ---------------------------------------------------------------------------------------------

/// Writes `files` (path, content) under `dir`.
fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// What a parser accepted silently is a located warning, and what it reads is kept: a repeated
/// key, an integer past 64 bits, a `required` list with a number in it, a YAML tag toolport
/// does not know (the title keeps its text), an OpenAPI `required: yes`.
#[test]
fn what_parsers_tolerate_is_said_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "tools.json",
                "{\"tools\": [{\"name\": \"a\", \"description\": \"first\"}],\n \"tools\": [{\"name\": \"b\", \"description\": \"d\", \"inputSchema\": {\"type\": \"object\",\n  \"properties\": {\"n\": {\"type\": \"integer\", \"maximum\": 18446744073709551617}, \"m\": {}},\n  \"required\": [7, \"n\"]}}]}\n",
            ),
            (
                "spec.yaml",
                "openapi: 3.0.0\ninfo:\n  title: !!python/str My API\n  version: '1'\npaths:\n  /a:\n    get:\n      operationId: get_a\n      parameters: [{name: q, in: query, required: yes, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n",
            ),
        ],
    );
    let run = run_in(dir.path(), &["-v", "--from", "mcp", "--to", "gemini", "tools.json", "-o", "-"]);
    run.expect_code(0);
    for expected in [
        "tools.json:2:2: warning[input/tolerated]: the key `tools` appears again in this object (first at line 1, column 2)",
        "tools.json:3:54: warning[input/tolerated]: the integer 18446744073709551617 does not fit in 64 bits",
        // Located in the value that is used, the later one.
        "tools.json:4:16: warning[input/tolerated]: `required` lists property names, not a number: 7 is left out",
    ] {
        assert!(run.stderr.contains(expected), "{expected}\n{}", run.stderr);
    }
    let written: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let tool = &written["functionDeclarations"][0];
    assert_eq!(tool["name"], "b", "the later value is used: {written}");
    assert_eq!(tool["parameters"]["required"], serde_json::json!(["n"]), "the name beside it is kept: {written}");

    let run = run_in(dir.path(), &["-v", "--from", "openapi", "--to", "mcp", "spec.yaml", "-o", "-"]);
    run.expect_code(0);
    for expected in [
        "spec.yaml:3:10: warning[input/tolerated]: the tag `!!python/str` is not one toolport knows",
        "warning[input/tolerated]: `required` is a boolean, not a string: \"yes\" is not one; it is read as required (true)",
    ] {
        assert!(run.stderr.contains(expected), "{expected}\n{}", run.stderr);
    }
    let written: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(written["tools"][0]["inputSchema"]["required"], serde_json::json!(["q"]), "{written}");
    let run = run_in(dir.path(), &["inspect", "spec.yaml"]);
    run.expect_code(0);
    let model: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(model["tool_set"]["title"], "My API", "the tagged title keeps its text");
}

/// A file of a folder input that is not UTF-8 is named where it is in the folder.
#[test]
fn a_file_that_is_not_utf8_is_named_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[(
            "ext/package.json",
            r#"{"name": "ext", "title": "Ext", "description": "d", "tools": [{"name": "t", "title": "T", "description": "d"}]}"#,
        )],
    );
    std::fs::create_dir_all(dir.path().join("ext/src/tools")).unwrap();
    std::fs::write(
        dir.path().join("ext/src/tools/t.ts"),
        b"export default async function tool() {\n  return \"\xff\";\n}\n",
    )
    .unwrap();
    let run = run_in(dir.path(), &["--to", "mcp", "ext", "-o", "-"]);
    run.expect_code(1);
    let shown = Path::new("ext").join("src/tools/t.ts").display().to_string();
    assert!(run.stderr.contains(&format!("{shown}:2:11: error[input/syntax]: is not UTF-8 text")), "{}", run.stderr);
}

/// TypeScript that nests without brackets, a million levels deep (a stack overflow before):
/// type arguments, a conditional chain, an assignment chain, JSX. Each is a located error.
#[test]
fn nesting_without_brackets_is_refused_where_it_crosses_the_limit() {
    let deep = 1_000_000;
    let cases = [
        ("t.ts", format!("type Input = {{ a: {}string{} }};\n", "Array<".repeat(deep), ">".repeat(deep))),
        ("t.ts", format!("const x = {}0;\n", "a ? b : ".repeat(deep))),
        ("t.ts", format!("let a;\na = {}1;\n", "a = ".repeat(deep))),
        ("t.tsx", format!("const x = {}{};\n", "<a>".repeat(deep), "</a>".repeat(deep))),
    ];
    for (file, code) in cases {
        let dir = tempfile::tempdir().unwrap();
        write_files(
            dir.path(),
            &[
                (
                    "ext/package.json",
                    r#"{"name": "deep", "title": "Deep", "description": "d", "tools": [{"name": "t", "title": "T", "description": "d"}]}"#,
                ),
                (&format!("ext/src/tools/{file}"), &format!("{code}export default function tool() {{}}\n")),
            ],
        );
        let run = run_in(dir.path(), &["--from", "raycast", "--to", "mcp", "ext", "-o", "-"]);
        run.expect_code(1);
        assert!(
            run.stderr.contains(&format!("{file}:"))
                && run.stderr.contains("error[input/syntax]")
                && run.stderr.contains("nested deeper than 128 levels"),
            "{code:.40}: {}",
            run.stderr
        );
    }
}
