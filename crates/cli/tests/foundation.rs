//! The foundation's promises, through the real binary and the real dynamic libraries:
//! plugins are found and listed, broken plugins fail clearly while the others keep working,
//! bad input gets one clear line and the documented exit code, outputs never overwrite inputs.

use crate::support;

use std::path::Path;

use support::*;

const ALL_FORMATS: [&str; 9] =
    ["anthropic", "gemini", "gloodata", "mcp", "openai", "openapi", "raycast", "skydeck", "vertex"];

#[test]
fn formats_lists_every_plugin_with_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(dir.path(), &["formats", "--json"]);
    run.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let formats = doc["formats"].as_array().unwrap();
    let ids: Vec<&str> = formats.iter().map(|f| f["id"].as_str().unwrap()).collect();
    for id in ALL_FORMATS {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    for f in formats {
        let plugin = f["plugin"].as_str().unwrap();
        assert!(Path::new(plugin).exists(), "{plugin}");
        // adk writes Python code (an agent folder): it says it only writes.
        let reads = f["id"] != "adk";
        assert_eq!(f["reads"].as_bool(), Some(reads), "{}", f["id"]);
        assert!(f["writes"].as_bool().unwrap(), "{} writes", f["id"]);
    }
    let gloodata = formats.iter().find(|f| f["id"] == "gloodata").unwrap();
    assert_eq!(gloodata["aliases"], serde_json::json!(["extension-info"]));
    let table = run_in(dir.path(), &["formats"]);
    table.expect_code(0);
    assert!(table.stdout.contains("libtoolport_plugin_gloodata"), "{}", table.stdout);
    assert!(table.stdout.contains("trust"), "the table warns that plugins are native code");
    // Columns line up whatever the longest id (mcp-prompts, mcp-server): each row's plugin
    // path starts where the header's PLUGIN does.
    let plugin_column = table.stdout.lines().next().unwrap().find("PLUGIN").unwrap();
    for row in table.stdout.lines().skip(1).take(formats.len()) {
        assert_eq!(row.find(" /").map(|at| at + 1), Some(plugin_column), "misaligned: {row}\n{}", table.stdout);
    }
}

