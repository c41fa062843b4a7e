//! `metadata.expected_output`: the tool's output, reporting what SkyDeck's has no place for.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Output, Severity, codes};

use super::Writer;
use crate::kept;

impl Writer<'_> {
    pub(super) fn output(&mut self, output: &Output, own: &Map<String, Value>, path: &str) -> Map<String, Value> {
        let mut out = Map::new();
        for (key, value) in [("type", &output.kind), ("format", &output.format), ("language", &output.language)] {
            if let Some(value) = value {
                out.insert(key.into(), value.clone().into());
            }
        }
        if let Some(values) = &output.allowed_values {
            out.insert("allowed_values".into(), values.iter().cloned().map(Value::from).collect());
        }
        if let Some(kept_output) = own.get(kept::OUTPUT).and_then(Value::as_object) {
            out.extend(kept_output.clone());
        }
        let output_path = child(path, "output");
        if output.description.is_some() {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                child(&output_path, "description"),
                "SkyDeck's expected_output has no description; it was left out".into(),
            );
        }
        if output.content_type.is_some() {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                child(&output_path, "content_type"),
                "SkyDeck's expected_output has no media type; it was left out".into(),
            );
        }
        if output.schema.is_some() {
            self.note(
                Severity::Warning,
                codes::LOSS_SCHEMA,
                child(&output_path, "schema"),
                "SkyDeck's expected_output has no schema; the output schema was left out".into(),
            );
        }
        out
    }
}
