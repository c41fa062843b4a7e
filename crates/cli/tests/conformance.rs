//! Every fixture and every corpus document converted into every target that has a platform
//! validator, each output handed to the library that platform's users run
//! (conformance/validate.py with the validators pinned in conformance/requirements.txt, which
//! `cargo xtask test` installs). Each output must be accepted, or its conversion must fail with
//! an error saying why. The accepted/total matrix is printed and written to
//! target/conformance/matrix.md (README shows it).

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use support::*;

/// Targets with a platform validator (conformance/targets/<id>.py).
const TARGETS: [&str; 7] = ["mcp", "openai", "anthropic", "gemini", "openapi", "vertex", "raycast"];

/// Files in the corpus that are not inputs of their folder's format (execute requests, auth
/// samples, notes).
fn is_input(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    !(name.ends_with(".md") || name.contains("execute_requests") || name.contains("auth_configs"))
}

/// (format, path) for every fixture and corpus document of every format that reads.
fn inputs() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for root in [workspace_root().join("fixtures"), toolport_testkit::corpus("")] {
        let Ok(formats) = std::fs::read_dir(&root) else { continue };
        let mut formats: Vec<PathBuf> = formats.map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
        formats.sort();
        for dir in formats {
            let format = dir.file_name().unwrap().to_string_lossy().into_owned();
            collect(&format, &dir, &mut out);
        }
    }
    out
}

fn collect(format: &str, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if format == "raycast" {
                // An extension folder is one input; the broken fixture is refused on purpose.
                out.push((format.to_owned(), path));
            } else {
                collect(format, &path, out);
            }
        } else if format != "raycast" && is_input(&path) {
            out.push((format.to_owned(), path));
        }
    }
}

fn python() -> Option<PathBuf> {
    let path = std::env::var_os("TOOLPORT_CONFORMANCE_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/conformance/venv/bin/python"));
    path.exists().then_some(path)
}

/// What became of one input in one target.
enum Verdict {
    /// Converted; these outputs go to the validator.
    Written(Vec<PathBuf>),
    /// The conversion failed with an error that says why.
    Refused,
}

