//! Every fixture and every corpus document converted into every target, in each shape a
//! target's options give (openai strict and Responses, anthropic strict, gemini's JSON Schema
//! form), and back into its own format. Two checks read the results, both outside toolport:
//!
//! - the platforms' validators (conformance/validate.py, the libraries pinned in
//!   conformance/requirements.txt that `cargo xtask test` installs): each output must be
//!   accepted, or its conversion must fail with an error saying why. The matrix is printed and
//!   written to target/conformance/matrix.md (README shows it);
//! - the fidelity oracle (conformance/oracle.py): source and output read by independent
//!   readers and compared by meaning; every difference must be named by a diagnostic of the
//!   run's report. The counts per pair are printed and written to target/conformance/oracle.md.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use support::*;

/// A target in one of its shapes: the format, and the options that give the shape.
struct Target {
    label: &'static str,
    format: &'static str,
    options: &'static [&'static str],
}

const TARGETS: [Target; 20] = [
    Target { label: "mcp", format: "mcp", options: &[] },
    Target { label: "mcp-prompts", format: "mcp-prompts", options: &[] },
    Target { label: "mcpb", format: "mcpb", options: &[] },
    Target { label: "mcp-server", format: "mcp-server", options: &[] },
    Target { label: "openai", format: "openai", options: &[] },
    Target { label: "openai strict", format: "openai", options: &["strict=true"] },
    Target { label: "openai responses", format: "openai", options: &["form=responses"] },
    Target { label: "anthropic", format: "anthropic", options: &[] },
    Target { label: "anthropic strict", format: "anthropic", options: &["strict=true"] },
    Target { label: "bedrock", format: "bedrock", options: &[] },
    Target { label: "bedrock-agent", format: "bedrock-agent", options: &[] },
    Target { label: "gemini", format: "gemini", options: &[] },
    Target { label: "gemini json", format: "gemini", options: &["schema=json"] },
    Target { label: "openapi", format: "openapi", options: &[] },
    Target { label: "openapi gpt-actions", format: "openapi", options: &["profile=gpt-actions"] },
    Target { label: "openapi bedrock-agent", format: "openapi", options: &["profile=bedrock-agent"] },
    Target { label: "vertex", format: "vertex", options: &[] },
    Target { label: "raycast", format: "raycast", options: &[] },
    Target { label: "adk", format: "adk", options: &[] },
    Target { label: "m365", format: "m365", options: &[] },
];

/// Targets the oracle reads besides those above (no platform validator of their own).
const ORACLE_ONLY: [Target; 2] = [
    Target { label: "gloodata", format: "gloodata", options: &[] },
    Target { label: "skydeck", format: "skydeck", options: &[] },
];

/// Formats whose document is a folder (a Raycast extension, an MCP server's server.json and
/// manifest.json, a Copilot API plugin's manifest and spec): one input, one output, read back
/// as a whole.
const FOLDER_FORMATS: [&str; 3] = ["raycast", "mcp-server", "m365"];

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
            if FOLDER_FORMATS.contains(&format) {
                // An extension folder is one input; the broken fixture is refused on purpose.
                out.push((format.to_owned(), path));
            } else {
                collect(format, &path, out);
            }
        } else if !FOLDER_FORMATS.contains(&format) && is_input(&path) {
            out.push((format.to_owned(), path));
        }
    }
}

fn python() -> PathBuf {
    let path = std::env::var_os("TOOLPORT_CONFORMANCE_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/conformance/venv/bin/python"));
    assert!(
        path.exists(),
        "the conformance validators are not installed: run `cargo xtask test` (it installs conformance/requirements.txt into target/conformance/venv), or set TOOLPORT_CONFORMANCE_PYTHON"
    );
    path
}

/// Inputs over a megabyte (the GitHub and Stripe descriptions) are converted into each
/// target's default shape only, and not back: each of those conversions takes seconds in a
/// debug build, and the small inputs already cover every option's shape.
fn is_large(path: &Path) -> bool {
    path.is_file() && path.metadata().is_ok_and(|m| m.len() > 1 << 20)
}

