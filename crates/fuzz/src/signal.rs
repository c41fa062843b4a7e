//! The commit target with real signals: `convert` itself, run in a child process over a batch
//! of inputs (some of whose outputs are already there and replaced, `--force`), is sent
//! SIGINT or SIGTERM at a random moment of its run. Where [`crate::commit`] stops or aborts
//! the commit at a chosen file from inside, this goes through convert's own signal handling,
//! wherever the signal lands (reading, converting, staging, placing, reporting). What must
//! hold ([`judge`]): the run exits 128 + the signal with its report saying so (or ended well
//! before the signal came, all placed); every input's files are all old or all new, as the
//! report says (`outputs_placed`); nothing else is in the output folder, and no staging is left.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::Rng;
use crate::commit::files_under;

/// One case: how many inputs, which of them have an output already there, which signal and
/// when (in milliseconds after the run started).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignalCase {
    pub inputs: usize,
    pub replaced: Vec<usize>,
    /// `INT` or `TERM`.
    pub signal: String,
    pub after_ms: u64,
}

/// A random case whose signal lands within `span` (the time one whole run takes).
pub fn random_case(rng: &mut Rng, span: Duration) -> SignalCase {
    let inputs = 20 + rng.below(60);
    let replaced = (0..inputs).filter(|_| rng.below(3) == 0).collect();
    let signal = ["INT", "TERM"][rng.below(2)].to_owned();
    let after_ms = rng.below(span.as_millis() as usize + 1) as u64;
    SignalCase { inputs, replaced, signal, after_ms }
}

/// A small SkyDeck document for input `i`: Raycast writes each as a folder of several files.
fn input_text(i: usize) -> String {
    format!(
        r#"{{"model_prompt": "Say {{{{x}}}} {i}", "metadata": {{"prompt_name": "tool {i}", "description": "says {i}", "variables": [{{"name": "x", "type": "text", "description": "what"}}]}}}}"#
    )
}

/// The old file of an input whose output is already there (its folder holds only it).
fn old_text(i: usize) -> String {
    format!("old {i}\n")
}

/// Writes `inputs` inputs under `dir/in`, and the old outputs of `replaced` under `dir/out`.
fn prepare(dir: &Path, inputs: usize, replaced: &[usize]) -> Result<(), String> {
    let at = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir.join("in")).map_err(at)?;
    for i in 0..inputs {
        std::fs::write(dir.join(format!("in/t{i}.json")), input_text(i)).map_err(at)?;
    }
    for &i in replaced {
        std::fs::create_dir_all(dir.join(format!("out/t{i}"))).map_err(at)?;
        std::fs::write(dir.join(format!("out/t{i}/package.json")), old_text(i)).map_err(at)?;
    }
    Ok(())
}

