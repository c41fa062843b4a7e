//! toolport's development tasks, run as `cargo xtask <task>`; `cargo xtask TASK --help` says
//! what each takes (tasks.rs, where every task's arguments are checked before it runs):
//!
//! - `test [ARGS]`: install what the tests need besides Rust (setup.rs: the platforms'
//!   validators, the Raycast API types; once) while building every plugin library and the
//!   broken test plugins, build the Python wheel, then build the test binaries
//!   (`cargo test --workspace --no-run ARGS`) and run them, the doc tests and the Python
//!   package's tests side by side, one per core (test_lanes.rs). The CLI tests load the real
//!   libraries.
//! - `convert ARGS`: build `convert`, the plugin host and the plugins only, then run `convert ARGS`.
//! - `dist [DIR]`: release-build those and stage them in DIR/ (default `dist/`):
//!   `DIR/convert`, `DIR/toolport-plugin-host`, `DIR/plugins/*`, `DIR/share/*` (install.rs).
//! - `install [--data-dir DIR] [--bin-dir DIR] [--share-dir DIR] [--debug] [--link-convert]`:
//!   release-build and install into the user data directory, with `toolporter` (and `convert`
//!   unless another program of that name is on PATH) linked into `~/.local/bin`, completions
//!   and man pages into `~/.local/share` (install.rs).
//! - `npm [DIR] [--debug]`: the npm package around the release build (npm.rs).
//! - `wheel-binaries [--debug]`: build the command and stage it for the Python wheel; the
//!   wheel's build backend (python/build_backend) runs it (setup.rs).
//! - `bench [--peers | --peers-only | --scaling-only [CASE]]`: the benchmarks (see bench.rs); prints
//!   ratios measured in one run; `--peers` adds toolport side by side with its peers.
//! - `fuzz [--seconds N] [--seed S] [--format ID]...`: mutation fuzzing of every reader (fuzz.rs).
//! - `new-plugin NAME --path DIR`: scaffold a standalone plugin crate outside the workspace.