/// What became of one input in one target.
enum Verdict {
    /// Converted: where the output went (a file or folder the oracle reads), the files for the
    /// validator, the report, and the round trip back to the source's format if it converted.
    Written { output: PathBuf, files: Vec<PathBuf>, report: PathBuf, round_trip: Option<(PathBuf, PathBuf)> },
    /// The conversion failed with an error that says why.
    Refused,
}

struct Conversion {
    input: usize,
    target: &'static Target,
    verdict: Verdict,
}

struct Conversions {
    _work: tempfile::TempDir,
    inputs: Vec<(String, PathBuf)>,
    done: Vec<Conversion>,
}

/// Every input converted into every target once per test run, shared by the validator check
/// and the oracle. The conversions run as batches, as a migration script runs `convert`: one
/// run per source format, target shape and bucket of inputs, and one run back per batch: about
/// 570 runs where a run per input and target made 3,600, each loading every plugin (the
/// suite's system time fell from 52 to 15 s).
fn conversions() -> &'static Conversions {
    static DONE: OnceLock<Conversions> = OnceLock::new();
    DONE.get_or_init(|| {
        let work = tempfile::tempdir().unwrap();
        let inputs = inputs();
        let batches = batches(&inputs);
        // Two workers, by bytes read.
        let halves = deal_in_two(batches.iter().map(|b| (b.weight(&inputs), b)).collect());
        let done = std::thread::scope(|scope| {
            let workers: Vec<_> = halves
                .iter()
                .map(|half| {
                    let (inputs, work) = (&inputs, work.path());
                    scope.spawn(move || {
                        half.iter().flat_map(|batch| convert_batch(work, inputs, batch)).collect::<Vec<_>>()
                    })
                })
                .collect();
            let mut done: Vec<Conversion> = workers.into_iter().flat_map(|w| w.join().unwrap()).collect();
            // In the order the inputs and targets are listed, whatever the batches.
            let rank =
                |c: &Conversion| TARGETS.iter().chain(ORACLE_ONLY.iter()).position(|t| t.label == c.target.label);
            done.sort_by_key(|c| (c.input, rank(c)));
            done
        });
        Conversions { _work: work, inputs, done }
    })
}

/// Weighed items dealt to two workers: each, heaviest first, to the one with less weight so far
/// (ties in the order given, so a run deals the same way every time).
fn deal_in_two<T>(mut weighed: Vec<(u64, T)>) -> [Vec<T>; 2] {
    weighed.sort_by_key(|(weight, _)| std::cmp::Reverse(*weight));
    let mut halves: [Vec<T>; 2] = [Vec::new(), Vec::new()];
    let mut loads = [0u64; 2];
    for (weight, item) in weighed {
        let lighter = usize::from(loads[1] < loads[0]);
        loads[lighter] += weight;
        halves[lighter].push(item);
    }
    halves
}

/// Inputs of one format converted into one target shape by one run of `convert`.
struct Batch {
    /// Its folder's name under the work folder: the target's label, the format, the bucket.
    name: String,
    from: String,
    target: &'static Target,
    inputs: Vec<usize>,
}

impl Batch {
    /// Bytes read: a large spec weighs what many small files do.
    fn weight(&self, inputs: &[(String, PathBuf)]) -> u64 {
        self.inputs.iter().map(|&i| 4096 + inputs[i].1.metadata().map_or(0, |m| m.len())).sum()
    }
}

/// The batches: per source format and target shape, the inputs converted there (large ones to
/// each target's default shape only, and not to adk), in buckets where no two inputs share a
/// name (their outputs would have one: `convert` refuses such a batch whole).
fn batches(inputs: &[(String, PathBuf)]) -> Vec<Batch> {
    let mut batches = Vec::new();
    for target in TARGETS.iter().chain(ORACLE_ONLY.iter()) {
        let mut buckets: BTreeMap<&str, Vec<Vec<usize>>> = BTreeMap::new();
        let mut names: BTreeMap<(&str, usize), std::collections::BTreeSet<String>> = BTreeMap::new();
        for (i, (from, path)) in inputs.iter().enumerate() {
            // ADK builds every tool of a spec by expanding its references in memory: the GitHub
            // and Stripe agents took over 6 GB and minutes to import, so large inputs are not
            // converted to adk here (docs/formats/adk.md).
            if is_large(path) && (!target.options.is_empty() || target.format == "adk") {
                continue;
            }
            let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            let of_format = buckets.entry(from.as_str()).or_default();
            let k = (0..).find(|k| names.get(&(from.as_str(), *k)).is_none_or(|n| !n.contains(&name))).unwrap();
            if k == of_format.len() {
                of_format.push(Vec::new());
            }
            of_format[k].push(i);
            names.entry((from.as_str(), k)).or_default().insert(name);
        }
        for (from, buckets) in buckets {
            for (k, bucket) in buckets.into_iter().enumerate() {
                let name = format!("{}/{from}-{k}", target.label.replace(' ', "-"));
                batches.push(Batch { name, from: from.to_owned(), target, inputs: bucket });
            }
        }
    }
    batches
}

