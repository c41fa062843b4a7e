//! A tool's `examples`: its example prompts.

use serde_json::Value;
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::child;
use toolport_plugin::{Severity, codes};

use super::Reader;
use super::residue::Residue;

impl Reader<'_> {
    pub(super) fn read_examples(&mut self, path: &str, value: &Value, residue: &mut Residue) -> Vec<String> {
        let Value::Array(items) = value else {
            self.wrong_type(path, "examples", "a list of prompts", value, residue);
            return Vec::new();
        };
        let mut prompts = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(prompt) => prompts.push(prompt.clone()),
                _ => self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    &child(path, i.to_string()),
                    format!("an example should be a prompt string, found {}; skipped", kind_of(item)),
                ),
            }
        }
        prompts
    }
}
