//! Plugins that crash, hang, exit or print cannot take a run down: a plugin from
//! `--plugin-dir` runs in its own process (isolation `auto`), and each way it can break
//! becomes an `error[plugin/*]` naming its file while the other inputs and formats go on.

use crate::support;

use std::path::Path;

use support::*;

/// A plugin folder holding the misbehaving test plugin, and a work folder with one input for
/// it and one healthy SkyDeck input.
fn setup() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let plugins = dir.path().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    let library = test_plugin("misbehaves");
    std::fs::copy(&library, plugins.join(library.file_name().unwrap())).unwrap();
    std::fs::write(dir.path().join("bad.misbehaving"), "{}").unwrap();
    std::fs::copy(workspace_root().join("fixtures/skydeck/es-resumen.json"), dir.path().join("good.json")).unwrap();
    let plugins = plugins.to_str().unwrap().to_owned();
    (dir, plugins)
}

fn run_misbehaving(dir: &Path, mode: &str, args: &[&str]) -> Run {
    require_plugins();
    let home = tempfile::tempdir().unwrap();
    let output =
        command(home.path()).current_dir(dir).env("TOOLPORT_TEST_MISBEHAVE", mode).args(args).output().unwrap();
    finish(output)
}

const LIBRARY: &str = "toolport_testplugin_misbehaves";

/// Each crash while reading: the bad input fails with a message naming the plugin file and
/// what happened; the good input of the same run is converted.
#[test]
fn a_crashing_plugin_fails_its_input_and_the_run_goes_on() {
    let (dir, plugins) = setup();
    for (mode, code, says) in [
        ("segfault", "plugin/crashed", "SIGSEGV"),
        ("bad-pointer", "plugin/crashed", "SIGSEGV"),
        ("abort", "plugin/crashed", "SIGABRT"),
        ("stack-overflow", "plugin/crashed", "SIGABRT"),
        ("out-of-memory", "plugin/crashed", "SIGABRT"),
        ("huge-length", "plugin/crashed", "killed by"),
        ("exit", "plugin/crashed", "ended its process (exit code 0)"),
        ("hang-read", "plugin/timeout", "did not answer within 2 s"),
    ] {
        let out = format!("out-{mode}");
        let run = run_misbehaving(
            dir.path(),
            mode,
            &[
                "--plugin-dir",
                &plugins,
                "--plugin-timeout",
                "2",
                "--to",
                "mcp",
                "bad.misbehaving",
                "good.json",
                "-o",
                &out,
            ],
        );
        run.expect_code(1);
        let line = run
            .stderr
            .lines()
            .find(|l| l.contains("bad.misbehaving"))
            .unwrap_or_else(|| panic!("{mode}: {}", run.stderr));
        assert!(
            line.contains(&format!("error[{code}]")) && line.contains(LIBRARY) && line.contains(says),
            "{mode}: {line}"
        );
        assert!(run.stderr.contains("2 inputs: 1 converted"), "{mode}: {}", run.stderr);
        assert!(dir.path().join(&out).join("good.mcp.json").exists(), "{mode}: the healthy input is written");
    }
}

#[test]
fn a_hang_in_writing_is_stopped() {
    let (dir, plugins) = setup();
    let run = run_misbehaving(
        dir.path(),
        "hang-write",
        &[
            "--plugin-dir",
            &plugins,
            "--plugin-timeout",
            "2",
            "--from",
            "skydeck",
            "--to",
            "misbehaving",
            "good.json",
            "-o",
            "-",
        ],
    );
    run.expect_code(1);
    assert!(run.stderr.contains("error[plugin/timeout]") && run.stderr.contains(LIBRARY), "{}", run.stderr);
}

