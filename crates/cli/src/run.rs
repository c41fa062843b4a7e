//! `convert --from F --to G INPUT... [-o OUT]`: plan the inputs, convert them in parallel,
//! stage outputs as they finish, check the whole plan, then move everything into place.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use toolport_core::{Bundle, Diagnostic, Options, codes};
use toolport_host::input::Limits;
use toolport_host::output::{self, PlannedFile, Staging};
use toolport_host::pipeline::{self, InputItem, ResolveError, Status};
use toolport_host::{FormatEntry, Registry};

use crate::args::{ConvertArgs, GlobalArgs};
use crate::report::{self, InputReport, Report, Summary, Verbosity};
use crate::{ExitStatus, UsageError, format_options};

/// Where outputs go.
#[derive(Debug, Clone, PartialEq)]
enum Destination {
    Stdout,
    /// A file if the (single) output is one document, else a directory.
    FileOrDirectory(PathBuf),
    Directory(PathBuf),
}

struct Job<'a> {
    registry: &'a Registry,
    from: Option<&'a FormatEntry>,
    to: &'a FormatEntry,
    args: &'a ConvertArgs,
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
    /// Standard output's text, when the destination is stdout.
    stdout: Option<String>,
}

pub fn run(registry: &Registry, args: &ConvertArgs, global: &GlobalArgs) -> Result<ExitStatus> {
    let to_name = args.to.as_deref().context("--to is required")?;
    let to = registry.format(to_name).map_err(UsageError::from)?;
    if !to.info.writes {
        return Err(UsageError(format!("format {} cannot write (it only reads)", to.info.id)).into());
    }
    let from = args.from.as_deref().map(|f| registry.format(f)).transpose().map_err(UsageError::from)?;
    let paths = expand_globs(&args.inputs)?;
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
        args,
        options: format_options(&args.options),
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
    let results = match args.jobs {
        Some(n) => rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build()?.install(convert_all),
        None => convert_all(),
    };
    progress.finish_and_clear();

    let verbosity = Verbosity::new(global.quiet, global.verbose);
    let mut reports = Vec::with_capacity(results.len());
    let mut planned = Vec::new();
    let mut stdout_text = None;
    for (item, result) in items.iter().zip(results) {
        for d in result.report.diagnostics.iter().filter(|d| d.severity >= verbosity.min) {
            eprintln!("{}", report::render(item, d));
        }
        planned.extend(result.planned);
        stdout_text = stdout_text.or(result.stdout);
        reports.push(result.report);
    }

    // Every output is known: refuse collisions, inputs and existing files before writing any.
    let inputs: Vec<PathBuf> = items.iter().filter(|i| !i.is_stdin()).map(|i| i.path.clone()).collect();
    let problems = output::check_plan(&planned, &inputs, args.force);
    if !problems.is_empty() {
        for problem in &problems {
            eprintln!("error: {problem}");
        }
        mark_plan_failure(&mut reports, &problems);
    } else if args.dry_run {
        if !global.quiet {
            for file in &planned {
                eprintln!("would write {}", file.path.display());
            }
        }
    } else if let Some(staging) = job.staging {
        staging.commit(args.force)?;
    }
    if let Some(text) = stdout_text {
        std::io::stdout().lock().write_all(text.as_bytes())?;
    }

    let summary = Summary::of(&reports);
    if !global.quiet {
        eprintln!("{}", summary.line());
    }
    if let Some(path) = &args.report {
        let report =
            Report { report_version: report::REPORT_VERSION, to: to.info.id.clone(), summary, inputs: reports };
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        output::write_atomic(path, text.as_bytes(), true)?;
        return Ok(exit_status(&report.summary, problems.is_empty()));
    }
    Ok(exit_status(&summary, problems.is_empty()))
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
fn mark_plan_failure(reports: &mut [InputReport], problems: &[output::OutputError]) {
    for report in reports.iter_mut().filter(|r| matches!(r.status, Status::Converted | Status::ConvertedWithLosses)) {
        report.status = Status::Failed;
        let mine: Vec<&output::OutputError> =
            problems.iter().filter(|p| report.outputs.iter().any(|o| p.to_string().starts_with(o.as_str()))).collect();
        let message = match mine.first() {
            Some(p) => p.to_string(),
            None => "not written: another output could not be placed, so nothing was written".to_owned(),
        };
        report.diagnostics.push(Diagnostic::error(codes::OUTPUT_REFUSED, "", message));
        report.outputs.clear();
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
        let done = |report| ItemResult { report, planned: Vec::new(), stdout: None };
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
                let message = e.to_string();
                let message =
                    message.strip_prefix(&format!("{}: ", item.path.display())).unwrap_or(&message).to_owned();
                report.diagnostics.push(Diagnostic::error(codes::INPUT_INVALID, "", message));
                return done(report);
            }
        };
        report.from = Some(from.info.id.clone());
        let mut options = self.options.clone();
        if options.get(Options::OUTPUT_NAME).is_none() {
            options.set(Options::OUTPUT_NAME, item.stem());
        }
        let conversion = pipeline::convert(from, self.to, &bundle, &options, self.args.strict);
        drop(bundle);
        report.status = conversion.status;
        report.diagnostics = conversion.diagnostics;
        let Some(written) = conversion.output else {
            if report.status == Status::Failed {
                self.failed.store(true, Ordering::Relaxed);
            }
            return done(report);
        };
        match self.place(item, &written) {
            Ok(result) => {
                ItemResult { report: InputReport { outputs: result.0, ..report }, planned: result.1, stdout: result.2 }
            }
            Err(e) => {
                self.failed.store(true, Ordering::Relaxed);
                report.status = Status::Failed;
                report.diagnostics.push(Diagnostic::error(codes::OUTPUT_REFUSED, "", e.to_string()));
                done(report)
            }
        }
    }

    /// Decides where each written file goes and stages it (unless dry run or stdout).
    fn place(&self, item: &InputItem, written: &Bundle) -> Result<(Vec<String>, Vec<PlannedFile>, Option<String>)> {
        let owner = report::display_input(&item.path);
        let single_document = written.files.len() == 1 && !written.files.keys().any(|k| k.contains('/'));
        let targets: Vec<(PathBuf, &str)> = match &self.destination {
            Destination::Stdout => {
                if !single_document {
                    bail!(
                        "{} writes {} files; give an output directory with -o DIR",
                        self.to.info.id,
                        written.files.len()
                    );
                }
                let text = written.files.values().next().cloned().unwrap_or_default();
                return Ok((vec!["<stdout>".into()], Vec::new(), Some(text)));
            }
            Destination::FileOrDirectory(path) if single_document => {
                vec![(path.clone(), written.files.values().next().map(String::as_str).unwrap_or_default())]
            }
            Destination::FileOrDirectory(dir) | Destination::Directory(dir) => {
                let parent = item.relative.parent().map(Path::to_path_buf).unwrap_or_default();
                let base = if self.single_input {
                    dir.clone()
                } else if single_document {
                    dir.join(parent)
                } else {
                    dir.join(parent).join(item.stem())
                };
                written
                    .files
                    .iter()
                    .map(|(relative, text)| Ok((output::safe_join(&base, relative)?, text.as_str())))
                    .collect::<Result<_, output::OutputError>>()?
            }
        };
        let mut planned = Vec::with_capacity(targets.len());
        for (path, text) in targets {
            let file = PlannedFile { path, owner: owner.clone() };
            if let Some(staging) = &self.staging {
                staging.stage(file.clone(), text.as_bytes())?;
            }
            planned.push(file);
        }
        Ok((planned.iter().map(|f| f.path.display().to_string()).collect(), planned, None))
    }
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
