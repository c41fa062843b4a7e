//! What the tests need besides Rust, installed once into target/ from the package registries:
//! the platforms' validators for the conformance suite (conformance/requirements.txt, into a
//! virtual environment at target/conformance/venv), the MCP TypeScript SDK (conformance/,
//! `npm ci`) and the Raycast API types for the TypeScript check (plugins/raycast/tests/tsc,
//! `npm ci`). Each step is skipped when done. After `cargo test`, [`python_package`] builds the
//! Python wheel with `pip wheel ./python` (its build backend: maturin pinned in
//! python/requirements-build.txt, installed into target/python/tools), installs it into a fresh
//! target/python/venv and runs python/tests/.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::root;

pub fn test_dependencies() -> Result<()> {
    validators()?;
    npm_ci(&root().join("conformance"), "@anthropic-ai/mcpb", "the MCP TypeScript SDK and the MCPB toolchain")?;
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
        make_venv(&venv)?;
    }
    pip_install(&venv, &["-r".as_ref(), requirements.as_os_str()])?;
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

/// The Python package (python/, crates/python): builds the wheel with maturin, installs it into
/// a fresh virtual environment (target/python/venv) and runs python/tests/ there with pytest,
/// through the API and through the installed `convert`. Runs after `cargo test`, with the
/// debug build in place: a debug wheel (the tests check behaviour; `cargo xtask bench` builds
/// a release one). Fails when a Python test fails.
pub fn python_package() -> Result<()> {
    let started = std::time::Instant::now();
    let wheel = python_wheel(false)?;
    let built = started.elapsed();
    let venv = root().join("target/python/venv");
    let python = python_venv(&venv, &wheel, Some(&root().join("python/requirements-test.txt")))?;
    let installed = started.elapsed();
    run(
        Command::new(python)
            .args(["-m", "pytest", "-p", "no:cacheprovider", "-q", "."])
            // In the tests' folder, not python/: the package under test is the installed one.
            .current_dir(root().join("python/tests")),
        "the Python package's tests (python/tests)",
    )?;
    println!(
        "python package: wheel built in {:.1} s, installed in {:.1} s, tested in {:.1} s",
        built.as_secs_f64(),
        (installed - built).as_secs_f64(),
        (started.elapsed() - installed).as_secs_f64()
    );
    Ok(())
}

/// Builds `convert`, the plugin host and the plugins and stages them into
/// python/toolport/_bin (stripped of debug info when `strip` is there), where the wheel takes
/// them: what the wheel's build backend runs before maturin. The debug build is the test
/// build (`cargo xtask test`'s, the same command, so cargo finds it done and features unified
/// the same way); the release build is only what the wheel ships.
pub fn wheel_binaries(release: bool) -> Result<()> {
    if release {
        crate::build_command(true)?;
    } else {
        crate::build_all()?;
    }
    let bin = root().join("python/toolport/_bin");
    let _ = std::fs::remove_dir_all(&bin);
    let build = root().join(if release { "target/release" } else { "target/debug" });
    crate::install::stage(&build, &bin)?;
    let staged: Vec<std::path::PathBuf> = std::fs::read_dir(&bin)?
        .chain(std::fs::read_dir(bin.join("plugins"))?)
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    // Optional: without `strip` the wheel is only larger.
    let _ = Command::new("strip").arg("--strip-debug").args(&staged).status();
    Ok(())
}

/// Builds the `toolporter` wheel the standard way, `pip wheel ./python`, through the wheel's
/// own build backend (which stages the command line, [`wheel_binaries`]) into
/// target/python/wheels; a debug build unless `release`. The build shares target/: maturin only
/// sets PyO3's environment, so nothing else is rebuilt. Returns the wheel.
pub fn python_wheel(release: bool) -> Result<std::path::PathBuf> {
    let tools = root().join("target/python/tools");
    let requirements = root().join("python/requirements-build.txt");
    let stamp = tools.join("requirements.installed");
    let wanted = std::fs::read_to_string(&requirements)?;
    if !std::fs::read_to_string(&stamp).is_ok_and(|done| done == wanted) {
        println!("installing maturin into {} (once)", tools.display());
        make_venv(&tools)?;
        pip_install(&tools, &["-r".as_ref(), requirements.as_os_str()])?;
        std::fs::write(&stamp, wanted)?;
    }
    let wheels = root().join("target/python/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    let mut pip = Command::new(tools.join("bin/pip"));
    // maturin's backend runs the `maturin` program: the tools' own, first on PATH.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(tools.join("bin")).chain(std::env::split_paths(&path)))?;
    pip.env("PATH", path);
    // The tools' environment has the pinned maturin: no isolated environment to download it into.
    pip.args(["wheel", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "-w"])
        .arg(&wheels)
        .args(["-C", if release { "profile=release" } else { "profile=debug" }])
        .arg(root().join("python"));
    run(&mut pip, "building the Python wheel (pip wheel ./python)")?;
    let wheel = std::fs::read_dir(&wheels)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .context("pip wheel wrote no wheel")?;
    Ok(wheel)
}

/// A fresh virtual environment at `venv` with `wheel` (and `requirements`) installed; returns
/// its Python.
pub fn python_venv(venv: &Path, wheel: &Path, requirements: Option<&Path>) -> Result<std::path::PathBuf> {
    let _ = std::fs::remove_dir_all(venv);
    make_venv(venv)?;
    let mut args = vec![wheel.as_os_str()];
    if let Some(requirements) = requirements {
        args.extend(["-r".as_ref(), requirements.as_os_str()]);
    }
    pip_install(venv, &args)?;
    Ok(venv.join("bin/python"))
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

fn make_venv(venv: &Path) -> Result<()> {
    run(Command::new(python()).arg("-m").arg("venv").arg(venv), &format!("creating {}", venv.display()))
}

fn pip_install(venv: &Path, args: &[&std::ffi::OsStr]) -> Result<()> {
    run(
        Command::new(venv.join("bin/pip")).args(["install", "--quiet", "--disable-pip-version-check"]).args(args),
        &format!("pip install into {}", venv.display()),
    )
}
