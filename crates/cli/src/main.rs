//! `convert`: the command line. Glue only: flags are in [`args`], the batch runner in [`run`],
//! reports in [`report`]; everything else is the host library's.

mod args;
mod explain;
mod report;
mod run;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, Parser};
use toolport_core::format::common_options;
use toolport_core::{OptionSpec, Options, Severity};
use toolport_host::discovery::{DiscoveryConfig, IsolationMode};
use toolport_host::input::Limits;
use toolport_host::pipeline::{self, InputItem, ResolveError};
use toolport_host::registry::{self, OptionError, UnknownFormat};
use toolport_host::{FormatEntry, Registry};

use crate::args::{Cli, Command, ConvertArgs, FormatOptions, GlobalArgs, ReadArgs};
use crate::report::Verbosity;
use crate::run::Mode;

/// The documented exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    Ok = 0,
    /// Some input failed.
    Failed = 1,
    /// Bad flags, unknown format, no plugins.
    Usage = 2,
    /// Something would be lost under --strict.
    LossRefused = 3,
}

/// An error in how convert was called (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

impl From<UnknownFormat> for UsageError {
    fn from(e: UnknownFormat) -> Self {
        UsageError(e.to_string())
    }
}

impl From<OptionError> for UsageError {
    fn from(e: OptionError) -> Self {
        UsageError(e.0)
    }
}

/// The subcommands, for a did-you-mean when a mistyped one is taken for an input.
const SUBCOMMANDS: &[&str] = &["formats", "inspect", "check", "codes", "explain", "completions", "man", "help"];

/// `formatz` given as an input that does not exist: the subcommand it likely meant.
pub fn subcommand_hint(input: &std::path::Path) -> Option<String> {
    let text = input.to_str()?;
    if input.exists() || text.contains(['/', '.', '\\']) {
        return None;
    }
    let near = registry::did_you_mean(text, SUBCOMMANDS.iter().copied())?;
    Some(format!("`{text}` is neither a file nor a subcommand; did you mean `convert {near}`?"))
}

/// Whether the run may convert (or check) more than one input: more than one given, or one
/// that is not a plain file (a folder is walked, a pattern expanded). One file, standard input
/// and the commands that convert nothing are one conversion at most.
fn converts_many(cli: &Cli) -> bool {
    let inputs = match &cli.command {
        None => &cli.convert.inputs,
        Some(Command::Check { inputs, .. }) => inputs,
        Some(_) => return false,
    };
    match inputs.as_slice() {
        [] => false,
        [one] => one.as_os_str() != "-" && !one.is_file(),
        _ => true,
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // While no other thread exists: the allocator's tuning may start the program again.
    toolport_host::allocator::tune(converts_many(&cli));
    // Then: an interrupted run stops in order (run/interrupt.rs).
    run::interrupt::listen();
    // Readers and writers recurse as deep as an input nests (inspect and check run them here,
    // convert on its own pool): give them the stack for the documented nesting limit.
    let worker = std::thread::Builder::new()
        .name("convert".into())
        .stack_size(toolport_core::limits::CONVERSION_STACK_BYTES)
        .spawn(move || dispatch(cli));
    let outcome = match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(_)) => Err(anyhow::anyhow!("internal error: the run panicked (please report this)")),
        Err(e) => Err(anyhow::anyhow!("could not start the run: {e}")),
    };
    // Interrupted: 128 + the signal's number, as shells expect, whatever the run's outcome.
    if let Some(interrupt) = run::interrupt::exit_interrupt() {
        if let Err(e) = &outcome {
            eprintln!("error: {e:#}");
        }
        return ExitCode::from(interrupt.exit_code());
    }
    match outcome {
        Ok(status) => ExitCode::from(status as u8),
        // `convert … | head` closing the pipe early is not an error worth a message.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            let usage = e.downcast_ref::<UsageError>().is_some();
            eprintln!("error: {e:#}");
            ExitCode::from(if usage { ExitStatus::Usage } else { ExitStatus::Failed } as u8)
        }
    }
}

