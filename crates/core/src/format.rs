//! The `Format` trait: what a format plugin implements. A format is a reader and/or a writer
//! between a [`Bundle`] and the canonical [`ToolSet`]; it does no I/O.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diagnostic::{Detail, Tally};
use crate::{Bundle, Diagnostic, PlatformLimits, ToolSet};

/// What the host needs to know about a format before using it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FormatInfo {
    /// Stable id used on the command line (`gloodata`).
    pub id: String,
    /// Other accepted names (`extension-info`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// One line: what the format is.
    pub description: String,
    /// The plugin's version.
    pub version: String,
    pub reads: bool,
    pub writes: bool,
    /// What one input of this format looks like on disk.
    pub input: InputShape,
    /// File name endings this format's single-file inputs use (`json`, `yaml`).
    #[serde(default)]
    pub extensions: Vec<String>,
    /// The `--option KEY=VALUE` settings this format takes, besides the ones every format
    /// takes ([`common_options`]). `None` when the format does not say (a plugin built before
    /// options were declared): the host then passes its options on unchecked. `Some(vec![])`
    /// declares that it takes none of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<OptionSpec>>,
    /// The documented limits of the platform this format is written for (tools per request,
    /// name rules, description length, schema budgets), each with its source: the host's fit
    /// stage checks outputs against them. Empty for a plugin built before limits were declared.
    #[serde(default, skip_serializing_if = "PlatformLimits::is_empty")]
    pub limits: PlatformLimits,
}

/// One `--option KEY=VALUE` setting a format takes: its key, what a value may be, what applies
/// without it, and one line of help. The host checks options against these before a run
/// (an unknown key or a value outside them is a usage error) and `convert formats FORMAT`
/// lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionSpec {
    pub key: String,
    pub kind: OptionKind,
    /// The allowed values, for [`OptionKind::OneOf`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// What applies without the option: a value, or what decides it (`the source's form, else chat`).
    #[serde(default)]
    pub default: String,
    /// One line: what the option does.
    #[serde(default)]
    pub help: String,
}

/// What a value of an option may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionKind {
    /// One of the option's `values`.
    OneOf,
    /// An absolute `http://` or `https://` URL.
    Url,
    /// A plain name: one file-name segment, no `/`.
    Name,
    /// Any non-empty text.
    Text,
    /// A kind a newer plugin declared that this host does not know: checked as text.
    #[serde(other)]
    Other,
}

impl OptionSpec {
    fn new(key: &str, kind: OptionKind, values: &[&str], default: &str, help: &str) -> Self {
        OptionSpec {
            key: key.to_owned(),
            kind,
            values: values.iter().map(|v| (*v).to_owned()).collect(),
            default: default.to_owned(),
            help: help.to_owned(),
        }
    }

    /// An option whose value is one of `values`.
    pub fn one_of(key: &str, values: &[&str], default: &str, help: &str) -> Self {
        Self::new(key, OptionKind::OneOf, values, default, help)
    }

    /// An option whose value is an http(s) URL.
    pub fn url(key: &str, default: &str, help: &str) -> Self {
        Self::new(key, OptionKind::Url, &[], default, help)
    }

    /// An option whose value is a plain name (one path segment).
    pub fn name(key: &str, default: &str, help: &str) -> Self {
        Self::new(key, OptionKind::Name, &[], default, help)
    }

    /// An option whose value is any text.
    pub fn text(key: &str, default: &str, help: &str) -> Self {
        Self::new(key, OptionKind::Text, &[], default, help)
    }

    /// What a value may be, as help shows it: `true|false`, `URL`, `NAME`, `TEXT`.
    pub fn value_hint(&self) -> String {
        match self.kind {
            OptionKind::OneOf => self.values.join("|"),
            OptionKind::Url => "URL".to_owned(),
            OptionKind::Name => "NAME".to_owned(),
            OptionKind::Text | OptionKind::Other => "TEXT".to_owned(),
        }
    }

    /// Whether `value` is a valid value; the error says what a value may be.
    pub fn check(&self, value: &str) -> Result<(), String> {
        let ok = match self.kind {
            OptionKind::OneOf => self.values.iter().any(|v| v == value),
            OptionKind::Url => {
                ["http://", "https://"]
                    .iter()
                    .filter_map(|scheme| value.strip_prefix(scheme))
                    .any(|rest| rest.split(['/', '?', '#']).next().is_some_and(|host| !host.is_empty()))
                    && !value.contains(char::is_whitespace)
            }
            OptionKind::Name => {
                !value.is_empty() && !value.chars().all(|c| c == '.') && !value.contains(['/', '\\', ':', '\0'])
            }
            OptionKind::Text | OptionKind::Other => !value.is_empty(),
        };
        if ok {
            return Ok(());
        }
        Err(match self.kind {
            OptionKind::OneOf => format!("takes {}", or_list(&self.values)),
            OptionKind::Url => "takes an http:// or https:// URL with a host (https://api.example.com)".to_owned(),
            OptionKind::Name => "takes a plain name (no `/`, `\\` or `:`)".to_owned(),
            OptionKind::Text | OptionKind::Other => "takes a non-empty value".to_owned(),
        })
    }
}

