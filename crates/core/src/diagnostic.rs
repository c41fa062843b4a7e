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
    /// For `changed/name`: the model's name and the one written for it, so the names map can
    /// give the way back without reading messages. Boxed: most diagnostics have none, and a
    /// `Result<_, Diagnostic>` stays small.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed: Option<Box<Renamed>>,
}

/// A name a writer changed: the model's `from` is written as `to`. The diagnostic's path says
/// whose name (`/tools/2/name`, `/tools/2/parameters/0/name`); a property renamed inside a
/// written input schema has `within`, the JSON pointer of its object in that schema (`#` is
/// the tool's own parameters).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Renamed {
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code: code.to_owned(),
            path: path.into(),
            message: message.into(),
            span: None,
            renamed: None,
        }
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

    /// Records the rename a `changed/name` reports ([`Renamed`]).
    pub fn renaming(mut self, from: impl Into<String>, to: impl Into<String>, within: Option<String>) -> Self {
        self.renamed = Some(Box::new(Renamed { from: from.into(), to: to.into(), within }));
        self
    }

    /// The message led by the parameter it is about, unless it names it already: a reader of
    /// the source knows a parameter by its name, not by its index in the model path.
    pub fn naming_parameter(mut self, name: &str) -> Self {
        let named = format!("`{name}`");
        if !self.message.contains(&named) {
            self.message = format!("parameter {named}: {}", self.message);
        }
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
        is_loss(&self.code)
    }

    /// Whether this is a loss of meaning: a `loss/*` other than the [`BOOKKEEPING_LOSSES`]
    /// (data another format keeps only for a round trip to itself). `--strict` refuses these.
    pub fn loses_meaning(&self) -> bool {
        loses_meaning(&self.code)
    }

    /// Whether the output breaks a documented limit of the target's platform (`limit/*`, a
    /// warning): the platform would refuse it. `--strict` refuses these too.
    pub fn breaks_limit(&self) -> bool {
        breaks_limit(self.severity, &self.code)
    }

    /// Whether the user has something to do: check or replace what a writer made up
    /// (`generated/*`: a placeholder author, a missing icon, a prompt made from a description),
    /// or follow a hint ([`ACTION_CODES`]). Shown by default whatever their severity.
    pub fn needs_action(&self) -> bool {
        needs_action(&self.code)
    }
}

// What a diagnostic is, judged by its severity and code alone: the same for one in full and
// for the ones a [`Tally`] counts.
fn is_loss(code: &str) -> bool {
    code.starts_with("loss/")
}

fn loses_meaning(code: &str) -> bool {
    is_loss(code) && !BOOKKEEPING_LOSSES.contains(&code)
}

fn breaks_limit(severity: Severity, code: &str) -> bool {
    code.starts_with("limit/") && severity >= Severity::Warning
}

fn needs_action(code: &str) -> bool {
    code.starts_with("generated/") || ACTION_CODES.contains(&code)
}

/// How much of its diagnostics a caller needs in full, given to readers and writers as
/// [`Options::DIAGNOSTIC_DETAIL`](crate::Options::DIAGNOSTIC_DETAIL): the plugin SDK folds an
/// outcome to it ([`Detail::fold`]) before it crosses to the host, so a batch that shows only
/// a summary does not carry, decode and keep every message of every file. What is left out is
/// counted per severity and code ([`Tally`]), so statuses and summary counts stay exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Every diagnostic in full: the default (`--report`, `-v`, `--strict`, `--names-map`).
    #[default]
    All,
    /// What the default summary shows: errors and what asks the user to act in full, and the
    /// first diagnostic of each other severity and code (the summary's example); the rest
    /// counted.
    Summary,
    /// Errors in full, the rest counted (`-q`).
    Errors,
}

impl Detail {
    /// The option's value for this detail.
    pub fn as_str(self) -> &'static str {
        match self {
            Detail::All => "all",
            Detail::Summary => "summary",
            Detail::Errors => "errors",
        }
    }

    /// The detail an option value names; anything else (an older or newer host's word) is
    /// [`Detail::All`], which is always right.
    pub fn parse(value: Option<&str>) -> Detail {
        match value {
            Some("summary") => Detail::Summary,
            Some("errors") => Detail::Errors,
            _ => Detail::All,
        }
    }

    /// Leaves in `diagnostics`, in their order, those this detail keeps in full, and counts
    /// the others in `tally`.
    pub fn fold(self, diagnostics: &mut Vec<Diagnostic>, tally: &mut Tally) {
        if self == Detail::All {
            return;
        }
        // The (severity, code) pairs with an example kept: few per call, so a list.
        let mut exemplified: Vec<(Severity, &str)> = Vec::new();
        let keep: Vec<bool> = diagnostics
            .iter()
            .map(|d| match self {
                Detail::All => true,
                Detail::Errors => d.is_error(),
                Detail::Summary if d.is_error() || d.needs_action() => true,
                Detail::Summary if exemplified.contains(&(d.severity, d.code.as_str())) => false,
                Detail::Summary => {
                    exemplified.push((d.severity, d.code.as_str()));
                    true
                }
            })
            .collect();
        let mut keep = keep.into_iter();
        diagnostics.retain(|d| {
            let kept = keep.next().unwrap_or(true);
            if !kept {
                tally.add(d.severity, &d.code, 1);
            }
            kept
        });
    }
}

