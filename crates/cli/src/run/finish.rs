//! The end of a run: the plan checked, the staged files committed (or, if a signal came, not
//! placed, or taken back), the summary and report.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use toolport_core::{Diagnostic, Tally, codes};
use toolport_host::FormatEntry;
use toolport_host::output::{self, PlanInputs, PlannedFile};
use toolport_host::pipeline::{InputItem, Status};

use super::interrupt::{self, Interrupt};
use super::job::Job;
use super::{ItemResult, Mode};
use crate::args::GlobalArgs;
use crate::report::{self, InputReport, Interrupted, Report, Summary, Verbosity};
use crate::{ExitStatus, UsageError};

/// After every input was converted: shows the diagnostics, checks the whole plan, commits the
/// staged files (or says why not), and writes the summary and the report on every path.
pub(super) fn finish(
    job: Job,
    items: &[InputItem],
    results: Vec<ItemResult>,
    global: &GlobalArgs,
) -> Result<ExitStatus> {
    // A signal from here on is answered by this function, which ends soon.
    let _finishing = interrupt::finishing();
    let Job { registry, to, mode, args, staging, .. } = job;
    let verbosity = Verbosity::new(global.quiet, global.verbose);
    let mut reports = Vec::with_capacity(results.len());
    let mut planned = Vec::new();
    let mut inputs = RunInputs::of(items);
    let mut stdout_text = None;
    let mut notes = Vec::new();
    for result in results {
        planned.extend(result.planned);
        inputs.files.extend(result.read);
        stdout_text = stdout_text.or(result.stdout);
        notes.extend(result.note);
        reports.push(result.report);
    }
    let shown: Vec<(&InputItem, &Diagnostic)> =
        items.iter().zip(&reports).flat_map(|(item, r)| r.diagnostics.iter().map(move |d| (item, d))).collect();
    let mut tallied = Tally::default();
    for report in &reports {
        tallied.merge(report.tally.clone());
    }
    for line in report::diagnostic_lines(&shown, &tallied, verbosity) {
        eprintln!("{line}");
    }
    drop(shown);
    if mode == Mode::Check {
        let status = check_lines(items, &reports, to, global);
        if let Some(interrupt) = interrupt::interrupted().filter(|_| !global.quiet) {
            let unchecked = reports.iter().filter(|r| r.status == Status::Skipped).count();
            eprintln!("interrupted by {interrupt}: {unchecked} inputs not checked");
        }
        return Ok(status);
    }
    let to = to.context("convert has a target")?;

    // Every output is known: refuse collisions, inputs, links and existing files before
    // writing any. The report is an output like the others.
    let mut plan = planned;
    if let Some(report) = &args.report {
        let root = report.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        plan.push(PlannedFile { path: report.clone(), owner: REPORT_OWNER.to_owned(), root });
    }
    if let Some(names_map) = &args.curate.names_map {
        plan.push(names_map_file(names_map));
    }
    let made_folder = staging.as_ref().and_then(|staging| staging.made_output_folder());
    let problems = output::check_plan(&plan, &PlanInputs { made_folder, ..inputs.plan() }, args.force);
    let mut report_writable = true;
    // Whether the run's outputs are in place (for the summary of an interrupted run).
    let mut placed = false;
    if !problems.is_empty() {
        for problem in &problems {
            eprintln!("error: {}", report::printable(&problem.error.to_string()));
        }
        report_writable = !problems.iter().any(|p| p.owner == REPORT_OWNER);
        mark_plan_failure(&mut reports, &problems);
    } else if args.dry_run {
        if !global.quiet {
            for file in plan.iter().filter(|f| f.owner != REPORT_OWNER && f.owner != NAMES_MAP_OWNER) {
                eprintln!("would write {}", report::printable(&file.path.display().to_string()));
            }
        }
    } else if let Some(interrupt) = interrupt::interrupted() {
        mark_interrupted(&mut reports, Some(interrupt), &[]);
        stdout_text = None;
    } else if let Some(staging) = &staging {
        let committed = staging.commit_or_stop(args.force, &|| interrupt::interrupted().is_some());
        match &committed.stopped {
            Some(left) => mark_interrupted(&mut reports, interrupt::interrupted(), left),
            None => placed = true,
        }
        mark_commit_failures(&mut reports, &committed.failed);
        if !global.quiet && committed.failed.is_empty() && placed {
            for note in &notes {
                eprintln!("note: {}", report::printable(note));
            }
        }
    }
    drop(staging);
    if let Some(text) = stdout_text {
        std::io::stdout().lock().write_all(text.as_bytes())?;
        placed = true;
    }

    // The summary and the report are written whatever happened above.
    if !global.quiet {
        let mut used: Vec<&str> = reports.iter().filter_map(|r| r.from.as_deref()).collect();
        used.push(&to.info.id);
        used.sort_unstable();
        used.dedup();
        for warning in used.iter().filter_map(|id| registry.shadowing_warning(id)) {
            eprintln!("warning: {}", report::printable(&warning));
        }
        for warning in registry.plugin_troubles() {
            eprintln!("warning: {}", report::printable(&warning));
        }
    }
    let mut summary = Summary::of(&reports);
    summary.interrupted =
        interrupt::settle().map(|interrupt| Interrupted { signal: interrupt.to_string(), outputs_placed: placed });
    if !global.quiet {
        eprintln!("{}", summary.line());
    }

    let status = exit_status(&summary, problems.is_empty());
    if let Some(path) = args.curate.names_map.as_ref().filter(|_| problems.is_empty() && !args.dry_run && placed)
        && let Err(e) = write_names_map(path, &to.info.id, &reports, args.force)
    {
        eprintln!("error: the names map was not written: {e}");
        return Ok(ExitStatus::Failed);
    }
    // convert exits right after a run (this crate is only the binary), so the reports are
    // left for the process's end: freeing every input's diagnostics one by one took 3-5% of
    // a 10,000-file batch.
    if let Some(path) = args.report.as_ref().filter(|_| report_writable) {
        let report =
            Report { report_version: report::REPORT_VERSION, to: to.info.id.clone(), summary, inputs: reports };
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        let written = output::write_atomic(path, text.as_bytes(), args.force);
        std::mem::forget(report);
        if let Err(e) = written {
            eprintln!("error: the report was not written: {e}");
            return Ok(ExitStatus::Failed);
        }
    } else {
        std::mem::forget(reports);
    }
    Ok(status)
}

