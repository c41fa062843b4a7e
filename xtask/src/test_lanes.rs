//! `cargo xtask test`'s runner of the test binaries. `cargo test` runs them one after another;
//! the two longest (the command line's, with the conformance suite, and Raycast's type check)
//! spend long stretches in one Python or node process and leave a core idle. Here cargo only
//! builds them (`cargo test --no-run`, which names each executable), and they run side by side
//! on one lane per core, the longest first, each as cargo runs it: in its package's folder,
//! with cargo's `CARGO_*` variables and the build folder on the library path. Each one's
//! output (stdout and stderr together, also kept in target/xtask/tests/) is printed whole when
//! it ends, then a summary; the task fails if any failed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::root;

/// The Python package's tests' job.
pub const PYTHON_TESTS: &str = "python/tests";

/// The jobs that take longest, longest first, as their names say (a test binary's name is how
/// cargo runs it alone). On a fresh clone of the 2-core machine the command line's conformance
/// suite took 262 s (itself on both cores: two conversion workers, then two validator and two
/// oracle processes), Raycast's tests 75 s, the command line's other tests 155 s, the Python
/// wheel's build and tests 34 s, xtask's 16 s and every other binary under 17 s. The rest start
/// after these, the larger executables (more tests) first.
pub const LONGEST_FIRST: &[&str] = &[
    "-p toolporter --test integration -- conformance::",
    "-p toolporter-format-raycast --test integration",
    "-p toolporter --test integration -- --skip conformance::",
    PYTHON_TESTS,
    "-p xtask --bin xtask",
];

/// Test binaries run as two jobs, split by a name filter: the tests it selects, and the rest.
/// The command line's binary was the run's critical path (420 s on a fresh clone) while the
/// other lane sat idle for its last 200 s; as two jobs, the lanes share it.
const SPLIT: &[(&str, &str)] = &[("-p toolporter --test integration", "conformance::")];

/// The jobs a binary named `name` runs as, with the arguments each adds to the binary's: itself
/// whole, or (a binary of `SPLIT`, with no filter of the user's) its two halves.
fn halves(name: &str, user_args: &[String]) -> Vec<(String, Vec<String>)> {
    match SPLIT.iter().find(|(binary, _)| *binary == name) {
        Some((_, filter)) if !user_args.iter().any(|a| !a.starts_with('-')) => vec![
            (format!("{name} -- {filter}"), vec![(*filter).to_owned()]),
            (format!("{name} -- --skip {filter}"), vec!["--skip".to_owned(), (*filter).to_owned()]),
        ],
        _ => vec![(name.to_owned(), Vec::new())],
    }
}

/// What `cargo xtask test ARGS` does with ARGS: cargo's own (before `--`) select and build the
/// test binaries, the rest is given to each binary (a filter, `--nocapture`). Doc tests are
/// cargo's to run (`cargo test --doc`): they run as one more job when no target is selected,
/// as `cargo test` runs them.
#[derive(Debug, PartialEq)]
pub struct Plan {
    pub cargo: Vec<String>,
    pub binaries: Vec<String>,
    /// Whether the test binaries are built and run (not with `--doc`).
    pub run_binaries: bool,
    /// Whether `cargo test --doc` runs too.
    pub doc_tests: bool,
    /// `--no-run`: everything is built (the wheel too), nothing runs.
    pub no_run: bool,
}

/// cargo test's flags that choose targets: with any of them, cargo runs no doc tests unless
/// `--doc` is among them.
const TARGET_FLAGS: &[&str] = &[
    "--lib",
    "--bin",
    "--bins",
    "--test",
    "--tests",
    "--example",
    "--examples",
    "--bench",
    "--benches",
    "--all-targets",
];