fn dispatch(mut cli: Cli) -> Result<ExitStatus> {
    let inputs = match &mut cli.command {
        Some(Command::Check { inputs, .. }) => Some(inputs),
        None => Some(&mut cli.convert.inputs),
        Some(_) => None,
    };
    if let Some(inputs) = inputs.filter(|i| i.is_empty()) {
        inputs.push(piped_stdin()?);
    }
    // Plugins are loaded only by the commands that use them (and, but for `formats`, which
    // shows what loads, only those whose formats they use).
    let registry = || load_registry(&cli.global, false);
    match &cli.command {
        Some(Command::Formats { format, json }) => match format {
            Some(name) => format_details(&load_registry(&cli.global, true)?, name, *json),
            None => formats(&load_registry(&cli.global, true)?, *json),
        },
        Some(Command::Inspect { input, read }) => inspect(&registry()?, input, read, &cli.global),
        Some(Command::Check { inputs, to, strict, read }) => {
            // The same per-input pipeline as convert, placing nothing.
            let args = ConvertArgs {
                inputs: inputs.clone(),
                to: to.clone(),
                strict_arg: strict.clone(),
                read: read.clone(),
                ..ConvertArgs::default()
            };
            run::run(&registry()?, &args, &cli.global, Mode::Check)
        }
        Some(Command::Codes { json }) => explain::codes(*json),
        Some(Command::Explain { code }) => explain::explain_code(code),
        Some(Command::Completions { shell }) => {
            // Into a buffer first: clap_complete panics on a write error (`| head`).
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), program_name(), &mut script);
            std::io::stdout().lock().write_all(&script)?;
            Ok(ExitStatus::Ok)
        }
        Some(Command::Man) => {
            clap_mangen::Man::new(Cli::command().name(program_name())).render(&mut std::io::stdout().lock())?;
            Ok(ExitStatus::Ok)
        }
        None => run::run(&registry()?, &cli.convert, &cli.global, Mode::Convert),
    }
}

/// No input given: standard input when a document is piped or redirected into it (`cat
/// x.json | convert --to mcp`), else a usage error (a terminal would wait for typing with no
/// prompt, and /dev/null or a closed input holds nothing to convert).
fn piped_stdin() -> Result<std::path::PathBuf, UsageError> {
    if stdin_holds_a_document() {
        return Ok(std::path::PathBuf::from("-"));
    }
    Err(UsageError("no input given: name files or folders, or pipe a document in (- reads standard input)".to_owned()))
}

#[cfg(unix)]
fn stdin_holds_a_document() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else { return false };
    std::fs::File::from(fd).metadata().is_ok_and(|m| m.file_type().is_fifo() || m.is_file())
}

#[cfg(not(unix))]
fn stdin_holds_a_document() -> bool {
    use std::io::IsTerminal;
    !std::io::stdin().is_terminal()
}

/// The name this program was run as (`convert`, or its alias `toolporter`), for completions
/// and the manual page.
fn program_name() -> &'static str {
    let arg0 = std::env::args_os().next().unwrap_or_default();
    match std::path::Path::new(&arg0).file_stem() {
        Some(stem) if stem == "toolporter" => "toolporter",
        _ => "convert",
    }
}

/// Discovers plugins (`every_plugin`: each loaded now, else those the description cache
/// describes when first used). Load failures are reported (each names its file) and the rest
/// is used; finding no format at all is a usage error listing the places searched.
fn load_registry(global: &GlobalArgs, every_plugin: bool) -> Result<Registry> {
    toolport_host::plugin::check_model_handover_variable().map_err(UsageError)?;
    let mut config = DiscoveryConfig::from_environment(global.plugin_dirs.clone());
    config.load_every_plugin = every_plugin;
    config.allow_unsafe_dirs |= global.allow_unsafe_plugin_dirs;
    config.isolation.mode = match global.isolate.as_str() {
        "always" => IsolationMode::Always,
        "never" => IsolationMode::Never,
        _ => IsolationMode::Auto,
    };
    let timeout = std::time::Duration::from_secs(global.plugin_timeout.max(1));
    config.isolation.limits.call_timeout = timeout;
    config.isolation.limits.load_timeout = config.isolation.limits.load_timeout.min(timeout);
    let registry = Registry::discover(&config);
    if !global.quiet {
        for error in &registry.load_errors {
            eprintln!("warning: plugin skipped: {}", report::printable(&error.to_string()));
        }
    }
    if registry.formats().is_empty() {
        let searched: Vec<String> =
            registry.searched.iter().map(|s| format!("  {} ({})", s.dir.display(), s.origin)).collect();
        return Err(UsageError(format!(
            "no plugins found; searched:\n{}\nbuild them with `cargo build --workspace` (or `cargo xtask dist`), or point --plugin-dir or TOOLPORT_PLUGIN_PATH at a folder of plugins",
            searched.join("\n")
        ))
        .into());
    }
    Ok(registry)
}

/// The `--option` settings, checked against what the run's formats declare: those of `to`
/// and `from` when named, else (check and inspect without them) those of every format.
pub fn checked_options(
    registry: &Registry,
    options: &FormatOptions,
    from: Option<&FormatEntry>,
    to: Option<&FormatEntry>,
) -> Result<Options, UsageError> {
    let mut out = Options::default();
    for (key, value) in &options.options {
        out.set(key, value);
    }
    let named: Vec<&FormatEntry> = to.into_iter().chain(from).collect();
    let formats: Vec<&FormatEntry> = if to.is_some() { named } else { registry.formats().iter().collect() };
    registry::check_options(&out, &formats)?;
    Ok(out)
}

