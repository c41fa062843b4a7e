//! One input's conversion (`Job::convert_one`) and where its files go (`Job::place`).

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, bail};
use toolport_core::{Bundle, Diagnostic, Options, Strictness, Tally, codes};
use toolport_host::input::Limits;
use toolport_host::output::{self, PlannedFile, Staging};
use toolport_host::pipeline::{self, InputItem, ResolveError, Status};
use toolport_host::stage::Curate;
use toolport_host::{FormatEntry, Registry};

use super::{Destination, ItemResult, Mode};
use crate::args::ConvertArgs;
use crate::report::{self, InputReport};

pub(super) struct Job<'a> {
    pub registry: &'a Registry,
    pub from: Option<&'a FormatEntry>,
    /// The target; `None` only for `check` without `--to`.
    pub to: Option<&'a FormatEntry>,
    pub mode: Mode,
    pub args: &'a ConvertArgs,
    pub strict: Strictness,
    pub options: Options,
    pub destination: Destination,
    pub single_input: bool,
    pub staging: Option<Staging>,
    pub failed: AtomicBool,
    pub limits: Limits,
    pub curate: Curate,
}

impl Job<'_> {
    pub(super) fn convert_one(&self, item: &InputItem) -> ItemResult {
        let mut report = InputReport {
            input: report::display_input(&item.path),
            from: None,
            status: Status::Failed,
            outputs: Vec::new(),
            diagnostics: Vec::new(),
            tally: Tally::default(),
            names_map: None,
        };
        let done = |report| ItemResult { report, planned: Vec::new(), read: Vec::new(), stdout: None, note: None };
        let skipped = |mut report: InputReport, diagnostic: Diagnostic| {
            report.status = Status::Skipped;
            report.diagnostics.push(diagnostic);
            done(report)
        };
        if let Some(why) = &item.skipped {
            return skipped(report, why.clone());
        }
        if let Some(interrupt) = super::interrupt::interrupted() {
            let why = format!("not converted: the run was interrupted ({interrupt})");
            return skipped(report, Diagnostic::info(codes::RUN_SKIPPED, "", why));
        }
        if self.args.fail_fast && self.failed.load(Ordering::Relaxed) {
            let why = "not converted: --fail-fast stopped the run";
            return skipped(report, Diagnostic::info(codes::RUN_SKIPPED, "", why));
        }
        let (from, bundle) = match pipeline::load_noted(self.registry, item, self.from, &self.limits) {
            Ok(loaded) => {
                report.diagnostics.extend(loaded.note);
                (loaded.format, loaded.bundle)
            }
            Err(ResolveError::Undetected { .. }) if item.found_by_walking => {
                let why = "skipped: no format recognises this file";
                return skipped(report, Diagnostic::warning(codes::RUN_SKIPPED, "", why));
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
            report.diagnostics.extend(read.diagnostics);
            report.tally = read.tally;
            if report.status == Status::Failed
                && let Some(hint) =
                    self.from.and_then(|given| pipeline::detection_hint(self.registry, item, &bundle, given))
            {
                report.diagnostics.push(hint);
            }
            return done(report);
        };
        let fit = pipeline::FitSettings { split: self.args.split };
        let read = item.files_read(&bundle);
        // Handed over: the conversion frees the input once read.
        let bundle = Cow::Owned(bundle);
        let conversion = pipeline::convert_staged(from, to, bundle, &options, self.strict.clone(), &self.curate, &fit);
        report.status = conversion.status;
        report.names_map = conversion.names_map;
        report.diagnostics.extend(conversion.diagnostics);
        report.tally = conversion.tally;
        if conversion.read_failed
            && let Some(bundle) = &conversion.source
            && let Some(hint) = self.from.and_then(|given| pipeline::detection_hint(self.registry, item, bundle, given))
        {
            report.diagnostics.push(hint);
        }
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
        let single_document = pipeline::is_single_document(written, &to.info);
        let mut note = None;
        let targets: Vec<(PathBuf, &[u8])> = match &self.destination {
            Destination::Nowhere => return Ok(Placement { planned: Vec::new(), stdout: None, note: None }),
            Destination::Stdout => {
                if !single_document {
                    bail!(
                        "{} writes {}; give an output directory with -o DIR",
                        to.info.id,
                        what_is_written(written, to)
                    );
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
                    "{} writes {} ({}), and -o {} looks like a file name: give a folder (-o {}/), or an existing one",
                    to.info.id,
                    what_is_written(written, to),
                    file_list(written),
                    path.display(),
                    path.with_extension("").display()
                );
            }
            Destination::FileOrDirectory(dir) | Destination::Directory(dir) => {
                if matches!(self.destination, Destination::FileOrDirectory(_)) && !single_document {
                    let count = written.files.len() + written.binary_files.len();
                    let files = if count == 1 { "1 file".to_owned() } else { format!("{count} files") };
                    note = Some(match pipeline::writes_a_folder(&to.info) {
                        true => format!(
                            "{} writes a folder of {files}: {}/ ({})",
                            to.info.id,
                            dir.display(),
                            file_list(written)
                        ),
                        false => format!(
                            "{} writes {files}: they are in the folder {}/ ({})",
                            to.info.id,
                            dir.display(),
                            file_list(written)
                        ),
                    });
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
                // Named by the output-name rule unless the user named the file (`output_name`).
                let documents =
                    pipeline::names_follow_input(written, &to.info) && self.options.get(Options::OUTPUT_NAME).is_none();
                let stem = item.stem();
                written
                    .output_files()
                    .map(|(relative, bytes)| {
                        let named = match documents {
                            true => pipeline::target_file_name(self.registry, relative, &stem, &to.info),
                            false => relative.to_owned(),
                        };
                        Ok((output::safe_join(&base, &named)?, bytes))
                    })
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

/// What a writer wrote that is not one document: "a folder" for a format whose output is one,
/// else its count of files.
fn what_is_written(written: &Bundle, to: &FormatEntry) -> String {
    if pipeline::writes_a_folder(&to.info) { "a folder".to_owned() } else { format!("{} files", written.files.len()) }
}