impl Plan {
    /// `--workspace`, unless the user chose packages (`-p NAME`): with both, cargo would test
    /// every package.
    fn scope(&self) -> Option<&'static str> {
        self.packages().is_empty().then_some("--workspace")
    }

    /// The packages the user chose (`-p NAME`, `-pNAME`, `--package NAME`, `--package=NAME`).
    fn packages(&self) -> Vec<&str> {
        self.split_packages().0
    }

    /// cargo's arguments without the packages chosen (and without `--no-run`): the test binaries
    /// are built for the whole workspace, as the plugins are, and only the chosen packages' run.
    /// Built for one package, `convert` unified its dependencies' features otherwise than the
    /// plugins, and a host and plugins of two builds hand the model over as JSON (isolation.rs's
    /// memory tests failed).
    fn cargo_for_the_workspace(&self) -> Vec<&str> {
        self.split_packages().1
    }

    /// cargo's arguments as (the packages chosen, the rest but `--no-run` and the workspace's
    /// own flags, which cargo refuses twice).
    fn split_packages(&self) -> (Vec<&str>, Vec<&str>) {
        let (mut chosen, mut rest) = (Vec::new(), Vec::new());
        let mut args = self.cargo_without_workspace();
        while let Some(arg) = args.next() {
            if arg == "-p" || arg == "--package" {
                chosen.extend(args.next());
            } else if let Some(name) = arg.strip_prefix("--package=").or_else(|| arg.strip_prefix("-p")) {
                chosen.push(name);
            } else if arg != "--no-run" {
                rest.push(arg);
            }
        }
        (chosen, rest)
    }

    /// cargo's arguments but `--workspace` (and its old name `--all`): `cargo xtask test` gives
    /// it itself, and `cargo test --workspace --workspace` is an error.
    fn cargo_without_workspace(&self) -> impl Iterator<Item = &str> {
        self.cargo.iter().map(String::as_str).filter(|a| !matches!(*a, "--workspace" | "--all"))
    }

    pub fn from_args(args: &[String]) -> Plan {
        let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
        let cargo = args[..split].to_vec();
        let binaries = args.get(split + 1..).unwrap_or_default().to_vec();
        let chooses =
            |flags: &[&str]| cargo.iter().any(|a| flags.iter().any(|f| a == f || a.starts_with(&format!("{f}="))));
        let doc_only = chooses(&["--doc"]);
        let no_run = chooses(&["--no-run"]);
        Plan {
            run_binaries: !doc_only,
            doc_tests: !no_run && (doc_only || !chooses(TARGET_FLAGS)),
            no_run,
            cargo,
            binaries,
        }
    }
}

/// One test binary as `cargo test --no-run` built it.
#[derive(Debug)]
struct Binary {
    /// `-p PACKAGE --test NAME` (or `--lib`, `--bin NAME`): how cargo runs it alone.
    name: String,
    executable: PathBuf,
    /// The package's manifest: its folder is the working directory, its fields cargo's variables.
    manifest: PathBuf,
}

/// What runs a job, writing its output into the log file given; whether it passed.
type RunInto = dyn FnOnce(&Path) -> Result<bool> + Send;

/// A job on a lane: a name, and what runs it (returning whether it passed, and its output).
pub struct Job {
    pub name: String,
    run: Box<RunInto>,
    /// Where it starts: `LONGEST_FIRST`'s order, then larger first.
    weight: (usize, u64),
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("name", &self.name).field("weight", &self.weight).finish()
    }
}

impl Job {
    /// A job that runs `command` with its output (stdout and stderr in their order) into the log.
    pub fn command(name: String, mut command: Command, size: u64) -> Job {
        let weight = weight(&name, size);
        let run = move |log: &Path| -> Result<bool> {
            let file = std::fs::File::create(log).with_context(|| log.display().to_string())?;
            command.stdout(file.try_clone()?).stderr(file);
            let status = command.status().with_context(|| format!("could not start {command:?}"))?;
            Ok(status.success())
        };
        Job { name, run: Box::new(run), weight }
    }

    /// A job whose work is `run` (its text, or an error with its text, goes to the log).
    pub fn other(name: &str, run: impl FnOnce() -> Result<String> + Send + 'static) -> Job {
        let run = move |log: &Path| -> Result<bool> {
            let (passed, text) = match run() {
                Ok(text) => (true, text),
                Err(error) => (false, format!("{error:#}\n")),
            };
            std::fs::write(log, text)?;
            Ok(passed)
        };
        Job { name: name.to_owned(), run: Box::new(run), weight: weight(name, 0) }
    }
}