/// A format's options as JSON (`null` when the format does not declare them).
fn options_json(info: &toolport_core::FormatInfo) -> serde_json::Value {
    serde_json::to_value(&info.options).unwrap_or_default()
}

fn format_json(f: &FormatEntry) -> serde_json::Value {
    serde_json::json!({
        "id": f.info.id, "aliases": f.info.aliases, "description": f.info.description,
        "reads": f.info.reads, "writes": f.info.writes, "input": f.info.input,
        "extensions": f.info.extensions, "version": f.plugin_version.as_deref().unwrap_or(&f.info.version),
        "plugin": f.plugin_path, "options": options_json(&f.info), "limits": f.info.limits,
    })
}

/// `convert formats FORMAT`: one format in full, with its options.
fn format_details(registry: &Registry, name: &str, json: bool) -> Result<ExitStatus> {
    let f = registry.format(name).map_err(UsageError::from)?;
    let mut out = std::io::stdout().lock();
    if json {
        let mut doc = format_json(f);
        doc["common_options"] = serde_json::to_value(common_options())?;
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(ExitStatus::Ok);
    }
    let info = &f.info;
    writeln!(out, "{}", report::printable(&format!("{}: {}", info.id, info.description)))?;
    if !info.aliases.is_empty() {
        writeln!(out, "  aliases: {}", report::printable(&info.aliases.join(", ")))?;
    }
    let can = match (info.reads, info.writes) {
        (true, true) => "reads and writes",
        (true, false) => "reads only",
        (false, true) => "writes only",
        (false, false) => "neither reads nor writes",
    };
    let input = serde_json::to_value(info.input)?.as_str().unwrap_or_default().replace('_', " ");
    let extensions =
        if info.extensions.is_empty() { String::new() } else { format!(" (.{})", info.extensions.join(", .")) };
    writeln!(out, "  {can}; one input is a {input}{extensions}")?;
    let plugin = f.plugin_path.as_ref().map_or("(built in)".to_owned(), |p| p.display().to_string());
    writeln!(out, "  version {}, plugin {plugin}", f.plugin_version.as_deref().unwrap_or(&info.version))?;
    writeln!(out, "options (--option KEY=VALUE):")?;
    let common = common_options();
    let mut rows: Vec<(&OptionSpec, &str)> = Vec::new();
    match &info.options {
        Some(declared) => rows.extend(declared.iter().map(|s| (s, ""))),
        None => writeln!(out, "  (this plugin does not declare its options: any key is passed to it unchecked)")?,
    }
    rows.extend(common.iter().map(|s| (s, " (every format)")));
    let width = rows.iter().map(|(s, _)| s.key.len() + 1 + s.value_hint().len()).max().unwrap_or(0);
    for (spec, every) in rows {
        let key = format!("{}={}", spec.key, spec.value_hint());
        writeln!(out, "{}", report::printable(&format!("  {key:<width$}  {}{every}", spec.help)))?;
        if !spec.default.is_empty() {
            writeln!(out, "{}", report::printable(&format!("  {:<width$}  default: {}", "", spec.default)))?;
        }
    }
    if !info.limits.is_empty() {
        writeln!(out, "platform limits (checked on every conversion to {}; limit/* diagnostics):", info.id)?;
        for limit in &info.limits.0 {
            let kept = if limit.kept_by_writer { "; kept by the writer" } else { "" };
            let note =
                if limit.note.is_empty() || limit.max.is_none() { String::new() } else { format!(" ({})", limit.note) };
            let line = format!("  {}: {}{note}{kept}", limit.kind.label(), limit.value());
            writeln!(out, "{}", report::printable(&line))?;
            writeln!(out, "{}", report::printable(&format!("    source: {}", limit.source)))?;
        }
    }
    Ok(ExitStatus::Ok)
}

