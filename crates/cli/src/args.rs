//! Every flag of `convert`, defined once.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Move LLM tool definitions between formats (Gloodata, SkyDeck, Raycast, Vertex AI,
/// OpenAPI, MCP, OpenAI, Anthropic, Gemini, and any plugin you add).
///
/// Exit codes: 0 success (losses allowed), 1 some input failed, 2 usage error (bad flags,
/// unknown format, no plugins), 3 something would be lost under --strict.
#[derive(Debug, Parser)]
#[command(
    name = "convert",
    version,
    subcommand_negates_reqs = true,
    override_usage = "convert [OPTIONS] --to <FORMAT> [--from <FORMAT>] <INPUT>... [-o <PATH>]\n       convert formats [--json]\n       convert inspect [--from <FORMAT>] <INPUT>\n       convert check [--from <FORMAT>] [--to <FORMAT>] <INPUT>..."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub convert: ConvertArgs,
    #[command(flatten)]
    pub global: GlobalArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the formats found, their plugin files, versions and capabilities.
    Formats {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print an input as toolport's canonical model (JSON).
    Inspect {
        /// The input (a file, a directory, or - for standard input).
        input: PathBuf,
        #[arg(long, value_name = "FORMAT")]
        from: Option<String>,
        #[command(flatten)]
        options: FormatOptions,
    },
    /// Validate inputs and print their diagnostics; with --to, also what writing would lose.
    Check {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long, value_name = "FORMAT")]
        from: Option<String>,
        #[arg(long, value_name = "FORMAT")]
        to: Option<String>,
        /// Exit 3 if anything would be lost.
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        options: FormatOptions,
    },
}

/// Flags every command takes.
#[derive(Debug, Args, Clone, Default)]
pub struct GlobalArgs {
    /// Look for plugins in DIR first (repeatable). Plugins are native code: only use trusted ones.
    #[arg(long = "plugin-dir", value_name = "DIR", global = true)]
    pub plugin_dirs: Vec<PathBuf>,
    /// Which plugins run in their own process, where a crash, a hang or a stray print cannot
    /// take the run down: auto (those not installed beside convert), always, never.
    #[arg(long, value_name = "WHEN", global = true, default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub isolate: String,
    /// Longest an isolated plugin may take over one call before it is stopped.
    #[arg(long = "plugin-timeout", value_name = "SECONDS", global = true, default_value_t = 60)]
    pub plugin_timeout: u64,
    /// Print only errors.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Also print informational diagnostics.
    #[arg(long, short, global = true, conflicts_with = "quiet")]
    pub verbose: bool,
}

/// `--option key=value` settings passed to formats.
#[derive(Debug, Args, Clone, Default)]
pub struct FormatOptions {
    /// A format setting, KEY=VALUE (repeatable), e.g. base_url=https://api.example.com or strict=true.
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub options: Vec<(String, String)>,
}

fn parse_key_value(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .ok_or_else(|| format!("expected KEY=VALUE, got `{text}`"))
}

/// `convert --from F --to G INPUT... [-o OUT]`.
#[derive(Debug, Args, Clone, Default)]
pub struct ConvertArgs {
    /// Inputs: files, directories (walked recursively), glob patterns, or - for standard input.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
    /// The input format; detected per input when omitted.
    #[arg(long, short, value_name = "FORMAT")]
    pub from: Option<String>,
    /// The output format.
    #[arg(long, short, value_name = "FORMAT", required = true)]
    pub to: Option<String>,
    /// Where to write: a file (one single-document output), a directory (mirrors the input
    /// tree), or - for standard output. Without it, a single-document output goes to stdout.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Overwrite existing output files (inputs are never overwritten).
    #[arg(long)]
    pub force: bool,
    /// Treat any loss as a failure (exit code 3); nothing lossy is written.
    #[arg(long)]
    pub strict: bool,
    /// Write a machine-readable report (every input, status, outputs, diagnostics) to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Say what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Stop at the first failed input.
    #[arg(long)]
    pub fail_fast: bool,
    /// Convert N inputs at a time (default: number of CPUs). Output is the same for any N.
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub options: FormatOptions,
}
