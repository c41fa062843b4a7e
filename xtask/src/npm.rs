//! `cargo xtask npm [DIR] [--debug]`: the npm package, as esbuild and biome ship theirs: a
//! small package whose `toolporter` bin is a JavaScript launcher that runs the native command
//! shipped inside it (`native/`: `convert`, the plugin host, the plugins), passing arguments,
//! standard streams, the exit code and a signal through. It has no dependencies; `os` and
//! `cpu` say the one platform it was built on. `npm pack` makes DIR/toolporter-VERSION.tgz,
//! which `npm install` takes as it is.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::install::{UNIQUE_NAME, stage};
use crate::root;

/// The launcher: the native `convert` beside it, run with this process's arguments.
const LAUNCHER: &str = r#"#!/usr/bin/env node
// Runs the native command shipped in this package (native/), as esbuild and biome do.
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");
const exe = path.join(__dirname, "..", "native", process.platform === "win32" ? "convert.exe" : "convert");
const run = spawnSync(exe, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  console.error(`toolporter: could not run ${exe}: ${run.error.message}`);
  process.exit(1);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 1 : run.status);
"#;

pub fn run(dir: PathBuf, debug: bool) -> Result<()> {
    crate::build_command(!debug)?;
    let build = root().join(if debug { "target/debug" } else { "target/release" });
    let tarball = package(&build, &dir)?;
    println!("packed {}; install it with npm install {}", tarball.display(), tarball.display());
    Ok(())
}

/// Writes the package from the build in `build` into `dir/package` and packs it into `dir`;
/// returns the tarball.
pub fn package(build: &Path, dir: &Path) -> Result<PathBuf> {
    let package = dir.join("package");
    let _ = std::fs::remove_dir_all(&package);
    let native = package.join("native");
    stage(build, &native)?;
    std::fs::create_dir_all(package.join("bin"))?;
    let launcher = package.join("bin").join(format!("{UNIQUE_NAME}.js"));
    std::fs::write(&launcher, LAUNCHER)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&launcher, std::fs::Permissions::from_mode(0o755))?;
    }
    let manifest = serde_json::json!({
        "name": UNIQUE_NAME,
        "version": env!("CARGO_PKG_VERSION"),
        "description": "Move LLM tool definitions between formats (MCP, OpenAI, Anthropic, Gemini, OpenAPI, Vertex AI, Raycast, Gloodata, SkyDeck): the convert command",
        "license": "MIT OR Apache-2.0",
        "bin": { UNIQUE_NAME: format!("bin/{UNIQUE_NAME}.js") },
        "files": ["bin", "native"],
        "os": [node_platform()?],
        "cpu": [node_arch()?],
        "engines": { "node": ">=16" },
    });
    std::fs::write(package.join("package.json"), serde_json::to_string_pretty(&manifest)? + "\n")?;
    std::fs::write(
        package.join("README.md"),
        format!(
            "# {UNIQUE_NAME}\n\nMoves LLM tool definitions between formats. `npx {UNIQUE_NAME} --to openai tools.mcp.json`; `npx {UNIQUE_NAME} --help`; `npx {UNIQUE_NAME} codes` lists what the diagnostics mean.\n"
        ),
    )?;
    let packed = Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(dir)
        .current_dir(&package)
        .output()
        .context("running npm pack")?;
    if !packed.status.success() {
        bail!("npm pack failed: {}", String::from_utf8_lossy(&packed.stderr));
    }
    let name = String::from_utf8_lossy(&packed.stdout).trim().lines().last().unwrap_or_default().to_owned();
    Ok(dir.join(name))
}

/// Node's name for this platform (`process.platform`).
fn node_platform() -> Result<&'static str> {
    Ok(match std::env::consts::OS {
        "linux" => "linux",
        "macos" => "darwin",
        "windows" => "win32",
        "freebsd" => "freebsd",
        other => bail!("no npm platform name for {other}"),
    })
}

/// Node's name for this processor (`process.arch`).
fn node_arch() -> Result<&'static str> {
    Ok(match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        "x86" => "ia32",
        "arm" => "arm",
        other => bail!("no npm cpu name for {other}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs the debug build (which `cargo xtask test` builds first), installs the tarball into
    /// an empty project with npm, offline, and converts a fixture through `npx toolporter`.
    #[test]
    fn the_packed_package_installs_and_runs_through_npx() {
        let debug = root().join("target/debug");
        assert!(debug.join("convert").exists(), "build the workspace first (cargo xtask test does)");
        let dir = tempfile::tempdir().unwrap();
        // A build of what the test runs, stripped: packing and installing all the debug
        // binaries (hundreds of MB) took minutes.
        let build = dir.path().join("build");
        std::fs::create_dir_all(&build).unwrap();
        let plugin = |format: &str| {
            format!("{}toolport_plugin_{format}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX)
        };
        let files = ["convert".to_owned(), "toolport-plugin-host".to_owned(), plugin("gloodata"), plugin("mcp")];
        for file in &files {
            std::fs::copy(debug.join(file), build.join(file)).unwrap();
        }
        // Optional: without `strip` the test is only slower.
        let _ = Command::new("strip").arg("--strip-debug").args(files.iter().map(|f| build.join(f))).status();
        let tarball = package(&build, &dir.path().join("npm")).unwrap();
        assert!(tarball.is_file(), "{}", tarball.display());
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            project.join("package.json"),
            r#"{"name": "user-project", "version": "1.0.0", "private": true}"#,
        )
        .unwrap();
        // Offline: the package needs nothing from the registry. Settings by environment, so
        // that none of them reaches toolporter's own arguments.
        let npm = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .current_dir(&project)
                .env("HOME", dir.path())
                .env("npm_config_cache", dir.path().join("npm-cache"))
                .env("npm_config_offline", "true")
                .env("npm_config_audit", "false")
                .env("npm_config_fund", "false")
                .env("npm_config_loglevel", "error")
                .env_remove("TOOLPORT_PLUGIN_PATH")
                .output()
                .unwrap()
        };
        let installed = npm("npm", &["install", tarball.to_str().unwrap()]);
        assert!(installed.status.success(), "{}", String::from_utf8_lossy(&installed.stderr));
        let fixture = root().join("fixtures/gloodata/show-map.json");
        let ran = npm("npm", &["exec", "--", UNIQUE_NAME, "-q", "--to", "mcp", fixture.to_str().unwrap()]);
        assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
        assert_eq!(doc["tools"][0]["name"], "showMapAtAddressAndZoom", "{doc}");
        // The exit code comes through: a usage error is 2.
        let refused = npm("npm", &["exec", "--", UNIQUE_NAME, "--to", "nothing", fixture.to_str().unwrap()]);
        assert_eq!(refused.status.code(), Some(2), "{}", String::from_utf8_lossy(&refused.stderr));
        let npx = npm("npx", &[UNIQUE_NAME, "codes"]);
        assert!(npx.status.success(), "{}", String::from_utf8_lossy(&npx.stderr));
        assert!(String::from_utf8_lossy(&npx.stdout).contains("loss/http"));
    }
}