#[cfg(test)]
mod architecture;
mod bench;
mod fuzz;
mod install;
mod new_plugin;
mod npm;
mod setup;
mod tasks;
mod test_lanes;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::tasks::Task;

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    let Some(task) = Task::find(&name) else {
        if !matches!(name.as_str(), "-h" | "--help" | "help") {
            eprint!("{}", tasks::overview());
            std::process::exit(2)
        }
        print!("{}", tasks::overview());
        return Ok(());
    };
    match task.check(&rest) {
        Ok(true) => {}
        Ok(false) => {
            print!("{}", task.help());
            return Ok(());
        }
        Err(problem) => {
            eprintln!("error: {problem}");
            std::process::exit(2)
        }
    }
    let operand = || rest.iter().find(|a| !a.starts_with('-')).map(PathBuf::from);
    match task.name {
        "test" => test(&rest),
        "convert" => convert(rest.strip_prefix(&["--".to_owned()]).unwrap_or(&rest)),
        "dist" => dist(operand().unwrap_or_else(|| root().join("dist"))),
        "bench" => bench::run(&rest),
        "fuzz" => fuzz::run(&rest),
        "install" => install(&rest),
        "npm" => npm::run(operand().unwrap_or_else(|| root().join("target/npm")), rest.iter().any(|a| a == "--debug")),
        "new-plugin" => new_plugin::run(&rest),
        "wheel-binaries" => setup::wheel_binaries(!rest.iter().any(|a| a == "--debug")),
        other => bail!("task {other} is declared but not run"),
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
/// test plugins (as examples), because `cargo test` alone builds neither. The whole workspace,
/// as `cargo test --workspace` does (a subset unifies dependencies' features differently and
/// rebuilds most of the workspace), but the Python module: only maturin's build of it, in
/// PyO3's environment, is used, and a build here made PyO3 once more for nothing. xtask's
/// Cargo.toml keeps the features unified as with it (tested below).
pub fn build_all() -> Result<()> {
    cargo(&["build", "--workspace", "--exclude", PYTHON_MODULE, "--lib", "--bins", "--examples"])
}

/// The Python module's package, which only maturin builds.
const PYTHON_MODULE: &str = "toolport-python";

/// Builds what a user runs and nothing else: `convert`, the plugin host and the plugins (not
/// the Python module, the fuzzer or the benchmarks).
pub fn build_command(release: bool) -> Result<()> {
    let packages = command_packages()?;
    let mut args = vec!["build"];
    if release {
        args.push("--release");
    }
    for package in &packages {
        args.extend(["-p", package.as_str()]);
    }
    cargo(&args)
}

/// The packages of `convert`, the plugin host and every plugin (plugins/*/plugin), read from
/// their manifests.
fn command_packages() -> Result<Vec<String>> {
    let mut manifests = vec![root().join("crates/cli/Cargo.toml"), root().join("crates/host/Cargo.toml")];
    let mut plugins: Vec<PathBuf> = std::fs::read_dir(root().join("plugins"))?
        .filter_map(|e| e.ok().map(|e| e.path().join("plugin/Cargo.toml")))
        .filter(|m| m.is_file())
        .collect();
    plugins.sort();
    manifests.extend(plugins);
    manifests
        .iter()
        .map(|manifest| {
            let text = std::fs::read_to_string(manifest).with_context(|| manifest.display().to_string())?;
            text.lines()
                .find_map(|l| l.strip_prefix("name = \"").and_then(|rest| rest.strip_suffix('"')))
                .map(str::to_owned)
                .with_context(|| format!("no package name in {}", manifest.display()))
        })
        .collect()
}

/// `cargo xtask test`. The installs wait on the network and the disk: they run while cargo
/// builds. Then cargo builds the test binaries (`cargo test --no-run`) and they, the doc tests
/// and the Python package's wheel and tests run side by side, one per core, the longest first
/// (test_lanes.rs). The wheel's cargo run (maturin's) builds only the Python module, from what
/// is built: it waits for the target folder's lock at most while the doc tests hold it.
fn test(extra: &[String]) -> Result<()> {
    let plan = test_lanes::Plan::from_args(extra);
    let installs = std::thread::spawn(setup::test_dependencies);
    let built = build_all();
    let installed = installs.join().expect("the installs' thread panicked");
    built?;
    installed?;
    let mut jobs = if plan.run_binaries { test_lanes::build(&plan)? } else { Vec::new() };
    if plan.no_run {
        setup::python_wheel(false, true)?;
        println!("built the test binaries and the wheel; --no-run: nothing runs");
        return Ok(());
    }
    if plan.doc_tests {
        jobs.extend(test_lanes::doc_tests(&plan)?);
    }
    // The wheel is built in its tests' job, beside the other jobs: pip, maturin and PyO3's
    // build run mostly one process at a time, which left a core idle before the tests.
    jobs.push(test_lanes::Job::other(test_lanes::PYTHON_TESTS, move || {
        let started = std::time::Instant::now();
        let wheel = setup::python_wheel(false, true)?;
        let built = format!("python package: wheel built in {:.1} s\n", started.elapsed().as_secs_f64());
        Ok(built + &setup::python_package_tests(&wheel)?)
    }));
    let lanes = std::thread::available_parallelism().map_or(2, |n| n.get());
    test_lanes::run(jobs, lanes, &root().join("target/xtask/tests"))
}

/// `cargo metadata` of the workspace's own packages.
pub fn metadata(root: &Path) -> Result<serde_json::Value> {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root)
        .output()
        .context("running cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

fn convert(extra: &[String]) -> Result<()> {
    build_command(false)?;
    let exe = root().join("target/debug").join(format!("convert{}", std::env::consts::EXE_SUFFIX));
    let status = Command::new(&exe).args(extra).status().with_context(|| format!("running {}", exe.display()))?;
    std::process::exit(status.code().unwrap_or(1));
}

fn dist(dir: PathBuf) -> Result<()> {
    build_command(true)?;
    let staged = install::stage(&root().join("target/release"), &dir)?;
    install::share(&dir, &dir.join("share"))?;
    println!("staged convert, toolport-plugin-host, {staged} plugins, completions and man pages in {}", dir.display());
    Ok(())
}

fn install(args: &[String]) -> Result<()> {
    let places = install::Places::from_args(args, |key| std::env::var(key).ok())?;
    build_command(!places.debug)?;
    let build = root().join(if places.debug { "target/debug" } else { "target/release" });
    install::install(&build, &places, &std::env::var_os("PATH").unwrap_or_default())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    /// Each package `cargo tree` reaches from the workspace (with `extra`), with its features.
    fn features(extra: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
        let output = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["tree", "--offline", "--workspace", "-e", "normal,build", "--prefix", "none", "-f", "{p}|{f}"])
            .args(extra)
            .current_dir(super::root())
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            if let Some((package, features)) = line.split_once('|') {
                let features = features.trim_end_matches(" (*)").to_owned();
                found.entry(package.trim_end_matches(" (*)").to_owned()).or_default().insert(features);
            }
        }
        found
    }

    #[test]
    fn the_workspace_without_the_python_module_unifies_features_as_with_it() {
        let with = features(&[]);
        let without = features(&["--exclude", super::PYTHON_MODULE]);
        assert!(without.len() > 100 && with.len() > without.len());
        let differing: Vec<String> = without
            .iter()
            .filter(|(package, features)| with.get(*package) != Some(features))
            .map(|(package, features)| format!("{package}: {features:?} against {:?}", with.get(package)))
            .collect();
        assert!(
            differing.is_empty(),
            "built without the Python module, these would be other builds (list the features in xtask's [build-dependencies]):\n{}",
            differing.join("\n")
        );
    }
}
