//! `convert --from F --to G INPUT... [-o OUT]`: plan the inputs, convert them in parallel,
//! stage outputs as they finish, check the whole plan, then move everything into place.
//! `convert check` runs the same per-input pipeline (finding inputs, detection, reading,
//! writing with `--to`, the same diagnostics), and places nothing.

use std::io::{IsTerminal, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use toolport_core::{Bundle, Diagnostic, Options, Strictness, codes};
use toolport_host::input::Limits;
use toolport_host::output::{self, PlannedFile, Staging};
use toolport_host::pipeline::{self, InputItem, ResolveError, Status};
use toolport_host::{FormatEntry, Registry};

use crate::args::{ConvertArgs, GlobalArgs};
use crate::report::{self, InputReport, Report, Summary, Verbosity};
use crate::{ExitStatus, UsageError, checked_options, subcommand_hint};

/// What a run does with each input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Convert and place the outputs.
    Convert,
    /// Read (and write with `--to`) to report diagnostics; place nothing.
    Check,
}

/// Where outputs go.
#[derive(Debug, Clone, PartialEq)]
enum Destination {
    Stdout,
    /// A file if the (single) output is one document, else a directory.
    FileOrDirectory(PathBuf),
    Directory(PathBuf),
    /// `check`: nothing is placed.
    Nowhere,
}

struct Job<'a> {
    registry: &'a Registry,
    from: Option<&'a FormatEntry>,
    /// The target; `None` only for `check` without `--to`.
    to: Option<&'a FormatEntry>,
    mode: Mode,
    args: &'a ConvertArgs,
    strict: Strictness,
    options: Options,
    destination: Destination,
    single_input: bool,
    staging: Option<Staging>,
    failed: AtomicBool,
    limits: Limits,
}

/// The result of one input, kept small: staged outputs live on disk, not here.
struct ItemResult {
    report: InputReport,
    planned: Vec<PlannedFile>,
    /// Every file read for this input: none of them may be written.
    read: Vec<PathBuf>,
    /// Standard output's text, when the destination is stdout.
    stdout: Option<String>,
    /// What to tell the user about where the outputs went (a folder made for several files).
    note: Option<String>,
}