#[test]
fn every_output_is_accepted_by_its_platforms_validator() {
    let Some(python) = python() else {
        panic!(
            "the conformance validators are not installed: run `cargo xtask test` (it installs conformance/requirements.txt into target/conformance/venv), or set TOOLPORT_CONFORMANCE_PYTHON"
        );
    };
    let work = tempfile::tempdir().unwrap();
    let inputs = inputs();
    let jobs: Vec<(usize, &str)> = (0..inputs.len()).flat_map(|i| TARGETS.map(|t| (i, t))).collect();
    let verdicts: Vec<((usize, &str), Verdict)> = std::thread::scope(|scope| {
        let workers: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|chunk| {
                let (inputs, work) = (&inputs, work.path());
                scope.spawn(move || {
                    chunk.iter().map(|&(i, to)| ((i, to), convert(work, &inputs[i], i, to))).collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });

    let mut items = Vec::new();
    for ((_, to), verdict) in &verdicts {
        if let Verdict::Written(paths) = verdict {
            for path in paths {
                items.push(serde_json::json!({"target": to, "path": path}));
            }
        }
    }
    let mut child = std::process::Command::new(&python)
        .arg(workspace_root().join("conformance/validate.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let request = serde_json::to_vec(&items).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &request));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "validate.py failed");
    let results: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();

    // Per target: outputs accepted, conversions refused with a reason, outputs rejected.
    let mut matrix: BTreeMap<&str, (usize, usize, usize)> = TARGETS.iter().map(|t| (*t, (0, 0, 0))).collect();
    let mut rejected = Vec::new();
    for ((_, to), verdict) in &verdicts {
        if matches!(verdict, Verdict::Refused) {
            matrix.get_mut(to).unwrap().1 += 1;
        }
    }
    for result in &results {
        let to = result["target"].as_str().unwrap();
        let row = matrix.get_mut(TARGETS.iter().find(|t| **t == to).unwrap()).unwrap();
        if result["ok"] == true {
            row.0 += 1;
        } else {
            row.2 += 1;
            let path = result["path"].as_str().unwrap();
            let source = inputs.iter().enumerate().find(|(i, (f, _))| path.contains(&format!("/{to}/{i}-{f}")));
            let from = source.map(|(_, (f, p))| format!("{f} {}", short(p))).unwrap_or_default();
            rejected.push((format!("{from} -> {to}"), result["errors"].to_string()));
        }
    }
    let mut table = String::from("| target | accepted | refused with a reason | rejected |\n|---|---|---|---|\n");
    for (to, (accepted, refused, bad)) in &matrix {
        table.push_str(&format!("| {to} | {accepted}/{} | {refused} | {bad} |\n", accepted + bad));
    }
    println!("{} inputs x {} targets\n{table}", inputs.len(), TARGETS.len());
    let mut slowest: Vec<(f64, String)> = results
        .iter()
        .map(|r| (r["seconds"].as_f64().unwrap_or(0.0), format!("{} {}", r["target"], r["path"])))
        .collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = slowest.iter().map(|s| s.0).sum();
    println!("validation took {total:.1} s; slowest: {:#?}", &slowest[..slowest.len().min(8)]);
    let _ = std::fs::create_dir_all(workspace_root().join("target/conformance"));
    let _ = std::fs::write(workspace_root().join("target/conformance/matrix.md"), &table);
    // Known rejections are listed, each under the issue that tracks it, so that a new rejection
    // fails and a fixed one must be taken off the list.
    let known_text = std::fs::read_to_string(workspace_root().join("conformance/known-rejections.txt")).unwrap();
    let known: std::collections::BTreeSet<&str> =
        known_text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    let found: std::collections::BTreeSet<&str> = rejected.iter().map(|(key, _)| key.as_str()).collect();
    let new: Vec<String> = rejected
        .iter()
        .filter(|(key, _)| !known.contains(key.as_str()))
        .map(|(key, why)| format!("{key}: {why}"))
        .collect();
    let fixed: Vec<&&str> = known.difference(&found).collect();
    assert!(new.is_empty(), "{} outputs rejected by their platform's validator:\n{}", new.len(), new.join("\n"));
    assert!(fixed.is_empty(), "accepted now, take them off conformance/known-rejections.txt:\n{fixed:#?}");
}

/// An input's path as the list names it: `fixtures/...` or `corpus/...`.
fn short(path: &Path) -> String {
    let text = path.display().to_string();
    match (text.find("/fixtures/"), text.find("/corpus/")) {
        (Some(i), _) | (None, Some(i)) => text[i + 1..].to_owned(),
        _ => text,
    }
}

/// Converts one input to one target in its own folder.
fn convert(work: &Path, (from, input): &(String, PathBuf), index: usize, to: &str) -> Verdict {
    let started = std::time::Instant::now();
    let verdict = convert_timed(work, (from, input), index, to);
    let took = started.elapsed().as_secs_f64();
    if took > 3.0 {
        println!("slow conversion: {from} {} -> {to}: {took:.1} s", short(input));
    }
    verdict
}

fn convert_timed(work: &Path, (from, input): (&String, &PathBuf), index: usize, to: &str) -> Verdict {
    let out = work.join(format!("{to}/{index}-{from}"));
    let run = run_in(
        work,
        &["-q", "--from", from, "--to", to, input.to_str().unwrap(), "-o", &format!("{}/", out.display())],
    );
    match run.code {
        Some(0) if to == "raycast" => Verdict::Written(vec![out]),
        Some(0) => {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().path()).collect();
            files.sort();
            Verdict::Written(files)
        }
        Some(1) if run.stderr.contains("error[") || run.stderr.contains("error:") => Verdict::Refused,
        other => panic!("{from} {} -> {to}: exit {other:?} without a reason:\n{}", input.display(), run.stderr),
    }
}