/// Diagnostics as a reader or writer says them, kept to the [`Detail`] its caller asked for
/// as they come: one that [`Detail::fold`] would count is counted here without being made, so
/// a batch that prints only a summary formats no message, path or name it would drop. The
/// result is the same as making every diagnostic and folding them.
#[derive(Debug, Default)]
pub struct Said {
    detail: Detail,
    diagnostics: Vec<Diagnostic>,
    tally: Tally,
}

impl Said {
    pub fn new(detail: Detail) -> Said {
        Said { detail, ..Said::default() }
    }

    /// Keeps the diagnostic `make` makes, if this detail keeps one of `severity` and `code`
    /// in full ([`Detail::fold`]'s rule); else counts it, and `make` is never called.
    pub fn say(&mut self, severity: Severity, code: &str, make: impl FnOnce() -> Diagnostic) {
        let keeps = match self.detail {
            Detail::All => true,
            Detail::Errors => severity == Severity::Error,
            Detail::Summary => {
                severity == Severity::Error
                    || needs_action(code)
                    || !self.diagnostics.iter().any(|d| d.severity == severity && d.code == code)
            }
        };
        if keeps {
            let diagnostic = make();
            debug_assert!(diagnostic.severity == severity && diagnostic.code == code, "said as {severity:?} {code}");
            self.diagnostics.push(diagnostic);
        } else {
            self.tally.add(severity, code, 1);
        }
    }

    /// The diagnostics kept in full, in the order said, and the count of the others.
    pub fn into_parts(self) -> (Vec<Diagnostic>, Tally) {
        (self.diagnostics, self.tally)
    }
}

/// Diagnostics counted rather than carried in full ([`Detail`]): how many of each severity
/// and code, in the order first met.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Tally(Vec<Counted>);

/// One line of a [`Tally`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counted {
    pub severity: Severity,
    pub code: String,
    pub count: usize,
}

impl Counted {
    pub fn is_loss(&self) -> bool {
        is_loss(&self.code)
    }

    pub fn needs_action(&self) -> bool {
        needs_action(&self.code)
    }
}

impl Tally {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Counts `count` more diagnostics of `severity` and `code`.
    pub fn add(&mut self, severity: Severity, code: &str, count: usize) {
        match self.0.iter_mut().find(|c| c.severity == severity && c.code == code) {
            Some(counted) => counted.count += count,
            None => self.0.push(Counted { severity, code: code.to_owned(), count }),
        }
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: Tally) {
        for counted in other.0 {
            self.add(counted.severity, &counted.code, counted.count);
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Counted> {
        self.0.iter()
    }

    /// How many diagnostics are counted here.
    pub fn total(&self) -> usize {
        self.0.iter().map(|c| c.count).sum()
    }

    /// Whether any counted diagnostic reports a loss.
    pub fn has_loss(&self) -> bool {
        self.0.iter().any(Counted::is_loss)
    }

    /// Whether `strictness` refuses any counted diagnostic.
    pub fn refused_by(&self, strictness: &Strictness) -> bool {
        self.0.iter().any(|c| strictness.refuses_code(c.severity, &c.code))
    }
}

/// Loss codes that carry no meaning of the tools: `loss/extras` is what another format kept
/// only to write its own document back the same way (its spelling, its own keys, and the
/// host's `toolport-unknown` bookkeeping of fields from a newer plugin). `--strict` lets them
/// pass; `--strict=all` refuses them too.
pub const BOOKKEEPING_LOSSES: &[&str] = &[codes::LOSS_EXTRAS];

/// Codes outside `generated/*` that ask the user to act, shown by default like those.
pub const ACTION_CODES: &[&str] = &[codes::INPUT_OTHER_FORMAT];

/// Which losses `--strict` refuses: a conversion with one of these is not written (exit 3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Strictness {
    /// Losses are reported and the output is written.
    #[default]
    Off,
    /// Losses of meaning ([`Diagnostic::loses_meaning`]): every `loss/*` but
    /// [`BOOKKEEPING_LOSSES`], and every broken platform limit ([`Diagnostic::breaks_limit`]).
    Meaning,
    /// Every `loss/*` and every broken platform limit.
    All,
    /// These codes only; `family/*` names a family (`loss/*`, `changed/*`).
    Codes(Vec<String>),
}

impl Strictness {
    /// Parses `--strict`'s value: `meaning` (or empty), `all`, or a comma-separated list of
    /// codes and `family/*` patterns (`loss/http,loss/auth`, `loss/*,changed/name`).
    pub fn parse(text: &str) -> Result<Strictness, String> {
        match text.trim() {
            "" | "meaning" => Ok(Strictness::Meaning),
            "all" => Ok(Strictness::All),
            "off" | "none" => Ok(Strictness::Off),
            list => {
                let codes: Vec<String> =
                    list.split(',').map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect();
                match codes.iter().find_map(|c| unknown_code(c)) {
                    Some(problem) => Err(problem),
                    None => Ok(Strictness::Codes(codes)),
                }
            }
        }
    }