pub fn run(registry: &Registry, args: &ConvertArgs, global: &GlobalArgs, mode: Mode) -> Result<ExitStatus> {
    let to = match args.to.as_deref() {
        Some(name) => Some(registry.format(name).map_err(UsageError::from)?),
        None if mode == Mode::Check => None,
        None => {
            let hint = args.inputs.first().and_then(|i| subcommand_hint(i));
            return Err(UsageError(hint.unwrap_or_else(|| {
                "--to FORMAT is required: the format to write (`convert formats` lists them)".to_owned()
            }))
            .into());
        }
    };
    if let Some(to) = to.filter(|t| !t.info.writes) {
        return Err(UsageError(format!("format {} cannot write (it only reads)", to.info.id)).into());
    }
    let from = args.read.from.as_deref().map(|f| registry.format(f)).transpose().map_err(UsageError::from)?;
    let options = checked_options(registry, &args.read.options, from, to)?;
    let paths = expand_globs(&args.inputs)?;
    if let Some(hint) = paths.first().filter(|p| !p.exists() && p.as_os_str() != "-").and_then(|p| subcommand_hint(p)) {
        return Err(UsageError(hint).into());
    }
    let items = pipeline::find_inputs(registry, &paths, from);
    if items.is_empty() {
        let wanted = match from {
            Some(f) => format!("no {} input (a file ending .{})", f.info.id, f.info.extensions.join(", .")),
            None => "nothing any format reads".to_owned(),
        };
        let places: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        bail!("{}: is a directory, but {wanted} was found in it", places.join(", "));
    }
    if items.iter().filter(|i| i.is_stdin()).count() > 0 && items.len() > 1 {
        return Err(UsageError("- (standard input) cannot be combined with other inputs".into()).into());
    }
    let single_input = items.len() == 1;
    let destination = match &args.output {
        _ if mode == Mode::Check => Destination::Nowhere,
        Some(p) if p.as_os_str() == "-" => Destination::Stdout,
        None => Destination::Stdout,
        Some(p) if !single_input || p.is_dir() || p.to_string_lossy().ends_with('/') => {
            Destination::Directory(p.clone())
        }
        Some(p) => Destination::FileOrDirectory(p.clone()),
    };
    if destination == Destination::Stdout && !single_input {
        return Err(UsageError(format!("{} inputs need an output directory: add -o DIR", items.len())).into());
    }
    let item_paths: Vec<PathBuf> = items.iter().filter(|i| !i.is_stdin()).map(|i| i.path.clone()).collect();
    if let Some(report) = &args.report {
        check_report_path(report, &item_paths, args.force)?;
    }
    let staging = match (&destination, args.dry_run) {
        (Destination::Directory(dir), false) => Some(Staging::new(dir)?),
        (Destination::FileOrDirectory(path), false) => {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            Some(Staging::new(parent)?)
        }
        _ => None,
    };
    let job = Job {
        registry,
        from,
        to,
        mode,
        args,
        strict: args.strict_arg.strict.clone().unwrap_or_default(),
        options,
        destination,
        single_input,
        staging,
        failed: AtomicBool::new(false),
        limits: Limits::default(),
    };

    let progress = progress_bar(items.len(), global.quiet);
    let convert_all = || -> Vec<ItemResult> {
        items
            .par_iter()
            .map(|item| {
                let result = job.convert_one(item);
                progress.inc(1);
                result
            })
            .collect()
    };
    // Readers and writers recurse as deep as the input nests: give them the stack for it.
    let pool = rayon::ThreadPoolBuilder::new().stack_size(toolport_core::limits::CONVERSION_STACK_BYTES);
    let results = pool.num_threads(args.jobs.unwrap_or(0)).build()?.install(convert_all);
    progress.finish_and_clear();

    let verbosity = Verbosity::new(global.quiet, global.verbose);
    let mut reports = Vec::with_capacity(results.len());
    let mut planned = Vec::new();
    let mut inputs = item_paths;
    let mut stdout_text = None;
    let mut notes = Vec::new();
    for result in results {
        planned.extend(result.planned);
        inputs.extend(result.read);
        stdout_text = stdout_text.or(result.stdout);
        notes.extend(result.note);
        reports.push(result.report);
    }
    let shown: Vec<(&InputItem, &Diagnostic)> =
        items.iter().zip(&reports).flat_map(|(item, r)| r.diagnostics.iter().map(move |d| (item, d))).collect();
    for line in report::diagnostic_lines(&shown, verbosity) {
        eprintln!("{line}");
    }
    drop(shown);
    if mode == Mode::Check {
        return Ok(check_lines(&items, &reports, to, global));
    }
    let to = to.context("convert has a target")?;

    // Every output is known: refuse collisions, inputs, links and existing files before
    // writing any. The report is an output like the others.
    let mut plan = planned;
    if let Some(report) = &args.report {
        let root = report.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        plan.push(PlannedFile { path: report.clone(), owner: REPORT_OWNER.to_owned(), root });
    }
    let problems = output::check_plan(&plan, &inputs, args.force);
    let mut report_writable = true;
    if !problems.is_empty() {
        for problem in &problems {
            eprintln!("error: {}", problem.error);
        }
        report_writable = !problems.iter().any(|p| p.owner == REPORT_OWNER);
        mark_plan_failure(&mut reports, &problems);
    } else if args.dry_run {
        if !global.quiet {
            for file in plan.iter().filter(|f| f.owner != REPORT_OWNER) {
                eprintln!("would write {}", file.path.display());
            }
        }
    } else if let Some(staging) = &job.staging {
        let committed = staging.commit(args.force);
        mark_commit_failures(&mut reports, &committed.failed);
        if !global.quiet && committed.failed.is_empty() {
            for note in &notes {
                eprintln!("note: {note}");
            }
        }
    }
    drop(job.staging);
    if let Some(text) = stdout_text {
        std::io::stdout().lock().write_all(text.as_bytes())?;
    }

    // The summary and the report are written whatever happened above.
    if !global.quiet {
        let mut used: Vec<&str> = reports.iter().filter_map(|r| r.from.as_deref()).collect();
        used.push(&to.info.id);
        used.sort_unstable();
        used.dedup();
        for warning in used.iter().filter_map(|id| registry.shadowing_warning(id)) {
            eprintln!("warning: {warning}");
        }
        for warning in registry.plugin_troubles() {
            eprintln!("warning: {warning}");
        }
    }
    let summary = Summary::of(&reports);
    if !global.quiet {
        eprintln!("{}", summary.line());
    }

    let status = exit_status(&summary, problems.is_empty());
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
    for (item, report) in items.iter().zip(reports) {
        let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
        let losses = report.diagnostics.iter().filter(|d| d.is_loss()).count();
        let verdict = match report.status {
            Status::Skipped => "skipped",
            Status::LossRefused => "refused for losses (--strict)",
            _ if errors == 0 => "ok",
            _ => "invalid",
        };
        if !global.quiet {
            let from = report.from.as_deref().unwrap_or("format unknown");
            let target = to.map(|t| format!(", {losses} losses writing {}", t.info.id)).unwrap_or_default();
            eprintln!("{}: {verdict} ({from}), {errors} errors{target}", report::display_input(&item.path));
        }
        match report.status {
            Status::Failed => status = ExitStatus::Failed,
            Status::LossRefused if status == ExitStatus::Ok => status = ExitStatus::LossRefused,
            _ => {}
        }
    }
    status
}

