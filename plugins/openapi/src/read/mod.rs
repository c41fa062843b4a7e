//! OpenAPI 3.0 / 3.1 document → canonical model: one tool per operation.
//!
//! What the model has no place for is kept in `extras["openapi"]` (see `write/` for how it is
//! used): leftover keys at each level, and — only where regenerating a part from the model
//! would not give back the source exactly (`$ref`s, merged path parameters) — the part as
//! written plus a digest of its regenerated form (see `keep.rs` and `crate::verbatim`), so an
//! unchanged tool is written back verbatim and a changed one is regenerated.
//!
//! The parts mirror `write/`: `document` (version, components, the rest of the document),
//! `info`, `servers`, `security`, `paths` (path items, tool names), `operation`, `parameter`,
//! `body`, `responses`, and `x_toolport` (model fields a toolport writer kept in `x-toolport-*`
//! keys).

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, ToolSet, codes};

use crate::bookkeeping;

mod body;
mod document;
mod info;
mod keep;
mod operation;
mod parameter;
mod paths;
mod responses;
mod security;
mod servers;
mod x_toolport;

/// Reads an OpenAPI document. `Err` when it is not an OpenAPI 3 document at all.
pub(crate) fn read_document(doc: &Value) -> Result<(ToolSet, Vec<Diagnostic>), Diagnostic> {
    // A copy only where the document needs preparing: toolport's bookkeeping put back, enums
    // listing a value twice (OpenAI's spec) listed once.
    let mut diagnostics = Vec::new();
    let mut prepared = doc.get(bookkeeping::SECTION).is_some().then(|| bookkeeping::put_back(doc, &mut diagnostics));
    let mut repeated = Vec::new();
    repeated_enums(prepared.as_ref().unwrap_or(doc), "", &mut repeated);
    if !repeated.is_empty() {
        let fixed = prepared.get_or_insert_with(|| doc.clone());
        for pointer in repeated {
            if let Some(Value::Array(values)) = fixed.pointer_mut(&pointer) {
                let mut seen = std::collections::HashSet::new();
                values.retain(|v| seen.insert(v.to_string()));
            }
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_TOLERATED,
                pointer,
                "this enum lists a value more than once (OpenAPI needs unique values): read and written once",
            ));
        }
    }
    let (set, more) = document::read_prepared(prepared.as_ref().unwrap_or(doc))?;
    diagnostics.extend(more);
    Ok((set, diagnostics))
}

/// Pointers of the `enum` lists in `value` that repeat a value. Values a user wrote (`x-`
/// extensions, examples, defaults) are not searched.
fn repeated_enums(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                let here = child(at, key);
                match (key.as_str(), value) {
                    ("enum", Value::Array(values)) => {
                        let mut seen = std::collections::HashSet::new();
                        if values.len() > 1 && !values.iter().all(|v| seen.insert(v.to_string())) {
                            out.push(here);
                        }
                    }
                    ("example" | "examples" | "default" | "const", _) => {}
                    _ if key.starts_with("x-") => {}
                    _ => repeated_enums(value, &here, out),
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                repeated_enums(item, &child(at, i.to_string()), out);
            }
        }
        _ => {}
    }
}

/// `slot` as an object, made one (empty) when it is not.
fn object_slot(slot: &mut Value) -> &mut Map<String, Value> {
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("an object")
}

fn pointer_join(base: &str, segments: &[&str]) -> String {
    segments.iter().fold(base.to_owned(), |at, s| child(&at, s))
}

/// The media type to model: JSON when offered, else the first.
fn pick_media(content: &Map<String, Value>) -> Option<(&String, &Value)> {
    content
        .iter()
        .find(|(k, _)| k.as_str() == "application/json")
        .or_else(|| content.iter().find(|(k, _)| k.contains("json")))
        .or_else(|| content.iter().next())
}