    pub fn is_off(&self) -> bool {
        *self == Strictness::Off
    }

    /// Makes every diagnostic this strictness refuses an error (a refused conversion's cause
    /// is shown and counted as one); returns how many there were.
    pub fn mark_refused(&self, diagnostics: &mut [Diagnostic]) -> usize {
        let mut refused = 0;
        for d in diagnostics.iter_mut().filter(|d| self.refuses(d)) {
            d.severity = Severity::Error;
            refused += 1;
        }
        refused
    }

    /// Whether this diagnostic makes a strict conversion fail.
    pub fn refuses(&self, diagnostic: &Diagnostic) -> bool {
        self.refuses_code(diagnostic.severity, &diagnostic.code)
    }

    /// Whether a diagnostic of `severity` and `code` makes a strict conversion fail.
    pub fn refuses_code(&self, severity: Severity, code: &str) -> bool {
        match self {
            Strictness::Off => false,
            Strictness::Meaning => loses_meaning(code) || breaks_limit(severity, code),
            Strictness::All => is_loss(code) || breaks_limit(severity, code),
            // Information (a split that fit, say) never refuses.
            Strictness::Codes(_) if severity == Severity::Info => false,
            Strictness::Codes(codes) => codes.iter().any(|c| match c.strip_suffix("/*") {
                Some(family) => code.strip_prefix(family).is_some_and(|rest| rest.starts_with('/')),
                None => c == code,
            }),
        }
    }
}

/// Why `pattern` (a code or `family/*`) names no diagnostic [`EXPLANATIONS`] lists, with the
/// closest one when it is likely a typo; `None` when it names one.
fn unknown_code(pattern: &str) -> Option<String> {
    let known = match pattern.strip_suffix("/*") {
        Some(family) => FAMILIES.iter().any(|f| f.family == family),
        None => explain(pattern).is_some(),
    };
    if known {
        return None;
    }
    let candidates = EXPLANATIONS.iter().map(|e| e.code).chain(FAMILIES.iter().map(|f| f.pattern));
    let near = crate::suggest::did_you_mean(pattern, candidates)
        .map(|near| format!(" (did you mean `{near}`?)"))
        .unwrap_or_default();
    Some(format!(
        "`{pattern}` is not a diagnostic code{near}: strict takes `meaning`, `all`, or codes and families such as `loss/http,changed/*` (`convert codes` lists them)"
    ))
}

/// `true` is `--strict` (losses of meaning), `false` no strictness.
impl From<bool> for Strictness {
    fn from(strict: bool) -> Self {
        if strict { Strictness::Meaning } else { Strictness::Off }
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
/// `limit/` (the output breaks a documented limit of the target's platform, which would refuse
/// it), `plugin/` (a plugin misbehaved), `output/` and `run/` (the host's own decisions). Plugins may add codes within these categories.
///
/// How the command line shows them: errors one by one; what asks the user to act
/// ([`super::Diagnostic::needs_action`]: `generated/*` and [`ACTION_CODES`]) one by one,
/// repeats of one message folded; everything else one line per code with its count and an
/// example (`-v`: every diagnostic; `--report`: always all). `--strict` refuses losses of
/// meaning ([`super::Strictness`]).
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
    /// The input looks like another format than the one `--from` names (a hint: which one),
    /// or detection chose a plugin from elsewhere over a built-in format that recognises it too.
    pub const INPUT_OTHER_FORMAT: &str = "input/other-format";

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
    /// A description was cut to the target platform's length limit, at a sentence's end.
    pub const CHANGED_DESCRIPTION: &str = "changed/description";

    /// More tools than the target platform takes in one request (the message says how many
    /// requests they need; `--split` writes one document per request).
    pub const LIMIT_TOOLS: &str = "limit/tools";
    /// A tool's, parameter's or tool set's name the target platform refuses: too long, or a
    /// character it does not allow.
    pub const LIMIT_NAME: &str = "limit/name";
    /// A description longer than the target platform takes (kept whole under `--strict`,
    /// which then refuses it; otherwise cut, a `changed/description`).
    pub const LIMIT_DESCRIPTION: &str = "limit/description";
    /// A tool's parameters past the target platform's schema budget: nesting levels,
    /// properties, enum values, characters.
    pub const LIMIT_SCHEMA: &str = "limit/schema";
    /// More servers than the target platform takes.
    pub const LIMIT_SERVERS: &str = "limit/servers";

    /// The writer generated content the source did not have (a prompt, display hints, an API).
    pub const GENERATED: &str = "generated/content";
    /// The writer wrote a placeholder the user must replace before publishing (an author, a
    /// secret's name, an icon file it cannot write).
    pub const GENERATED_PLACEHOLDER: &str = "generated/placeholder";
    /// The writer wrote code or a definition the user must complete (a tool body that calls nothing).
    pub const GENERATED_STUB: &str = "generated/stub";

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
    /// A `--select`/`--exclude` pattern that matched no tool of the input (a typo, or the
    /// wrong input), or an OpenAPI Overlay action whose target selected nothing.
    pub const CURATE_UNMATCHED: &str = "curate/unmatched";
    /// Something curation left out because of what it left out: an example expecting a call to
    /// a tool not selected.
    pub const CURATE_EXCLUDED: &str = "curate/excluded";
    /// Curation left no tool to write.
    pub const CURATE_EMPTY: &str = "curate/empty";
    /// An overlay file that cannot be applied: a tool or parameter the source lacks, a key
    /// the overlay shape does not have, a value of the wrong kind (located in the overlay).
    pub const CURATE_OVERLAY: &str = "curate/overlay";
}

/// What a diagnostic code means and what to do about it: the one table `convert codes`,
/// `convert explain CODE` and the `--strict` check read. Every code the workspace emits is
/// listed (a test finds the codes in the sources and fails on one missing here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    pub code: &'static str,
    /// What happened, in a sentence.
    pub meaning: &'static str,
    /// What the user can do about it.
    pub action: &'static str,
}

/// A code family: the prefix before the `/`, what it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Family {
    pub family: &'static str,
    /// `family/*`, as `--strict` takes it.
    pub pattern: &'static str,
    pub meaning: &'static str,
}

