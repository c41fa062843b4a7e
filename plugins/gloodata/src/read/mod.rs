//! Gloodata document → canonical model, part by part; each part mirrors the one of the same
//! name in `write/`: `root` (namespace, title, which key holds the tools, handlers),
//! `value_sets` (`tagValues`), `tools`, `examples`, `fields` (`schema.fields`) and `ui`. What
//! the model cannot hold stays in a residue (`residue`, see the crate docs) so that writing
//! gives the document back.

mod examples;
mod fields;
mod residue;
mod root;
mod tools;
mod ui;
mod value_sets;

use serde_json::Value;
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::{Locator, parse_json};
use toolport_plugin::{Bundle, Diagnostic, Options, Outcome, Severity, ToolSet, codes};

use residue::Residue;

pub(crate) fn read(input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
    let Some((file, text)) = input.entry_file() else {
        return Outcome::fail(Diagnostic::error(
            codes::INPUT_MISSING_FILE,
            "",
            "no Gloodata document in the input (expected one JSON file)",
        ));
    };
    let (root, tolerated) = match parse_json(file, text) {
        Ok(parsed) => (parsed.value, parsed.tolerated),
        Err(error) => return Outcome::fail(error),
    };
    let mut reader = Reader { file, at: Locator::new(text), diagnostics: tolerated };
    let Value::Object(root) = root else {
        let error = reader.locate(
            Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                format!("a Gloodata extension info document is a JSON object, found {}", kind_of(&root)),
            ),
            "",
        );
        return Outcome::fail(error);
    };
    let model = reader.read_root(&root);
    Outcome::ok(model, reader.diagnostics)
}

struct Reader<'a> {
    file: &'a str,
    at: Locator<'a>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    fn locate(&self, diagnostic: Diagnostic, path: &str) -> Diagnostic {
        match self.at.locate(path) {
            Some((line, column)) => diagnostic.at(self.file, line, column),
            None => diagnostic,
        }
    }

    fn report(&mut self, severity: Severity, code: &str, path: &str, message: String) {
        let diagnostic = self.locate(Diagnostic::new(severity, code, path, message), path);
        self.diagnostics.push(diagnostic);
    }

    fn unknown_key(&mut self, path: &str, key: &str, residue: &mut Residue, value: &Value) {
        self.report(Severity::Info, codes::INPUT_UNKNOWN_KEY, path, format!("unknown key `{key}`; kept as written"));
        residue.keep(key, value);
    }

    /// A known key with a value of the wrong JSON type: reported and kept as written.
    fn wrong_type(&mut self, path: &str, key: &str, expected: &str, value: &Value, residue: &mut Residue) {
        self.report(
            Severity::Error,
            codes::INPUT_INVALID,
            path,
            format!("`{key}` should be {expected}, found {}; kept as written", kind_of(value)),
        );
        residue.keep(key, value);
    }

    fn string(&mut self, path: &str, key: &str, value: &Value, residue: &mut Residue) -> Option<String> {
        match value {
            Value::String(s) => Some(s.clone()),
            _ => {
                self.wrong_type(path, key, "a string", value, residue);
                None
            }
        }
    }

    /// A string that may be JSON null; null is kept in the residue so it is written back.
    fn nullable_string(&mut self, path: &str, key: &str, value: &Value, residue: &mut Residue) -> Option<String> {
        match value {
            Value::Null => {
                residue.keep(key, value);
                None
            }
            _ => self.string(path, key, value, residue),
        }
    }
}
