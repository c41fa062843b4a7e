//! `metadata.expected_output`: the tool's output (kind, format, language, allowed values).

use serde_json::{Map, Value};
use toolport_plugin::{Output, Severity};

use super::{Kept, Reader};
use crate::kept;

impl Reader<'_> {
    pub(super) fn expected_output(&mut self, output: &Map<String, Value>, own: &mut Kept) -> Output {
        let path = "/metadata/expected_output";
        let mut out = Output::default();
        let mut kept_output = Kept::new();
        for (key, value) in output {
            match (key.as_str(), value) {
                ("type", Value::String(text)) => out.kind = Some(text.clone()),
                ("format", Value::String(text)) => out.format = Some(text.clone()),
                ("language", Value::String(text)) => out.language = Some(text.clone()),
                ("type" | "format" | "language", _) => {
                    self.invalid(Severity::Warning, &mut kept_output, path, key, value, "a string")
                }
                ("allowed_values", Value::Array(items)) if items.iter().all(Value::is_string) => {
                    out.allowed_values = Some(items.iter().filter_map(Value::as_str).map(str::to_owned).collect());
                }
                ("allowed_values", _) => {
                    self.invalid(Severity::Warning, &mut kept_output, path, key, value, "an array of strings")
                }
                _ => self.unknown_key(&mut kept_output, path, key, value),
            }
        }
        if !kept_output.is_empty() {
            own.insert(kept::OUTPUT.into(), Value::Object(kept_output));
        }
        out
    }
}
