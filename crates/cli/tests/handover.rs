//! The model between plugins: handed over natively between convert and in-process plugins of
//! its build, as JSON for every other pair (another build's plugin, an isolated plugin,
//! `TOOLPORT_MODEL_HANDOVER=json`), and the same bytes written either way.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use support::*;

const FORCE_JSON: (&str, &str) = ("TOOLPORT_MODEL_HANDOVER", "json");

/// Runs convert in `cwd` with `args` and the environment `env`.
fn run_with(cwd: &Path, env: &[(&str, &str)], args: &[&str]) -> Run {
    require_plugins();
    let home = tempfile::tempdir().unwrap();
    let output = command(home.path()).current_dir(cwd).envs(env.iter().copied()).args(args).output().unwrap();
    finish(output)
}

/// A folder holding copies of the test plugins `names`.
fn plugin_dir(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        let path = test_plugin(name);
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, files);
            } else {
                let name = path.strip_prefix(root).unwrap().display().to_string();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    if dir.is_dir() {
        walk(dir, dir, &mut files);
    }
    files
}

/// The `handover` plugin says which of its entries were called. Each case: isolation, the
/// environment, the arguments, and what the output holds.
#[test]
fn the_model_is_handed_over_natively_only_in_process_between_plugins_of_one_build() {
    let plugins = plugin_dir(&["handover"]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.handover"), "{}").unwrap();
    std::fs::copy(workspace_root().join("fixtures/mcp/weather-tool.json"), dir.path().join("weather.json")).unwrap();
    let plugin_dir = plugins.path().to_str().unwrap();
    let native = &[][..];
    let json = &[FORCE_JSON][..];
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str], &'a str);
    let cases: [Case; 8] = [
        // Its reader's model, into a built-in writer of the same build.
        ("never", native, &["--from", "handover", "--to", "mcp", "in.handover"], r#""name": "read_natively""#),
        ("never", json, &["--from", "handover", "--to", "mcp", "in.handover"], r#""name": "read_as_json""#),
        ("always", native, &["--from", "handover", "--to", "mcp", "in.handover"], r#""name": "read_as_json""#),
        // A built-in reader's model into its writer.
        ("never", native, &["--from", "mcp", "--to", "handover", "weather.json", "-o", "a/"], "written natively: "),
        ("never", json, &["--from", "mcp", "--to", "handover", "weather.json", "-o", "b/"], "written as_json: "),
        ("always", native, &["--from", "mcp", "--to", "handover", "weather.json", "-o", "c/"], "written as_json: "),
        // Both ways natively; and a model the stage changed (`--select`) is the host's own,
        // borrowed by the writer.
        (
            "never",
            native,
            &["--from", "handover", "--to", "handover", "in.handover", "-o", "d/"],
            "written natively: read_natively",
        ),
        (
            "never",
            native,
            &["--to", "handover", "weather.json", "--select", "name:*", "-o", "e/"],
            "written natively: ",
        ),
    ];
    for (isolate, env, args, holds) in cases {
        let mut all = vec!["--plugin-dir", plugin_dir, "--isolate", isolate];
        all.extend(args);
        let run = run_with(dir.path(), env, &all);
        run.expect_code(0);
        let out = match args.iter().position(|a| *a == "-o") {
            // The one file written, named after the input.
            Some(i) => {
                tree(&dir.path().join(args[i + 1])).into_values().map(|b| String::from_utf8(b).unwrap()).collect()
            }
            None => run.stdout.clone(),
        };
        assert!(out.contains(holds), "{isolate} {env:?} {args:?}: {out}\n{}", run.stderr);
    }
}

/// A run of one input tells its writer that the process ends after the conversion (it may
/// leave what it built to the operating system, `Options::free`); a batch never does, in
/// process or isolated: each of its inputs' memory must be freed for the next.
#[test]
fn only_a_run_of_one_input_says_the_process_ends_after_it() {
    let plugins = plugin_dir(&["handover"]);
    let dir = tempfile::tempdir().unwrap();
    let batch = dir.path().join("batch");
    std::fs::create_dir(&batch).unwrap();
    std::fs::write(batch.join("one.handover"), "{}").unwrap();
    std::fs::write(batch.join("two.handover"), "{}").unwrap();
    let plugin_dir = plugins.path().to_str().unwrap();
    for isolate in ["never", "always"] {
        let to = ["--from", "handover", "--to", "handover"];
        let single = [&["--plugin-dir", plugin_dir, "--isolate", isolate][..], &to, &["batch/one.handover"]].concat();
        let run = run_with(dir.path(), &[], &single);
        run.expect_code(0);
        assert!(run.stdout.contains("(the process ends after)"), "{isolate}: {}", run.stdout);
        let out = format!("out-{isolate}");
        let many = [&["--plugin-dir", plugin_dir, "--isolate", isolate][..], &to, &["batch", "-o", &out]].concat();
        run_with(dir.path(), &[], &many).expect_code(0);
        let written = tree(&dir.path().join(&out));
        assert_eq!(written.len(), 2, "{isolate}: {written:?}");
        for (name, text) in written {
            let text = String::from_utf8(text).unwrap();
            assert!(text.starts_with("written") && !text.contains("process ends"), "{isolate} {name}: {text}");
        }
    }
}

/// `convert` starts itself again once with glibc's tunables (host::allocator) when it may
/// convert many inputs (here a folder), which an in-process plugin then sees: the user's other
/// tunables kept, a user's own `tcache_count` taken as it is (no restart). One file is
/// converted without starting again: the plugin sees the user's tunables as they are.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn convert_runs_with_the_allocators_tunables_and_keeps_the_users() {
    let plugins = plugin_dir(&["handover"]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.handover"), "{}").unwrap();
    std::fs::create_dir(dir.path().join("batch")).unwrap();
    std::fs::write(dir.path().join("batch/in.handover"), "{}").unwrap();
    std::fs::write(dir.path().join("batch/other.handover"), "{}").unwrap();
    let cases = [
        (None, "[GLIBC_TUNABLES=glibc.malloc.tcache_count=100]", ""),
        (
            Some("glibc.malloc.mmap_threshold=4096"),
            "[GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4096:glibc.malloc.tcache_count=100]",
            "[GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4096]",
        ),
        (
            Some("glibc.malloc.tcache_count=7"),
            "[GLIBC_TUNABLES=glibc.malloc.tcache_count=7]",
            "[GLIBC_TUNABLES=glibc.malloc.tcache_count=7]",
        ),
    ];
    for (i, (users, seen_in_a_batch, seen_for_one_file)) in cases.into_iter().enumerate() {
        require_plugins();
        let home = tempfile::tempdir().unwrap();
        let args = ["--plugin-dir", plugins.path().to_str().unwrap(), "--isolate", "never", "--from", "handover"];
        for (input, written, seen) in [
            ("batch", format!("out-batch-{i}/in.handover.txt"), seen_in_a_batch),
            ("in.handover", format!("out-file-{i}"), seen_for_one_file),
        ] {
            let mut convert = command(home.path());
            convert.current_dir(dir.path()).env_remove("GLIBC_TUNABLES").env_remove("TOOLPORT_ALLOCATOR_TUNED");
            if let Some(users) = users {
                convert.env("GLIBC_TUNABLES", users);
            }
            let out = written.split('/').next().unwrap();
            let run = convert.args(args).args(["--to", "handover", input, "-o", out]).output().unwrap();
            assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
            let text = std::fs::read_to_string(dir.path().join(&written))
                .unwrap_or_else(|e| panic!("{written}: {e}; written: {:?}", tree(&dir.path().join(out)).keys()));
            let line = text.trim_end();
            assert!(line.starts_with("written") && line.ends_with(seen), "{users:?} {input}: {text}");
            if seen.is_empty() {
                assert!(!line.contains("GLIBC_TUNABLES"), "{users:?} {input}: {text}");
            }
        }
    }
}

/// A plugin of another build (its native entries abort if called) is handed the model as JSON
/// and hands its own over as JSON, in process: a document through it and back is what the
/// built-in formats make of it directly.
#[test]
fn a_handover_setting_that_is_not_one_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = workspace_root().join("fixtures/mcp/weather-tool.json");
    let input = input.to_str().unwrap();
    let misspelt = run_with(dir.path(), &[("TOOLPORT_MODEL_HANDOVER", "jsn")], &["--to", "openai", input]);
    misspelt.expect_code(2);
    assert!(
        misspelt.stderr.contains("TOOLPORT_MODEL_HANDOVER=\"jsn\" is not a setting: use `json`"),
        "{}",
        misspelt.stderr
    );
    for setting in ["native", "JSON", ""] {
        run_with(dir.path(), &[("TOOLPORT_MODEL_HANDOVER", setting)], &["--to", "openai", input]).expect_code(0);
    }
}

#[test]
fn a_plugin_of_another_build_gets_and_gives_the_model_as_json() {
    let plugins = plugin_dir(&["other_build"]);
    let dir = tempfile::tempdir().unwrap();
    let plugin_dir = plugins.path().to_str().unwrap();
    for fixture in ["mcp/issue-tracker.json", "gloodata/value-sets.json", "openai/chat-tools.json"] {
        let input = workspace_root().join("fixtures").join(fixture);
        let input = input.to_str().unwrap();
        let common = ["--plugin-dir", plugin_dir, "--isolate", "never", "--force"];
        let to_model =
            run_with(dir.path(), &[], &[&common[..], &["--to", "other-build", input, "-o", "model/"]].concat());
        to_model.expect_code(0);
        let model = dir.path().join("model/tools.model");
        let text = std::fs::read_to_string(&model).unwrap();
        assert!(text.starts_with("{\n  \"schema_version\": 1,"), "{fixture}: {text}");
        for to in ["mcp", "gemini"] {
            let through = run_with(
                dir.path(),
                &[],
                &[&common[..], &["--from", "other-build", "--to", to, model.to_str().unwrap(), "-o", "through/"]]
                    .concat(),
            );
            through.expect_code(0);
            let direct = run_with(dir.path(), &[], &[&common[..], &["--to", to, input, "-o", "direct/"]].concat());
            direct.expect_code(0);
            let (through, direct) = (tree(&dir.path().join("through")), tree(&dir.path().join("direct")));
            assert_eq!(through.values().collect::<Vec<_>>(), direct.values().collect::<Vec<_>>(), "{fixture} to {to}");
            std::fs::remove_dir_all(dir.path().join("through")).unwrap();
            std::fs::remove_dir_all(dir.path().join("direct")).unwrap();
        }
    }
}

/// Every fixture and two real OpenAPI documents, to every format, natively and with JSON
/// forced: the same files, byte for byte, and the same exit code; also through the stage
/// (a selection, which works on the host's copy of the model).
#[test]
fn outputs_are_the_same_bytes_natively_and_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = workspace_root().join("fixtures");
    let petstore = toolport_testkit::corpus("openapi/oai-examples/petstore-expanded.yaml");
    let twilio = toolport_testkit::corpus("openapi/twilio");
    let inputs = [fixtures.to_str().unwrap(), petstore.to_str().unwrap(), twilio.to_str().unwrap()];
    let targets = ["anthropic", "gemini", "gloodata", "mcp", "openai", "openapi", "raycast", "skydeck", "vertex"];
    for to in targets {
        for staged in [false, true] {
            let mut outputs = Vec::new();
            for (mode, env) in [("native", &[][..]), ("json", &[FORCE_JSON][..])] {
                let out = dir.path().join(format!("{to}-{staged}-{mode}"));
                let mut args = vec!["--to", to, "-q", "-o", out.to_str().unwrap()];
                if staged {
                    args.extend(["--select", "name:*"]);
                }
                args.extend(inputs);
                let run = run_with(dir.path(), env, &args);
                outputs.push((run.code, tree(&out)));
            }
            let (native, json) = (&outputs[0], &outputs[1]);
            assert!(native.1.len() > 20, "{to}: only {} files written", native.1.len());
            assert_eq!(native.0, json.0, "{to} staged={staged}: exit codes");
            assert_eq!(native.1.keys().collect::<Vec<_>>(), json.1.keys().collect::<Vec<_>>(), "{to} staged={staged}");
            for (file, bytes) in &native.1 {
                assert!(bytes == &json.1[file], "{to} staged={staged}: {file} differs natively and as JSON");
            }
        }
    }
}