/// `a`, `a or b`, `a, b or c`, each in backticks.
fn or_list(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        None => "no value".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The options every format takes: the host sets [`Options::OUTPUT_NAME`] itself, and a user
/// may set it.
pub fn common_options() -> Vec<OptionSpec> {
    vec![OptionSpec::name(
        Options::OUTPUT_NAME,
        "the input's file stem or folder name",
        "the base name the writer gives what it writes (a file without its extension, an extension's name)",
    )]
}

/// What the host loads into the [`Bundle`] for one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputShape {
    /// One file.
    File,
    /// One file plus the files beside it that its string values name, by their last path
    /// segment (a Vertex import body and the OpenAPI file its `openApiGcsUri` names); when
    /// its strings name no file there and it holds no inline document, the OpenAPI documents
    /// beside it instead (a placeholder URI).
    FileWithSiblings,
    /// A directory (a Raycast extension).
    Directory,
}

/// Format-specific settings from the command line (`--option key=value`).
///
/// Well-known keys the host sets: [`Options::OUTPUT_NAME`], [`Options::TARGET_FORMAT`],
/// [`Options::DIAGNOSTIC_DETAIL`], [`Options::PROCESS_ENDS`], [`Options::CUT_DESCRIPTIONS`]; only
/// the first may be given with `--option` too (the others are refused as keys no format
/// declares).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options(pub BTreeMap<String, String>);

impl Options {
    /// Base name (no extension) the host suggests for a single-document output: the input's
    /// file stem or directory name.
    pub const OUTPUT_NAME: &'static str = "output_name";

    /// The id of the format a conversion writes, which the host gives the reader; absent when
    /// nothing is written (`inspect`, `check`) or from an older host. A reader may leave out
    /// work only that target's writer uses (the OpenAPI reader keeps operations as written only
    /// toward openapi and vertex), and must do all of it when the key is absent.
    pub const TARGET_FORMAT: &'static str = "target_format";

    /// How much of their diagnostics the host needs in full from a reader or writer
    /// ([`Detail`]: `all`, `summary`, `errors`); absent is all. The plugin SDK folds the
    /// outcome to it; a format need not look at it.
    pub const DIAGNOSTIC_DETAIL: &'static str = "diagnostic_detail";

    /// Set by the host in a reader's options when fitting the model to the target would cut
    /// descriptions past its limit and nothing else (`"<max characters> <the limit's source>"`,
    /// [`crate::fit::cut_descriptions_request`]): the plugin SDK makes the cuts after the read
    /// ([`crate::fit::cut_descriptions_as_asked`]), so a model handed over natively is written
    /// as it is instead of copied. A format need not look at it; the host cuts what is left.
    pub const CUT_DESCRIPTIONS: &'static str = "cut_descriptions";

    /// Set (`true`) by the command line when this conversion is its run's only one: the process
    /// ends after it, so what a format built can be left to the operating system instead of
    /// freed piece by piece ([`Options::free`]: a large document's tree costs a tenth of its
    /// conversion to free). Never set by a library caller, nor for a batch.
    pub const PROCESS_ENDS: &'static str = "process_ends";

    /// Frees `value`, or leaves it to the process's end when [`Self::PROCESS_ENDS`] says the
    /// process ends after this conversion. For what is built whole and dropped at the end of a
    /// conversion (a writer's document after its text is made): memory that a later step of
    /// the same conversion could reuse must be freed.
    pub fn free<T>(&self, value: T) {
        if self.get(Self::PROCESS_ENDS) == Some("true") {
            std::mem::forget(value);
        }
    }

    /// How much of their diagnostics the caller needs in full ([`Self::DIAGNOSTIC_DETAIL`]).
    pub fn detail(&self) -> Detail {
        Detail::parse(self.get(Self::DIAGNOSTIC_DETAIL))
    }

    /// Whether the model read goes to one of `formats` or maybe to any ([`Self::TARGET_FORMAT`]
    /// absent).
    pub fn may_target(&self, formats: &[&str]) -> bool {
        self.get(Self::TARGET_FORMAT).is_none_or(|target| formats.contains(&target))
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    pub fn set(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.0.insert(key.into(), value.into());
    }

    /// The suggested output base name, or `fallback`.
    pub fn output_name<'a>(&'a self, fallback: &'a str) -> &'a str {
        self.get(Self::OUTPUT_NAME).filter(|s| !s.is_empty()).unwrap_or(fallback)
    }

    /// A display title made from the suggested output name (`show-map` → `Show Map`,
    /// `api_github` → `Api Github`), or `fallback`: for a writer that needs a title the source
    /// lacks, better than a generic word.
    pub fn output_title(&self, fallback: &str) -> String {
        let words: Vec<String> = self
            .output_name("")
            .split(['-', '_', '.', ' '])
            .filter(|w| !w.is_empty())
            .map(|w| {
                let mut chars = w.chars();
                chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
            })
            .collect();
        if words.is_empty() { fallback.to_owned() } else { words.join(" ") }
    }
}

/// How sure a format is that a bundle is one of its documents, 0 (no) to 100 (certain).
pub type Detection = u8;

/// A result with its diagnostics. `value: None` means the operation failed, and then at
/// least one diagnostic has error severity. A present value may still come with errors for
/// parts the reader skipped (parsers report every problem, not only the first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome<T> {
    pub value: Option<T>,
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
    /// The diagnostics left out of `diagnostics` by the detail the caller asked for, counted
    /// ([`Detail`]); empty unless it asked for less than all. Absent from the JSON when empty,
    /// so a peer that does not know it never sees it.
    #[serde(default, skip_serializing_if = "Tally::is_empty")]
    pub tally: Tally,
}