/// `check`'s line per input (`path: ok (format), 0 errors, 2 losses writing skydeck`) and its
/// exit status: 1 if an input is invalid, 3 if `--strict` refused a loss.
fn check_lines(
    items: &[InputItem],
    reports: &[InputReport],
    to: Option<&FormatEntry>,
    global: &GlobalArgs,
) -> ExitStatus {
    let mut status = ExitStatus::Ok;
    let mut verdicts = report::CheckSummary::default();
    for (item, report) in items.iter().zip(reports) {
        let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
        let losses = report.diagnostics.iter().filter(|d| d.is_loss()).count()
            + report.tally.iter().filter(|c| c.is_loss()).map(|c| c.count).sum::<usize>();
        let verdict = verdicts.add(report.status, errors);
        if !global.quiet {
            let from = report.from.as_deref().unwrap_or("format unknown");
            let target =
                to.map(|t| format!(", {} writing {}", report::count(losses, "loss"), t.info.id)).unwrap_or_default();
            let line = format!(
                "{}: {verdict} ({from}), {}{target}",
                report::display_input(&item.path),
                report::count(errors, "error")
            );
            eprintln!("{}", report::printable(&line));
        }
        match report.status {
            Status::Failed => status = ExitStatus::Failed,
            Status::LossRefused if status == ExitStatus::Ok => status = ExitStatus::LossRefused,
            _ => {}
        }
    }
    if !global.quiet {
        eprintln!("{}", verdicts.line());
    }
    status
}

/// A run's inputs, as the plan check takes them: the items found as files and the files read
/// for them (looked at only if an output is found in place), apart from the folders.
pub(super) struct RunInputs {
    files: Vec<PathBuf>,
    folders: Vec<PathBuf>,
}

impl RunInputs {
    pub(super) fn of(items: &[InputItem]) -> RunInputs {
        let (folders, files) = items.iter().filter(|i| !i.is_stdin()).partition::<Vec<_>, _>(|i| i.is_dir);
        let paths = |items: Vec<&InputItem>| items.into_iter().map(|i| i.path.clone()).collect();
        RunInputs { files: paths(files), folders: paths(folders) }
    }

    fn plan(&self) -> PlanInputs<'_> {
        PlanInputs { files: &self.files, others: &self.folders, made_folder: None }
    }
}

/// The owner of the report file in a plan.
const REPORT_OWNER: &str = "--report";

/// Refuses, before converting anything, a `--report` path that could not be written: an
/// input, an existing file without `--force`, a folder, a link.
pub(super) fn check_report_path(path: &Path, inputs: &RunInputs, force: bool) -> Result<()> {
    let root = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let file = PlannedFile { path: path.to_path_buf(), owner: REPORT_OWNER.to_owned(), root };
    match output::check_plan(std::slice::from_ref(&file), &inputs.plan(), force).into_iter().next() {
        Some(problem) => Err(UsageError(format!("--report {}", problem.error)).into()),
        None => Ok(()),
    }
}

