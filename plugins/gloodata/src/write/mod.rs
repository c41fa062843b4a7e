//! Canonical model → Gloodata document, part by part; each part mirrors the one of the same
//! name in `read/`: `root`, `value_sets`, `tools`, `examples`, `fields` and `ui`. The canonical
//! parts are written in a fixed key order, then the residue the reader kept (see the crate
//! docs) is merged back in (`residue`). `names` makes up the names a document needs and the
//! model lacks.

mod examples;
mod fields;
mod names;
mod residue;
mod root;
mod tools;
mod ui;
mod value_sets;

use serde_json::{Map, Value};
use toolport_plugin::loss::{Carried, uncarried_said};
use toolport_plugin::{Bundle, Diagnostic, Options, Outcome, Said, Severity, ToolSet};

use crate::FORMAT_ID;
use names::safe_file_stem;

/// The model fields Gloodata holds; everything else is reported by [`uncarried_said`].
const CARRIED: Carried<'static> = Carried {
    tool_set: &["id", "title", "description", "value_sets", "examples"],
    tool: &["title", "description", "display"],
    parameter: &["required"],
    schema: &[
        "type",
        "nullable",
        "title",
        "description",
        "default",
        "enum",
        "value_set",
        "examples",
        "format",
        "multiline",
    ],
    example: &["prompt", "expected"],
};

pub(crate) fn write(model: &ToolSet, options: &Options) -> Outcome<Bundle> {
    // Gloodata schemas cannot refer to others: references are inlined first, so only real
    // losses (a recursive definition cut short) are reported. Fields are flat, so only where
    // the writer reads: each parameter schema's own level (nested schemas are reported lost
    // whole, and the output is not written).
    let (resolved, mut cuts) = toolport_plugin::definitions::resolve_carried(model, &CARRIED);
    let model = &resolved;
    // Losses the caller only counts are counted, not formatted ([`Said`]); the SDK folds the
    // rest the same way, so what is kept and counted is as if all were made.
    let mut said = Said::new(options.detail());
    uncarried_said(model, FORMAT_ID, &CARRIED, &mut said);
    let mut writer = Writer { said, fallback_name: options.output_name("").to_owned() };
    writer.push_all(std::mem::take(&mut cuts));
    let document = writer.write_root(model);
    let mut text = serde_json::to_string_pretty(&Value::Object(document)).unwrap_or_default();
    text.push('\n');
    let name = safe_file_stem(options.output_name(model.id.as_deref().unwrap_or("extension")));
    let (diagnostics, tally) = writer.said.into_parts();
    Outcome::with(Some(Bundle::single(format!("{name}.json"), text)), diagnostics, tally)
}

struct Writer {
    /// What the writer says, made only where the caller keeps it in full.
    said: Said,
    /// The output's file name: the namespace when the source has neither id nor title.
    fallback_name: String,
}

impl Writer {
    /// Says a diagnostic of `severity` and `code`, made only if the caller keeps it in full.
    fn say(&mut self, severity: Severity, code: &str, make: impl FnOnce() -> Diagnostic) {
        self.said.say(severity, code, make);
    }

    /// Says diagnostics made already (by shared code that gives them made).
    fn push_all(&mut self, diagnostics: Vec<Diagnostic>) {
        for diagnostic in diagnostics {
            let (severity, code) = (diagnostic.severity, diagnostic.code.clone());
            self.said.say(severity, &code, || diagnostic);
        }
    }
}

fn put(object: &mut Map<String, Value>, key: &str, value: &str) {
    object.insert(key.to_owned(), Value::String(value.to_owned()));
}

fn put_opt(object: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(value) = value {
        put(object, key, value);
    }
}
