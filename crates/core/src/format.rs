//! The `Format` trait: what a format plugin implements. A format is a reader and/or a writer
//! between a [`Bundle`] and the canonical [`ToolSet`]; it does no I/O.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Bundle, Diagnostic, ToolSet};

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
}

/// What the host loads into the [`Bundle`] for one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputShape {
    /// One file.
    File,
    /// One file plus the text files beside it (a Vertex import body next to its OpenAPI file).
    FileWithSiblings,
    /// A directory (a Raycast extension).
    Directory,
}

/// Format-specific settings from the command line (`--option key=value`).
///
/// Well-known keys the host sets: [`Options::OUTPUT_NAME`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options(pub BTreeMap<String, String>);

impl Options {
    /// Base name (no extension) the host suggests for a single-document output: the input's
    /// file stem or directory name.
    pub const OUTPUT_NAME: &'static str = "output_name";

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
}

impl<T> Outcome<T> {
    pub fn ok(value: T, diagnostics: Vec<Diagnostic>) -> Self {
        Outcome { value: Some(value), diagnostics }
    }

    pub fn failed(diagnostics: Vec<Diagnostic>) -> Self {
        debug_assert!(diagnostics.iter().any(Diagnostic::is_error), "a failed outcome needs an error");
        Outcome { value: None, diagnostics }
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
