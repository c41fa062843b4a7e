//! A mutation fuzzer that runs on the stable toolchain: seeds (fixtures and corpus documents)
//! are mutated with a deterministic generator and fed to each format's reader, and what it
//! reads to the same format's writer, in process, through the host's plugin registry.
//!
//! A case is a finding when a plugin panics (caught at the ABI and reported as
//! `plugin/failed`), when it takes longer than [`SLOW`], or when the process dies on it
//! (a stack overflow or an abort: the driver, `cargo xtask fuzz`, sees the child die and keeps
//! the case it had written to disk just before). Findings are kept in `fuzz/regressions/` and
//! replayed by the tests.

#[cfg(unix)]
pub mod commit;
#[cfg(unix)]
pub mod signal;
#[cfg(unix)]
pub mod walk;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use toolport_core::{Bundle, Diagnostic, InputShape, Options, codes};
use toolport_host::FormatEntry;
use toolport_host::input::{self, Limits};

/// Discovery of the plugins in `dirs`, loaded into this process: fuzzing is about what a
/// plugin's own code does with hostile input, and a crash must end the fuzzer so the driver
/// keeps the case.
pub fn in_process(dirs: Vec<std::path::PathBuf>) -> toolport_host::discovery::DiscoveryConfig {
    let mut config = toolport_host::discovery::DiscoveryConfig { plugin_dirs: dirs, ..Default::default() };
    config.isolation.mode = toolport_host::discovery::IsolationMode::Never;
    config
}

/// A case slower than this is a finding: inputs are at most a few hundred KB, and every input
/// up to 1 MB must convert or fail well under a second.
pub const SLOW: Duration = Duration::from_secs(2);

/// One input for one format.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Case {
    pub format: String,
    pub bundle: Bundle,
    /// For a kept regression: what reading it must give besides not panicking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

/// What a regression case must read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// Read without an error.
    Read,
    /// Refused: errors, each an `input/*` error that says where (a line and column or a path).
    LocatedError,
}

/// Checks a case's [`Expect`]ation; `Err` says what was read instead.
pub fn check_expectation(format: &FormatEntry, case: &Case) -> Result<(), String> {
    let Some(expect) = case.expect else { return Ok(()) };
    let read = format.format.read(&case.bundle, &Options::default());
    let errors: Vec<&Diagnostic> = read.diagnostics.iter().filter(|d| d.is_error()).collect();
    let located = |d: &&Diagnostic| d.code.starts_with("input/") && (d.span.is_some() || !d.path.is_empty());
    match expect {
        Expect::Read if read.value.is_some() && errors.is_empty() => Ok(()),
        // Errors fail the conversion whether or not the reader also returned a model.
        Expect::LocatedError if !errors.is_empty() && errors.iter().all(located) => Ok(()),
        _ => Err(format!(
            "expected {expect:?}, read {:?}",
            read.diagnostics.iter().map(ToString::to_string).collect::<Vec<_>>()
        )),
    }
}

/// What running a case showed.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Read (and written back) or refused with diagnostics: both are fine.
    Fine,
    /// A plugin panicked: the message.
    Panicked(String),
    /// It took this long.
    Slow(Duration),
}

/// Runs a case: detection, reading, and writing what was read back to the same format.
pub fn run(format: &FormatEntry, case: &Case) -> Verdict {
    let started = Instant::now();
    let options = Options::default();
    let _ = format.format.detect(&case.bundle);
    let read = format.format.read(&case.bundle, &options);
    let mut diagnostics: Vec<Diagnostic> = read.diagnostics;
    if let Some(model) = read.value {
        diagnostics.extend(format.format.write(&model, &options).diagnostics);
    }
    if let Some(panic) = diagnostics.iter().find(|d| d.code == codes::PLUGIN_FAILED) {
        return Verdict::Panicked(panic.message.clone());
    }
    match started.elapsed() {
        took if took > SLOW => Verdict::Slow(took),
        _ => Verdict::Fine,
    }
}

/// The seeds of a format: its fixtures and, for the formats the corpus has, corpus documents
/// up to `max_bytes` (large ones make each iteration slow without finding more).
pub fn seeds(format: &FormatEntry, roots: &[PathBuf], max_bytes: u64) -> Vec<Bundle> {
    let id = format.info.id.as_str();
    let mut out = Vec::new();
    for root in roots {
        let dir = root.join(id);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        collect(format, &paths, max_bytes, &mut out);
    }
    out
}