fn weight(name: &str, size: u64) -> (usize, u64) {
    let rank = LONGEST_FIRST.iter().position(|n| *n == name).unwrap_or(LONGEST_FIRST.len());
    (rank, u64::MAX - size)
}

/// Builds the test binaries the plan selects (`cargo test --workspace --no-run ARGS`) and
/// returns a job for each of the chosen packages' (all, when none is chosen).
pub fn build(plan: &Plan) -> Result<Vec<Job>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .args(["test", "--no-run", "--message-format=json-render-diagnostics", "--workspace"])
        .args(plan.cargo_for_the_workspace())
        .current_dir(root())
        .stdout(Stdio::piped());
    let output = command.output().with_context(|| format!("running {cargo}"))?;
    if !output.status.success() {
        bail!("cargo test --no-run {} failed", plan.cargo.join(" "));
    }
    let binaries = binaries(&String::from_utf8_lossy(&output.stdout));
    let packages = packages()?;
    let chosen = plan.packages();
    let mut jobs = Vec::new();
    for binary in binaries {
        let package =
            packages.get(&binary.manifest).with_context(|| format!("no package at {}", binary.manifest.display()))?;
        if !chosen.is_empty() && !chosen.contains(&package["name"].as_str().unwrap_or_default()) {
            continue;
        }
        let size = binary.executable.metadata().map(|m| m.len()).unwrap_or(0);
        for (name, filter) in halves(&binary.name, &plan.binaries) {
            let mut command = Command::new(&binary.executable);
            command.args(&plan.binaries).args(filter);
            command.current_dir(binary.manifest.parent().unwrap_or(Path::new(".")));
            command.envs(cargo_variables(package));
            if let Some(deps) = binary.executable.parent() {
                let build = deps.parent().unwrap_or(deps);
                command.env(LIBRARY_PATH, library_path(&[deps, build]));
            }
            jobs.push(Job::command(name, command, size));
        }
    }
    Ok(jobs)
}

/// The test executables in `cargo --message-format=json`'s messages.
fn binaries(messages: &str) -> Vec<Binary> {
    let mut found = Vec::new();
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else { continue };
        let (Some(executable), true) = (message["executable"].as_str(), message["profile"]["test"] == true) else {
            continue;
        };
        let manifest = PathBuf::from(message["manifest_path"].as_str().unwrap_or_default());
        let kind = message["target"]["kind"][0].as_str().unwrap_or_default();
        let target = message["target"]["name"].as_str().unwrap_or_default();
        let selected = match kind {
            "bin" | "test" | "bench" | "example" => format!("--{kind} {target}"),
            _ => "--lib".to_owned(),
        };
        let package = package_name(&message["package_id"]);
        found.push(Binary { name: format!("-p {package} {selected}"), executable: executable.into(), manifest });
    }
    found
}

/// A package's name from its id (`path+file:///…/crates/cli#toolporter@0.1.0`, or
/// `path+file:///…/xtask#0.1.0` when the folder has the package's name).
fn package_name(id: &Value) -> String {
    let id = id.as_str().unwrap_or_default();
    let (url, fragment) = id.rsplit_once('#').unwrap_or((id, ""));
    match fragment.split_once('@') {
        Some((name, _)) => name.to_owned(),
        None => url.rsplit('/').next().unwrap_or_default().to_owned(),
    }
}

/// The workspace's packages by manifest path (`cargo metadata`).
fn packages() -> Result<BTreeMap<PathBuf, Value>> {
    let metadata = crate::metadata(&root())?;
    Ok(metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| (PathBuf::from(p["manifest_path"].as_str().unwrap_or_default()), p.clone()))
        .collect())
}

