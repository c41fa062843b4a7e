//! Written extensions against the real `@raycast/api` from npm (`tests/tsc/`, installed with
//! `npm ci` when node_modules is missing): every fixture and corpus document converted to
//! raycast (through the built `convert`, so build the workspace first) plus the writer's own
//! test models are
//! - type-checked by one `tsc --noEmit` over all of them (a generated tsconfig), and
//! - read by Raycast's tool-schema extraction, the step of `ray build` that refuses types it
//!   cannot describe (tests/tsc/tool-schemas.js; the richest tools of each extension unless
//!   TOOLPORT_RAYCAST_ALL_SCHEMAS=1), and
//! - one extension is built with the real `ray build` (it runs offline).
//!
//! Without node and npm the tests fail, unless TOOLPORT_SKIP_TSC=1 says to skip them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use toolport_format_raycast::Raycast;
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{fixture, load, workspace_root};

#[cfg(unix)]
fn link(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink node_modules");
}

#[cfg(not(unix))]
fn link(target: &Path, link: &Path) {
    std::os::windows::fs::symlink_dir(target, link).expect("symlink node_modules");
}

/// The built `convert`, beside which `cargo build --workspace` puts the plugins.
fn convert_exe() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace_root().join("target"), PathBuf::from);
    let exe = target.join("debug").join(format!("convert{}", std::env::consts::EXE_SUFFIX));
    assert!(
        exe.exists(),
        "{} is not built: run `cargo build --workspace --lib --bins --examples` first",
        exe.display()
    );
    exe
}

/// (format, path) of every fixture and corpus input, as the conformance suite lists them.
fn inputs() -> Vec<(String, PathBuf)> {
    fn collect(format: &str, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if format == "raycast" {
                    out.push((format.to_owned(), path));
                } else {
                    collect(format, &path, out);
                }
            } else if format != "raycast"
                && !(name.ends_with(".md") || name.contains("execute_requests") || name.contains("auth_configs"))
            {
                out.push((format.to_owned(), path));
            }
        }
    }
    let mut out = Vec::new();
    for root in [workspace_root().join("fixtures"), toolport_testkit::corpus("")] {
        let mut formats: Vec<PathBuf> =
            std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
        formats.sort();
        for dir in formats {
            let format = dir.file_name().unwrap().to_string_lossy().into_owned();
            collect(&format, &dir, &mut out);
        }
    }
    out
}

/// Models written in process: the writer's HTTP model and the raycast fixtures.
fn models() -> Vec<(String, ToolSet)> {
    let mut models = vec![("http-model".to_owned(), common::http_model())];
    for name in ["forms", "types", "ai-yaml"] {
        let model = Raycast.read(&load(&fixture(&format!("raycast/{name}"))), &Options::default()).value.expect("read");
        models.push((format!("fixture-{name}"), model));
    }
    models
}