fn formats(registry: &Registry, json: bool) -> Result<ExitStatus> {
    let mut stdout = std::io::stdout().lock();
    if json {
        let formats: Vec<serde_json::Value> = registry.formats().iter().map(format_json).collect();
        let errors: Vec<String> = registry.load_errors.iter().map(ToString::to_string).collect();
        let searched: Vec<serde_json::Value> = registry
            .searched
            .iter()
            .map(|s| serde_json::json!({"dir": s.dir, "origin": s.origin.to_string()}))
            .collect();
        let doc = serde_json::json!({
            "formats": formats, "common_options": common_options(), "plugin_errors": errors, "searched": searched,
        });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(ExitStatus::Ok);
    }
    // Columns as wide as their widest cell, so a long format id (mcp-prompts) keeps the table aligned.
    let mut rows: Vec<[String; 6]> =
        vec![["FORMAT", "CAN", "VERSION", "INPUT", "OPTIONS", "PLUGIN"].map(str::to_owned)];
    for f in registry.formats() {
        let can = match (f.info.reads, f.info.writes) {
            (true, true) => "read/write",
            (true, false) => "read",
            (false, true) => "write",
            (false, false) => "-",
        };
        let input = serde_json::to_value(f.info.input)?.as_str().unwrap_or_default().to_owned();
        let plugin = f.plugin_path.as_ref().map_or("(built in)".to_owned(), |p| p.display().to_string());
        let aliases =
            if f.info.aliases.is_empty() { String::new() } else { format!(" (alias {})", f.info.aliases.join(", ")) };
        let options = match &f.info.options {
            Some(specs) if specs.is_empty() => "-".to_owned(),
            Some(specs) => specs.iter().map(|s| s.key.as_str()).collect::<Vec<_>>().join(","),
            None => "(undeclared)".to_owned(),
        };
        rows.push([
            f.info.id.clone(),
            can.to_owned(),
            f.info.version.clone(),
            input,
            options,
            format!("{plugin}{aliases}"),
        ]);
    }
    let mut widths = [0usize; 5];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in &rows {
        let mut line = String::new();
        for (width, cell) in widths.iter().zip(row) {
            line.push_str(&format!("{cell:<width$} "));
        }
        line.push_str(&row[5]);
        writeln!(stdout, "{}", report::printable(&line))?;
    }
    for s in &registry.shadowed {
        let note = format!(
            "note: {} from {} is shadowed by {}",
            s.id,
            s.plugin_path.display(),
            s.used_from.as_ref().map_or("a built-in format".to_owned(), |p| p.display().to_string())
        );
        writeln!(stdout, "{}", report::printable(&note))?;
    }
    for e in &registry.load_errors {
        writeln!(stdout, "error: {}", report::printable(&e.to_string()))?;
    }
    writeln!(
        stdout,
        "searched, in order: {}",
        registry.searched.iter().map(|s| s.dir.display().to_string()).collect::<Vec<_>>().join(", ")
    )?;
    writeln!(
        stdout,
        "every format also takes output_name=NAME; `convert formats FORMAT` describes a format's options"
    )?;
    writeln!(stdout, "plugins are native code loaded into convert: install only plugins you trust")?;
    Ok(ExitStatus::Ok)
}

/// `convert inspect`: reads one input as convert does (the same flags, detection, options
/// and diagnostics) and prints the model.
fn inspect(registry: &Registry, input: &std::path::Path, read: &ReadArgs, global: &GlobalArgs) -> Result<ExitStatus> {
    let from = read.from.as_deref().map(|f| registry.format(f)).transpose().map_err(UsageError::from)?;
    let mut options = checked_options(registry, &read.options, from, None)?;
    if let Some(hint) = Some(input).filter(|p| !p.exists() && p.as_os_str() != "-").and_then(subcommand_hint) {
        return Err(UsageError(hint).into());
    }
    let item = InputItem::given(input);
    let verbosity = Verbosity::new(global.quiet, global.verbose);
    let print = |diagnostics: &[toolport_core::Diagnostic]| {
        let shown: Vec<(&InputItem, &toolport_core::Diagnostic)> = diagnostics.iter().map(|d| (&item, d)).collect();
        // inspect asks for every diagnostic (no detail option): nothing is counted.
        for line in report::diagnostic_lines(&shown, &toolport_core::Tally::default(), verbosity) {
            eprintln!("{line}");
        }
    };
    let (format, bundle) = match pipeline::load(registry, &item, from, &Limits::default()) {
        Ok(loaded) => loaded,
        Err(e @ ResolveError::Syntax { .. }) => {
            print(&[e.diagnostic()]);
            return Ok(ExitStatus::Failed);
        }
        Err(e) => return Err(e.into()),
    };
    if options.get(Options::OUTPUT_NAME).is_none() {
        options.set(Options::OUTPUT_NAME, item.stem());
    }
    let mut outcome = format.format.read(&bundle, &options);
    let failed = outcome.value.is_none() || outcome.diagnostics.iter().any(|d| d.severity == Severity::Error);
    if failed && let Some(hint) = from.and_then(|given| pipeline::detection_hint(registry, &item, &bundle, given)) {
        outcome.diagnostics.push(hint);
    }
    print(&outcome.diagnostics);
    match outcome.value {
        Some(model) if !failed => {
            let mut text = serde_json::to_string_pretty(&model.versioned())?;
            text.push('\n');
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(ExitStatus::Ok)
        }
        _ => Ok(ExitStatus::Failed),
    }
}
