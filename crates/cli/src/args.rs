//! Every flag of `convert`, defined once.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use toolport_core::Strictness;
use toolport_core::fit::SplitBy;

/// Move LLM tool definitions between formats (Gloodata, SkyDeck, Raycast, Vertex AI,
/// OpenAPI, MCP, OpenAI, Anthropic, Gemini, and any plugin you add).
///
/// Diagnostics: errors and what you must act on (`generated/*`: placeholders, made-up
/// content) are printed one by one; everything else one line per code with its count and an
/// example. -v prints every diagnostic, -q only errors; --report FILE.json always has all.
/// `convert codes` lists every code; `convert explain CODE` says what one means and what to do.
///
/// Exit codes: 0 success (losses allowed), 1 some input failed, 2 usage error (bad flags,
/// unknown format or option, no plugins), 3 a loss --strict refuses.
#[derive(Debug, Parser)]
#[command(
    name = "convert",
    version,
    subcommand_negates_reqs = true,
    override_usage = "convert [OPTIONS] --to <FORMAT> [--from <FORMAT>] <INPUT>... [-o <PATH>]\n       convert formats [FORMAT] [--json]\n       convert inspect [--from <FORMAT>] <INPUT>\n       convert check [--from <FORMAT>] [--to <FORMAT>] <INPUT>...\n       convert codes [--json] | convert explain <CODE>\n       convert completions <SHELL> | convert man"
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
    /// List the formats found, their plugin files, versions, capabilities and options; with
    /// FORMAT, everything about that one format.
    Formats {
        /// Show this format (an id or alias) in full: its options, their values and defaults.
        #[arg(value_name = "FORMAT")]
        format: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print an input as toolport's canonical model (JSON).
    Inspect {
        /// The input: a file, a directory (a Raycast extension), or - for standard input.
        #[arg(value_name = "INPUT")]
        input: PathBuf,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Validate inputs and print their diagnostics; with --to, also what writing would lose.
    /// Inputs are found, detected and read exactly as `convert` does.
    Check {
        /// Inputs: files, directories (walked recursively), glob patterns, or - for standard
        /// input (read without - too when it is piped and no input is given).
        #[arg(value_name = "INPUT")]
        inputs: Vec<PathBuf>,
        /// Also write each input in this format (nothing is placed) and report what it loses.
        #[arg(long, short, value_name = "FORMAT")]
        to: Option<String>,
        #[command(flatten)]
        strict: StrictArg,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// List every diagnostic code, what it means and what to do about it.
    Codes {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Say what a diagnostic code (loss/http) or a family (loss/*) means and what to do.
    Explain {
        #[arg(value_name = "CODE")]
        code: String,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) for this command.
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) for this command.
    Man,
}

/// What every command that reads inputs takes: the input format and format settings.
#[derive(Debug, Args, Clone, Default)]
pub struct ReadArgs {
    /// The input format (an id or alias; `convert formats` lists them); detected per input when omitted.
    #[arg(long, short, value_name = "FORMAT")]
    pub from: Option<String>,
    #[command(flatten)]
    pub options: FormatOptions,
}

/// Curation: which tools are written and how they look (README: Curation).
#[derive(Debug, Args, Clone, Default)]
pub struct CurateArgs {
    /// Write only the tools a pattern matches (repeatable; any may match): name:GLOB (or a bare
    /// GLOB) on the tool's source name, tag:GLOB on its OpenAPI tags, path:GLOB on its HTTP path
    /// (`*` within a segment, `**` across), method:GET[,POST]. E.g. --select 'tag:pets'.
    #[arg(long, value_name = "PATTERN")]
    pub select: Vec<String>,
    /// Leave out the tools a pattern matches (repeatable; same patterns as --select, and
    /// applied after it). E.g. --exclude 'method:DELETE'.
    #[arg(long, value_name = "PATTERN")]
    pub exclude: Vec<String>,
    /// Apply an overlay (YAML or JSON): toolport's (tools renamed, described, parameters hidden
    /// or pinned, hints; docs/overlay.schema.json), or for OpenAPI sources an OpenAPI Overlay
    /// 1.0 (a top-level `overlay: 1.0.x` and JSONPath `actions`).
    #[arg(long, value_name = "FILE")]
    pub overlay: Option<PathBuf>,
    /// Write the names map to FILE (JSON; docs/names-map.md): for every written tool and
    /// parameter its source name and, for HTTP tools, the method, path, where each argument
    /// goes and the pinned arguments, so a tool call can be executed.
    #[arg(long = "names-map", value_name = "FILE")]
    pub names_map: Option<PathBuf>,
}

/// `--strict[=WHAT]`.
#[derive(Debug, Args, Clone, Default)]
pub struct StrictArg {
    /// Refuse (exit 3; nothing is written) a conversion that loses meaning: any loss/* but
    /// loss/extras (data another format keeps only to write itself back), or breaks a
    /// documented limit of the target's platform (limit/*; descriptions are then not cut). --strict=all refuses
    /// every loss/*; --strict=CODE,... only those codes (loss/http, loss/*, changed/name).
    #[arg(
        long,
        value_name = "WHAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "meaning",
        value_parser = parse_strict
    )]
    pub strict: Option<Strictness>,
}

fn parse_strict(text: &str) -> Result<Strictness, String> {
    Strictness::parse(text)
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
    /// Load plugins from folders other users own or may write to (skipped by default, as
    /// anyone could have put a library there); so does TOOLPORT_ALLOW_UNSAFE_PLUGIN_DIRS=1.
    #[arg(long = "allow-unsafe-plugin-dirs", global = true)]
    pub allow_unsafe_plugin_dirs: bool,
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
    /// A format setting, KEY=VALUE (repeatable): strict=true (openai, anthropic),
    /// form=responses (openai), schema=json (gemini), syntax=json (openapi),
    /// base_url=https://... (vertex), output_schema=shallow (gemini, mcp, openapi, vertex), output_name=NAME (all).
    /// `convert formats FORMAT` lists a format's options; an unknown key or value is an error.
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub options: Vec<(String, String)>,
}

fn parse_key_value(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .ok_or_else(|| format!("expected KEY=VALUE, got `{text}`"))
}

/// The most inputs converted at a time, whatever `--jobs` says: each conversion's thread has
/// a large stack ([`toolport_core::limits::CONVERSION_STACK_BYTES`]), and more threads than
/// cores only wait.
pub const MAX_JOBS: usize = 64;

fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("0 converts nothing: give how many inputs to convert at a time, 1 or more".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected how many inputs to convert at a time (1 or more), got `{text}`")),
    }
}

/// `convert --from F --to G INPUT... [-o OUT]`.
#[derive(Debug, Args, Clone, Default)]
pub struct ConvertArgs {
    /// Inputs: files, directories (walked recursively), glob patterns, or - for standard input
    /// (read without - too when it is piped and no input is given).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The output format (an id or alias; `convert formats` lists them). Required.
    #[arg(long, short, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Where to write: a file (one single-document output), a directory (mirrors the input
    /// tree; a target that writes several files needs one), or - for standard output.
    /// Without it, a single-document output goes to stdout.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Overwrite existing output files (inputs are never overwritten).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub strict_arg: StrictArg,
    /// Write a machine-readable report (every input, status, outputs, every diagnostic) to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Say what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub curate: CurateArgs,
    /// Stop at the first failed input.
    #[arg(long)]
    pub fail_fast: bool,
    /// Convert N inputs at a time (default: number of CPUs; never more than the inputs, nor
    /// than 64). Output is the same for any N.
    #[arg(long, short, value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// When the target takes fewer tools per request than the input has (openai 128, gemini
    /// 512, vertex 128), write one document per request: by-tag (each OpenAPI tag, named after
    /// it) or by-count (consecutive parts, part-1, part-2, ...).
    #[arg(long, value_name = "HOW", value_parser = parse_split)]
    pub split: Option<SplitBy>,
    #[command(flatten)]
    pub read: ReadArgs,
}

fn parse_split(text: &str) -> Result<SplitBy, String> {
    text.parse()
}