impl<T> Outcome<T> {
    pub fn ok(value: T, diagnostics: Vec<Diagnostic>) -> Self {
        Outcome { value: Some(value), diagnostics, tally: Tally::default() }
    }

    pub fn failed(diagnostics: Vec<Diagnostic>) -> Self {
        debug_assert!(diagnostics.iter().any(Diagnostic::is_error), "a failed outcome needs an error");
        Outcome { value: None, diagnostics, tally: Tally::default() }
    }

    /// An outcome of `value` with these diagnostics and counts.
    pub fn with(value: Option<T>, diagnostics: Vec<Diagnostic>, tally: Tally) -> Self {
        Outcome { value, diagnostics, tally }
    }

    /// The same outcome with its value mapped.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Outcome<U> {
        Outcome { value: self.value.map(f), diagnostics: self.diagnostics, tally: self.tally }
    }

    /// Folds the diagnostics to the detail `options` ask for ([`Detail::fold`]).
    pub fn folded(mut self, options: &Options) -> Self {
        options.detail().fold(&mut self.diagnostics, &mut self.tally);
        self
    }

    pub fn fail(error: Diagnostic) -> Self {
        Self::failed(vec![error])
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// A format: detect, read, write. Implement this and export it with the plugin SDK's
/// `declare_plugin!`; nothing else is needed.
pub trait Format: Send + Sync {
    fn info(&self) -> FormatInfo;

    /// How likely the bundle is this format's (0 to 100). Used when `--from` is omitted.
    fn detect(&self, input: &Bundle) -> Detection {
        let _ = input;
        0
    }

    /// Reads a bundle into the model. Formats that cannot read return a failed outcome.
    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet>;

    /// Writes the model as a bundle, reporting everything it could not carry.
    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_drops_unless_the_process_ends_after_the_conversion() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Counted;
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Ordering::SeqCst);
            }
        }
        let mut options = Options::default();
        options.free(Counted);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 1, "a library caller's conversion frees");
        options.set(Options::PROCESS_ENDS, "true");
        options.free(Counted);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 1, "left to the process's end");
    }

    #[test]
    fn option_values_are_checked_by_kind() {
        let strict = OptionSpec::one_of("strict", &["true", "false"], "false", "strict mode");
        assert!(strict.check("true").is_ok());
        assert_eq!(strict.check("yes").unwrap_err(), "takes `true` or `false`");
        let url = OptionSpec::url("base_url", "", "");
        assert!(url.check("https://api.example.com/v1").is_ok());
        for bad in ["api.example.com", "https://", "ftp://x", "https://a b"] {
            assert!(url.check(bad).is_err(), "{bad}");
        }
        let name = OptionSpec::name("output_name", "", "");
        assert!(name.check("tools").is_ok() && name.check("../x").is_err() && name.check("..").is_err());
        assert_eq!(strict.value_hint(), "true|false");
    }

    #[test]
    fn output_titles_come_from_the_output_name() {
        let mut options = Options::default();
        assert_eq!(options.output_title("Extension"), "Extension");
        options.set(Options::OUTPUT_NAME, "show-map_tools");
        assert_eq!(options.output_title("Extension"), "Show Map Tools");
    }

    #[test]
    fn without_a_target_every_target_is_possible() {
        let mut options = Options::default();
        assert!(options.may_target(&["openapi"]));
        options.set(Options::TARGET_FORMAT, "mcp");
        assert!(!options.may_target(&["openapi", "vertex"]));
        assert!(options.may_target(&["mcp"]));
    }

    #[test]
    fn format_info_without_options_still_reads() {
        let old = r#"{"id":"x","description":"","version":"1","reads":true,"writes":false,"input":"file"}"#;
        let info: FormatInfo = serde_json::from_str(old).unwrap();
        assert_eq!(info.options, None);
        assert!(info.limits.is_empty());
        let newer = r#"{"key":"k","kind":"colour","help":"h"}"#;
        let spec: OptionSpec = serde_json::from_str(newer).unwrap();
        assert_eq!(spec.kind, OptionKind::Other);
        assert!(spec.check("red").is_ok());
    }
}
