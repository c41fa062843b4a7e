//! What a run reports: the machine-readable `--report` file and the human lines on stderr.

use std::path::{Path, PathBuf};

use serde::Serialize;
use toolport_core::{Diagnostic, Severity};
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
        }
        s
    }

    pub fn line(&self) -> String {
        let mut parts = vec![format!("{} converted", self.converted + self.converted_with_losses)];
        if self.converted_with_losses > 0 {
            parts.push(format!("{} of them with losses", self.converted_with_losses));
        }
        for (n, what) in
            [(self.failed, "failed"), (self.loss_refused, "refused for losses (--strict)"), (self.skipped, "skipped")]
        {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        format!("{} input{}: {}", self.inputs, if self.inputs == 1 { "" } else { "s" }, parts.join(", "))
    }
}

/// Which diagnostics the human output shows.
#[derive(Clone, Copy, Debug)]
pub struct Verbosity {
    pub min: Severity,
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
        Verbosity { min }
    }
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
/// path first when there is no span.
pub fn render(item: &InputItem, diagnostic: &Diagnostic) -> String {
    match &diagnostic.span {
        Some(span) => {
            let mut d = diagnostic.clone();
            let file = span_path(item, &span.file);
            if let Some(s) = d.span.as_mut() {
                s.file = file.display().to_string();
            }
            d.to_string()
        }
        None => format!("{}: {diagnostic}", display_input(&item.path)),
    }
}

pub fn display_input(path: &Path) -> String {
    if path.as_os_str() == "-" { "<stdin>".to_owned() } else { path.display().to_string() }
}
