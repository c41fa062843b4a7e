//! Diagnostics: the honest log of a conversion. Every field a target cannot hold, every name a
//! target forced to change, every tolerated defect of the input becomes one of these.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A place in a source file. Lines and columns count from 1; columns count characters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceSpan {
    /// Path relative to the input (as in the [`crate::Bundle`]).
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable, documented code (see [`codes`]); scripts match on it.
    pub code: String,
    /// JSON pointer: into the model for loss and changes (`/tools/2/prompt`), into the source
    /// document for input problems (`/tools/map/schema/fields/zoom/type`). Empty = the whole.
    pub path: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<SourceSpan>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic { severity, code: code.to_owned(), path: path.into(), message: message.into(), span: None }
    }

    pub fn error(code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, path, message)
    }

    pub fn warning(code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, path, message)
    }

    pub fn info(code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, code, path, message)
    }

    /// Something of the source that the target cannot hold. Warning severity; `--strict`
    /// turns every loss into a failure.
    pub fn loss(code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        debug_assert!(code.starts_with("loss/"), "loss codes start with loss/: {code}");
        Self::new(Severity::Warning, code, path, message)
    }

    pub fn with_span(mut self, span: SourceSpan) -> Self {
        self.span = Some(span);
        self
    }

    pub fn at(mut self, file: impl Into<String>, line: u32, column: u32) -> Self {
        self.span = Some(SourceSpan { file: file.into(), line, column });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Whether this diagnostic reports something the conversion did not carry.
    pub fn is_loss(&self) -> bool {
        self.code.starts_with("loss/")
    }
}

impl std::fmt::Display for Diagnostic {
    /// `file:line:column: severity[code]: message (at /path)`, the shape editors understand.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(span) = &self.span {
            write!(f, "{}:{}:{}: ", span.file, span.line, span.column)?;
        }
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)?;
        if !self.path.is_empty() {
            write!(f, " (at {})", self.path)?;
        }
        Ok(())
    }
}

/// Stable diagnostic codes. A code's prefix is its category:
/// `input/` (problems of the source), `loss/` (the target cannot hold something),
/// `changed/` (the target forced a change), `generated/` (the writer made something up),
/// `plugin/` (a plugin misbehaved), `output/` and `run/` (the host's own decisions). Plugins may add codes within these categories.
pub mod codes {
    /// The input is not well-formed (JSON, YAML, TypeScript syntax).
    pub const INPUT_SYNTAX: &str = "input/syntax";
    /// The input is well-formed but not a valid document of the format.
    pub const INPUT_INVALID: &str = "input/invalid";
    /// The input uses a version or variant this format does not read (Swagger 2.0, …).
    pub const INPUT_UNSUPPORTED: &str = "input/unsupported";
    /// A defect the reader tolerated (a trailing comma, a string where an array belongs).
    pub const INPUT_TOLERATED: &str = "input/tolerated";
    /// A key the reader does not know; kept as an extra.
    pub const INPUT_UNKNOWN_KEY: &str = "input/unknown-key";
    /// A reference (type, `$ref`, value set, placeholder) that names nothing.
    pub const INPUT_UNRESOLVED: &str = "input/unresolved";
    /// A file the reader needs is missing from the input.
    pub const INPUT_MISSING_FILE: &str = "input/missing-file";

    /// A prompt template was dropped.
    pub const LOSS_PROMPT: &str = "loss/prompt";
    /// Model settings (model versions, temperature, …) were dropped.
    pub const LOSS_MODEL_SETTINGS: &str = "loss/model-settings";
    /// An HTTP binding (method, path, parameter locations, servers) was dropped.
    pub const LOSS_HTTP: &str = "loss/http";
    /// Authentication settings were dropped.
    pub const LOSS_AUTH: &str = "loss/auth";
    /// Examples or evals (or parts of them) were dropped.
    pub const LOSS_EXAMPLES: &str = "loss/examples";
    /// Display hints were dropped.
    pub const LOSS_DISPLAY: &str = "loss/display";
    /// A schema construct the target cannot express was dropped or loosened.
    pub const LOSS_SCHEMA: &str = "loss/schema";
    /// Another format's extras were dropped.
    pub const LOSS_EXTRAS: &str = "loss/extras";
    /// A metadata field (creator, icon, timestamps, version, output, …) was dropped.
    pub const LOSS_FIELD: &str = "loss/field";
    /// A confirmation or side-effect hint was dropped.
    pub const LOSS_CONFIRMATION: &str = "loss/confirmation";

    /// A name was changed to satisfy the target's rules.
    pub const CHANGED_NAME: &str = "changed/name";
    /// A schema was rewritten to satisfy the target's rules (enum values to strings, …).
    pub const CHANGED_SCHEMA: &str = "changed/schema";
    /// A value was changed to satisfy the target's rules (several servers to one, …).
    pub const CHANGED_VALUE: &str = "changed/value";

    /// The writer generated content the source did not have (a prompt, display hints, an API).
    pub const GENERATED: &str = "generated/content";

    /// A plugin panicked, returned invalid JSON or broke the ABI.
    pub const PLUGIN_FAILED: &str = "plugin/failed";
    /// An isolated plugin's process died during a call: a crash, an abort, a stack overflow,
    /// running out of its memory limit, or an `exit`.
    pub const PLUGIN_CRASHED: &str = "plugin/crashed";
    /// An isolated plugin did not answer within the time limit and was stopped.
    pub const PLUGIN_TIMEOUT: &str = "plugin/timeout";

    /// An output was not written: a collision, an existing file, an input, an unsafe path.
    pub const OUTPUT_REFUSED: &str = "output/refused";
    /// An input was not converted: no format recognised it, or `--fail-fast` stopped the run.
    pub const RUN_SKIPPED: &str = "run/skipped";
}
