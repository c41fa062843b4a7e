//! What the tests need besides Rust, installed once into target/ from the package registries:
//! the platforms' validators for the conformance suite (conformance/requirements.txt, into a
//! virtual environment at target/conformance/venv), the MCP TypeScript SDK (conformance/,
//! `npm ci`) and the Raycast API types for the TypeScript check (plugins/raycast/tests/tsc,
//! `npm ci`). Each step is skipped when done.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::root;

pub fn test_dependencies() -> Result<()> {
    validators()?;
    npm_ci(&root().join("conformance"), "@modelcontextprotocol/sdk", "the MCP TypeScript SDK")?;
    npm_ci(&root().join("plugins/raycast/tests/tsc"), "@raycast/api", "the Raycast API types")
}

fn run(command: &mut Command, what: &str) -> Result<()> {
    let status = command.status().with_context(|| format!("{what}: could not start"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

fn validators() -> Result<()> {
    let venv = root().join("target/conformance/venv");
    let requirements = root().join("conformance/requirements.txt");
    let stamp = venv.join("requirements.installed");
    let wanted = std::fs::read_to_string(&requirements)?;
    if std::fs::read_to_string(&stamp).is_ok_and(|done| done == wanted) {
        return Ok(());
    }
    println!("installing the conformance validators into {} (once)", venv.display());
    if !venv.join("bin/python").exists() {
        let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        run(Command::new(python).arg("-m").arg("venv").arg(&venv), "creating the validators' virtual environment")?;
    }
    let pip = venv.join("bin/pip");
    run(
        Command::new(&pip).args(["install", "--quiet", "--disable-pip-version-check", "-r"]).arg(&requirements),
        "installing conformance/requirements.txt",
    )?;
    std::fs::write(stamp, wanted)?;
    Ok(())
}

/// `npm ci` in `dir` unless `package` is already installed there.
fn npm_ci(dir: &Path, package: &str, what: &str) -> Result<()> {
    if !dir.join("package-lock.json").exists() || dir.join("node_modules").join(package).join("package.json").exists() {
        return Ok(());
    }
    println!("installing {what} in {} (once)", dir.display());
    run(
        Command::new("npm")
            .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(dir),
        &format!("npm ci in {}", dir.display()),
    )
}
