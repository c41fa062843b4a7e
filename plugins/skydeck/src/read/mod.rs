//! SkyDeck file → model, part by part; each part mirrors the one of the same name in `write/`:
//! `document` (version, `model_prompt`, the tool's name), `prompt` (its placeholders against
//! the variables), `metadata`, `variables`, `output` (`expected_output`) and `avatar`. One file
//! is one tool; the file's version, creator, avatar and timestamp describe the tool set of that
//! one tool.
//!
//! Whatever the model has no place for (unknown keys, values of the wrong type, which form an
//! optional spelling took) is kept in `extras["skydeck"]` so that the writer gives back the
//! same document. The keys used there are listed in [`crate::kept`].

mod avatar;
mod document;
mod metadata;
mod output;
mod prompt;
mod variables;

use serde_json::{Map, Value};
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::{Locator, child};
use toolport_plugin::{Bundle, Diagnostic, Outcome, Severity, ToolSet, codes};

use crate::lenient;

pub(crate) fn read(input: &Bundle) -> Outcome<ToolSet> {
    let Some((file, text)) = input.entry_file() else {
        return Outcome::fail(Diagnostic::error(
            codes::INPUT_MISSING_FILE,
            "",
            "a SkyDeck input is one JSON file (one tool); the input names no single file",
        ));
    };
    let parsed = match lenient::parse(file, text) {
        Ok(parsed) => parsed,
        Err(error) => return Outcome::fail(error),
    };
    // Positions count from after a byte order mark, as editors show them.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader { file, at: Locator::new(text), diagnostics: parsed.diagnostics };
    let Value::Object(root) = &parsed.value else {
        let error = reader.located(Diagnostic::error(
            codes::INPUT_INVALID,
            "",
            "a SkyDeck file is a JSON object with `model_prompt` and `metadata`",
        ));
        reader.diagnostics.push(error);
        return Outcome::failed(reader.diagnostics);
    };
    let set = reader.document(root);
    Outcome::ok(set, reader.diagnostics)
}

struct Reader<'a> {
    file: &'a str,
    /// The text, indexed once for every diagnostic's position.
    at: Locator<'a>,
    diagnostics: Vec<Diagnostic>,
}

/// What one object level of the document left over, kept for the writer.
type Kept = Map<String, Value>;

impl Reader<'_> {
    /// Adds the source position of the diagnostic's path, when it can be found.
    fn located(&self, diagnostic: Diagnostic) -> Diagnostic {
        match self.at.locate(&diagnostic.path) {
            Some((line, column)) if diagnostic.span.is_none() => diagnostic.at(self.file, line, column),
            _ => diagnostic,
        }
    }

    fn report(&mut self, severity: Severity, code: &str, path: &str, message: impl Into<String>) {
        let diagnostic = self.located(Diagnostic::new(severity, code, path, message));
        self.diagnostics.push(diagnostic);
    }

    fn unknown_key(&mut self, kept: &mut Kept, path: &str, key: &str, value: &Value) {
        self.report(
            Severity::Info,
            codes::INPUT_UNKNOWN_KEY,
            &child(path, key),
            format!("`{key}` is not a SkyDeck field; it is kept as written"),
        );
        kept.insert(key.to_owned(), value.clone());
    }

    /// A known key with a value of the wrong type: reported, and kept as written.
    fn invalid(&mut self, severity: Severity, kept: &mut Kept, path: &str, key: &str, value: &Value, want: &str) {
        self.report(
            severity,
            codes::INPUT_INVALID,
            &child(path, key),
            format!("`{key}` should be {want}, not {}; it is kept as written", kind_of(value)),
        );
        kept.insert(key.to_owned(), value.clone());
    }
}