/// A hanging `describe` and a truncated library are listed as broken; the rest loads.
#[test]
fn formats_survives_hanging_and_truncated_plugins() {
    let (dir, plugins) = setup();
    let gloodata = build_dir().join(format!(
        "{}toolport_plugin_gloodata{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let bytes = std::fs::read(gloodata).unwrap();
    let truncated = Path::new(&plugins).join(format!(
        "{}toolport_plugin_truncated{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    // Cut inside the loadable segments (the tail of a debug build is debug information).
    std::fs::write(&truncated, &bytes[..(bytes.len() / 2).min(256 << 10)]).unwrap();
    let run =
        run_misbehaving(dir.path(), "hang-describe", &["--plugin-dir", &plugins, "--plugin-timeout", "2", "formats"]);
    run.expect_code(0);
    let all = format!("{}{}", run.stdout, run.stderr);
    let hang = all.lines().find(|l| l.contains(LIBRARY)).unwrap_or_else(|| panic!("{all}"));
    assert!(hang.contains("did not finish loading within 2 s"), "{hang}");
    let broken = all.lines().find(|l| l.contains("toolport_plugin_truncated")).unwrap_or_else(|| panic!("{all}"));
    assert!(broken.contains("crashed while loading") || broken.contains("cannot be loaded"), "{broken}");
    assert!(run.stdout.lines().any(|l| l.starts_with("gloodata")), "the built-in formats still load:\n{}", run.stdout);
}

/// Detection that hangs costs one time limit, is reported once, and detection goes on with
/// the other formats.
#[test]
fn a_hanging_detect_is_stopped_once_and_named() {
    let (dir, plugins) = setup();
    std::fs::copy(dir.path().join("good.json"), dir.path().join("second.json")).unwrap();
    let run = run_misbehaving(
        dir.path(),
        "hang-detect",
        &[
            "--plugin-dir",
            &plugins,
            "--plugin-timeout",
            "2",
            "--to",
            "gloodata",
            "good.json",
            "second.json",
            "-o",
            "out",
        ],
    );
    run.expect_code(0);
    let warnings: Vec<&str> = run.stderr.lines().filter(|l| l.contains(LIBRARY)).collect();
    assert_eq!(warnings.len(), 1, "{}", run.stderr);
    assert!(warnings[0].contains("detect: did not answer within 2 s"), "{}", warnings[0]);
    assert!(dir.path().join("out/good.gloodata.json").exists() && dir.path().join("out/second.gloodata.json").exists());
}

/// What a plugin prints goes to standard error, never into the converted document.
#[test]
fn a_printing_plugin_cannot_corrupt_standard_output() {
    let (dir, plugins) = setup();
    let run = run_misbehaving(
        dir.path(),
        "stdout",
        &["-q", "--plugin-dir", &plugins, "--from", "misbehaving", "--to", "mcp", "bad.misbehaving", "-o", "-"],
    );
    run.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    assert!(doc.get("tools").is_some(), "{doc}");
    assert!(run.stderr.contains("noise from a plugin that prints"), "{}", run.stderr);
}

/// A plugin that provides a format another plugin provides: a warning naming both files on
/// every run that uses the format.
#[test]
fn a_shadowed_format_is_a_warning_naming_both_files() {
    let (dir, plugins) = setup();
    let name = |stem: &str| format!("{}{stem}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    std::fs::copy(
        build_dir().join(name("toolport_plugin_mcp")),
        Path::new(&plugins).join(name("toolport_plugin_my_mcp")),
    )
    .unwrap();
    let run = run_misbehaving(dir.path(), "", &["--plugin-dir", &plugins, "--to", "mcp", "good.json", "-o", "-"]);
    run.expect_code(0);
    let warning = run
        .stderr
        .lines()
        .find(|l| l.contains("format mcp is provided by more than one plugin"))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(
        warning.contains("toolport_plugin_my_mcp")
            && warning.contains(&build_dir().join(name("toolport_plugin_mcp")).display().to_string()),
        "{warning}"
    );
    // Earlier places win however long a plugin takes to start: the plugin folder's copy, in a
    // process of its own, over the built-in loaded in process meanwhile.
    let used = warning.split("using ").nth(1).and_then(|rest| rest.split(", ignoring").next()).unwrap_or_default();
    assert!(used.contains("toolport_plugin_my_mcp"), "{warning}");
    let other =
        run_misbehaving(dir.path(), "", &["--plugin-dir", &plugins, "--to", "gloodata", "good.json", "-o", "-"]);
    assert!(!other.stderr.contains("more than one plugin"), "only runs that use mcp: {}", other.stderr);
}

/// `--isolate never` keeps the old in-process path for trusted plugins; a healthy plugin works
/// either way.
#[test]
fn isolation_can_be_chosen() {
    let (dir, plugins) = setup();
    for isolate in ["always", "never", "auto"] {
        let run = run_misbehaving(
            dir.path(),
            "",
            &[
                "-q",
                "--isolate",
                isolate,
                "--plugin-dir",
                &plugins,
                "--from",
                "misbehaving",
                "--to",
                "mcp",
                "bad.misbehaving",
                "-o",
                "-",
            ],
        );
        run.expect_code(0);
        assert!(run.stdout.contains("\"tools\""), "{isolate}: {}", run.stdout);
    }
}

/// Binary output files (a Raycast extension's icon) cross the isolated plugin's pipe intact.
#[test]
fn binary_outputs_cross_the_isolation_boundary() {
    let (dir, _plugins) = setup();
    for isolate in ["always", "never"] {
        let out = format!("ext-{isolate}");
        let run = run_misbehaving(
            dir.path(),
            "",
            &["-q", "--isolate", isolate, "--from", "skydeck", "--to", "raycast", "good.json", "-o", &out],
        );
        run.expect_code(0);
        let icon = std::fs::read(dir.path().join(&out).join("assets/extension-icon.png")).unwrap();
        assert!(icon.starts_with(b"\x89PNG\r\n\x1a\n"), "{isolate}: the icon is a PNG");
    }
    let always = std::fs::read(dir.path().join("ext-always/assets/extension-icon.png")).unwrap();
    let never = std::fs::read(dir.path().join("ext-never/assets/extension-icon.png")).unwrap();
    assert_eq!(always, never, "the same bytes either way");
}

/// A large document crosses the pipes to and from an isolated plugin in many chunks, its text
/// beside the JSON, and converts to the same bytes as in process (and with detection).
#[test]
fn a_large_document_converts_the_same_isolated() {
    let dir = tempfile::tempdir().unwrap();
    let operations: Vec<String> = (0..3000)
        .map(|i| {
            format!(
                r#""/items/{i}": {{"get": {{"operationId": "get_{i}", "description": "Gets \"item\" {i}: é, 🦀, \\ and a line\nbreak", "parameters": [{{"name": "q{i}", "in": "query", "schema": {{"type": "string"}}}}], "responses": {{"200": {{"description": "ok"}}}}}}}}"#
            )
        })
        .collect();
    let spec = format!(
        r#"{{"openapi": "3.0.3", "info": {{"title": "Big", "version": "1"}}, "paths": {{{}}}}}"#,
        operations.join(",")
    );
    assert!(spec.len() > 256 << 10, "many times a pipe's capacity");
    std::fs::write(dir.path().join("big.json"), &spec).unwrap();
    let mut outputs = Vec::new();
    for (isolate, from) in [("never", "openapi"), ("always", "openapi"), ("always", "")] {
        let out = format!("out-{isolate}-{from}");
        let mut args = vec!["-q", "--isolate", isolate, "--to", "mcp", "big.json", "-o", &out];
        if !from.is_empty() {
            args.extend(["--from", from]);
        }
        let run = run_misbehaving(dir.path(), "", &args);
        run.expect_code(0);
        outputs.push(std::fs::read(dir.path().join(&out)).unwrap());
    }
    assert!(outputs[0].len() > 256 << 10);
    assert!(outputs.iter().all(|o| *o == outputs[0]), "the same bytes in process and isolated");
}

/// Without `toolport-plugin-host` beside `convert`, a plugin that must run isolated is refused
/// with a message saying what is missing and how to proceed; `--isolate never` then works.
#[test]
fn a_missing_plugin_host_is_named() {
    let (dir, plugins) = setup();
    let lonely = dir.path().join("bin/convert");
    std::fs::create_dir_all(lonely.parent().unwrap()).unwrap();
    // Copied by another process, so no sibling test's fork inherits a write handle.
    assert!(std::process::Command::new("cp").arg(exe()).arg(&lonely).status().unwrap().success());
    let home = tempfile::tempdir().unwrap();
    let run = |isolate: &str| {
        let output = std::process::Command::new(&lonely)
            .current_dir(dir.path())
            .env("HOME", home.path())
            .env_remove("XDG_DATA_HOME")
            .env_remove("TOOLPORT_PLUGIN_PATH")
            .args(["--isolate", isolate, "--plugin-dir", &plugins, "--from", "misbehaving", "--to", "misbehaving"])
            .args(["bad.misbehaving", "-o", "-"])
            .output()
            .unwrap();
        finish(output)
    };
    let refused = run("auto");
    refused.expect_code(2);
    assert!(refused.stderr.contains("no plugin host executable (toolport-plugin-host)"), "{}", refused.stderr);
    assert!(refused.stderr.contains(LIBRARY), "names the plugin: {}", refused.stderr);
    run("never").expect_code(0);
}

// ---------------------------------------------------------------------------------------------
// Hostile answers (round three): what a plugin answers cannot crash convert, fail an input
// without a word, or rewrite the terminal.
// ---------------------------------------------------------------------------------------------

/// A reader answering with a model nested 100,000 levels: convert, inspect and check refuse it
/// naming the plugin, where decoding it overflowed convert's stack.
#[test]
fn a_model_nested_too_deep_is_refused_naming_the_reader() {
    let (dir, plugins) = setup();
    for args in [
        &["--to", "mcp", "bad.misbehaving", "-o", "out"][..],
        &["inspect", "--from", "misbehaving", "bad.misbehaving"][..],
        &["check", "bad.misbehaving"][..],
    ] {
        let run = run_misbehaving(dir.path(), "deep-model", &[&["--plugin-dir", &plugins][..], args].concat());
        run.expect_code(1);
        let line =
            run.stderr.lines().find(|l| l.contains("error[plugin/failed]")).unwrap_or_else(|| panic!("{}", run.stderr));
        assert!(
            line.contains(LIBRARY)
                && line
                    .contains("read: returned a model that cannot be read: the model is nested deeper than 512 levels"),
            "{args:?}: {line}"
        );
    }
}

/// A reader answering `{"value": null}` with no error fails its input with a message naming it.
#[test]
fn a_plugin_answering_nothing_is_named() {
    let (dir, plugins) = setup();
    let run = run_misbehaving(
        dir.path(),
        "null-value",
        &["--plugin-dir", &plugins, "--to", "mcp", "bad.misbehaving", "-o", "-"],
    );
    run.expect_code(1);
    let line = run.stderr.lines().find(|l| l.contains("bad.misbehaving")).unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(
        line.contains("error[plugin/failed]")
            && line.contains(LIBRARY)
            && line.contains("read: answered without a value and without an error saying why"),
        "{line}"
    );
}

/// Line breaks, ANSI escapes and U+202E in a plugin's diagnostics and tool names are printed
/// escaped: no forged diagnostic line, nothing that rewrites the screen.
#[test]
fn control_characters_from_a_plugin_are_escaped_when_printed() {
    let (dir, plugins) = setup();
    for (verbosity, out) in [("-v", "out-v.json"), ("", "out.json")] {
        let mut args =
            vec!["--plugin-dir", &plugins, "--from", "misbehaving", "--to", "gemini", "bad.misbehaving", "-o", out];
        if !verbosity.is_empty() {
            args.insert(0, verbosity);
        }
        let run = run_misbehaving(dir.path(), "control-text", &args);
        run.expect_code(0);
        assert!(!run.stderr.contains(['\u{1b}', '\u{202e}', '\r']), "{verbosity}: {:?}", run.stderr);
        assert!(
            !run.stderr.lines().any(|l| l.starts_with("bad.misbehaving:1:1: error")),
            "{verbosity}: a forged line: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("first line\\nbad.misbehaving:1:1: error[input/syntax]: forged \\u{1b}[31mred"),
            "{verbosity}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("evil\\u{1b}[2J\\nname\\u{202e}gnp.exe"),
            "{verbosity}: the tool's name, escaped: {}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Plugins from elsewhere (issue 28, h-trust): untrusted plugin folders, a plugin's children,
// detection by a plugin over a built-in format, the formats a plugin declares, answer sizes.
// ---------------------------------------------------------------------------------------------

/// The line saying the misbehaving plugin was skipped.
fn skipped_plugin(run: &Run) -> &str {
    let line = run.stderr.lines().find(|l| l.starts_with("warning: plugin skipped:") && l.contains(LIBRARY));
    line.unwrap_or_else(|| panic!("not skipped: {}", run.stderr))
}

/// The processes whose command line is `sleep SECONDS`.
fn sleeping(seconds: &str) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            cmdline == format!("sleep\0{seconds}\0").as_bytes()
        })
        .collect()
}

/// An isolated plugin that starts processes of its own (three `sleep`s and one through a shell
/// in the background) leaves none running once the run is over: its process group ends with it.
#[cfg(target_os = "linux")]
#[test]
fn an_isolated_plugins_children_end_with_the_run() {
    require_plugins();
    let (dir, plugins) = setup();
    // A duration no other test uses, so only this run's children are counted.
    let seconds = format!("{}.{}", 600 + std::process::id() % 1000, std::process::id());
    let home = tempfile::tempdir().unwrap();
    let stderr = dir.path().join("stderr.txt");
    let status = command(home.path())
        .current_dir(dir.path())
        .env("TOOLPORT_TEST_MISBEHAVE", "spawn-children")
        .env("TOOLPORT_TEST_CHILD_SLEEP", &seconds)
        .args(["--plugin-dir", &plugins, "--to", "mcp", "bad.misbehaving", "-o", "out"])
        // A file, not a pipe: a child left holding the pipe would make this wait for it.
        .stderr(std::fs::File::create(&stderr).unwrap())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    // SIGKILL is delivered at once but a loaded machine may take a moment to schedule the end of
    // each killed process; one never killed would sleep for ten minutes.
    let mut left = sleeping(&seconds);
    let waited = std::time::Instant::now();
    while !left.is_empty() && waited.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
        left = sleeping(&seconds);
    }
    for pid in &left {
        let _ = std::process::Command::new("kill").arg("-9").arg(pid.to_string()).status();
    }
    let stderr = std::fs::read_to_string(&stderr).unwrap();
    assert!(status.success(), "{stderr}");
    assert!(left.is_empty(), "{} processes the plugin started are still running", left.len());
}

/// A plugin folder others may write to, or another user's, is skipped with the reason (the
/// folder, its mode or owner, what to do); `--allow-unsafe-plugin-dirs` or
/// TOOLPORT_ALLOW_UNSAFE_PLUGIN_DIRS=1 loads it knowingly.
#[cfg(unix)]
#[test]
fn plugins_in_folders_others_can_write_are_refused_unless_allowed() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, plugins) = setup();
    let convert = |extra: &[&str], allow_env: Option<&str>| {
        let home = tempfile::tempdir().unwrap();
        let mut cmd = command(home.path());
        cmd.current_dir(dir.path()).env_remove("TOOLPORT_ALLOW_UNSAFE_PLUGIN_DIRS");
        if let Some(value) = allow_env {
            cmd.env("TOOLPORT_ALLOW_UNSAFE_PLUGIN_DIRS", value);
        }
        let args = [&["--plugin-dir", &plugins][..], extra, &["--to", "mcp", "bad.misbehaving", "-o", "-"]].concat();
        finish(cmd.args(args).output().unwrap())
    };
    let refused = |run: &Run, says: &str| {
        run.expect_code(1);
        let line = skipped_plugin(run);
        assert!(
            line.contains(&format!("not loaded: {plugins} {says}"))
                && line.contains("--allow-unsafe-plugin-dirs")
                && line.contains("TOOLPORT_ALLOW_UNSAFE_PLUGIN_DIRS=1"),
            "{line}"
        );
    };

    convert(&[], None).expect_code(0);
    std::fs::set_permissions(&plugins, std::fs::Permissions::from_mode(0o777)).unwrap();
    refused(&convert(&[], None), "is writable by every user (mode 0777)");
    refused(&convert(&[], Some("0")), "is writable by every user (mode 0777)");
    convert(&["--allow-unsafe-plugin-dirs"], None).expect_code(0);
    convert(&[], Some("1")).expect_code(0);
    std::fs::set_permissions(&plugins, std::fs::Permissions::from_mode(0o755)).unwrap();

    if running_as_root() {
        std::process::Command::new("chown").arg("65534").arg(&plugins).status().unwrap();
        refused(&convert(&[], None), "is owned by");
        convert(&["--allow-unsafe-plugin-dirs"], None).expect_code(0);
    }
}

/// Whether the tests run as root (who alone can give a folder to another user).
#[cfg(unix)]
fn running_as_root() -> bool {
    std::process::Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// A plugin from elsewhere that detection prefers over a built-in format that recognises the
/// input too is named in that input's diagnostics (printed, and in the report); a choice made
/// by the built-in, or by --from, says nothing.
#[test]
fn a_plugin_preferred_by_detection_over_a_built_in_is_named() {
    let (dir, plugins) = setup();
    let args = ["--plugin-dir", &plugins, "--to", "mcp", "good.json", "-o", "out", "--report", "report.json"];
    let run = run_misbehaving(dir.path(), "claim-json", &args);
    run.expect_code(0);
    let line =
        run.stderr.lines().find(|l| l.contains("input/other-format")).unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(
        line.contains("read as misbehaving, a format of a plugin not installed with convert")
            && line.contains(LIBRARY)
            && line.contains("over the built-in skydeck: give --from skydeck"),
        "{line}"
    );
    let report = std::fs::read_to_string(dir.path().join("report.json")).unwrap();
    assert!(report.contains("preferred over the built-in skydeck"), "{report}");

    for (mode, extra) in [("", &[][..]), ("claim-json", &["--from", "misbehaving"][..])] {
        let run = run_misbehaving(
            dir.path(),
            mode,
            &[&["--plugin-dir", &plugins, "--to", "mcp", "good.json", "-o", "-"][..], extra].concat(),
        );
        run.expect_code(0);
        assert!(!run.stderr.contains("input/other-format"), "{mode} {extra:?}: {}", run.stderr);
    }
}

/// A plugin declaring 40,000 formats is skipped naming it and the count, and costs the run
/// little (registering them took seconds on every run).
#[test]
fn a_plugin_declaring_too_many_formats_is_refused() {
    let (dir, plugins) = setup();
    let started = std::time::Instant::now();
    let run = run_misbehaving(dir.path(), "many-formats", &["--plugin-dir", &plugins, "formats"]);
    let took = started.elapsed();
    run.expect_code(0);
    let line = skipped_plugin(&run);
    assert!(line.contains("not loaded: it declares 40001 formats, more than the 64 one plugin may declare"), "{line}");
    assert!(!run.stdout.contains("misbehaving"), "none of its formats is listed: {}", run.stdout);
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
}

/// convert's own peak memory (VmHWM, not its children's) in kB over a run of `args`.
#[cfg(target_os = "linux")]
fn peak_kb(dir: &Path, mode: &str, env: &[(&str, &str)], args: &[&str]) -> (u64, Run) {
    require_plugins();
    let home = tempfile::tempdir().unwrap();
    let mut child = command(home.path())
        .current_dir(dir)
        .env("TOOLPORT_TEST_MISBEHAVE", mode)
        .envs(env.iter().copied())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    // The high-water mark is kept by the kernel: reading it until the process ends sees the peak.
    while child.try_wait().unwrap().is_none() {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let hwm = text.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().strip_suffix("kB"));
        peak = peak.max(hwm.and_then(|v| v.trim().parse().ok()).unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    (peak, finish(child.wait_with_output().unwrap()))
}

/// What `more` MB more of an answer from the isolated `misbehaving` reader costs convert: kB of
/// peak memory of the run with a `from + more` MB answer beyond the run with a `from` MB one,
/// written to `to` as `out` (the larger run's written size is returned too).
#[cfg(target_os = "linux")]
fn cost_of_more_answer(from: u32, more: u32, to: &str, out: &str) -> (u64, u64) {
    let (dir, plugins) = setup();
    let args = ["--plugin-dir", &plugins, "--from", "misbehaving", "--to", to, "bad.misbehaving", "-o"];
    let mut peaks = Vec::new();
    let sizes = [from.to_string(), (from + more).to_string()];
    for megabytes in &sizes {
        let out = format!("{megabytes}-{out}");
        let env = [("TOOLPORT_TEST_ANSWER_MB", megabytes.as_str())];
        // One run each: the peaks of runs of one size agree within 0.2 MB (measured exactly,
        // with wait4, 3 runs of each size to each writer).
        let (peak, run) = peak_kb(
            dir.path(),
            "huge-answer",
            &env,
            &[&args[..args.len() - 1], &["--force", "-o", out.as_str()]].concat(),
        );
        run.expect_code(0);
        peaks.push(peak);
    }
    let written = std::fs::metadata(dir.path().join(format!("{}-{out}", sizes[1]))).map_or(0, |m| m.len());
    (peaks[1].saturating_sub(peaks[0]), written)
}

/// A 100 MB answer from an isolated reader, passed to an isolated writer, costs convert about
/// twice its size (the model kept in the answer's own memory, and the writer's request), where
/// it cost 2.4 times (a receive buffer grown by doubling and a copy of the model beside it).
#[cfg(target_os = "linux")]
#[test]
fn a_large_answer_costs_the_host_at_most_about_twice_its_size() {
    let (cost, _) = cost_of_more_answer(0, 100, "misbehaving", "out");
    // Under 2.3 times: the cost before was 2.4 (a receive buffer grown by doubling, a copy).
    assert!(cost < 100 * 1024 * 23 / 10, "a 100 MB answer cost convert {cost} kB");
}

/// The same answer written by an in-process writer of this build (mcp, anthropic, gemini): the
/// host decodes it once and frees the JSON before the writer runs, hands the model over by
/// pointer and frees it before reading the writer's answer in place. The writer serializes the
/// description from the model (no `Value` copy of it) and frames its answer in the text's own
/// memory: the model and the text, twice the answer, where it cost 3 (the document's copy of
/// the description, then the framed answer's copy of the text) and before that 6. Measured as
/// what 40 MB more (80 against 40) costs: the peak of a short run with an empty answer is
/// read too early by the sampling to be a baseline (exact, by wait4: 2.00x at 100 and 200 MB).
#[cfg(target_os = "linux")]
#[test]
fn a_large_answer_written_in_process_costs_the_host_at_most_twice_its_size() {
    // The function formats whose limits keep a long description (openai's cuts it first).
    for to in ["mcp", "anthropic", "gemini"] {
        let (cost, written) = cost_of_more_answer(40, 40, to, "out.json");
        assert!(written > 80 << 20, "{to}: the description is written whole: {written} bytes");
        assert!(
            cost < 40 * 1024 * 205 / 100,
            "40 MB more of an answer written in process by {to} cost convert {cost} kB"
        );
    }
}