/// What cargo sets for a test binary of `package` (`cargo metadata`'s fields), as `cargo test`
/// does; CARGO itself is inherited (cargo sets it for xtask).
fn cargo_variables(package: &Value) -> Vec<(String, String)> {
    let text = |key: &str| package[key].as_str().unwrap_or_default().to_owned();
    let manifest = text("manifest_path");
    let version = text("version");
    let (release, pre) = version.split_once('-').unwrap_or((&version, ""));
    let mut parts = release.split('.').map(str::to_owned);
    let authors: Vec<&str> = package["authors"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    vec![
        ("CARGO_MANIFEST_DIR".into(), Path::new(&manifest).parent().unwrap_or(Path::new("")).display().to_string()),
        ("CARGO_MANIFEST_PATH".into(), manifest.clone()),
        ("CARGO_PKG_NAME".into(), text("name")),
        ("CARGO_PKG_VERSION".into(), version.clone()),
        ("CARGO_PKG_VERSION_MAJOR".into(), parts.next().unwrap_or_default()),
        ("CARGO_PKG_VERSION_MINOR".into(), parts.next().unwrap_or_default()),
        ("CARGO_PKG_VERSION_PATCH".into(), parts.next().unwrap_or_default()),
        ("CARGO_PKG_VERSION_PRE".into(), pre.to_owned()),
        ("CARGO_PKG_AUTHORS".into(), authors.join(":")),
        ("CARGO_PKG_DESCRIPTION".into(), text("description")),
        ("CARGO_PKG_HOMEPAGE".into(), text("homepage")),
        ("CARGO_PKG_REPOSITORY".into(), text("repository")),
        ("CARGO_PKG_LICENSE".into(), text("license")),
        ("CARGO_PKG_LICENSE_FILE".into(), text("license_file")),
        ("CARGO_PKG_RUST_VERSION".into(), text("rust_version")),
        ("CARGO_PKG_README".into(), text("readme")),
    ]
}

/// The variable the dynamic loader searches, where cargo puts the build folder for tests.
const LIBRARY_PATH: &str = if cfg!(windows) {
    "PATH"
} else if cfg!(target_os = "macos") {
    "DYLD_FALLBACK_LIBRARY_PATH"
} else {
    "LD_LIBRARY_PATH"
};

fn library_path(first: &[&Path]) -> std::ffi::OsString {
    let old = std::env::var_os(LIBRARY_PATH).unwrap_or_default();
    let paths = first.iter().map(|p| p.to_path_buf()).chain(std::env::split_paths(&old));
    std::env::join_paths(paths).unwrap_or(old)
}

/// `cargo test --doc ARGS`, as one job.
pub fn doc_tests(plan: &Plan) -> Result<Option<Job>> {
    // cargo refuses `--doc` for a chosen package without a library (the command line's).
    let chosen = plan.packages();
    if !chosen.is_empty() {
        let with_library = packages()?.into_values().any(|package| {
            chosen.contains(&package["name"].as_str().unwrap_or_default())
                && package["targets"].as_array().into_iter().flatten().any(|t| {
                    t["kind"].as_array().into_iter().flatten().any(|k| k == "lib" || k == "rlib")
                        && t["doctest"] != false
                })
        });
        if !with_library {
            return Ok(None);
        }
    }
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.arg("test").args(plan.scope()).args(plan.cargo_without_workspace());
    if !plan.cargo.iter().any(|a| a == "--doc") {
        command.arg("--doc");
    }
    if !plan.binaries.is_empty() {
        command.arg("--").args(&plan.binaries);
    }
    command.current_dir(root());
    Ok(Some(Job::command("doc tests".into(), command, 0)))
}

/// How one job went.
#[derive(Debug)]
struct Outcome {
    name: String,
    passed: bool,
    took: Duration,
    log: PathBuf,
}

/// Runs `jobs` on `lanes` lanes, the heaviest first, each one's output kept in `logs`; prints
/// each one's output when it ends and a summary at the end. Fails when any job failed, naming each (its output printed above).
pub fn run(mut jobs: Vec<Job>, lanes: usize, logs: &Path) -> Result<()> {
    jobs.sort_by_key(|job| job.weight);
    std::fs::create_dir_all(logs)?;
    println!("running {} test jobs on {lanes} lanes, longest first", jobs.len());
    let started = Instant::now();
    let queue = Mutex::new(jobs.into_iter());
    let outcomes = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..lanes.max(1) {
            scope.spawn(|| {
                loop {
                    let Some(job) = queue.lock().expect("the queue").next() else { break };
                    let log = logs.join(format!("{}.log", file_name(&job.name)));
                    let began = Instant::now();
                    let result = (job.run)(&log);
                    let took = began.elapsed();
                    let passed = match &result {
                        Ok(passed) => *passed,
                        Err(error) => {
                            let _ = std::fs::write(&log, format!("error: {error:#}\n"));
                            false
                        }
                    };
                    let output = std::fs::read_to_string(&log).unwrap_or_default();
                    let mut outcomes = outcomes.lock().expect("the outcomes");
                    // Under the lock: one job's output is never interleaved with another's.
                    println!(
                        "\n==== {} ({}, {:.1} s) ====\n{output}",
                        job.name,
                        if passed { "ok" } else { "FAILED" },
                        took.as_secs_f64()
                    );
                    outcomes.push(Outcome { name: job.name, passed, took, log });
                }
            });
        }
    });
    let outcomes = outcomes.into_inner().expect("the outcomes");
    print!("{}", summary(&outcomes, started.elapsed()));
    let failed: Vec<String> =
        outcomes.iter().filter(|o| !o.passed).map(|o| format!("{} (output: {})", o.name, o.log.display())).collect();
    if !failed.is_empty() {
        bail!("{} of {} test jobs failed:\n  {}", failed.len(), outcomes.len(), failed.join("\n  "));
    }
    Ok(())
}

