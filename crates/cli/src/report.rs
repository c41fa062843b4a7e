//! What a run reports: the machine-readable `--report` file and the human lines on stderr.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Serialize;
use toolport_core::{Diagnostic, Severity, Tally, codes};
use toolport_host::pipeline::{InputItem, Status};

/// Version of the report file's shape; bumped on incompatible changes.
pub const REPORT_VERSION: u32 = 1;

/// The `--report FILE.json` document.
#[derive(Debug, Serialize)]
pub struct Report {
    pub report_version: u32,
    pub to: String,
    pub summary: Summary,
    pub inputs: Vec<InputReport>,
}

#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub struct Summary {
    pub inputs: usize,
    pub converted: usize,
    pub converted_with_losses: usize,
    pub failed: usize,
    pub loss_refused: usize,
    pub skipped: usize,
    /// Converted inputs with tools whose code is a stub that only throws (`generated/stub`):
    /// written, but not working until someone fills them in.
    pub with_stubs: usize,
    /// Set when a signal interrupted the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<Interrupted>,
}

/// A signal that interrupted a run, and whether the run's outputs were in place by then
/// (else nothing was placed: what was, was taken back).
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Interrupted {
    pub signal: String,
    pub outputs_placed: bool,
}

#[derive(Debug, Serialize)]
pub struct InputReport {
    pub input: String,
    /// The format it was read as, when known.
    pub from: Option<String>,
    pub status: Status,
    /// Files written (or that would be, with --dry-run).
    pub outputs: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// The diagnostics the plugins only counted: those no output of this run shows (never
    /// with --report, which asks for all).
    #[serde(skip)]
    pub tally: Tally,
    /// With --names-map: what the written names stand for (not part of --report).
    #[serde(skip)]
    pub names_map: Option<toolport_host::stage::NamesMap>,
}

impl Summary {
    pub fn of(inputs: &[InputReport]) -> Summary {
        let mut s = Summary { inputs: inputs.len(), ..Summary::default() };
        for i in inputs {
            match i.status {
                Status::Converted => s.converted += 1,
                Status::ConvertedWithLosses => s.converted_with_losses += 1,
                Status::Failed => s.failed += 1,
                Status::LossRefused => s.loss_refused += 1,
                Status::Skipped => s.skipped += 1,
            }
            let converted = matches!(i.status, Status::Converted | Status::ConvertedWithLosses);
            let stubs = |code: &str| code == codes::GENERATED_STUB;
            if converted && (i.diagnostics.iter().any(|d| stubs(&d.code)) || i.tally.iter().any(|c| stubs(&c.code))) {
                s.with_stubs += 1;
            }
        }
        s
    }

    pub fn line(&self) -> String {
        let mut parts = vec![format!("{} converted", self.converted + self.converted_with_losses)];
        if self.converted_with_losses > 0 {
            parts.push(format!("{} of them with losses", self.converted_with_losses));
        }
        if self.with_stubs > 0 {
            parts.push(format!("{} with stub tools to fill in", self.with_stubs));
        }
        for (n, what) in
            [(self.failed, "failed"), (self.loss_refused, "refused for losses (--strict)"), (self.skipped, "skipped")]
        {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        let interrupted = match &self.interrupted {
            Some(Interrupted { signal, outputs_placed: true }) => {
                format!("; interrupted by {signal} once the outputs were placed")
            }
            Some(Interrupted { signal, outputs_placed: false }) => {
                format!("; interrupted by {signal}: nothing was placed")
            }
            None => String::new(),
        };
        format!("{} input{}: {}{interrupted}", self.inputs, if self.inputs == 1 { "" } else { "s" }, parts.join(", "))
    }
}

/// `n thing` or `n things` (`loss` → `losses`).
pub fn count(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        _ if thing.ends_with('s') => format!("{n} {thing}es"),
        _ => format!("{n} {thing}s"),
    }
}

/// `check`'s verdicts counted for its summary line, as `convert` ends with [`Summary::line`].
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CheckSummary {
    pub inputs: usize,
    pub ok: usize,
    pub invalid: usize,
    pub loss_refused: usize,
    pub skipped: usize,
}