/// The owner of the report file in a plan.
const REPORT_OWNER: &str = "--report";

/// Refuses, before converting anything, a `--report` path that could not be written: an
/// input, an existing file without `--force`, a folder, a link.
fn check_report_path(path: &Path, inputs: &[PathBuf], force: bool) -> Result<()> {
    let root = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let file = PlannedFile { path: path.to_path_buf(), owner: REPORT_OWNER.to_owned(), root };
    match output::check_plan(std::slice::from_ref(&file), inputs, force).into_iter().next() {
        Some(problem) => Err(UsageError(format!("--report {}", problem.error)).into()),
        None => Ok(()),
    }
}

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
        report.status = Status::Failed;
        let mut message = format!("not written: {}", failure.error);
        if failure.left_in_place.is_empty() {
            message.push_str("; none of this input's files were placed");
        } else {
            let left: Vec<String> = failure.left_in_place.iter().map(|p| p.display().to_string()).collect();
            message
                .push_str(&format!("; these files of it were placed and could not be taken back: {}", left.join(", ")));
        }
        eprintln!("error: {}: {message}", failure.owner);
        report.diagnostics.push(Diagnostic::error(codes::OUTPUT_REFUSED, "", message));
        report.outputs = failure.left_in_place.iter().map(|p| p.display().to_string()).collect();
    }
}