/// The entries of a run's report, by the input each names.
fn report_entries(report: &Path, run: &Run) -> BTreeMap<String, serde_json::Value> {
    // A batch refused whole (two outputs of one name) writes no report: its reason is on stderr.
    let text = std::fs::read_to_string(report)
        .unwrap_or_else(|e| panic!("{}: {e}; the run said:\n{}", report.display(), run.stderr));
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entries = report["inputs"].as_array().cloned().unwrap_or_default();
    entries.into_iter().map(|e| (e["input"].as_str().unwrap_or_default().to_owned(), e)).collect()
}

/// One input's part of a batch's report, as a report of its own (the oracle reads every
/// diagnostic of the reports it is given).
fn report_of_one(entry: &serde_json::Value, path: &Path) -> PathBuf {
    std::fs::write(path, serde_json::json!({"inputs": [entry]}).to_string()).unwrap();
    path.to_owned()
}

/// What an input's report entry says was written: the document (its one file, or the folder
/// its files are in) and the files the validators read (a folder's entries). Alone in its run,
/// an input's files are the output folder's; in a batch, `convert` gives each input that
/// writes more than one file a folder of its own.
fn written(out: &Path, entry: &serde_json::Value, to: &str, alone: bool) -> (PathBuf, Vec<PathBuf>) {
    let top = if alone {
        out.to_owned()
    } else {
        let outputs: Vec<PathBuf> =
            entry["outputs"].as_array().into_iter().flatten().filter_map(|o| o.as_str()).map(PathBuf::from).collect();
        let first = outputs.first().unwrap_or_else(|| panic!("converted without outputs: {entry}"));
        let relative =
            first.strip_prefix(out).unwrap_or_else(|_| panic!("{} is not under {}", first.display(), out.display()));
        let top = out.join(relative.components().next().unwrap());
        if !top.is_dir() {
            return (top.clone(), vec![top]);
        }
        top
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&top).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    if to == "raycast" {
        (top.clone(), vec![top])
    } else if files.len() == 1 && !FOLDER_FORMATS.contains(&to) {
        (files[0].clone(), files)
    } else {
        (top, files)
    }
}