/// A job's log file name: `toolporter--test-integration` for `-p toolporter --test integration`.
fn file_name(name: &str) -> String {
    let name = name.strip_prefix("-p ").unwrap_or(name);
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect()
}

/// Each job's time and counts (libtest's `test result:` lines summed, or pytest's last line),
/// longest first, and the totals.
fn summary(outcomes: &[Outcome], wall: Duration) -> String {
    let mut sorted: Vec<&Outcome> = outcomes.iter().collect();
    sorted.sort_by_key(|o| std::cmp::Reverse(o.took));
    let mut text = String::from("\n==== summary ====\n");
    let mut totals = [0u64; 3];
    for outcome in sorted {
        let output = std::fs::read_to_string(&outcome.log).unwrap_or_default();
        let counts = counts(&output);
        for (total, n) in totals.iter_mut().zip(counts) {
            *total += n;
        }
        text.push_str(&format!(
            "{:>7.1} s  {:<6} {}  ({} passed, {} failed, {} ignored)\n",
            outcome.took.as_secs_f64(),
            if outcome.passed { "ok" } else { "FAILED" },
            outcome.name,
            counts[0],
            counts[1],
            counts[2]
        ));
    }
    text.push_str(&format!(
        "{} jobs in {:.1} s: {} tests passed, {} failed, {} ignored\n",
        outcomes.len(),
        wall.as_secs_f64(),
        totals[0],
        totals[1],
        totals[2]
    ));
    text
}

