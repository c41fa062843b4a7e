//! `cargo xtask bench`: builds release binaries and reports, as ratios measured in one run:
//!
//! - a batch of 10,000 generated SkyDeck files converted to gloodata: files per second, and
//!   the ratio to `bench-baseline` (read + JSON parse + JSON write of the same files);
//! - start-up: `convert formats` with every plugin loaded (median wall time of 21 runs);
//! - peak memory (max RSS) of the batch and of the GitHub spec conversion;
//! - the GitHub and Stripe OpenAPI specs converted to vertex and to gloodata, as a ratio to a
//!   bare parse + serialize of the same file with the same libraries.
//!
//! Timings are wall clock on this machine; only the ratios are meant to be compared.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::{cargo, root};

const BATCH: usize = 10_000;

pub fn run(args: &[String]) -> Result<()> {
    let files =
        args.iter().position(|a| a == "--files").and_then(|i| args.get(i + 1)).map_or(Ok(BATCH), |n| n.parse())?;
    cargo(&["build", "--release", "--workspace", "--lib", "--bins"])?;
    let release = root().join("target/release");
    let convert = release.join("convert");
    let baseline = release.join("bench-baseline");
    // On a RAM file system when there is one: the batch compares conversion work, and a
    // disk's flushing of earlier runs otherwise swamps it (seen: the floor varying tenfold).
    let shm = Path::new("/dev/shm");
    let work = if shm.is_dir() { shm.join("toolport-bench") } else { root().join("target/bench") };
    let _ = std::fs::remove_dir_all(&work);
    let inputs = work.join("skydeck");
    generate_skydeck(&inputs, files)?;

    println!("toolport benchmarks ({} cores)", std::thread::available_parallelism().map_or(1, |n| n.get()));
    println!();
    // (a) the batch, and its floor: alternate the two three times and take medians, after
    // flushing the generated inputs, so that the disk's own catching up lands on neither.
    let _ = Command::new("sync").status();
    let mut batch = Vec::new();
    let mut floor = Vec::new();
    for round in 0..3 {
        let out = work.join(format!("out-{round}"));
        batch.push(measure(
            &convert,
            &["--from", "skydeck", "--to", "gloodata", "-q", path(&inputs), "-o", path(&out)],
        )?);
        floor.push(measure(&baseline, &[path(&inputs), path(&work.join(format!("floor-{round}")))])?);
    }
    let ((batch_time, batch_rss), (floor_time, floor_rss)) = (median(batch), median(floor));
    println!("batch: {files} SkyDeck files -> gloodata (median of 3, alternating)");
    let rate = |d: Duration| files as f64 / secs(d);
    println!(
        "  convert:  {:>8.3} s  {:>9.0} files/s  peak {:>6.1} MiB",
        secs(batch_time),
        rate(batch_time),
        mib(batch_rss)
    );
    println!(
        "  baseline: {:>8.3} s  {:>9.0} files/s  peak {:>6.1} MiB  (read + JSON parse + JSON write)",
        secs(floor_time),
        rate(floor_time),
        mib(floor_rss)
    );
    println!("  ratio convert/baseline: {:.2}x (goal: within 2x)", secs(batch_time) / secs(floor_time));
    println!();

    // (b) start-up
    let mut startup: Vec<Duration> =
        (0..21).map(|_| measure(&convert, &["formats"]).map(|m| m.0)).collect::<Result<_>>()?;
    startup.sort();
    println!(
        "start-up: convert formats, all plugins loaded: median {:.1} ms (goal: under 10 ms)",
        startup[10].as_secs_f64() * 1000.0
    );
    println!();

    // (c) large specs
    let corpus = root().join("../shared/corpus/openapi");
    for (name, spec) in
        [("GitHub", corpus.join("github/api.github.com.json")), ("Stripe", corpus.join("stripe/spec3.json"))]
    {
        if !spec.exists() {
            println!("{name}: {} missing, skipped", spec.display());
            continue;
        }
        let (floor, floor_rss) = measure(&baseline, &[path(&spec), path(&work.join(format!("{name}-floor")))])?;
        println!(
            "{name} ({:.1} MB): bare parse + serialize {:.3} s, peak {:.1} MiB",
            mb(&spec),
            secs(floor),
            mib(floor_rss)
        );
        for to in ["vertex", "gloodata"] {
            let out = work.join(format!("{name}.{to}"));
            let (time, rss) =
                measure(&convert, &["--from", "openapi", "--to", to, "-q", path(&spec), "-o", path(&out)])?;
            println!(
                "  -> {to:<8} {:.3} s, peak {:>6.1} MiB, ratio to the floor {:.2}x (goal: under 1.5x)",
                secs(time),
                mib(rss),
                secs(time) / secs(floor)
            );
        }
    }
    println!();
    println!("(work files in {}; removed)", work.display());
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// The run with the median time (its peak memory with it).
fn median(mut runs: Vec<(Duration, u64)>) -> (Duration, u64) {
    runs.sort_by_key(|r| r.0);
    runs[runs.len() / 2]
}

fn path(p: &Path) -> &str {
    p.to_str().expect("bench paths are UTF-8")
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn mb(path: &Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6)
}

/// Runs a command to completion; returns its wall time and peak resident memory (KiB).
/// Output is discarded; a failure is an error.
fn measure(program: &Path, args: &[&str]) -> Result<(Duration, u64)> {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("running {}", program.display()))?;
    let pid = child.id();
    // Peak RSS: poll the child's VmHWM (the kernel's high-water mark) while it runs.
    let mut peak = 0;
    let status = loop {
        if let Some(hwm) = vm_hwm(pid) {
            peak = peak.max(hwm);
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let elapsed = start.elapsed();
    if !status.success() {
        bail!("{} {} failed with {status}", program.display(), args.join(" "));
    }
    Ok((elapsed, peak))
}

fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Writes `n` varied, valid SkyDeck files (deterministic content).
fn generate_skydeck(dir: &PathBuf, n: usize) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    for i in 0..n {
        let doc = serde_json::json!({
            "version": i % 7 + 1,
            "model_prompt": format!("Summarize {{{{text}}}} for {{{{audience}}}} in {{{{tone}}}} tone, variant {i}."),
            "metadata": {
                "prompt_name": format!("Summarizer {i}"),
                "description": format!("Summarizes text for a given audience (case {i})."),
                "usage_notes": "Keep inputs under 10,000 words.",
                "model_version": ["gpt-4", "gpt-4o"],
                "creator": {"name": "Bench", "email": "bench@example.com", "organization": "toolport"},
                "parameters": {"temperature": 0.7, "max_tokens": 512, "top_p": 1, "frequency_penalty": 0, "presence_penalty": 0},
                "variables": [
                    {"name": "text", "type": "text", "description": "The text to summarize", "default": ""},
                    {"name": "audience", "type": "single-select", "description": "Who reads it", "default": "engineers", "allowed_values": ["engineers", "managers", "customers"]},
                    {"name": "tone", "type": "multi-select", "description": "Tones", "default": ["neutral"], "allowed_values": ["neutral", "friendly", "formal"]}
                ],
                "expected_output": {"type": "text", "format": "Markdown"},
                "avatar_type": "url",
                "avatar": "https://example.com/a.png",
                "timestamp": "2024-05-01T12:00:00Z"
            }
        });
        std::fs::write(dir.join(format!("tool-{i:05}.json")), serde_json::to_string_pretty(&doc)?)?;
    }
    Ok(())
}