fn run_convert(
    work: &Path,
    from: &str,
    to: &str,
    options: &[&str],
    inputs: &[&Path],
    out: &Path,
    report: &Path,
) -> Run {
    let mut args: Vec<String> = ["-q", "--from", from, "--to", to].map(str::to_owned).to_vec();
    for option in options {
        args.extend(["--option".to_owned(), (*option).to_owned()]);
    }
    args.extend(inputs.iter().map(|p| p.display().to_string()));
    args.extend(["-o".to_owned(), format!("{}/", out.display()), "--report".to_owned(), report.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_in(work, &args)
}

/// Whether a run's exit is one `convert` gives for a batch (0: all converted; 1: some failed,
/// each with an error in the report), else panics with what it printed.
fn check_exit(run: &Run, what: &str) {
    assert!(matches!(run.code, Some(0 | 1)), "{what}: exit {:?}:\n{}", run.code, run.stderr);
}

/// Converts a batch, and back into the source's format what can go back; a verdict per input.
fn convert_batch(work: &Path, inputs: &[(String, PathBuf)], batch: &Batch) -> Vec<Conversion> {
    let started = std::time::Instant::now();
    let (from, target) = (batch.from.as_str(), batch.target);
    let out = work.join(&batch.name);
    let report = work.join(format!("{}.report.json", batch.name));
    let paths: Vec<&Path> = batch.inputs.iter().map(|&i| inputs[i].1.as_path()).collect();
    let run = run_convert(work, from, target.format, target.options, &paths, &out, &report);
    check_exit(&run, &format!("{from} -> {}", target.label));
    let entries = report_entries(&report, &run);
    let mut verdicts = Vec::new();
    let mut back_inputs: Vec<(usize, PathBuf)> = Vec::new();
    for (n, &i) in batch.inputs.iter().enumerate() {
        let path = &inputs[i].1;
        let entry =
            entries.get(&path.display().to_string()).unwrap_or_else(|| panic!("{}: not in the report", path.display()));
        if !converted(entry, &format!("{from} {} -> {}", path.display(), target.label)) {
            verdicts.push(Verdict::Refused);
            continue;
        }
        let (output, files) = written(&out, entry, target.format, batch.inputs.len() == 1);
        let report = report_of_one(entry, &work.join(format!("{}-{n}.report.json", batch.name)));
        // Several documents (one SkyDeck file per tool) do not go back as one.
        let one_document = !output.is_dir() || FOLDER_FORMATS.contains(&target.format);
        if !is_large(path) && one_document {
            back_inputs.push((verdicts.len(), output.clone()));
        }
        verdicts.push(Verdict::Written { output, files, report, round_trip: None });
    }
    round_trips(work, batch, &back_inputs, &mut verdicts);
    let took = started.elapsed().as_secs_f64();
    if took > 10.0 {
        println!("slow batch: {from} -> {} ({} inputs): {took:.1} s", target.label, batch.inputs.len());
    }
    batch.inputs.iter().zip(verdicts).map(|(&input, verdict)| Conversion { input, target, verdict }).collect()
}

/// Whether a report entry says its input was converted; one that was not must say why (an
/// error among its diagnostics), else the conversion `what` fails the test.
fn converted(entry: &serde_json::Value, what: &str) -> bool {
    if entry["status"].as_str().unwrap_or_default().starts_with("converted") {
        return true;
    }
    let says_why = entry["diagnostics"].as_array().into_iter().flatten().any(|d| d["severity"] == "error");
    assert!(says_why, "{what}: not converted, and no error says why: {entry}");
    false
}

/// The outputs (`back_inputs`: the verdict's place, the output) converted back into the
/// batch's source format in one run; each converted one's output and report go into its verdict.
fn round_trips(work: &Path, batch: &Batch, back_inputs: &[(usize, PathBuf)], verdicts: &mut [Verdict]) {
    if back_inputs.is_empty() {
        return;
    }
    let (from, to) = (batch.from.as_str(), batch.target.format);
    let back = work.join(format!("{}.back", batch.name));
    let report = work.join(format!("{}.back.report.json", batch.name));
    let paths: Vec<&Path> = back_inputs.iter().map(|(_, p)| p.as_path()).collect();
    let run = run_convert(work, to, from, &[], &paths, &back, &report);
    check_exit(&run, &format!("{} -> {from}", batch.target.label));
    let entries = report_entries(&report, &run);
    for (n, (place, output)) in back_inputs.iter().enumerate() {
        let entry = entries
            .get(&output.display().to_string())
            .unwrap_or_else(|| panic!("{}: not in the report", output.display()));
        if !converted(entry, &format!("{} -> {from}", output.display())) {
            continue;
        }
        let (document, _) = written(&back, entry, from, back_inputs.len() == 1);
        let report = report_of_one(entry, &work.join(format!("{}.back-{n}.report.json", batch.name)));
        if let Verdict::Written { round_trip, .. } = &mut verdicts[*place] {
            *round_trip = Some((document, report));
        }
    }
}

/// Runs a Python script of conformance/ over a JSON request; returns its JSON answer.
fn python_json(script: &str, request: &serde_json::Value) -> Vec<serde_json::Value> {
    let mut child = std::process::Command::new(python())
        .arg(workspace_root().join("conformance").join(script))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let request = serde_json::to_vec(request).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &request));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "{script} failed");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `python_json` over `items` in two processes side by side, the results back in the items'