/// The families, in the order `convert codes` lists them.
pub const FAMILIES: &[Family] = &[
    Family { family: "input", pattern: "input/*", meaning: "problems of the source document" },
    Family { family: "loss", pattern: "loss/*", meaning: "something of the source the target cannot hold" },
    Family { family: "changed", pattern: "changed/*", meaning: "something the target's rules forced to change" },
    Family { family: "generated", pattern: "generated/*", meaning: "something the writer made up: check it" },
    Family { family: "plugin", pattern: "plugin/*", meaning: "a plugin misbehaved" },
    Family { family: "output", pattern: "output/*", meaning: "the host's decisions about output files" },
    Family { family: "run", pattern: "run/*", meaning: "the host's decisions about inputs" },
    Family {
        family: "limit",
        pattern: "limit/*",
        meaning: "the output breaks a documented limit of the target's platform, which would refuse it",
    },
    Family {
        family: "curate",
        pattern: "curate/*",
        meaning: "what --select, --exclude and --overlay did or could not do",
    },
];

/// The explanation of `code`, if it is one toolport knows.
pub fn explain(code: &str) -> Option<&'static Explanation> {
    EXPLANATIONS.iter().find(|e| e.code == code)
}

/// The family `code` belongs to (`loss` for `loss/http`), if it is one of [`FAMILIES`].
pub fn family_of(code: &str) -> Option<&'static Family> {
    let (family, _) = code.split_once('/')?;
    FAMILIES.iter().find(|f| f.family == family)
}