fn collect(format: &FormatEntry, paths: &[PathBuf], max_bytes: u64, out: &mut Vec<Bundle>) {
    let limits = Limits::default();
    for path in paths {
        let is_dir = path.is_dir();
        let shape = format.info.input;
        if is_dir && shape != InputShape::Directory {
            let mut inner: Vec<PathBuf> =
                std::fs::read_dir(path).into_iter().flatten().filter_map(Result::ok).map(|e| e.path()).collect();
            inner.sort();
            collect(format, &inner, max_bytes, out);
            continue;
        }
        if !is_dir && (shape == InputShape::Directory || std::fs::metadata(path).map_or(true, |m| m.len() > max_bytes))
        {
            continue;
        }
        if let Ok(bundle) = input::load(path, shape, &format.info.id, &limits) {
            out.push(bundle);
        }
    }
}

/// A small deterministic generator (xorshift64*): the same seed gives the same cases.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
}

/// Tokens that matter to the syntaxes toolport reads, for insertions.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "<",
    ">",
    ",",
    ":",
    "\"",
    "'",
    "`",
    "\\",
    "\n",
    "  ",
    "- ",
    "#",
    "&a ",
    "*a",
    "!!str ",
    "---\n",
    "//",
    "/*",
    "*/",
    "${",
    "null",
    "true",
    "-1e999",
    "18446744073709551616",
    "\"$ref\": \"#/x\"",
    "{{x}}",
    "\u{feff}",
    "\u{0}",
    "é",
    "😀",
    "interface Input {",
    "export default async function(input: Input) {",
];

/// Mutates one file of the bundle in place: flips, insertions of syntax tokens, deletions,
/// duplications, truncation, and deep nesting.
pub fn mutate(bundle: &mut Bundle, rng: &mut Rng) {
    let keys: Vec<String> = bundle.files.keys().cloned().collect();
    let Some(key) = keys.get(rng.below(keys.len())) else { return };
    let Some(text) = bundle.files.get_mut(key) else { return };
    let mut bytes = std::mem::take(text).into_bytes();
    for _ in 0..=rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(8) {
            0 if !bytes.is_empty() => {
                let i = at.min(bytes.len() - 1);
                bytes[i] ^= 1 << rng.below(7);
            }
            1 | 2 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                bytes.splice(at..at, token.iter().copied());
            }
            3 => {
                let end = (at + rng.below(64)).min(bytes.len());
                bytes.drain(at..end);
            }
            4 => {
                let end = (at + rng.below(256)).min(bytes.len());
                let chunk = bytes[at..end].to_vec();
                for _ in 0..=rng.below(8) {
                    bytes.splice(at..at, chunk.iter().copied());
                }
            }
            5 => bytes.truncate(at),
            6 => {
                let open = [b'[', b'{', b'('][rng.below(3)];
                let depth = [100, 200, 5_000, 50_000][rng.below(4)];
                bytes.splice(at..at, std::iter::repeat_n(open, depth));
            }
            _ => {
                // Swap two spans: structure moved around.
                let a = rng.below(bytes.len() + 1);
                let b = rng.below(bytes.len() + 1);
                let (lo, hi) = (a.min(b), a.max(b));
                bytes[lo..hi].reverse();
            }
        }
    }
    *text = String::from_utf8_lossy(&bytes).into_owned();
}

/// Reads every case kept in `dir` (files ending `.json`), sorted by name.
pub fn regressions(dir: &Path) -> Vec<(PathBuf, Case)> {
    kept_json(dir)
}

/// Every file ending `.json` in `dir` that reads as a `T`, sorted by name: kept findings.
pub fn kept_json<T: serde::de::DeserializeOwned>(dir: &Path) -> Vec<(PathBuf, T)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            Some((p, serde_json::from_str(&text).ok()?))
        })
        .collect()
}

/// The seed of a test's fuzzing: `TOOLPORT_FUZZ_SEED`, else the time, so that each test run
/// tries new cases (a failure says the seed, to run it again).
pub fn test_seed() -> u64 {
    std::env::var("TOOLPORT_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs())
    })
}

/// What a test's fuzzing found, as a message showing each case (to keep under
/// fuzz/regressions/) and why it failed; `None` when nothing was found.
pub fn findings_message<T: Serialize>(seed: u64, cases: usize, findings: &[(T, String)]) -> Option<String> {
    if findings.is_empty() {
        return None;
    }
    let shown: Vec<String> = findings
        .iter()
        .map(|(case, why)| format!("{why}\n{}", serde_json::to_string(case).unwrap_or_default()))
        .collect();
    Some(format!("seed {seed}: {} of {cases} cases fail:\n{}", findings.len(), shown.join("\n\n")))
}