/// order: validation and the oracle are the suite's longest steps. The items of one input
/// (its `input`) stay in one process, whose caches then serve them all (a schema checked once
/// for every target it reaches, a source read once); the inputs go to the lighter half, the
/// heaviest first, weighed by the size of the files at the items' `paths` (a check's time grows
/// with its document: the largest specs' MCP outputs took 157 and 109 s).
fn python_json_in_two(script: &str, items: &[serde_json::Value], paths: &[&str]) -> Vec<serde_json::Value> {
    // A small document still costs a process start or an import's share.
    const ITEM_BYTES: u64 = 64 << 10;
    let weight = |item: &serde_json::Value| {
        let size = |key: &&str| std::fs::metadata(item[*key].as_str().unwrap_or_default()).map_or(0, |m| m.len());
        ITEM_BYTES + paths.iter().map(size).sum::<u64>()
    };
    let mut inputs: BTreeMap<u64, (u64, Vec<usize>)> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let input = inputs.entry(item["input"].as_u64().unwrap_or_default()).or_default();
        input.0 += weight(item);
        input.1.push(i);
    }
    let mut halves = deal_in_two(inputs.into_values().collect()).map(|half| half.concat());
    for half in &mut halves {
        // In the items' order: a process's caches keep the last sources it read.
        half.sort_unstable();
    }
    let answers: Vec<(Vec<usize>, Vec<serde_json::Value>)> = std::thread::scope(|scope| {
        let running: Vec<_> = halves
            .into_iter()
            .map(|half| {
                scope.spawn(move || {
                    let request = serde_json::Value::Array(half.iter().map(|&i| items[i].clone()).collect());
                    let results = if half.is_empty() { Vec::new() } else { python_json(script, &request) };
                    (half, results)
                })
            })
            .collect();
        running.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let mut ordered = vec![serde_json::Value::Null; items.len()];
    for (indices, results) in answers {
        assert_eq!(indices.len(), results.len(), "{script} answered every item");
        for (i, result) in indices.into_iter().zip(results) {
            ordered[i] = result;
        }
    }
    ordered
}

/// Lines of a ledger file under conformance/: what is known and tracked, one entry a line.
fn ledger(name: &str) -> std::collections::BTreeSet<String> {
    let text = std::fs::read_to_string(workspace_root().join("conformance").join(name)).unwrap();
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_owned).collect()
}

#[test]
fn every_output_is_accepted_by_its_platforms_validator() {
    let all = conversions();
    let mut items = Vec::new();
    for c in &all.done {
        if let (Verdict::Written { files, .. }, true) = (&c.verdict, TARGETS.iter().any(|t| t.label == c.target.label))
        {
            for path in files {
                items.push(
                    serde_json::json!({"target": c.target.format, "label": c.target.label, "path": path, "input": c.input}),
                );
            }
        }
    }
    let results = python_json_in_two("validate.py", &items, &["path"]);
    // Per target: outputs accepted, conversions refused with a reason, outputs rejected.
    let mut matrix: BTreeMap<&str, (usize, usize, usize)> = TARGETS.iter().map(|t| (t.label, (0, 0, 0))).collect();
    for c in &all.done {
        if let (Verdict::Refused, Some(row)) = (&c.verdict, matrix.get_mut(c.target.label)) {
            row.1 += 1;
        }
    }
    let mut rejected = Vec::new();
    for (result, item) in results.iter().zip(&items) {
        let label = item["label"].as_str().unwrap();
        let row = matrix.get_mut(label).unwrap();
        if result["ok"] == true {
            row.0 += 1;
        } else {
            row.2 += 1;
            let path = result["path"].as_str().unwrap();
            let source = all.done.iter().find(|c| {
                c.target.label == label
                    && matches!(&c.verdict, Verdict::Written { files, .. } if files.iter().any(|f| f.to_str() == Some(path)))
            });
            let from = source
                .map(|c| format!("{} {}", all.inputs[c.input].0, short(&all.inputs[c.input].1)))
                .unwrap_or_default();
            rejected.push((format!("{from} -> {label}"), result["errors"].to_string()));
        }
    }
    let mut table = String::from("| target | accepted | refused with a reason | rejected |\n|---|---|---|---|\n");
    for t in &TARGETS {
        let (accepted, refused, bad) = matrix[t.label];
        table.push_str(&format!("| {} | {accepted}/{} | {refused} | {bad} |\n", t.label, accepted + bad));
    }
    println!("{} inputs x {} targets\n{table}", all.inputs.len(), TARGETS.len());
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
    let known = ledger("known-rejections.txt");
    let found: std::collections::BTreeSet<String> = rejected.iter().map(|(key, _)| key.clone()).collect();
    let new: Vec<String> = rejected
        .iter()
        .filter(|(key, _)| !known.contains(key.as_str()))
        .map(|(key, why)| format!("{key}: {why}"))
        .collect();
    let fixed: Vec<&String> = known.difference(&found).collect();
    assert!(new.is_empty(), "{} outputs rejected by their platform's validator:\n{}", new.len(), new.join("\n"));
    assert!(fixed.is_empty(), "accepted now, take them off conformance/known-rejections.txt:\n{fixed:#?}");
}