impl CheckSummary {
    /// Counts one input and returns its verdict (`ok`, `invalid`, …).
    pub fn add(&mut self, status: Status, errors: usize) -> &'static str {
        self.inputs += 1;
        let (counter, verdict) = match status {
            Status::Skipped => (&mut self.skipped, "skipped"),
            Status::LossRefused => (&mut self.loss_refused, "refused for losses (--strict)"),
            _ if errors == 0 => (&mut self.ok, "ok"),
            _ => (&mut self.invalid, "invalid"),
        };
        *counter += 1;
        verdict
    }

    /// `3 inputs checked: 2 ok, 1 invalid`.
    pub fn line(&self) -> String {
        let parts: Vec<String> = [
            (self.ok, "ok"),
            (self.invalid, "invalid"),
            (self.loss_refused, "refused for losses (--strict)"),
            (self.skipped, "skipped"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        format!("{} checked: {}", count(self.inputs, "input"), parts.join(", "))
    }
}

/// Which diagnostics the human output shows, and how.
#[derive(Clone, Copy, Debug)]
pub struct Verbosity {
    pub min: Severity,
    /// Every diagnostic on its own line (`-v`), rather than folded by code.
    pub each: bool,
}

impl Verbosity {
    pub fn new(quiet: bool, verbose: bool) -> Self {
        let min = if quiet {
            Severity::Error
        } else if verbose {
            Severity::Info
        } else {
            Severity::Warning
        };
        Verbosity { min, each: verbose || quiet }
    }
}

/// The lines a run prints for its diagnostics (`-v`: every diagnostic; `-q`: errors only).
/// By default, what a person needs: every error; what asks them to act
/// ([`Diagnostic::needs_action`], whatever its severity), repeats of one message folded into
/// one line; then one line per other code (warnings and up) with its count and an example.
/// `tallied` counts the diagnostics the plugins did not give in full: never errors or actions,
/// and never the first of a code (its example), which they give in full.
pub fn diagnostic_lines(
    diagnostics: &[(&InputItem, &Diagnostic)],
    tallied: &Tally,
    verbosity: Verbosity,
) -> Vec<String> {
    if verbosity.each {
        return diagnostics.iter().filter(|(_, d)| d.severity >= verbosity.min).map(|(i, d)| render(i, d)).collect();
    }
    let mut lines = Vec::new();
    lines.extend(diagnostics.iter().filter(|(_, d)| d.is_error()).map(|(i, d)| render(i, d)));
    // Actions, folded by message with names and numbers left out.
    let mut actions: IndexMap<(Severity, &str, String), (usize, String)> = IndexMap::new();
    // Everything else, by code.
    let mut by_code: IndexMap<(Severity, &str), (usize, &InputItem, &Diagnostic)> = IndexMap::new();
    let mut hidden = 0;
    for &(item, d) in diagnostics.iter().filter(|(_, d)| !d.is_error()) {
        if d.needs_action() {
            let entry = actions.entry((d.severity, d.code.as_str(), shape(&d.message))).or_insert((0, render(item, d)));
            entry.0 += 1;
        } else if d.severity >= verbosity.min {
            by_code.entry((d.severity, d.code.as_str())).or_insert((0, item, d)).0 += 1;
        } else {
            hidden += 1;
        }
    }
    let mut unexemplified = Vec::new();
    for counted in tallied.iter() {
        if counted.severity < verbosity.min {
            hidden += counted.count;
        } else if let Some(entry) = by_code.get_mut(&(counted.severity, counted.code.as_str())) {
            entry.0 += counted.count;
        } else {
            // Not met in full (a plugin that folded otherwise): counted without an example.
            unexemplified.push(format!("{}[{}] {} times", counted.severity, counted.code, counted.count));
        }
    }
    actions.sort_by(|a, _, b, _| b.0.cmp(&a.0));
    for (_, (count, line)) in actions {
        lines.push(match count {
            1 => line,
            n => format!("{line} (and {} more like it)", n - 1),
        });
    }
    by_code.sort_by(|a, x, b, y| b.0.cmp(&a.0).then(y.0.cmp(&x.0)).then(a.1.cmp(b.1)));
    let mut folded = 0;
    for ((severity, code), (count, item, d)) in by_code {
        if count == 1 {
            lines.push(render(item, d));
            continue;
        }
        folded += count;
        let example = render(item, d).replacen(&format!("{severity}[{code}]: "), "", 1);
        lines.push(format!("{severity}[{code}] {count} times, e.g. {example}"));
    }
    folded += unexemplified.len();
    lines.extend(unexemplified.into_iter().map(|line| printable(&line).into_owned()));
    if folded > 0 || hidden > 0 {
        let total = diagnostics.len() + tallied.total();
        lines.push(format!(
            "({total} diagnostic{} in all: -v prints each, --report FILE.json keeps them all)",
            if total == 1 { "" } else { "s" }
        ));
    }
    lines
}

/// A message with what varies between its repeats left out: quoted names and numbers.
fn shape(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quoted = false;
    for c in message.chars() {
        match c {
            '`' => {
                quoted = !quoted;
                out.push(c);
            }
            _ if quoted => {}
            c if c.is_ascii_digit() => {
                if !out.ends_with('#') {
                    out.push('#');
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The path a diagnostic's span points at, as the user knows it: spans name files relative
/// to the input's bundle.
pub fn span_path(item: &InputItem, file: &str) -> PathBuf {
    if item.is_stdin() {
        return PathBuf::from("<stdin>");
    }
    if item.path.is_dir() {
        return item.path.join(file);
    }
    match item.path.parent() {
        Some(dir) if item.path.file_name().is_some_and(|n| n != file) => dir.join(file),
        _ => item.path.clone(),
    }
}

/// One line per diagnostic: `file:line:col: severity[code]: message (at /path)`, or the input
/// path first when there is no span; [`printable`], since names and messages come from inputs
/// and plugins.
pub fn render(item: &InputItem, diagnostic: &Diagnostic) -> String {
    let line = match &diagnostic.span {
        Some(span) => {
            let mut d = diagnostic.clone();
            let file = span_path(item, &span.file);
            if let Some(s) = d.span.as_mut() {
                s.file = file.display().to_string();
            }
            d.to_string()
        }
        None => format!("{}: {diagnostic}", display_input(&item.path)),
    };
    printable(&line).into_owned()
}

/// `text` as it may be shown on a terminal: control characters (line breaks and ANSI escapes
/// included) and the characters that reorder text (bidirectional controls such as U+202E)
/// escaped, `\n`, `\u{1b}`, `\u{202e}`, so that a name or a message from an input or a plugin
/// can neither forge a line nor rewrite the screen. The one place the CLI makes such text safe
/// to print.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unprintable) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unprintable(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// How an input is named in messages and the report, and which input a planned file belongs
/// to: distinct inputs get distinct names (a name that is not UTF-8 is shown with its bytes
/// escaped, `"a\xFF.json"`, not with a replacement character two names could share).
pub fn display_input(path: &Path) -> String {
    match path.to_str() {
        Some("-") => "<stdin>".to_owned(),
        Some(text) => text.to_owned(),
        None => format!("{path:?}"),
    }
}