/// Passed, failed and ignored (or skipped) tests in a job's output: libtest's `test result:`
/// lines, or pytest's closing line (`3 passed, 1 skipped in 2.0s`).
fn counts(output: &str) -> [u64; 3] {
    let mut counts = [0u64; 3];
    let libtest: Vec<&str> = output.lines().filter_map(|l| l.strip_prefix("test result: ")).collect();
    let pytest = output.lines().rev().find(|l| l.contains(" in ") && (l.contains(" passed") || l.contains(" failed")));
    let lines = if libtest.is_empty() { pytest.into_iter().collect() } else { libtest };
    for line in lines {
        let words: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == ';' || c == ',' || c == '=').collect();
        for pair in words.windows(2) {
            let Ok(n) = pair[0].parse::<u64>() else { continue };
            match pair[1] {
                "passed" => counts[0] += n,
                "failed" | "errors" | "error" => counts[1] += n,
                "ignored" | "skipped" => counts[2] += n,
                _ => {}
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn cargos_arguments_build_the_rest_go_to_each_binary() {
        let plan = Plan::from_args(&args("-p toolporter-core -- locator --nocapture"));
        assert_eq!(plan.cargo, args("-p toolporter-core"));
        // A package chosen: that package, not the workspace.
        assert_eq!(plan.scope(), None);
        assert_eq!(plan.packages(), ["toolporter-core"]);
        assert!(plan.cargo_for_the_workspace().is_empty());
        let several = Plan::from_args(&args("-p a --package b --package=c -pd --test integration --no-run"));
        assert_eq!(several.packages(), ["a", "b", "c", "d"]);
        assert_eq!(several.cargo_for_the_workspace(), ["--test", "integration"]);
        // The workspace is given once, whoever names it.
        let named = Plan::from_args(&args("--workspace --lib"));
        assert_eq!(named.cargo_for_the_workspace(), ["--lib"]);
        assert_eq!(named.cargo_without_workspace().collect::<Vec<_>>(), ["--lib"]);
        assert_eq!(Plan::from_args(&args("--test integration")).scope(), Some("--workspace"));
        assert_eq!(plan.binaries, args("locator --nocapture"));
        assert!(plan.run_binaries && plan.doc_tests);
        // A target chosen: no doc tests, as with cargo test.
        let plan = Plan::from_args(&args("--test integration -- conformance"));
        assert!(plan.run_binaries && !plan.doc_tests);
        let plan = Plan::from_args(&args("--doc"));
        assert!(!plan.run_binaries && plan.doc_tests);
        let plan = Plan::from_args(&args("--no-run"));
        assert!(plan.run_binaries && !plan.doc_tests && plan.no_run);
        assert_eq!(
            Plan::from_args(&[]),
            Plan { cargo: vec![], binaries: vec![], run_binaries: true, doc_tests: true, no_run: false }
        );
    }

    #[test]
    fn test_executables_are_read_from_cargos_messages() {
        let messages = [
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/cli#toolporter@0.1.0","manifest_path":"/w/crates/cli/Cargo.toml","target":{"kind":["test"],"name":"integration"},"profile":{"test":true},"executable":"/w/target/debug/deps/integration-1"}"#,
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/xtask#0.1.0","manifest_path":"/w/xtask/Cargo.toml","target":{"kind":["bin"],"name":"xtask"},"profile":{"test":true},"executable":"/w/target/debug/deps/xtask-2"}"#,
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/core#toolporter-core@0.1.0","manifest_path":"/w/crates/core/Cargo.toml","target":{"kind":["lib"],"name":"toolport_core"},"profile":{"test":true},"executable":"/w/target/debug/deps/toolport_core-3"}"#,
            // The binary `convert` itself (not a test) and a library: not run.
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/cli#toolporter@0.1.0","manifest_path":"/w/crates/cli/Cargo.toml","target":{"kind":["bin"],"name":"convert"},"profile":{"test":false},"executable":"/w/target/debug/convert"}"#,
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/core#toolporter-core@0.1.0","manifest_path":"/w/crates/core/Cargo.toml","target":{"kind":["lib"],"name":"toolport_core"},"profile":{"test":false},"executable":null}"#,
            r#"{"reason":"build-finished","success":true}"#,
        ]
        .join("\n");
        let found: Vec<(String, String)> =
            binaries(&messages).into_iter().map(|b| (b.name, b.executable.display().to_string())).collect();
        assert_eq!(
            found,
            [
                ("-p toolporter --test integration".to_owned(), "/w/target/debug/deps/integration-1".to_owned()),
                ("-p xtask --bin xtask".to_owned(), "/w/target/debug/deps/xtask-2".to_owned()),
                ("-p toolporter-core --lib".to_owned(), "/w/target/debug/deps/toolport_core-3".to_owned()),
            ]
        );
    }

    #[test]
    fn the_longest_jobs_are_real_test_targets() {
        let metadata = crate::metadata(&root()).unwrap();
        for name in LONGEST_FIRST.iter().filter(|name| **name != PYTHON_TESTS) {
            let binary = name.split(" -- ").next().unwrap();
            let [_, package, kind, target] = binary.split(' ').collect::<Vec<_>>()[..] else { panic!("{name}") };
            let found = metadata["packages"].as_array().unwrap().iter().any(|p| {
                p["name"] == package
                    && p["targets"].as_array().unwrap().iter().any(|t| {
                        t["name"] == target && Some(kind) == t["kind"][0].as_str().map(|k| format!("--{k}")).as_deref()
                    })
            });
            assert!(found, "{name} is no test target of the workspace");
        }
    }

    #[test]
    fn doc_tests_run_unless_every_package_chosen_lacks_a_library() {
        let doc_job = |cargo: &str| doc_tests(&Plan::from_args(&args(cargo))).unwrap().is_some();
        assert!(doc_job(""));
        assert!(doc_job("-p toolporter-core"));
        // The command line is a binary only: `cargo test -p toolporter --doc` is refused.
        assert!(!doc_job("-p toolporter"));
        assert!(doc_job("-p toolporter -p toolporter-core"));
    }

    #[test]
    fn the_command_lines_binary_runs_as_two_halves_unless_a_filter_is_given() {
        let names = |user: &str| -> Vec<String> {
            halves("-p toolporter --test integration", &args(user)).into_iter().map(|(n, _)| n).collect()
        };
        // Every split job is one of the longest, so both start first.
        for name in names("") {
            assert!(LONGEST_FIRST.contains(&name.as_str()), "{name}");
        }
        assert_eq!(
            halves("-p toolporter --test integration", &args("--nocapture")),
            [
                ("-p toolporter --test integration -- conformance::".to_owned(), args("conformance::")),
                ("-p toolporter --test integration -- --skip conformance::".to_owned(), args("--skip conformance::")),
            ]
        );
        // A filter of the user's selects tests itself: one job, as cargo would run it.
        assert_eq!(names("isolation"), ["-p toolporter --test integration"]);
        assert_eq!(halves("-p xtask --bin xtask", &[]), [("-p xtask --bin xtask".to_owned(), vec![])]);
    }

    #[test]
    fn every_job_runs_and_a_failure_fails_the_run_with_its_output() {
        let shell = |script: &str| {
            let mut command = Command::new("sh");
            command.args(["-c", script]);
            command
        };
        let passing = Job::command("passes".into(), shell("echo 'test result: ok. 2 passed; 0 failed; 1 ignored'"), 0);
        let failing = Job::command("fails".into(), shell("echo to stderr >&2; exit 3"), 0);
        let python = Job::other("python", || Ok("3 passed, 1 skipped in 0.1s\n".into()));
        let logs = tempfile::tempdir().unwrap();
        let error = run(vec![passing, failing, python], 2, logs.path()).unwrap_err().to_string();
        assert!(error.contains("1 of 3 test jobs failed") && error.contains("fails (output: "), "{error}");
        let log = error.split("output: ").nth(1).unwrap().trim_end_matches(')');
        assert_eq!(std::fs::read_to_string(log).unwrap(), "to stderr\n");
        assert!(run(vec![Job::other("python", || Ok(String::new()))], 2, logs.path()).is_ok());
        assert!(run(vec![Job::other("python", || bail!("pytest failed"))], 1, logs.path()).is_err());
    }

    #[test]
    fn counts_come_from_libtest_and_pytest() {
        let libtest = "running 3 tests\ntest result: ok. 3 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.01s\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured\n";
        assert_eq!(counts(libtest), [4, 1, 2]);
        assert_eq!(counts("....\n54 passed, 2 skipped in 12.30s\n"), [54, 0, 2]);
        assert_eq!(counts("=== 1 failed, 53 passed in 12.30s ===\n"), [53, 1, 0]);
    }
}
