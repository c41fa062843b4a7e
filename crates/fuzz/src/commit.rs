//! The commit's fuzz target: a batch of inputs, each with a few files, some replacing files
//! already there (`--force`), staged and committed by [`output::Staging`] as `convert` does,
//! and interrupted at a random file: stopped (the stop flag a signal sets), or killed outright
//! (a child process that stages, commits and aborts at that file, leaving its journal). Then
//! a next run starts in the same folder. What must hold ([`judge`]): every input's files are
//! all old or all new (a stopped or killed commit leaves all old; one never interrupted, all
//! new), nothing else is in the folder, and no staging is left.
//!
//! A case is a [`Batch`] and where it is interrupted; findings are kept as data
//! (fuzz/regressions/commit/) and replayed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toolport_host::output::{PlannedFile, Staging};

use crate::Rng;

/// One case: the files there before, each input's new files, and the interruption.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Batch {
    /// Files in the output folder before the run: path and text.
    pub before: Vec<(String, String)>,
    /// Each input's files: path and text.
    pub inputs: Vec<Vec<(String, String)>>,
    pub interrupt: Interrupt,
}

impl Batch {
    /// Whether the commit is interrupted: at a file it has (a stop is asked before each file).
    pub fn interrupted(&self) -> bool {
        let files = self.inputs.iter().map(Vec::len).sum();
        match self.interrupt {
            Interrupt::Never => false,
            Interrupt::Stop(at) | Interrupt::Kill(at) => at < files,
        }
    }
}

/// Where the commit is interrupted: at the file numbered (from 0) in the commit's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interrupt {
    Never,
    Stop(usize),
    Kill(usize),
}

/// A random batch of up to 6 inputs of 1-4 files in nested folders; about a third of the
/// files replace one already there.
pub fn random_batch(rng: &mut Rng) -> Batch {
    let (mut before, mut inputs) = (Vec::new(), Vec::new());
    let mut files = 0;
    for input in 0..1 + rng.below(6) {
        let mut own = Vec::new();
        for file in 0..1 + rng.below(4) {
            let folder = ["", "a/", "a/b/", "c/"][rng.below(4)];
            let path = format!("{folder}in{input}-f{file}.json");
            if rng.below(3) == 0 {
                before.push((path.clone(), format!("old {path}\n")));
            }
            own.push((path.clone(), format!("new {path}\n")));
            files += 1;
        }
        inputs.push(own);
    }
    let interrupt = match rng.below(3) {
        0 => Interrupt::Never,
        1 => Interrupt::Stop(rng.below(files + 1)),
        _ => Interrupt::Kill(rng.below(files)),
    };
    Batch { before, inputs, interrupt }
}