#[test]
fn nothing_is_lost_without_a_diagnostic() {
    let all = conversions();
    let mut items = Vec::new();
    for c in &all.done {
        let Verdict::Written { output, report, round_trip, .. } = &c.verdict else { continue };
        let (from, source) = &all.inputs[c.input];
        let pair = format!("{from} -> {}", c.target.label);
        items.push(serde_json::json!({
            "pair": pair, "from": from, "source": source, "to": c.target.format, "output": output,
            "reports": [report], "input": c.input,
        }));
        if let Some((back, back_report)) = round_trip {
            items.push(serde_json::json!({
                "pair": format!("{from} -> {} -> {from}", c.target.label), "from": from, "source": source,
                "to": from, "output": back, "reports": [report, back_report], "input": c.input,
            }));
        }
    }
    let results = python_json_in_two("oracle.py", &items, &["source", "output"]);
    // Per pair: conversions read, tools compared, differences, named by a diagnostic, silent.
    let mut pairs: BTreeMap<String, [usize; 6]> = BTreeMap::new();
    let mut silent = Vec::new();
    let mut broken = Vec::new();
    for r in &results {
        let pair = r["pair"].as_str().unwrap().to_owned();
        let row = pairs.entry(pair.clone()).or_default();
        if let Some(error) = r.get("error") {
            broken.push(format!("{pair} {}: {error}", short(Path::new(r["source"].as_str().unwrap()))));
            continue;
        }
        if r.get("unreadable").is_some() {
            row[5] += 1;
            continue;
        }
        row[0] += 1;
        row[1] += r["tools"].as_u64().unwrap() as usize;
        row[2] += r["differences"].as_u64().unwrap() as usize;
        row[3] += r["named"].as_u64().unwrap() as usize;
        let lines = r["silent"].as_array().unwrap();
        row[4] += lines.len();
        for line in lines {
            silent.push(format!(
                "{pair} {}: {}",
                short(Path::new(r["source"].as_str().unwrap())),
                line.as_str().unwrap()
            ));
        }
    }
    let mut table = String::from(
        "| pair | conversions | tools | differences | named by a diagnostic | silent | sources the oracle cannot read |\n|---|---|---|---|---|---|---|\n",
    );
    for (pair, [n, tools, diffs, named, quiet, unreadable]) in &pairs {
        table.push_str(&format!("| {pair} | {n} | {tools} | {diffs} | {named} | {quiet} | {unreadable} |\n"));
    }
    println!("{table}");
    let _ = std::fs::create_dir_all(workspace_root().join("target/conformance"));
    let _ = std::fs::write(workspace_root().join("target/conformance/oracle.md"), &table);
    let _ = std::fs::write(workspace_root().join("target/conformance/silent.txt"), silent.join("\n"));
    assert!(broken.is_empty(), "the oracle could not read {} outputs:\n{}", broken.len(), broken.join("\n"));
    // Silent losses still open are counted per pair and aspect in a ledger, each line under the
    // issue that tracks it: more than a line allows (or a pair and aspect it does not list)
    // fails the test, and fewer must be written down, so the count only goes down.
    let known = silent_ledger();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for line in &silent {
        *counts.entry(silent_key(line)).or_default() += 1;
    }
    let mut ledger_now = String::new();
    for (key, n) in &counts {
        ledger_now.push_str(&format!("{key} | {n}\n"));
    }
    let _ = std::fs::write(workspace_root().join("target/conformance/known-silent-losses.now.txt"), ledger_now);
    let worse: Vec<String> = counts
        .iter()
        .filter(|(key, n)| known.get(*key).is_none_or(|allowed| *n > allowed))
        .map(|(key, n)| {
            let example = silent.iter().find(|l| silent_key(l) == *key).unwrap();
            format!("{key}: {n} (ledger: {}), e.g. {example}", known.get(key).copied().unwrap_or(0))
        })
        .collect();
    let better: Vec<String> = known
        .iter()
        .filter(|(key, allowed)| counts.get(*key).copied().unwrap_or(0) < **allowed)
        .map(|(key, allowed)| format!("{key} | {} (was {allowed})", counts.get(key).copied().unwrap_or(0)))
        .collect();
    assert!(
        worse.is_empty(),
        "differences of meaning no diagnostic names (all of them in target/conformance/silent.txt; the counts as a ledger in target/conformance/known-silent-losses.now.txt):\n{}",
        worse.join("\n")
    );
    assert!(
        better.is_empty(),
        "fewer silent losses now: lower these in conformance/known-silent-losses.txt:\n{}",
        better.join("\n")
    );
}

