//! A third party can write, build and load a format without touching this repository:
//! scaffold a plugin with `cargo xtask new-plugin`, build it as its own cargo project, and
//! convert through it with `--plugin-dir`.

use crate::support;

use std::process::Command;

use support::*;

#[test]
fn a_scaffolded_plugin_builds_loads_and_converts() {
    let xtask = build_dir().join(format!("xtask{}", std::env::consts::EXE_SUFFIX));
    assert!(xtask.exists(), "{} is not built; run `cargo xtask test`", xtask.display());
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("weather");
    let status = Command::new(&xtask).args(["new-plugin", "weather-tools", "--path"]).arg(&plugin).status().unwrap();
    assert!(status.success());

    // Its own target folder, shared between runs, so the main build's lock is never contended.
    let target = workspace_root().join("target/scaffold-test");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--quiet"])
        .current_dir(&plugin)
        .env("CARGO_TARGET_DIR", &target)
        // Without debug info, as the workspace's own dev builds: a sixth of the build's CPU.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .output()
        .unwrap();
    assert!(output.status.success(), "the scaffold builds:\n{}", String::from_utf8_lossy(&output.stderr));
    let libs = target.join("debug");
    let libs = libs.to_str().unwrap();

    let formats = run_in(dir.path(), &["--plugin-dir", libs, "formats"]);
    formats.expect_code(0);
    let line = formats.stdout.lines().find(|l| l.starts_with("weather-tools")).expect(&formats.stdout).to_owned();
    assert!(line.contains("read/write") && line.contains("libtoolport_plugin_weather_tools"), "{line}");

    let sample = plugin.join("examples/sample.json");
    let run =
        run_in(dir.path(), &["--plugin-dir", libs, "--to", "gloodata", sample.to_str().unwrap(), "-o", "out.json"]);
    run.expect_code(0);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.json")).unwrap()).unwrap();
    assert_eq!(doc["tools"]["get_weather"]["schema"]["fields"]["city"]["type"], "string", "{doc}");
}