/// Writes the files there before the run.
pub fn prepare(batch: &Batch, out: &Path) -> Result<(), String> {
    for (path, text) in &batch.before {
        let path = out.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Stages every input and commits with `--force`, interrupted as the batch says: a stop makes
/// the commit take back what it placed; a kill aborts this process at that file (so only a
/// child process runs a batch that kills).
pub fn run(batch: &Batch, out: &Path) -> Result<(), String> {
    let staging = Staging::new(out).map_err(|e| e.to_string())?;
    let root = std::path::absolute(out).map_err(|e| e.to_string())?;
    for (n, input) in batch.inputs.iter().enumerate() {
        let files: Vec<(PlannedFile, &[u8])> = input
            .iter()
            .map(|(path, text)| {
                let file = PlannedFile { path: root.join(path), owner: format!("input {n}"), root: root.clone() };
                (file, text.as_bytes())
            })
            .collect();
        staging.stage_all(&files).map_err(|e| e.to_string())?;
    }
    let asked = std::cell::Cell::new(0);
    let stop = || {
        let file = asked.get();
        asked.set(file + 1);
        match batch.interrupt {
            Interrupt::Kill(at) if at == file => std::process::abort(),
            Interrupt::Stop(at) => at == file,
            _ => false,
        }
    };
    let committed = staging.commit_or_stop(true, &stop);
    if !committed.failed.is_empty() {
        return Err(format!("inputs failed to commit: {:?}", committed.failed));
    }
    match committed.stopped {
        Some(left) if !left.is_empty() => Err(format!("a stopped commit left files in place: {left:?}")),
        _ => Ok(()),
    }
}

/// Checks the output folder after the interrupted run and a next one.
pub fn judge(batch: &Batch, out: &Path) -> Result<(), String> {
    let read = |path: &str| std::fs::read_to_string(out.join(path)).ok();
    let old = |path: &str| batch.before.iter().find(|(p, _)| p == path).map(|(_, text)| text.clone());
    for (n, input) in batch.inputs.iter().enumerate() {
        let all_new = input.iter().all(|(path, text)| read(path).as_deref() == Some(text.as_str()));
        let all_old = input.iter().all(|(path, _)| read(path) == old(path));
        let expected_new = !batch.interrupted();
        if !(if expected_new { all_new } else { all_old }) {
            let state: Vec<String> = input.iter().map(|(p, _)| format!("{p}: {:?}", read(p))).collect();
            let want = if expected_new { "all new" } else { "all old" };
            return Err(format!("input {n} is not {want}: {}", state.join(", ")));
        }
    }
    let mut expected: std::collections::BTreeSet<String> = batch.before.iter().map(|(p, _)| p.clone()).collect();
    if !batch.interrupted() {
        expected.extend(batch.inputs.iter().flatten().map(|(p, _)| p.clone()));
    }
    let found: std::collections::BTreeSet<String> = files_under(out).into_keys().collect();
    if found != expected {
        return Err(format!("the folder holds {found:?}, not {expected:?} (staging or strays left)"));
    }
    Ok(())
}

/// Each file under `root` (its path relative to `root`) with its bytes.
pub fn files_under(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, found: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(root, &path, found);
            } else {
                let name = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().into_owned();
                found.insert(name, std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    let mut found = std::collections::BTreeMap::new();
    walk(root, root, &mut found);
    found
}

/// Runs one case in a new folder: prepared, run (in a child process started from `child`,
/// the `toolport-fuzz` executable, when it kills), then a next run's staging made and dropped
/// in the same folder, and judged.
pub fn check(batch: &Batch, child: &Path) -> Result<(), String> {
    let dir = crate::walk::scratch()?;
    let out = dir.path().join("out");
    prepare(batch, &out)?;
    match batch.interrupt {
        Interrupt::Kill(_) => {
            let case = dir.path().join("case.json");
            std::fs::write(&case, serde_json::to_string(batch).unwrap_or_default()).map_err(|e| e.to_string())?;
            let status = std::process::Command::new(child)
                .args(["--target", "commit-child", "--case-file"])
                .arg(&case)
                .arg("--findings")
                .arg(&out)
                .stderr(std::process::Stdio::null())
                .status()
                .map_err(|e| format!("{}: {e}", child.display()))?;
            if status.success() {
                return Err("the child was to be killed during its commit, but ended well".into());
            }
            std::fs::remove_file(&case).map_err(|e| e.to_string())?;
        }
        _ => run(batch, &out)?,
    }
    // The next run in that folder undoes a killed commit from its journal.
    drop(Staging::new(&out).map_err(|e| e.to_string())?);
    judge(batch, &out)
}

/// Commits random batches for `budget`, from `seed`, killed ones in children started from
/// `child`; the batches that fail, with why.
pub fn fuzz(seed: u64, budget: Duration, child: &Path) -> (usize, Vec<(Batch, String)>) {
    let mut rng = Rng::new(seed);
    let started = std::time::Instant::now();
    let (mut cases, mut findings) = (0, Vec::new());
    while started.elapsed() < budget {
        let batch = random_batch(&mut rng);
        cases += 1;
        if let Err(why) = check(&batch, child) {
            findings.push((batch, why));
        }
    }
    (cases, findings)
}

/// Reads every batch kept in `dir` (files ending `.json`), sorted by name.
pub fn kept(dir: &Path) -> Vec<(PathBuf, Batch)> {
    crate::kept_json(dir)
}