/// Writes every extension under `root`: the models, and each input converted by `convert`
/// (inputs it refuses with an error are left out; the conformance suite checks those).
fn write_extensions(root: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for (name, model) in models() {
        let bundle = Raycast.write(&model, &Options::default()).value.expect("write");
        let dir = root.join(name);
        common::write_to_disk(&bundle, &dir);
        dirs.push(dir);
    }
    let exe = convert_exe();
    let inputs = inputs();
    let converted: Vec<Option<PathBuf>> = std::thread::scope(|scope| {
        let workers: Vec<_> = inputs
            .chunks(inputs.len().div_ceil(2))
            .enumerate()
            .map(|(w, chunk)| {
                let exe = &exe;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .enumerate()
                        .map(|(i, (from, input))| {
                            let dir = root.join(format!("{w}-{i}-{from}"));
                            let output = Command::new(exe)
                                .args(["-q", "--from", from, "--to", "raycast"])
                                .arg(input)
                                .arg("-o")
                                .arg(format!("{}/", dir.display()))
                                .env_remove("TOOLPORT_PLUGIN_PATH")
                                .output()
                                .expect("run convert");
                            let stderr = String::from_utf8_lossy(&output.stderr);
                            match output.status.code() {
                                Some(0) => Some(dir),
                                Some(1) if stderr.contains("error[") => None,
                                other => panic!("{from} {}: exit {other:?}:\n{stderr}", input.display()),
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    dirs.extend(converted.into_iter().flatten());
    assert!(dirs.len() >= 60, "expected every fixture and corpus conversion, found {}", dirs.len());
    dirs
}

fn run(command: &mut Command, what: &str) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{what} failed:\n{text}");
    text
}

#[test]
fn every_written_extension_type_checks_and_raycast_reads_its_tools() {
    if !common::node_ready() {
        return;
    }
    let project = common::npm_project();
    let root = tempfile::tempdir().unwrap();
    let dirs = write_extensions(root.path());
    link(&project.join("node_modules"), &root.path().join("node_modules"));

    // One tsc run over every extension: their own compiler options, all sources included.
    let own: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dirs[0].join("tsconfig.json")).unwrap()).unwrap();
    let config = serde_json::json!({"include": ["*/src/**/*"], "compilerOptions": own["compilerOptions"]});
    std::fs::write(root.path().join("tsconfig.json"), config.to_string()).unwrap();
    run(
        Command::new("node")
            .arg(project.join("node_modules/typescript/bin/tsc"))
            .args(["--noEmit", "-p"])
            .arg(root.path().join("tsconfig.json")),
        "tsc --noEmit over every written extension",
    );

    // Raycast's tool-schema extraction, in two processes (one per core).
    let all = std::env::var("TOOLPORT_RAYCAST_ALL_SCHEMAS").as_deref() == Ok("1");
    let with_tools: Vec<&PathBuf> = dirs.iter().filter(|d| d.join("src/tools").exists()).collect();
    for dir in &with_tools {
        link(&project.join("node_modules"), &dir.join("node_modules"));
    }
    let children: Vec<_> = with_tools
        .chunks(with_tools.len().div_ceil(2))
        .map(|chunk| {
            Command::new("node")
                .arg(project.join("tool-schemas.js"))
                .args(chunk.iter())
                .env("TOOL_SCHEMAS_PER_EXTENSION", if all { "0" } else { "6" })
                .current_dir(&project)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run tool-schemas.js")
        })
        .collect();
    let mut refused = String::new();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "tool-schemas.js failed:\n{}", String::from_utf8_lossy(&output.stderr));
        refused.push_str(&String::from_utf8_lossy(&output.stdout));
    }
    assert!(refused.is_empty(), "Raycast's schema generator refuses these tool inputs:\n{refused}");
}

/// `ray build` builds what the writer writes from another format and from a Raycast
/// extension that lacks the command Raycast requires (ai-yaml: `commands` is empty).
#[test]
fn ray_build_builds_a_written_extension() {
    if !common::node_ready() {
        return;
    }
    let project = common::npm_project();
    let from_raycast = Raycast.read(&load(&fixture("raycast/ai-yaml")), &Options::default()).value.expect("read");
    for (name, model) in [("http model", common::http_model()), ("ai-yaml", from_raycast)] {
        let bundle = Raycast.write(&model, &Options::default()).value.expect("write");
        let dir = tempfile::tempdir().unwrap();
        common::write_to_disk(&bundle, dir.path());
        link(&project.join("node_modules"), &dir.path().join("node_modules"));
        let out = tempfile::tempdir().unwrap();
        let text = run(
            Command::new("node")
                .arg(project.join("node_modules/@raycast/api/bin/run.js"))
                .args(["build", "--non-interactive", "-e", "dist", "-o"])
                .arg(out.path())
                .current_dir(dir.path()),
            "ray build",
        );
        assert!(text.contains("built extension successfully"), "{name}: {text}");
    }
}