/// Every code, grouped by family in [`FAMILIES`]'s order.
pub const EXPLANATIONS: &[Explanation] = &[
    Explanation {
        code: codes::INPUT_SYNTAX,
        meaning: "The input is not well-formed JSON, YAML or TypeScript; nothing was converted.",
        action: "Fix the syntax at the line and column given (a validator or your editor shows the same place).",
    },
    Explanation {
        code: codes::INPUT_INVALID,
        meaning: "The input is well-formed but not a valid document of its format (a required key missing, a wrong type).",
        action: "Fix the document at the path given; `convert formats FORMAT` says what the format reads. If the format was detected wrongly, name it with --from.",
    },
    Explanation {
        code: codes::INPUT_UNSUPPORTED,
        meaning: "The input uses a version or variant the format does not read (Swagger 2.0, a newer spec version).",
        action: "Convert it to a supported version first (for Swagger 2.0, an OpenAPI 3 converter), or use a plugin that reads it.",
    },
    Explanation {
        code: codes::INPUT_TOLERATED,
        meaning: "The reader accepted a defect of the input (a trailing comma, a repeated key, a string where an array belongs) and read it as said.",
        action: "Check that the reading said is what you meant, and fix the source so that other tools read it the same way.",
    },
    Explanation {
        code: codes::INPUT_UNKNOWN_KEY,
        meaning: "A key the format does not define; it is kept as an extra, written back only to the same format.",
        action: "Nothing, if the key is yours; if it is a misspelt key of the format, correct it.",
    },
    Explanation {
        code: codes::INPUT_UNRESOLVED,
        meaning: "A reference (a type, a `$ref`, a value set, a placeholder) names nothing in the input.",
        action: "Define what it names, or correct the name; the reference was read as a loose schema or left out.",
    },
    Explanation {
        code: codes::INPUT_MISSING_FILE,
        meaning: "A file the input names (a spec beside a body, a tool's source, an icon) is not in the input.",
        action: "Put the file where the input says, or convert the folder that holds it.",
    },
    Explanation {
        code: codes::INPUT_OTHER_FORMAT,
        meaning: "The input looks like another format than the one --from names.",
        action: "Use the --from the message suggests, or leave --from out to detect the format.",
    },
    Explanation {
        code: "input/unused-variable",
        meaning: "A SkyDeck variable that no `{{placeholder}}` of the prompt uses.",
        action: "Use the variable in the prompt, or remove it.",
    },
    Explanation {
        code: codes::LOSS_PROMPT,
        meaning: "A prompt template was left out: the target has no place for it.",
        action: "Keep the source for the prompt, or pick a target that holds prompts (skydeck, gloodata); --strict refuses this.",
    },
    Explanation {
        code: codes::LOSS_MODEL_SETTINGS,
        meaning: "Model settings (model versions, temperature, …) were left out.",
        action: "Set them where the target's platform configures models; --strict refuses this.",
    },
    Explanation {
        code: codes::LOSS_HTTP,
        meaning: "An HTTP binding (method, path, parameter locations, servers) was left out: the target describes calls, not requests.",
        action: "Keep the OpenAPI document for the HTTP side, or write to openapi or vertex; --strict=loss/http refuses only this.",
    },
    Explanation {
        code: codes::LOSS_AUTH,
        meaning: "Authentication settings were left out.",
        action: "Configure authentication on the target's platform; --strict refuses this.",
    },
    Explanation {
        code: codes::LOSS_EXAMPLES,
        meaning: "Examples or evals (or parts of them) were left out.",
        action: "Keep them with the source, or pick a target that holds examples (anthropic, gloodata, raycast); --strict refuses this.",
    },
    Explanation {
        code: codes::LOSS_DISPLAY,
        meaning: "Display hints (titles, icons, UI hints) were left out.",
        action: "Set them on the target's platform if it shows tools; --strict refuses this.",
    },
    Explanation {
        code: codes::LOSS_SCHEMA,
        meaning: "A schema construct the target cannot express was left out or loosened (a keyword, a bound, a recursive reference cut).",
        action: "Check the path given: the tool now accepts more than the source did, so validate arguments in the tool itself; --strict refuses this.",
    },
    Explanation {
        code: codes::LOSS_EXTRAS,
        meaning: "Data another format kept only to write its own document back (its spelling, its own keys) was left out.",
        action: "Nothing, unless you convert back to that format later; only --strict=all refuses this.",
    },
    Explanation {
        code: codes::LOSS_FIELD,
        meaning: "A metadata field (creator, icon, timestamps, version, output, …) was left out.",
        action: "Set it on the target's platform if it matters there; --strict refuses this.",
    },
    Explanation {
        code: codes::LOSS_CONFIRMATION,
        meaning: "A confirmation or side-effect hint (ask before running, read-only, destructive) was left out.",
        action: "Make the target's platform ask for confirmation itself before such calls; --strict refuses this.",
    },
    Explanation {
        code: codes::CHANGED_NAME,
        meaning: "A name was changed to satisfy the target's rules (characters, length, uniqueness).",
        action: "Use the new name where the tool is called; the message gives both names. --strict=changed/name refuses this.",
    },
    Explanation {
        code: codes::CHANGED_SCHEMA,
        meaning: "A schema was rewritten to satisfy the target's rules (enum values as strings, a type spelt another way).",
        action: "Check that the tool still accepts what the rewritten schema allows.",
    },
    Explanation {
        code: codes::CHANGED_VALUE,
        meaning: "A value was changed to satisfy the target's rules (several servers to one, a value clipped).",
        action: "Check the new value the message gives.",
    },
    Explanation {
        code: codes::CHANGED_DESCRIPTION,
        meaning: "A description was longer than the target platform takes and was cut at a sentence's end.",
        action: "Shorten it yourself (an --overlay can rewrite it), or use --strict to refuse the cut and keep it whole.",
    },
    Explanation {
        code: codes::GENERATED,
        meaning: "The writer made up content the source did not have because the target requires it (a prompt, a description, display hints).",
        action: "Read it and replace it with your own words before publishing.",
    },
    Explanation {
        code: codes::GENERATED_PLACEHOLDER,
        meaning: "The writer wrote a placeholder (an author, a secret's name, an icon) that must be replaced.",
        action: "Replace it before publishing: the target's validators or users will see it.",
    },
    Explanation {
        code: codes::GENERATED_STUB,
        meaning: "The writer wrote code that only throws (a tool body with nothing to call).",
        action: "Fill in the tool's code; until then the tool fails when called.",
    },
    Explanation {
        code: codes::PLUGIN_FAILED,
        meaning: "A plugin panicked, answered with invalid JSON, or broke the plugin ABI.",
        action: "Report it to the plugin's author with the input; `convert formats` shows which file it is.",
    },
    Explanation {
        code: codes::PLUGIN_CRASHED,
        meaning: "An isolated plugin's process died during a call (a crash, an abort, its memory limit, an exit).",
        action: "Report it to the plugin's author with the input; the run went on without it.",
    },
    Explanation {
        code: codes::PLUGIN_TIMEOUT,
        meaning: "An isolated plugin did not answer within the time limit and was stopped.",
        action: "Give it longer with --plugin-timeout SECONDS, or report it to the plugin's author.",
    },
    Explanation {
        code: codes::OUTPUT_REFUSED,
        meaning: "An output was not written: it collides with another output, exists already, is an input, or its path is unsafe.",
        action: "Choose another -o, or pass --force to overwrite existing files (inputs are never overwritten).",
    },
    Explanation {
        code: codes::RUN_SKIPPED,
        meaning: "An input was not converted: no format recognised it, or --fail-fast stopped the run first.",
        action: "Name its format with --from, or leave the file out of the inputs.",
    },
    Explanation {
        code: codes::LIMIT_TOOLS,
        meaning: "More tools than the target platform takes in one request; the message says how many requests they need.",
        action: "Choose the tools with --select/--exclude, or write one document per request with --split by-tag|by-count.",
    },
    Explanation {
        code: codes::LIMIT_NAME,
        meaning: "A name the target platform refuses: too long, or a character it does not allow (`convert formats FORMAT` lists the rules).",
        action: "Rename it with an --overlay (`tools: {NAME: {name: NEW}}`).",
    },
    Explanation {
        code: codes::LIMIT_DESCRIPTION,
        meaning: "A description longer than the target platform takes (kept whole only under --strict, which then refuses it).",
        action: "Rewrite it shorter with an --overlay, or let convert cut it at a sentence (without --strict).",
    },
    Explanation {
        code: codes::LIMIT_SCHEMA,
        meaning: "A tool's parameters exceed the target's schema budget (nesting levels, properties, enum values, characters), as strict modes count them.",
        action: "Hide or pin parameters with an --overlay, or turn the target's strict mode off.",
    },
    Explanation {
        code: codes::LIMIT_SERVERS,
        meaning: "More servers than the target platform takes.",
        action: "Keep the one the platform should call (the first is used); edit the others out of the source.",
    },
    Explanation {
        code: codes::CURATE_UNMATCHED,
        meaning: "A --select/--exclude pattern matched no tool, or an OpenAPI Overlay action selected nothing.",
        action: "Check the pattern against the input's tool names (`convert inspect INPUT`), tags, paths and methods.",
    },
    Explanation {
        code: codes::CURATE_EXCLUDED,
        meaning: "Curation left something out because it depends on a tool not selected (an example calling it).",
        action: "Nothing, unless you want it: then select the tool it calls too.",
    },
    Explanation {
        code: codes::CURATE_EMPTY,
        meaning: "Curation left no tool to write.",
        action: "Loosen --select or --exclude; `convert inspect INPUT` lists the input's tools.",
    },
    Explanation {
        code: codes::CURATE_OVERLAY,
        meaning: "An overlay cannot be applied: a tool or parameter the source lacks, an unknown key, a value of the wrong kind.",
        action: "Fix the overlay at the line and column given (docs/overlay.schema.json describes its shape).",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strictness_chooses_which_codes_refuse() {
        let extras = Diagnostic::loss(codes::LOSS_EXTRAS, "", "x");
        let http = Diagnostic::loss(codes::LOSS_HTTP, "", "x");
        let renamed = Diagnostic::warning(codes::CHANGED_NAME, "", "x");
        let refuses = |s: &str, d: &Diagnostic| Strictness::parse(s).unwrap().refuses(d);
        assert!(refuses("meaning", &http) && !refuses("meaning", &extras) && !refuses("", &renamed));
        assert!(refuses("all", &extras) && !refuses("all", &renamed));
        assert!(refuses("loss/http", &http) && !refuses("loss/http", &extras));
        assert!(refuses("changed/*", &renamed) && !refuses("changed/*", &http));
        assert!(Strictness::parse("http").is_err() && Strictness::parse("loss/").is_err());
        let too_many = Diagnostic::warning(codes::LIMIT_TOOLS, "/tools", "x");
        let fits = Diagnostic::info(codes::LIMIT_TOOLS, "/tools", "x");
        assert!(refuses("meaning", &too_many) && refuses("all", &too_many) && refuses("limit/*", &too_many));
        assert!(!refuses("meaning", &fits) && !refuses("loss/*", &too_many) && !refuses("limit/*", &fits));
        assert!(!Strictness::from(false).refuses(&http) && Strictness::from(true).refuses(&http));
    }

    /// Losses, made-up content and errors, some codes repeated, for the folding tests.
    fn mixed_diagnostics() -> Vec<Diagnostic> {
        vec![
            Diagnostic::loss(codes::LOSS_FIELD, "/a", "first field"),
            Diagnostic::warning(codes::GENERATED, "/b", "made up"),
            Diagnostic::loss(codes::LOSS_FIELD, "/c", "second field"),
            Diagnostic::info(codes::LOSS_FIELD, "/d", "an info of the same code"),
            Diagnostic::error(codes::INPUT_INVALID, "/e", "bad"),
            Diagnostic::warning(codes::GENERATED, "/f", "made up again"),
            Diagnostic::loss(codes::LOSS_FIELD, "/g", "third field"),
            Diagnostic::error(codes::INPUT_INVALID, "/h", "bad again"),
        ]
    }

    /// Each detail keeps in full, in order, what it names, and counts the rest per severity
    /// and code: errors always, actions and the first of each other code for a summary.
    #[test]
    fn a_detail_keeps_what_it_shows_and_counts_the_rest() {
        let all = mixed_diagnostics();
        let check = |detail: Detail, kept: &[&str], counted: &[(Severity, &str, usize)]| {
            let (mut diagnostics, mut tally) = (all.clone(), Tally::default());
            detail.fold(&mut diagnostics, &mut tally);
            let paths: Vec<&str> = diagnostics.iter().map(|d| d.path.as_str()).collect();
            assert_eq!(paths, kept, "{detail:?}");
            let counts: Vec<(Severity, &str, usize)> =
                tally.iter().map(|c| (c.severity, c.code.as_str(), c.count)).collect();
            assert_eq!(counts, counted, "{detail:?}");
            assert_eq!(diagnostics.len() + tally.total(), all.len(), "{detail:?}: every one kept or counted");
        };
        check(Detail::All, &["/a", "/b", "/c", "/d", "/e", "/f", "/g", "/h"], &[]);
        check(Detail::Summary, &["/a", "/b", "/d", "/e", "/f", "/h"], &[(Severity::Warning, codes::LOSS_FIELD, 2)]);
        check(
            Detail::Errors,
            &["/e", "/h"],
            &[
                (Severity::Warning, codes::LOSS_FIELD, 3),
                (Severity::Warning, codes::GENERATED, 2),
                (Severity::Info, codes::LOSS_FIELD, 1),
            ],
        );
        for detail in [Detail::All, Detail::Summary, Detail::Errors] {
            assert_eq!(Detail::parse(Some(detail.as_str())), detail);
        }
        assert_eq!(Detail::parse(Some("a newer word")), Detail::All);
        let mut tally = Tally::default();
        Detail::Errors.fold(&mut all.clone(), &mut tally);
        assert!(tally.has_loss() && tally.refused_by(&Strictness::Meaning) && !tally.refused_by(&Strictness::Off));
    }

    /// Diagnostics said one by one keep and count exactly what making them all and folding
    /// does, in the same order, and a diagnostic only counted is never made.
    #[test]
    fn said_keeps_and_counts_as_folding_does_without_making_what_it_counts() {
        let mut all = mixed_diagnostics();
        all.push(Diagnostic::info(codes::INPUT_OTHER_FORMAT, "/i", "an action"));
        for detail in [Detail::All, Detail::Summary, Detail::Errors] {
            let (mut folded, mut tally) = (all.clone(), Tally::default());
            detail.fold(&mut folded, &mut tally);
            let mut said = Said::new(detail);
            let mut made = 0;
            for diagnostic in &all {
                said.say(diagnostic.severity, &diagnostic.code, || {
                    made += 1;
                    diagnostic.clone()
                });
            }
            let (kept, counted) = said.into_parts();
            assert_eq!(kept, folded, "{detail:?}");
            assert_eq!(counted, tally, "{detail:?}");
            assert_eq!(made, folded.len(), "{detail:?}: only what is kept is made");
        }
    }

    #[test]
    fn strict_codes_must_be_known() {
        let problem = Strictness::parse("loss/confrmation").unwrap_err();
        assert!(problem.contains("`loss/confrmation` is not a diagnostic code"), "{problem}");
        assert!(problem.contains("did you mean `loss/confirmation`?"), "{problem}");
        let family = Strictness::parse("los/*").unwrap_err();
        assert!(family.contains("did you mean `loss/*`?"), "{family}");
        assert!(Strictness::parse("loss/*,input/unused-variable,changed/name").is_ok());
        assert!(Strictness::parse("nothing/here").unwrap_err().ends_with("(`convert codes` lists them)"));
    }

    /// Every `pub const` of [`codes`] and every `"family/name"` string the workspace's sources
    /// spell out has an explanation: a new code fails here until [`EXPLANATIONS`] explains it.
    #[test]
    fn every_code_is_explained() {
        let this = include_str!("diagnostic.rs");
        let module = &this[this.find("pub mod codes {").unwrap()..this.find("pub struct Explanation").unwrap()];
        let mut found: Vec<(String, String)> = codes_in(module).into_iter().map(|c| (c, "codes".to_owned())).collect();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for dir in ["crates", "plugins"] {
            walk(&root.join(dir), &mut |path, text| {
                // What the code emits: tests' made-up codes (misspelt on purpose) are not codes.
                let code = text.split("\n#[cfg(test)]").next().unwrap_or_default();
                let code = if path.ends_with("core/src/diagnostic.rs") { module } else { code };
                found.extend(codes_in(code).into_iter().map(|c| (c, path.display().to_string())));
            });
        }
        let unexplained: Vec<&(String, String)> = found.iter().filter(|(code, _)| explain(code).is_none()).collect();
        assert!(unexplained.is_empty(), "codes without an entry in EXPLANATIONS (code, where): {unexplained:?}");
        assert!(found.len() > EXPLANATIONS.len(), "the scan found the codes");
        for e in EXPLANATIONS {
            assert!(family_of(e.code).is_some(), "{} is in no family", e.code);
            assert!(!e.meaning.is_empty() && !e.action.is_empty(), "{} is explained", e.code);
        }
    }

    /// The `"family/name"` strings in `text` (a family of [`FAMILIES`], a lowercase name).
    fn codes_in(text: &str) -> Vec<String> {
        text.replace("'\"'", "")
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|s| {
                s.split_once('/').is_some_and(|(family, name)| {
                    FAMILIES.iter().any(|f| f.family == family)
                        && !name.is_empty()
                        && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                        && !name.starts_with('-')
                })
            })
            .map(str::to_owned)
            .collect()
    }

    /// Calls `visit` with every `.rs` file in a `src/` folder under `dir` (not tests, not `target/`).
    fn walk(dir: &std::path::Path, visit: &mut dyn FnMut(&std::path::Path, &str)) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() && path.file_name().is_some_and(|n| n != "target" && n != "tests") {
                walk(&path, visit);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.components().any(|c| c.as_os_str() == "src")
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                visit(&path, &text);
            }
        }
    }
}
