//! `convert --from F --to G INPUT... [-o OUT]`: plan the inputs, convert them in parallel,
//! stage outputs as they finish, check the whole plan, then move everything into place.
//! `convert check` runs the same per-input pipeline (finding inputs, detection, reading,
//! writing with `--to`, the same diagnostics), and places nothing.
//!
//! Three phases: `plan` (formats, inputs, destination), `convert_all` (one `Job::convert_one`
//! per input, in parallel; job.rs), `finish::finish` (plan check, commit, summary, report).
//! A signal stops them in order (interrupt.rs).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{Result, bail};
use rayon::prelude::*;
use toolport_core::{Detail, Options};
use toolport_host::Registry;
use toolport_host::input::Limits;
use toolport_host::output::{self, PlannedFile, Staging};
use toolport_host::pipeline::{self, InputItem};
use toolport_host::stage::Curate;

use crate::args::{ConvertArgs, GlobalArgs};
use crate::report::{self, InputReport};
use crate::{ExitStatus, UsageError, checked_options, subcommand_hint};

mod finish;
pub mod interrupt;
mod job;

use job::Job;

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
    let _running = interrupt::Running::start();
    let (job, items) = plan(registry, args, global, mode)?;
    let results = convert_all(&job, &items, global)?;
    finish::finish(job, &items, results, global)
}

/// Everything decided before any input is converted: the formats, the options, the inputs,
/// where outputs go, and a staging folder for them. Usage errors end the run here.
fn plan<'a>(
    registry: &'a Registry,
    args: &'a ConvertArgs,
    global: &GlobalArgs,
    mode: Mode,
) -> Result<(Job<'a>, Vec<InputItem>)> {
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
    let mut options = checked_options(registry, &args.read.options, from, to)?;
    options.set(Options::DIAGNOSTIC_DETAIL, diagnostic_detail(args, global).as_str());
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
    if single_input {
        // Its one conversion is the run's last work: what it built is left to the process's end.
        options.set(Options::PROCESS_ENDS, "true");
    }
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
    let run_inputs = finish::RunInputs::of(&items);
    if let Some(report) = &args.report {
        finish::check_report_path(report, &run_inputs, args.force)?;
    }
    if let Some(names_map) = &args.curate.names_map {
        finish::check_names_map_path(names_map, &run_inputs, args.force)?;
    }
    if let Destination::Directory(place) | Destination::FileOrDirectory(place) = &destination {
        // Before staging: `-o /dev/null` must not stage in /dev.
        output::check_destination(place)?;
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
        curate: curation(args)?,
    };
    Ok((job, items))
}

/// How much of their diagnostics the plugins give in full: every one when each may be written
/// (`--report`), printed (`-v`), turned into an error (`--strict`) or read for names
/// (`--names-map`); else what the run prints, errors with `-q`, the summary's otherwise. The
/// rest are only counted, and the lines printed are the same.
fn diagnostic_detail(args: &ConvertArgs, global: &GlobalArgs) -> Detail {
    let strict = args.strict_arg.strict.as_ref().is_some_and(|s| !s.is_off());
    if args.report.is_some() || global.verbose || strict || args.curate.names_map.is_some() {
        Detail::All
    } else if global.quiet {
        Detail::Errors
    } else {
        Detail::Summary
    }
}

/// Converts every input on a pool of threads with the stack deep inputs need; each result
/// keeps only its report and the paths of its staged files.
fn convert_all(job: &Job, items: &[InputItem], global: &GlobalArgs) -> Result<Vec<ItemResult>> {
    let progress = progress_bar(items.len(), global.quiet);
    let each = || -> Vec<ItemResult> {
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
    let jobs = job.args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let threads = jobs.min(items.len()).clamp(1, crate::args::MAX_JOBS);
    let results = pool.num_threads(threads).build()?.install(each);
    progress.finish_and_clear();

    Ok(results)
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

/// The curation stage from `--select`, `--exclude`, `--overlay` and `--names-map`: a bad
/// pattern or overlay is a usage error, located in the overlay file.
fn curation(args: &ConvertArgs) -> Result<Curate> {
    let flags = &args.curate;
    let overlay = match &flags.overlay {
        None => None,
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| UsageError(format!("--overlay {}: {e}", path.display())))?;
            // Absolute: diagnostics' files are joined to each input's folder when shown.
            let file = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            Some((file.display().to_string(), text))
        }
    };
    let overlay = overlay.as_ref().map(|(file, text)| (file.as_str(), text.as_str()));
    Curate::new(&flags.select, &flags.exclude, overlay, flags.names_map.is_some()).map_err(|errors| {
        let lines: Vec<String> = errors
            .iter()
            .map(|d| match &d.span {
                Some(s) => format!("{}:{}:{}: {}", s.file, s.line, s.column, d.message),
                None => d.message.clone(),
            })
            .map(|line| report::printable(&line).into_owned())
            .collect();
        UsageError(lines.join("\n")).into()
    })
}
