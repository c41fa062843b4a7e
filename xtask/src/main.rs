//! toolport's development tasks, run as `cargo xtask <task>`:
//!
//! - `test [ARGS]`: install what the tests need besides Rust (setup.rs: the platforms'
//!   validators, the Raycast API types; once), build every plugin library and the broken test
//!   plugins, then run the whole test suite (`cargo test --workspace ARGS`). The CLI tests load
//!   the real libraries.
//! - `convert ARGS`: build `convert` and the plugins, then run `convert ARGS`.
//! - `dist [DIR]`: release-build `convert` and stage it with its plugins in DIR/ (default
//!   `dist/`): `DIR/convert`, `DIR/toolport-plugin-host` and `DIR/plugins/*`.
//! - `install [--data-dir DIR] [--bin-dir DIR] [--debug]`: release-build and install into the
//!   user data directory, with `convert` linked into `~/.local/bin` (install.rs).
//! - `bench [--peers | --peers-only | --scaling-only]`: the benchmarks (see bench.rs); prints
//!   ratios measured in one run; `--peers` adds toolport side by side with its peers.
//! - `fuzz [--seconds N] [--seed S] [--format ID]...`: mutation fuzzing of every reader (fuzz.rs).
//! - `new-plugin NAME --path DIR`: scaffold a standalone plugin crate outside the workspace.

mod bench;
mod fuzz;
mod install;
mod new_plugin;
mod setup;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let task = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    match task.as_str() {
        "test" => test(&rest),
        "convert" => convert(&rest),
        "dist" => dist(rest.first().map(PathBuf::from).unwrap_or_else(|| root().join("dist"))),
        "bench" => bench::run(&rest),
        "fuzz" => fuzz::run(&rest),
        "install" => install(&rest),
        "new-plugin" => new_plugin::run(&rest),
        _ => {
            eprintln!(
                "usage: cargo xtask <test [ARGS] | convert ARGS | dist [DIR] | bench [--peers | --peers-only | --scaling-only] | fuzz [--seconds N] | install [--data-dir DIR] [--bin-dir DIR] | new-plugin NAME --path DIR>"
            );
            std::process::exit(2)
        }
    }
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// Runs cargo in the workspace root; fails if it fails.
pub fn cargo(args: &[&str]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status =
        Command::new(&cargo).args(args).current_dir(root()).status().with_context(|| format!("running {cargo}"))?;
    if !status.success() {
        bail!("cargo {} failed", args.join(" "));
    }
    Ok(())
}

/// Builds every plugin library next to the `convert` binary (target/debug), plus the broken
/// test plugins (as examples), because `cargo test` alone builds neither.
fn build_all(release: bool) -> Result<()> {
    let mut args = vec!["build", "--workspace", "--lib", "--bins"];
    if release {
        args.push("--release");
    } else {
        args.extend(["--examples"]);
    }
    cargo(&args)
}

fn test(extra: &[String]) -> Result<()> {
    setup::test_dependencies()?;
    build_all(false)?;
    let mut args = vec!["test", "--workspace"];
    args.extend(extra.iter().map(String::as_str));
    cargo(&args)?;
    setup::python_package()
}

fn convert(extra: &[String]) -> Result<()> {
    cargo(&["build", "--workspace", "--lib", "--bins"])?;
    let exe = root().join("target/debug").join(format!("convert{}", std::env::consts::EXE_SUFFIX));
    let status = Command::new(&exe).args(extra).status().with_context(|| format!("running {}", exe.display()))?;
    std::process::exit(status.code().unwrap_or(1));
}

fn dist(dir: PathBuf) -> Result<()> {
    build_all(true)?;
    let staged = install::stage(&root().join("target/release"), &dir)?;
    println!("staged convert, toolport-plugin-host and {staged} plugins in {}", dir.display());
    Ok(())
}

fn install(args: &[String]) -> Result<()> {
    let places = install::Places::from_args(args, |key| std::env::var(key).ok())?;
    build_all(!places.debug)?;
    let build = root().join(if places.debug { "target/debug" } else { "target/release" });
    install::install(&build, &places)?;
    Ok(())
}