/// Copies the broken plugins into one folder, with a healthy one, and loads them all.
fn broken_plugin_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["wrong_magic", "other_abi", "other_model", "panics", "no_entry", "bad_json"] {
        let path = test_plugin(name);
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn broken_plugins_fail_clearly_and_the_others_keep_working() {
    let plugins = broken_plugin_dir();
    let dir = plugins.path().to_str().unwrap();
    let run = run_in(plugins.path(), &["--plugin-dir", dir, "formats"]);
    run.expect_code(0);
    let lines = format!("{}{}", run.stdout, run.stderr);
    for (file, says) in [
        ("wrong_magic", "not the toolport magic"),
        ("other_abi", "plugin speaks plugin ABI 99.x, this convert speaks ABI 1.3 and loads plugins of ABI 1.x"),
        ("other_model", "plugin uses model schema 2.0, this convert uses 1.2 and loads plugins of model schema 1.x"),
        ("no_entry", "does not export the symbol `toolport_plugin_entry`"),
    ] {
        let line = lines.lines().find(|l| l.contains(&format!("toolport_testplugin_{file}"))).unwrap_or_else(|| {
            panic!("no message names the {file} plugin:\n{lines}");
        });
        assert!(line.contains(says), "{line}");
    }
    for id in ["gloodata", "skydeck", "panicky", "garbled"] {
        assert!(run.stdout.lines().any(|l| l.starts_with(id)), "{id} still listed:\n{}", run.stdout);
    }
}

#[test]
fn a_panicking_plugin_never_aborts_convert() {
    let plugins = broken_plugin_dir();
    let input = plugins.path().join("in.json");
    std::fs::write(&input, "{}").unwrap();
    let dir = plugins.path().to_str().unwrap();
    let run = run_in(plugins.path(), &["--plugin-dir", dir, "--from", "panicky", "--to", "gloodata", "in.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("plugin panicked: this reader always panics"), "{}", run.stderr);
    assert!(run.stderr.contains("toolport_testplugin_panics"), "names the plugin file: {}", run.stderr);
    let run = run_in(plugins.path(), &["--plugin-dir", dir, "--from", "garbled", "--to", "gloodata", "in.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("returned invalid JSON"), "{}", run.stderr);
    assert!(run.stderr.contains("toolport_testplugin_bad_json"), "{}", run.stderr);
}

/// Plugins of another minor of the same ABI and model majors load and convert, in process and
/// isolated: one built against 1.0 (a shorter table, no features, a writer that refuses
/// unknown envelope fields) and one from ABI 1.4 (a longer table, a model of schema 1.2 with fields 1.1 lacks).
/// Each case: the arguments after the input, the exit code, what stdout or the written
/// `tools.txt` holds, what stderr must say.
#[test]
fn plugins_of_an_older_and_a_newer_minor_load_and_convert() {
    let dir = tempfile::tempdir().unwrap();
    let plugins = dir.path().join("plugins");
    std::fs::create_dir(&plugins).unwrap();
    for name in ["old_minor", "new_minor"] {
        let path = test_plugin(name);
        std::fs::copy(&path, plugins.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(dir.path().join("in.old"), "{}").unwrap();
    std::fs::write(dir.path().join("in.new"), "{}").unwrap();
    std::fs::copy(seed_map(), dir.path().join("map.json")).unwrap();
    let plugin_dir = plugins.to_str().unwrap();
    let unknown = "warning[input/unknown-key]";
    type Case<'a> = (&'a [&'a str], &'a str, &'a [&'a str]);
    let cases: [Case; 6] = [
        // A 1.0 reader's model, into a writer of this SDK.
        (&["--from", "old-minor", "--to", "mcp", "in.old"], "from_old_minor", &[]),
        // Into a 1.0 writer: the model re-encoded, without `schema_minor`.
        (&["--from", "gloodata", "--to", "old-minor", "map.json", "-o", "out-a/"], "showMapAtAddressAndZoom\n", &[]),
        // A 1.2 model into this SDK's writer: the unknown fields kept and reported, not refused.
        (
            &["--from", "new-minor", "--to", "mcp", "in.new"],
            "from_new_minor",
            &[
                unknown,
                "`deprecated` (and at 1 more places) is unknown to plugin toolport-plugin-mcp",
                "(this model is 1.2)",
                // Folded with the `deprecated` one by default; the loss names every unknown field.
                "/tools/0/parameters/0/schema/const`",
            ],
        ),
        // A 1.2 model into a 1.0 writer: decoded by convert, unknown fields kept under extras.
        (
            &["--from", "new-minor", "--to", "old-minor", "in.new", "-o", "out-b/"],
            "from_new_minor\nalso_new\n",
            &[unknown, "is unknown to convert"],
        ),
        // And into the 1.2 plugin's own writer (never its `validate`, which would abort).
        (&["--from", "old-minor", "--to", "new-minor", "in.old", "-o", "out-c/"], "from_old_minor\n", &[]),
        (&["formats"], "old-minor", &[]),
    ];
    for isolate in ["never", "always"] {
        for (args, holds, says) in cases {
            let mut all = vec!["--plugin-dir", plugin_dir, "--isolate", isolate];
            all.extend(args);
            let run = run_in(dir.path(), &all);
            run.expect_code(0);
            let out = args.iter().position(|a| *a == "-o").map(|i| args[i + 1]);
            let text = match out {
                Some(out) => std::fs::read_to_string(dir.path().join(out).join("tools.txt")).unwrap(),
                None => run.stdout.clone(),
            };
            assert!(text.contains(holds), "{isolate} {args:?}: {text}");
            for said in says {
                assert!(run.stderr.contains(said), "{isolate} {args:?} should say {said:?}:\n{}", run.stderr);
            }
            assert!(!run.stderr.contains("error"), "{isolate} {args:?}:\n{}", run.stderr);
            if let Some(out) = out {
                std::fs::remove_dir_all(dir.path().join(out)).unwrap();
            }
        }
        let run = run_in(
            dir.path(),
            &["--plugin-dir", plugin_dir, "--isolate", isolate, "inspect", "--from", "new-minor", "in.new"],
        );
        run.expect_code(0);
        let model: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(model["schema_version"], 1);
        assert_eq!(
            model["tool_set"]["extras"]["toolport-unknown"],
            serde_json::json!({"/tools/0/deprecated": true, "/tools/0/parameters/0/schema/const": "x", "/tools/1/deprecated": false}),
            "{isolate}: {}",
            run.stdout
        );
        assert!(run.stderr.contains("`deprecated` (and at 1 more places) is unknown to convert"), "{}", run.stderr);
    }
}

#[test]
fn unknown_formats_list_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(dir.path(), &["--from", "nope", "--to", "gloodata", "x.json"]);
    run.expect_code(2);
    assert!(run.stderr.contains("unknown format `nope`; known formats: "), "{}", run.stderr);
    assert!(run.stderr.contains("gloodata"), "{}", run.stderr);
}

#[test]
fn no_plugins_found_lists_the_places_searched() {
    let dir = tempfile::tempdir().unwrap();
    let lonely = dir.path().join("convert");
    // Copied by another process: a file this test process had open for writing could be
    // inherited by a sibling test's fork, and executing it would then fail with "Text file busy".
    let copied = std::process::Command::new("cp").arg(exe()).arg(&lonely).status().unwrap();
    assert!(copied.success());
    let output = std::process::Command::new(&lonely)
        .env("HOME", dir.path())
        .env_remove("XDG_DATA_HOME")
        .env_remove("TOOLPORT_PLUGIN_PATH")
        .args(["formats"])
        .output()
        .unwrap();
    let run = finish(output);
    run.expect_code(2);
    assert!(run.stderr.contains("no plugins found; searched:"), "{}", run.stderr);
    assert!(run.stderr.contains(".local/share/toolport/plugins"), "{}", run.stderr);
    assert!(run.stderr.contains(&format!("{}", dir.path().join("plugins").display())), "{}", run.stderr);
}

/// One bad input, one clear line with the documented exit code.
fn check_bad_input(setup: impl FnOnce(&Path) -> String, expect: &str) {
    let dir = tempfile::tempdir().unwrap();
    let input = setup(dir.path());
    let run = run_in(dir.path(), &["--from", "gloodata", "--to", "skydeck", &input, "-o", "out"]);
    run.expect_code(1);
    let errors: Vec<&str> = run.stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "one error line:\n{}", run.stderr);
    assert!(errors[0].contains(expect), "{:?} should contain {expect:?}", errors[0]);
    assert!(!dir.path().join("out").read_dir().map(|mut d| d.next().is_some()).unwrap_or(false), "nothing written");
}

#[test]
fn bad_inputs_get_one_clear_line() {
    check_bad_input(|_| "missing.json".into(), "missing.json: error[input/invalid]: no such file or directory");
    check_bad_input(
        |d| {
            std::fs::write(d.join("empty.json"), "").unwrap();
            "empty.json".into()
        },
        "empty.json: error[input/invalid]: is empty",
    );
    check_bad_input(
        |d| {
            std::fs::create_dir(d.join("folder")).unwrap();
            "folder".into()
        },
        "folder: is a directory, but no gloodata input (a file ending .json) was found in it",
    );
    check_bad_input(
        |d| {
            std::fs::write(d.join("latin1.json"), b"{\"ns\": \"caf\xe9\"}").unwrap();
            "latin1.json".into()
        },
        "is not UTF-8 text (invalid byte at offset 11)",
    );
    check_bad_input(
        |d| {
            std::fs::write(d.join("broken.json"), "{\n  \"ns\": \"x\",\n  \"tools\": {,}\n}\n").unwrap();
            "broken.json".into()
        },
        "broken.json:3:13: error[input/syntax]: invalid JSON",
    );
}

#[test]
fn outputs_never_overwrite_inputs_or_existing_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(seed_map(), dir.path().join("map.json")).unwrap();
    std::fs::write(dir.path().join("taken.json"), "keep me").unwrap();

    let run = run_in(dir.path(), &["--from", "gloodata", "--to", "gloodata", "map.json", "-o", "map.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("map.json: is an input; toolport never overwrites its inputs"), "{}", run.stderr);
    assert_eq!(std::fs::read(dir.path().join("map.json")).unwrap(), std::fs::read(seed_map()).unwrap());

    let run = run_in(dir.path(), &["--from", "gloodata", "--to", "gloodata", "map.json", "-o", "taken.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("taken.json: already exists; use --force to overwrite it"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(dir.path().join("taken.json")).unwrap(), "keep me");

    run_in(dir.path(), &["--from", "gloodata", "--to", "gloodata", "map.json", "-o", "taken.json", "--force"])
        .expect_code(0);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("taken.json")).unwrap()).unwrap();
    assert_eq!(written["ns"], "mynamespace");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 2, "no staging or temporary files left: {leftovers:?}");
}

#[test]
fn a_conversion_runs_through_the_loaded_plugins() {
    let dir = tempfile::tempdir().unwrap();
    let map = seed_map();
    let run = run_in(dir.path(), &["--to", "skydeck", map.to_str().unwrap(), "-o", "out/"]);
    run.expect_code(0);
    let written = dir.path().join("out/show-map-at-address-and-zoom.json");
    let files: Vec<_> = std::fs::read_dir(dir.path().join("out")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert!(doc["model_prompt"].as_str().unwrap().contains("{{address}}"), "{doc}");
    let _ = written;

    let stdout = run_in(dir.path(), &["--from", "gloodata", "--to", "gloodata", map.to_str().unwrap()]);
    stdout.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&stdout.stdout).unwrap();
    assert_eq!(doc["tools"]["showMapAtAddressAndZoom"]["ui"]["prefix"], "Show Map");
}

#[test]
fn inspect_prints_the_versioned_model_and_check_reports_losses() {
    let dir = tempfile::tempdir().unwrap();
    let map = seed_map();
    let run = run_in(dir.path(), &["inspect", map.to_str().unwrap()]);
    run.expect_code(0);
    let model: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(model["schema_version"], 1);
    assert_eq!(model["tool_set"]["id"], "mynamespace");
    assert_eq!(model["tool_set"]["tools"][0]["name"], "showMapAtAddressAndZoom");

    let run = run_in(dir.path(), &["check", map.to_str().unwrap(), "--to", "skydeck", "--strict"]);
    run.expect_code(3);
    assert!(run.stderr.contains("loss/display"), "{}", run.stderr);
    let run = run_in(dir.path(), &["check", map.to_str().unwrap()]);
    run.expect_code(0);
    assert!(run.stderr.contains("ok (gloodata)"), "{}", run.stderr);
}

#[test]
fn strict_refuses_lossy_conversions_with_exit_code_3() {
    let dir = tempfile::tempdir().unwrap();
    let map = seed_map();
    let run = run_in(dir.path(), &["--strict", "--to", "skydeck", map.to_str().unwrap(), "-o", "out"]);
    run.expect_code(3);
    assert!(!dir.path().join("out").exists() || std::fs::read_dir(dir.path().join("out")).unwrap().next().is_none());
}

#[test]
fn standard_input_and_output() {
    use std::io::Write;
    use std::process::Stdio;
    require_plugins();
    let home = tempfile::tempdir().unwrap();
    let mut child = command(home.path())
        .args(["--from", "gloodata", "--to", "mcp", "-", "-o", "-", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(seed_map()).unwrap()).unwrap();
    let run = finish(child.wait_with_output().unwrap());
    run.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["tools"][0]["name"], "showMapAtAddressAndZoom");
    assert_eq!(run.stderr, "", "--quiet prints nothing on success");

    // A multi-file output cannot go to standard output.
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(dir.path(), &["--from", "gloodata", "--to", "raycast", seed_map().to_str().unwrap()]);
    run.expect_code(1);
    assert!(run.stderr.contains("raycast writes a folder; give an output directory with -o DIR"), "{}", run.stderr);
}

/// Plugins are also found through TOOLPORT_PLUGIN_PATH and in the user data directory, and
/// `convert formats` says where each came from.
#[test]
fn plugins_are_found_through_the_environment_and_the_user_data_directory() {
    let plugins = broken_plugin_dir();
    let panics = test_plugin("panics");
    let formats_with = |env: &[(&str, &std::path::Path)], home: &std::path::Path| {
        require_plugins();
        let mut cmd = command(home);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let run = finish(cmd.args(["formats", "--json"]).output().unwrap());
        run.expect_code(0);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let panicky = doc["formats"].as_array().unwrap().iter().find(|f| f["id"] == "panicky").cloned();
        (panicky, doc["searched"].clone())
    };

    let home = tempfile::tempdir().unwrap();
    let (found, searched) = formats_with(&[("TOOLPORT_PLUGIN_PATH", plugins.path())], home.path());
    let found = found.expect("found through TOOLPORT_PLUGIN_PATH");
    assert!(found["plugin"].as_str().unwrap().starts_with(plugins.path().to_str().unwrap()), "{found}");
    assert_eq!(searched[0]["origin"], "TOOLPORT_PLUGIN_PATH");

    let user_dir = home.path().join(".local/share/toolport/plugins");
    std::fs::create_dir_all(&user_dir).unwrap();
    std::fs::copy(&panics, user_dir.join(panics.file_name().unwrap())).unwrap();
    let (found, searched) = formats_with(&[], home.path());
    let found = found.expect("found in the user data directory");
    assert!(found["plugin"].as_str().unwrap().starts_with(user_dir.to_str().unwrap()), "{found}");
    assert_eq!(searched[0]["origin"], "user data directory");
}

/// Informational diagnostics are shown with -v only; warnings by default; errors with -q.
#[test]
fn verbosity_chooses_which_diagnostics_are_shown() {
    let dir = tempfile::tempdir().unwrap();
    let input = toolport_testkit::fixture("gloodata/unknown-keys.json");
    let input = input.to_str().unwrap();
    let verbose = run_in(dir.path(), &["check", "-v", input]);
    verbose.expect_code(0);
    assert!(verbose.stderr.contains("info[input/unknown-key]"), "{}", verbose.stderr);
    let default = run_in(dir.path(), &["check", input]);
    assert!(!default.stderr.contains("info["), "{}", default.stderr);
    assert!(default.stderr.contains("ok (gloodata)"), "{}", default.stderr);
    let quiet = run_in(dir.path(), &["check", "-q", input]);
    assert_eq!(quiet.stderr, "", "--quiet prints nothing for a valid input");
}