/// The oracle itself: a parameter dropped with no diagnostic is a silent loss, and the same
/// drop named by a `loss/schema` about that parameter is not (so a comparison that stopped
/// finding differences, or a lookup that stopped finding diagnostics, fails here and not only
/// through the ledger's counts).
#[test]
fn the_oracle_finds_an_unnamed_loss_and_accepts_a_named_one() {
    let work = tempfile::tempdir().unwrap();
    let tool = |properties: serde_json::Value| serde_json::json!({"tools": [{"name": "t", "description": "D.", "inputSchema": {"type": "object", "properties": properties}}]});
    let source = work.path().join("source.json");
    let output = work.path().join("output.json");
    std::fs::write(&source, tool(serde_json::json!({"a": {"type": "string"}, "b": {"type": "integer"}})).to_string())
        .unwrap();
    std::fs::write(&output, tool(serde_json::json!({"a": {"type": "string"}})).to_string()).unwrap();
    let silent_report = work.path().join("silent.json");
    std::fs::write(&silent_report, r#"{"inputs": [{"diagnostics": []}]}"#).unwrap();
    let named_report = work.path().join("named.json");
    let loss = serde_json::json!({"inputs": [{"diagnostics": [{"severity": "warning", "code": "loss/schema",
        "path": "/tools/0/parameters/1", "message": "cannot hold parameter `b` of tool `t`"}]}]});
    std::fs::write(&named_report, loss.to_string()).unwrap();
    let item = |report: &Path| serde_json::json!({"pair": "mcp -> mcp", "from": "mcp", "source": source, "to": "mcp", "output": output, "reports": [report]});
    let results = python_json("oracle.py", &serde_json::json!([item(&silent_report), item(&named_report)]));
    let counts: Vec<(u64, u64, usize)> = results
        .iter()
        .map(|r| {
            (r["differences"].as_u64().unwrap(), r["named"].as_u64().unwrap(), r["silent"].as_array().unwrap().len())
        })
        .collect();
    assert_eq!(counts, [(1, 0, 1), (1, 1, 0)], "{results:#?}");
}

/// conformance/known-silent-losses.txt: `PAIR | ASPECT | COUNT` lines.
fn silent_ledger() -> BTreeMap<String, usize> {
    ledger("known-silent-losses.txt")
        .iter()
        .filter_map(|line| {
            let (key, count) = line.rsplit_once(" | ")?;
            Some((key.to_owned(), count.trim().parse().ok()?))
        })
        .collect()
}

/// A silent loss as the ledger counts it: `FROM -> TARGET | ASPECT` (a round trip's pair
/// names both legs).
fn silent_key(line: &str) -> String {
    let pair = line.split(" fixtures/").next().and_then(|p| p.split(" corpus/").next()).unwrap_or(line);
    let aspect = line.split(": ").nth(2).map(|a| a.split(" at ").next().unwrap_or(a)).unwrap_or("");
    format!("{pair} | {aspect}")
}

/// An input's path as the lists name it: `fixtures/...` or `corpus/...`.
fn short(path: &Path) -> String {
    let text = path.display().to_string();
    match (text.find("/fixtures/"), text.find("/corpus/")) {
        (Some(i), _) | (None, Some(i)) => text[i + 1..].to_owned(),
        _ => text,
    }
}
