//! `cargo xtask fuzz [--seconds N] [--seed S] [--format ID]...`: release-builds the plugins
//! and `toolport-fuzz`, then fuzzes every format that reads (N seconds each, default 20) with
//! mutated fixtures and corpus documents. A crash (stack overflow, abort) ends the child
//! process: the case it was running is kept and the loop goes on with the next seed.
//! Findings land in target/fuzz/findings/; keep each real one in fuzz/regressions/ once it is
//! fixed, where `cargo xtask test` replays it. Without `--format`, the walker and the commit
//! are fuzzed too, N seconds each (random trees of links, pipes and sockets; commits stopped or
//! killed at a random file; findings to fuzz/regressions/walk/ and commit/).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::{cargo, root};

pub fn run(args: &[String]) -> Result<()> {
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let seconds: u64 = value("--seconds").map_or(Ok(20), |s| s.parse()).context("--seconds")?;
    let mut seed: u64 = value("--seed").map_or(Ok(1), |s| s.parse()).context("--seed")?;
    let formats: Vec<&String> =
        args.iter().enumerate().filter(|(i, _)| *i > 0 && args[i - 1] == "--format").map(|(_, a)| a).collect();
    cargo(&["build", "--release", "--workspace", "--lib", "--bin", "toolport-fuzz"])?;
    let release = root().join("target/release");
    let work = root().join("target/fuzz");
    let findings = work.join("findings");
    std::fs::create_dir_all(&findings)?;
    let case_file = work.join("current-case.json");
    let corpus = root().join("../shared/corpus");
    let mut crashes = 0;
    let formats_to_run: Vec<Option<&String>> =
        if formats.is_empty() { vec![None] } else { formats.iter().map(|f| Some(*f)).collect() };
    for format in formats_to_run {
        let deadline = Instant::now() + Duration::from_secs(seconds * if format.is_some() { 1 } else { 9 });
        // One child per stretch of time; a crash ends it and the next starts with a new seed.
        while Instant::now() < deadline {
            let left = deadline.saturating_duration_since(Instant::now()).as_secs().max(1);
            let mut command = Command::new(release.join("toolport-fuzz"));
            command
                .arg("--plugin-dir")
                .arg(&release)
                .arg("--root")
                .arg(root().join("fixtures"))
                .arg("--root")
                .arg(&corpus);
            command.arg("--case-file").arg(&case_file).arg("--findings").arg(&findings);
            command.args(["--seed", &seed.to_string()]);
            let per_format = if format.is_some() { left } else { (left / 9).max(1) };
            command.args(["--seconds", &per_format.to_string()]);
            if let Some(format) = format {
                command.args(["--format", format]);
            }
            let status = command.status().context("running toolport-fuzz")?;
            if status.code().is_none() || status.code().is_some_and(|c| c > 1) {
                crashes += 1;
                let kept: PathBuf = findings.join(format!("crash-{seed}.json"));
                if std::fs::rename(&case_file, &kept).is_ok() {
                    println!("crash ({status}): case kept in {}", kept.display());
                }
            } else if format.is_none() {
                break;
            }
            seed += 1;
        }
    }
    for target in if formats.is_empty() { &["walk", "commit"][..] } else { &[] } {
        let mut command = Command::new(release.join("toolport-fuzz"));
        command.args(["--target", target, "--seconds", &seconds.to_string(), "--seed", &seed.to_string()]);
        command.arg("--case-file").arg(&case_file).arg("--findings").arg(&findings);
        command.status().with_context(|| format!("running toolport-fuzz --target {target}"))?;
    }
    let kept = std::fs::read_dir(&findings)?.count();
    println!("fuzzing done: {crashes} crashes; {kept} findings in {}", findings.display());
    Ok(())
}