const NAMES_MAP_OWNER: &str = "--names-map";

fn names_map_file(path: &Path) -> PlannedFile {
    let root = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    PlannedFile { path: path.to_path_buf(), owner: NAMES_MAP_OWNER.to_owned(), root }
}

/// `--names-map FILE` refused before any input is converted, as `--report`.
pub(super) fn check_names_map_path(path: &Path, inputs: &RunInputs, force: bool) -> Result<()> {
    match output::check_plan(&[names_map_file(path)], &inputs.plan(), force).into_iter().next() {
        Some(problem) => Err(UsageError(format!("--names-map {}", problem.error)).into()),
        None => Ok(()),
    }
}

/// The names map of every input written (docs/names-map.md).
fn write_names_map(path: &Path, to: &str, reports: &[InputReport], force: bool) -> Result<()> {
    let inputs: Vec<serde_json::Value> = reports
        .iter()
        .filter_map(|r| {
            let map = r.names_map.as_ref()?;
            Some(serde_json::json!({"input": r.input, "from": r.from, "outputs": r.outputs, "tools": map.tools}))
        })
        .collect();
    let document = serde_json::json!({"names_map_version": NAMES_MAP_VERSION, "to": to, "inputs": inputs});
    let mut text = serde_json::to_string_pretty(&document)?;
    text.push('\n');
    output::write_atomic(path, text.as_bytes(), force)?;
    Ok(())
}

/// The names map's JSON form; bumped when a field changes meaning or goes.
const NAMES_MAP_VERSION: u32 = 1;

fn exit_status(summary: &Summary, plan_ok: bool) -> ExitStatus {
    if summary.failed > 0 || !plan_ok {
        ExitStatus::Failed
    } else if summary.loss_refused > 0 {
        ExitStatus::LossRefused
    } else {
        ExitStatus::Ok
    }
}

/// A plan problem fails every input: nothing was written.
fn mark_plan_failure(reports: &mut [InputReport], problems: &[output::PlanProblem]) {
    for report in reports.iter_mut().filter(|r| matches!(r.status, Status::Converted | Status::ConvertedWithLosses)) {
        report.status = Status::Failed;
        let message = match problems.iter().find(|p| p.owner == report.input) {
            Some(p) => p.error.to_string(),
            None => "not written: another output could not be placed, so nothing was written".to_owned(),
        };
        report.diagnostics.push(Diagnostic::error(codes::OUTPUT_REFUSED, "", message));
        report.outputs.clear();
    }
}

/// An input whose files could not all be placed failed; say which of its files, if any, stay.
fn mark_commit_failures(reports: &mut [InputReport], failures: &[output::CommitFailure]) {
    for failure in failures {
        let Some(report) = reports.iter_mut().find(|r| r.input == failure.owner) else { continue };
        let left: Vec<String> = failure.left_in_place.iter().map(|p| p.display().to_string()).collect();
        let message = format!("not written: {}{}", failure.error, what_stays(&left));
        eprintln!("error: {}", report::printable(&format!("{}: {message}", failure.owner)));
        not_written(report, message, left);
    }
}

/// A signal stopped the run before its outputs were all placed: every converted input failed,
/// and none of its files stay but those in `left` (placed, and not taken back).
fn mark_interrupted(reports: &mut [InputReport], interrupt: Option<Interrupt>, left: &[PathBuf]) {
    let by = interrupt.map(|i| format!(" by {i}")).unwrap_or_default();
    let left: Vec<String> = left.iter().map(|p| p.display().to_string()).collect();
    for report in reports.iter_mut().filter(|r| matches!(r.status, Status::Converted | Status::ConvertedWithLosses)) {
        let stays: Vec<String> = report.outputs.iter().filter(|o| left.contains(o)).cloned().collect();
        let message =
            format!("not written: the run was interrupted{by} before its outputs were placed{}", what_stays(&stays));
        not_written(report, message, stays);
    }
}

/// Which of a failed input's files stay in place, for its message.
fn what_stays(left: &[String]) -> String {
    if left.is_empty() {
        "; none of this input's files were placed".to_owned()
    } else {
        format!("; these files of it were placed and could not be taken back: {}", left.join(", "))
    }
}

/// An input whose files were not (all) written: failed, with its outputs those that stay.
fn not_written(report: &mut InputReport, message: String, stays: Vec<String>) {
    report.status = Status::Failed;
    report.diagnostics.push(Diagnostic::error(codes::OUTPUT_REFUSED, "", message));
    report.outputs = stays;
}
