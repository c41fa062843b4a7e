//! `toolport-fuzz`: the fuzz loop for one process (see the library's docs). Usually started by
//! `cargo xtask fuzz`, which restarts it after a crash and keeps the crashing case.
//!
//!     toolport-fuzz --plugin-dir DIR --root DIR... --seconds N --seed S --case-file FILE
//!                   --findings DIR [--format ID]...
//!     toolport-fuzz --target walk|commit --seconds N --seed S --case-file FILE --findings DIR
//!
//! The `walk` target walks random trees of links and special files (`toolport_fuzz::walk`),
//! the `commit` target interrupts commits at random files (`toolport_fuzz::commit`, which runs
//! this executable as `--target commit-child --case-file BATCH --findings OUTPUT_DIR` for a
//! commit to be killed); a finding is the tree or batch, kept as `TARGET-SEED-N.json` for
//! fuzz/regressions/TARGET/.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use toolport_fuzz::{Case, Rng, Verdict, mutate, run, seeds};
use toolport_host::Registry;

#[derive(Default)]
struct Args {
    plugin_dirs: Vec<PathBuf>,
    roots: Vec<PathBuf>,
    formats: Vec<String>,
    seconds: u64,
    seed: u64,
    case_file: PathBuf,
    findings: PathBuf,
    /// `readers` (the default) or `walk`.
    target: String,
}

fn parse() -> Result<Args, String> {
    let mut args = Args { seconds: 10, seed: 1, ..Args::default() };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--plugin-dir" => args.plugin_dirs.push(value()?.into()),
            "--root" => args.roots.push(value()?.into()),
            "--format" => args.formats.push(value()?),
            "--seconds" => args.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--case-file" => args.case_file = value()?.into(),
            "--findings" => args.findings = value()?.into(),
            "--target" => args.target = value()?,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if args.case_file.as_os_str().is_empty() || args.findings.as_os_str().is_empty() {
        return Err("--case-file and --findings are required".into());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("toolport-fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    // Readers recurse as deep as the input nests, as in `convert`.
    let worker = std::thread::Builder::new()
        .stack_size(toolport_core::limits::CONVERSION_STACK_BYTES)
        .spawn(move || fuzz(&args))
        .expect("a thread for the fuzz loop");
    match worker.join() {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(_) => ExitCode::from(101),
    }
}

/// Runs the walk or commit target for the time given; returns the number of findings, each kept.
#[cfg(unix)]
fn fuzz_target(args: &Args) -> usize {
    use toolport_fuzz::{commit, walk};
    let budget = Duration::from_secs(args.seconds);
    let (cases, findings): (usize, Vec<(String, String)>) = match args.target.as_str() {
        "walk" => {
            let (cases, found) = walk::fuzz(args.seed, budget);
            (
                cases,
                found
                    .iter()
                    .map(|(tree, why)| (serde_json::to_string_pretty(tree).unwrap_or_default(), why.clone()))
                    .collect(),
            )
        }
        "commit" => {
            let Ok(me) = std::env::current_exe() else { return 1 };
            let (cases, found) = commit::fuzz(args.seed, budget, &me);
            (
                cases,
                found
                    .iter()
                    .map(|(batch, why)| (serde_json::to_string_pretty(batch).unwrap_or_default(), why.clone()))
                    .collect(),
            )
        }
        "commit-child" => {
            // One batch, committed into the folder given as --findings (and killed, as it says).
            let batch = std::fs::read_to_string(&args.case_file).ok().and_then(|t| serde_json::from_str(&t).ok());
            let Some(batch) = batch else { return 1 };
            return usize::from(commit::run(&batch, &args.findings).is_err());
        }
        other => {
            eprintln!("toolport-fuzz: unknown target {other}");
            return 1;
        }
    };
    let _ = std::fs::create_dir_all(&args.findings);
    for (n, (case, why)) in findings.iter().enumerate() {
        let name = format!("{}-{}-{n}.json", args.target, args.seed);
        let _ = std::fs::write(args.findings.join(&name), case);
        println!("{:<10} finding {name}: {why}", args.target);
    }
    println!("{:<10} {cases} cases", args.target);
    findings.len()
}

#[cfg(not(unix))]
fn fuzz_target(_args: &Args) -> usize {
    0
}

/// Fuzzes each format for its share of the time; returns the number of findings.
fn fuzz(args: &Args) -> usize {
    if !args.target.is_empty() && args.target != "readers" {
        return fuzz_target(args);
    }
    let registry = Registry::discover(&toolport_fuzz::in_process(args.plugin_dirs.clone()));
    let formats: Vec<_> = registry
        .formats()
        .iter()
        .filter(|f| f.info.reads && (args.formats.is_empty() || args.formats.contains(&f.info.id)))
        .collect();
    let _ = std::fs::create_dir_all(&args.findings);
    let mut rng = Rng::new(args.seed);
    let mut findings = 0;
    for format in formats {
        let seeds = seeds(format, &args.roots, 512 << 10);
        if seeds.is_empty() {
            println!("{:<10} no seeds", format.info.id);
            continue;
        }
        let budget = Duration::from_secs(args.seconds);
        let started = Instant::now();
        let mut cases = 0u64;
        while started.elapsed() < budget {
            let mut bundle = seeds[rng.below(seeds.len())].clone();
            mutate(&mut bundle, &mut rng);
            let case = Case { format: format.info.id.clone(), bundle, expect: None };
            // On disk first: if this case kills the process, the driver keeps it.
            let text = serde_json::to_string(&case).unwrap_or_default();
            if let Err(e) = std::fs::write(&args.case_file, &text) {
                eprintln!("toolport-fuzz: cannot write {}: {e}", args.case_file.display());
                return findings + 1;
            }
            cases += 1;
            let kind = match run(format, &case) {
                Verdict::Fine => continue,
                Verdict::Panicked(message) => format!("panic: {message}"),
                Verdict::Slow(took) => format!("slow: {took:?}"),
            };
            findings += 1;
            let name = format!("{}-{}-{}.json", format.info.id, args.seed, cases);
            let _ = std::fs::write(args.findings.join(&name), &text);
            println!("{:<10} finding {name}: {kind}", format.info.id);
        }
        println!("{:<10} {cases} cases in {:.1?}", format.info.id, started.elapsed());
    }
    let _ = std::fs::remove_file(&args.case_file);
    findings
}