impl Job<'_> {
    fn convert_one(&self, item: &InputItem) -> ItemResult {
        let mut report = InputReport {
            input: report::display_input(&item.path),
            from: None,
            status: Status::Failed,
            outputs: Vec::new(),
            diagnostics: Vec::new(),
        };
        let done = |report| ItemResult { report, planned: Vec::new(), read: Vec::new(), stdout: None, note: None };
        if self.args.fail_fast && self.failed.load(Ordering::Relaxed) {
            report.status = Status::Skipped;
            report.diagnostics.push(Diagnostic::info(
                codes::RUN_SKIPPED,
                "",
                "not converted: --fail-fast stopped the run",
            ));
            return done(report);
        }
        let (from, bundle) = match pipeline::load(self.registry, item, self.from, &self.limits) {
            Ok(loaded) => loaded,
            Err(ResolveError::Undetected { .. }) if item.found_by_walking => {
                report.status = Status::Skipped;
                report.diagnostics.push(Diagnostic::warning(
                    codes::RUN_SKIPPED,
                    "",
                    "skipped: no format recognises this file",
                ));
                return done(report);
            }
            Err(e) => {
                self.failed.store(true, Ordering::Relaxed);
                report.diagnostics.push(e.diagnostic());
                return done(report);
            }
        };
        report.from = Some(from.info.id.clone());
        let mut options = self.options.clone();
        if options.get(Options::OUTPUT_NAME).is_none() {
            options.set(Options::OUTPUT_NAME, item.stem());
        }
        let Some(to) = self.to else {
            // `check` without a target: read only.
            let read = from.format.read(&bundle, &options);
            report.status = if read.has_errors() || read.value.is_none() { Status::Failed } else { Status::Converted };
            report.diagnostics = read.diagnostics;
            if report.status == Status::Failed
                && let Some(hint) =
                    self.from.and_then(|given| pipeline::detection_hint(self.registry, item, &bundle, given))
            {
                report.diagnostics.push(hint);
            }
            return done(report);
        };
        let conversion = pipeline::convert(from, to, &bundle, &options, self.strict.clone());
        report.status = conversion.status;
        report.diagnostics = conversion.diagnostics;
        if conversion.read_failed
            && let Some(hint) =
                self.from.and_then(|given| pipeline::detection_hint(self.registry, item, &bundle, given))
        {
            report.diagnostics.push(hint);
        }
        let read = item.files_read(&bundle);
        drop(bundle);
        if self.mode == Mode::Check {
            return done(report);
        }
        let Some(written) = conversion.output else {
            if report.status == Status::Failed {
                self.failed.store(true, Ordering::Relaxed);
            }
            return done(report);
        };
        match self.place(item, to, &written) {
            Ok(Placement { planned, stdout, note }) => {
                let outputs = match &stdout {
                    Some(_) => vec!["<stdout>".to_owned()],
                    None => planned.iter().map(|f| f.path.display().to_string()).collect(),
                };
                ItemResult { report: InputReport { outputs, ..report }, planned, read, stdout, note }
            }
            Err(e) => {
                self.failed.store(true, Ordering::Relaxed);
                report.status = Status::Failed;
                report.diagnostics.push(Diagnostic::error(codes::OUTPUT_REFUSED, "", e.to_string()));
                ItemResult { read, ..done(report) }
            }
        }
    }

    /// Decides where each written file goes and stages it (unless dry run or stdout).
    fn place(&self, item: &InputItem, to: &FormatEntry, written: &Bundle) -> Result<Placement> {
        let owner = report::display_input(&item.path);
        let single_document = written.files.len() == 1
            && written.binary_files.is_empty()
            && !written.files.keys().any(|k| k.contains('/'));
        let mut note = None;
        let targets: Vec<(PathBuf, &[u8])> = match &self.destination {
            Destination::Nowhere => return Ok(Placement { planned: Vec::new(), stdout: None, note: None }),
            Destination::Stdout => {
                if !single_document {
                    bail!("{} writes {} files; give an output directory with -o DIR", to.info.id, written.files.len());
                }
                let text = written.files.values().next().cloned().unwrap_or_default();
                return Ok(Placement { planned: Vec::new(), stdout: Some(text), note: None });
            }
            Destination::FileOrDirectory(path) if single_document => {
                vec![(path.clone(), written.files.values().next().map(String::as_bytes).unwrap_or_default())]
            }
            Destination::FileOrDirectory(path) if !path.is_dir() && path.extension().is_some() => {
                // `-o fs.skydeck.json` for a target that writes several files: a folder by that
                // name would surprise; ask for a folder.
                bail!(
                    "{} writes {} files ({}), and -o {} looks like a file name: give a folder (-o {}/), or an existing one",
                    to.info.id,
                    written.files.len(),
                    file_list(written),
                    path.display(),
                    path.with_extension("").display()
                );
            }
            Destination::FileOrDirectory(dir) | Destination::Directory(dir) => {
                if matches!(self.destination, Destination::FileOrDirectory(_)) && !single_document {
                    note = Some(format!(
                        "{} writes {} files: they are in the folder {}/ ({})",
                        to.info.id,
                        written.files.len(),
                        dir.display(),
                        file_list(written)
                    ));
                }
                // The input's place in its tree, mirrored: plain folder names only.
                let parent =
                    item.relative.parent().filter(|p| p.components().all(|c| matches!(c, Component::Normal(_))));
                let parent = parent.map(Path::to_path_buf).unwrap_or_default();
                let base = if self.single_input {
                    dir.clone()
                } else if single_document {
                    dir.join(parent)
                } else {
                    dir.join(parent).join(item.stem())
                };
                written
                    .output_files()
                    .map(|(relative, bytes)| Ok((output::safe_join(&base, relative)?, bytes)))
                    .collect::<Result<_, output::OutputError>>()?
            }
        };
        let root = self.output_root();
        let files: Vec<(PlannedFile, &[u8])> = targets
            .into_iter()
            .map(|(path, bytes)| (PlannedFile { path, owner: owner.clone(), root: root.clone() }, bytes))
            .collect();
        if let Some(staging) = &self.staging {
            staging.stage_all(&files)?;
        }
        Ok(Placement { planned: files.into_iter().map(|(file, _)| file).collect(), stdout: None, note })
    }

    /// The folder the user named for outputs: links below it are never written through.
    fn output_root(&self) -> PathBuf {
        match &self.destination {
            Destination::Directory(dir) => dir.clone(),
            Destination::FileOrDirectory(path) if path.is_dir() => path.clone(),
            Destination::FileOrDirectory(path) => {
                path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf()
            }
            Destination::Stdout | Destination::Nowhere => PathBuf::from("."),
        }
    }
}

/// Where one input's written files go: planned (and staged) files, or standard output.
struct Placement {
    planned: Vec<PlannedFile>,
    stdout: Option<String>,
    note: Option<String>,
}

/// The first few of a bundle's file names, for messages.
fn file_list(written: &Bundle) -> String {
    let mut names: Vec<&str> = written.files.keys().map(String::as_str).take(4).collect();
    if written.files.len() > names.len() {
        names.push("...");
    }
    names.join(", ")
}

/// Expands glob patterns that the shell left alone (quoted, or on Windows). A pattern that
/// matches nothing is an error; a plain path is kept as is.
fn expand_globs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for input in inputs {
        let text = input.to_string_lossy();
        if input.exists() || !text.contains(['*', '?', '[']) {
            out.push(input.clone());
            continue;
        }
        let mut matched: Vec<PathBuf> = glob::glob(&text)
            .map_err(|e| UsageError(format!("{text}: invalid glob pattern: {e}")))?
            .filter_map(Result::ok)
            .collect();
        if matched.is_empty() {
            return Err(UsageError(format!("{text}: no file matches this pattern")).into());
        }
        matched.sort();
        out.extend(matched);
    }
    Ok(out)
}

fn progress_bar(len: usize, quiet: bool) -> indicatif::ProgressBar {
    if quiet || len < 2 || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} inputs {elapsed}") {
        bar.set_style(style);
    }
    bar
}
