//! `convert`: the command line. Glue only: flags are in [`args`], the batch runner in [`run`],
//! reports in [`report`]; everything else is the host library's.

mod args;
mod report;
mod run;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;
use toolport_core::{Options, Severity};
use toolport_host::discovery::{DiscoveryConfig, IsolationMode};
use toolport_host::input::Limits;
use toolport_host::pipeline::{self, InputItem};
use toolport_host::{Registry, registry::UnknownFormat};

use crate::args::{Cli, Command, FormatOptions, GlobalArgs};
use crate::report::Verbosity;

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

/// Exit status after an interrupt (SIGINT, SIGTERM, SIGHUP): 128 + SIGINT, as shells expect.
const INTERRUPTED: i32 = 130;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // An interrupted run places nothing and leaves no staging folder behind.
    let _ = ctrlc::set_handler(|| {
        toolport_host::output::remove_live_staging();
        std::process::exit(INTERRUPTED);
    });
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

fn dispatch(cli: Cli) -> Result<ExitStatus> {
    let registry = load_registry(&cli.global)?;
    match &cli.command {
        Some(Command::Formats { json }) => formats(&registry, *json),
        Some(Command::Inspect { input, from, options }) => {
            inspect(&registry, input, from.as_deref(), options, &cli.global)
        }
        Some(Command::Check { inputs, from, to, strict, options }) => {
            check(&registry, inputs, from.as_deref(), to.as_deref(), *strict, options, &cli.global)
        }
        None => run::run(&registry, &cli.convert, &cli.global),
    }
}

/// Discovers plugins. Load failures are reported (each names its file) and the rest is used;
/// finding no format at all is a usage error listing the places searched.
fn load_registry(global: &GlobalArgs) -> Result<Registry> {
    let mut config = DiscoveryConfig::from_environment(global.plugin_dirs.clone());
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
            eprintln!("warning: plugin skipped: {error}");
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

pub fn format_options(options: &FormatOptions) -> Options {
    let mut out = Options::default();
    for (key, value) in &options.options {
        out.set(key, value);
    }
    out
}

fn formats(registry: &Registry, json: bool) -> Result<ExitStatus> {
    let mut stdout = std::io::stdout().lock();
    if json {
        let formats: Vec<serde_json::Value> = registry
            .formats()
            .iter()
            .map(|f| {
                serde_json::json!({
                    "id": f.info.id, "aliases": f.info.aliases, "description": f.info.description,
                    "reads": f.info.reads, "writes": f.info.writes, "input": f.info.input,
                    "extensions": f.info.extensions, "version": f.plugin_version.as_deref().unwrap_or(&f.info.version),
                    "plugin": f.plugin_path,
                })
            })
            .collect();
        let errors: Vec<String> = registry.load_errors.iter().map(ToString::to_string).collect();
        let searched: Vec<serde_json::Value> = registry
            .searched
            .iter()
            .map(|s| serde_json::json!({"dir": s.dir, "origin": s.origin.to_string()}))
            .collect();
        let doc = serde_json::json!({"formats": formats, "plugin_errors": errors, "searched": searched});
        writeln!(stdout, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(ExitStatus::Ok);
    }
    writeln!(stdout, "{:<10} {:<10} {:<8} {:<18} PLUGIN", "FORMAT", "CAN", "VERSION", "INPUT")?;
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
        writeln!(stdout, "{:<10} {:<10} {:<8} {:<18} {plugin}{aliases}", f.info.id, can, f.info.version, input)?;
    }
    for s in &registry.shadowed {
        writeln!(
            stdout,
            "note: {} from {} is shadowed by {}",
            s.id,
            s.plugin_path.display(),
            s.used_from.as_ref().map_or("a built-in format".to_owned(), |p| p.display().to_string())
        )?;
    }
    for e in &registry.load_errors {
        writeln!(stdout, "error: {e}")?;
    }
    writeln!(
        stdout,
        "searched, in order: {}",
        registry.searched.iter().map(|s| s.dir.display().to_string()).collect::<Vec<_>>().join(", ")
    )?;
    writeln!(stdout, "plugins are native code loaded into convert: install only plugins you trust")?;
    Ok(ExitStatus::Ok)
}

fn item(path: &std::path::Path) -> InputItem {
    InputItem {
        path: path.to_path_buf(),
        relative: path.file_name().map(Into::into).unwrap_or_else(|| path.to_path_buf()),
        found_by_walking: false,
    }
}

fn inspect(
    registry: &Registry,
    input: &std::path::Path,
    from: Option<&str>,
    options: &FormatOptions,
    global: &GlobalArgs,
) -> Result<ExitStatus> {
    let from = from.map(|f| registry.format(f)).transpose().map_err(UsageError::from)?;
    let item = item(input);
    let (format, bundle) = pipeline::load(registry, &item, from, &Limits::default())?;
    let outcome = format.format.read(&bundle, &format_options(options));
    let verbosity = Verbosity::new(global.quiet, global.verbose);
    for d in outcome.diagnostics.iter().filter(|d| d.severity >= verbosity.min) {
        eprintln!("{}", report::render(&item, d));
    }
    match outcome.value {
        Some(model) if !outcome.diagnostics.iter().any(|d| d.severity == Severity::Error) => {
            let mut text = serde_json::to_string_pretty(&model.versioned())?;
            text.push('\n');
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(ExitStatus::Ok)
        }
        _ => Ok(ExitStatus::Failed),
    }
}

fn check(
    registry: &Registry,
    inputs: &[std::path::PathBuf],
    from: Option<&str>,
    to: Option<&str>,
    strict: bool,
    options: &FormatOptions,
    global: &GlobalArgs,
) -> Result<ExitStatus> {
    let from = from.map(|f| registry.format(f)).transpose().map_err(UsageError::from)?;
    let to = to.map(|t| registry.format(t)).transpose().map_err(UsageError::from)?;
    let items = pipeline::find_inputs(registry, inputs, from);
    let verbosity = Verbosity::new(global.quiet, global.verbose);
    let mut status = ExitStatus::Ok;
    for item in &items {
        let (format, bundle) = match pipeline::load(registry, item, from, &Limits::default()) {
            Ok(loaded) => loaded,
            Err(e) => {
                eprintln!("error: {e}");
                status = ExitStatus::Failed;
                continue;
            }
        };
        let mut options = format_options(options);
        options.set(Options::OUTPUT_NAME, item.stem());
        let diagnostics = match to {
            Some(to) => pipeline::convert(format, to, &bundle, &options, strict).diagnostics,
            None => format.format.read(&bundle, &options).diagnostics,
        };
        for d in diagnostics.iter().filter(|d| d.severity >= verbosity.min) {
            eprintln!("{}", report::render(item, d));
        }
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let losses = diagnostics.iter().filter(|d| d.is_loss()).count();
        if !global.quiet {
            let target = to.map(|t| format!(", {losses} losses writing {}", t.info.id)).unwrap_or_default();
            eprintln!(
                "{}: {} ({}), {errors} errors{target}",
                item.path.display(),
                if errors == 0 { "ok" } else { "invalid" },
                format.info.id
            );
        }
        if errors > 0 {
            status = ExitStatus::Failed;
        } else if strict && losses > 0 && status == ExitStatus::Ok {
            status = ExitStatus::LossRefused;
        }
    }
    Ok(status)
}