/// `convert` over `dir/in` into `dir/out` (replacing what is there), with a report.
fn start(convert: &Path, dir: &Path) -> Result<std::process::Child, String> {
    Command::new(convert)
        .current_dir(dir)
        .env("HOME", dir)
        .env_remove("XDG_DATA_HOME")
        .env_remove("TOOLPORT_PLUGIN_PATH")
        .args(["-q", "--from", "skydeck", "--to", "raycast", "--force", "in", "-o", "out", "--report", "report.json"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", convert.display()))
}

/// The outputs of a whole run of `inputs` inputs (file path → bytes), and how long it took.
pub fn reference(convert: &Path, inputs: usize) -> Result<(BTreeMap<String, Vec<u8>>, Duration), String> {
    let dir = crate::walk::scratch()?;
    prepare(dir.path(), inputs, &[])?;
    let started = Instant::now();
    let output = start(convert, dir.path())?.wait_with_output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("the whole run failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok((files_under(&dir.path().join("out")), started.elapsed()))
}

/// Runs one case (`full`: a whole run's outputs of at least as many inputs) and judges it.
pub fn check(case: &SignalCase, convert: &Path, full: &BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    let dir = crate::walk::scratch()?;
    prepare(dir.path(), case.inputs, &case.replaced)?;
    let mut child = start(convert, dir.path())?;
    std::thread::sleep(Duration::from_millis(case.after_ms));
    let finished_before = child.try_wait().map_err(|e| e.to_string())?.is_some();
    if !finished_before {
        let sent = Command::new("kill")
            .args([format!("-{}", case.signal), child.id().to_string()])
            .status()
            .map_err(|e| format!("kill: {e}"))?;
        if !sent.success() {
            return Err("kill failed".into());
        }
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report: Option<serde_json::Value> =
        std::fs::read_to_string(dir.path().join("report.json")).ok().and_then(|t| serde_json::from_str(&t).ok());
    let interrupted = report.as_ref().map(|r| r["summary"]["interrupted"].clone()).filter(|i| !i.is_null());
    let placed = match (&interrupted, output.status.code()) {
        // Ended before the signal (or handled it after all was done): all placed, exit 0.
        (None, Some(0)) => true,
        (Some(said), Some(code)) => {
            let expected = if case.signal == "INT" { 130 } else { 143 };
            if code != expected || said["signal"] != format!("SIG{}", case.signal) {
                return Err(format!("exit {code}, report says {said}, for SIG{}: {stderr}", case.signal));
            }
            said["outputs_placed"].as_bool().ok_or_else(|| format!("no outputs_placed in {said}"))?
        }
        // Killed by the signal before convert's handling was installed (its first moments):
        // nothing may have been placed.
        (None, None) if report.is_none() => false,
        // Signalled before the run began (plugins loading): it ends at once and says so.
        (None, Some(code)) if report.is_none() && code == 128 + signal_number(&case.signal) => {
            if !stderr.contains("no run under way") {
                return Err(format!("exit {code} before the run began, without saying so: {stderr}"));
            }
            false
        }
        (_, code) => return Err(format!("exit {code:?} without a report saying it was interrupted: {stderr}")),
    };
    judge(case, &dir.path().join("out"), full, placed)
}

/// The number of a signal the cases send.
fn signal_number(name: &str) -> i32 {
    if name == "INT" { 2 } else { 15 }
}

/// Checks the output folder: each input all new (as in `full`) when `placed`, else all old
/// (its old file alone, or nothing); nothing else, no staging.
pub fn judge(case: &SignalCase, out: &Path, full: &BTreeMap<String, Vec<u8>>, placed: bool) -> Result<(), String> {
    let found = files_under(out);
    let mut expected = BTreeMap::new();
    for i in 0..case.inputs {
        let folder = format!("t{i}/");
        if placed {
            expected.extend(full.iter().filter(|(p, _)| p.starts_with(&folder)).map(|(p, b)| (p.clone(), b.clone())));
        } else if case.replaced.contains(&i) {
            expected.insert(format!("{folder}package.json"), old_text(i).into_bytes());
        }
    }
    if found == expected {
        return Ok(());
    }
    let differ: Vec<&String> =
        found.keys().chain(expected.keys()).filter(|p| found.get(*p) != expected.get(*p)).take(8).collect();
    let want = if placed { "all new" } else { "all old" };
    Err(format!("the output folder is not {want} (staging or strays, or inputs half placed): {differ:?}"))
}

/// Runs `runs` random cases from `seed` against `convert`; the cases that fail, with why.
pub fn fuzz(seed: u64, runs: usize, convert: &Path) -> Result<Vec<(SignalCase, String)>, String> {
    let mut rng = Rng::new(seed);
    let most = 80;
    let (full, took) = reference(convert, most)?;
    let mut findings = Vec::new();
    for _ in 0..runs {
        let case = random_case(&mut rng, took);
        if let Err(why) = check(&case, convert, &full) {
            findings.push((case, why));
        }
    }
    Ok(findings)
}
