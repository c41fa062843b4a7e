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

use std::borrow::Cow;

use serde_json::{Map, Value};
use toolport_plugin::source::{child, pointer};
use toolport_plugin::{Diagnostic, Options, ToolSet, codes};

use crate::bookkeeping;

mod body;
mod document;
mod info;
mod keep;
mod map_copy;
mod operation;
mod parameter;
mod paths;
mod responses;
mod security;
mod servers;
mod x_toolport;

pub(crate) use keep::Keep;
use map_copy::copy_without;

/// Reads an OpenAPI document, keeping as written what the target may use
/// ([`Keep::for_target`]). `Err` when it is not an OpenAPI 3 document at all.
pub(crate) fn read_document(doc: Value, options: &Options) -> Result<(ToolSet, Vec<Diagnostic>), Diagnostic> {
    // The document is prepared in place: toolport's bookkeeping put back, enums listing a
    // value twice (OpenAI's spec) and `required` lists naming a property twice listed once.
    let mut diagnostics = Vec::new();
    let mut doc =
        if doc.get(bookkeeping::SECTION).is_some() { bookkeeping::put_back(doc, &mut diagnostics) } else { doc };
    let mut repeated = Vec::new();
    repeated_lists(&doc, &mut Vec::new(), &mut repeated);
    for pointer in repeated {
        if let Some(Value::Array(values)) = doc.pointer_mut(&pointer) {
            let mut seen = std::collections::HashSet::new();
            values.retain(|v| seen.insert(v.to_string()));
        }
        let message = if pointer.ends_with("/required") {
            "this `required` names a property more than once (OpenAPI needs unique names): read and written once"
        } else {
            "this enum lists a value more than once (OpenAPI needs unique values): read and written once"
        };
        diagnostics.push(Diagnostic::warning(codes::INPUT_TOLERATED, pointer, message));
    }
    let (set, more) = document::read_prepared(doc, Keep::for_target(options), options)?;
    diagnostics.extend(more);
    Ok((set, diagnostics))
}

/// A step of the walk in [`repeated_lists`]: a member's key or an item's index.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Pointers of the `enum` and `required` lists in `value` that repeat a value. Values a user
/// wrote (`x-` extensions, examples, defaults) are not searched. `at` is the walk's steps to
/// `value`: the walk visits every node of the document, and only a repeat is given a pointer.
fn repeated_lists<'a>(value: &'a Value, at: &mut Vec<Step<'a>>, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("enum" | "required", Value::Array(values)) if values.len() > 1 && repeats_a_value(values) => {
                        out.push(pointer_of(at, key));
                    }
                    ("enum" | "required", Value::Array(_)) => {}
                    ("example" | "examples" | "default" | "const", _) => {}
                    _ if key.starts_with("x-") => {}
                    // Scalars hold no list.
                    (_, Value::Object(_) | Value::Array(_)) => {
                        at.push(Step::Key(key));
                        repeated_lists(value, at, out);
                        at.pop();
                    }
                    _ => {}
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if matches!(item, Value::Object(_) | Value::Array(_)) {
                    at.push(Step::Index(i));
                    repeated_lists(item, at, out);
                    at.pop();
                }
            }
        }
        _ => {}
    }
}

/// The JSON pointer of member `last` of the node the steps lead to.
fn pointer_of<'a>(steps: &[Step<'a>], last: &'a str) -> String {
    let segment = |step: &Step<'a>| match *step {
        Step::Key(key) => Cow::Borrowed(key),
        Step::Index(i) => Cow::Owned(i.to_string()),
    };
    pointer(steps.iter().map(segment).chain([Cow::Borrowed(last)]))
}

/// Whether `values` lists a value twice. Strings (nearly every enum) are compared as they
/// are, a short list pair by pair; any other list by its values' JSON text.
fn repeats_a_value(values: &[Value]) -> bool {
    if let Some(texts) = values.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() {
        if texts.len() <= 16 {
            return texts.iter().enumerate().any(|(i, text)| texts[..i].contains(text));
        }
        let mut seen = std::collections::HashSet::with_capacity(texts.len());
        return !texts.into_iter().all(|text| seen.insert(text));
    }
    let mut seen = std::collections::HashSet::new();
    !values.iter().all(|v| seen.insert(v.to_string()))
}

/// `slot` as an object, made one (empty) when it is not.
fn object_slot(slot: &mut Value) -> &mut Map<String, Value> {
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("an object")
}

/// Where an operation sits: its path, method and path item, the path item's servers, and the
/// path item's pointer. Built by `paths`, read by `operation` and `parameter` (here, so that
/// neither of those two imports the other's types).
struct OperationContext<'a> {
    path: &'a str,
    method: &'a str,
    item: &'a Map<String, Value>,
    item_servers: &'a [toolport_plugin::Server],
    at: &'a str,
}

fn pointer_join(base: &str, segments: &[&str]) -> String {
    segments.iter().fold(base.to_owned(), |at, s| child(&at, s))
}

/// The media type to model: JSON when offered, else the first.
/// The `required` of a parameter or request body `map` at `at`: OpenAPI says a boolean. What
/// people write instead is read as what it says (`"true"`, `yes`, `1`; `"false"`, `no`, `0`), and
/// anything else as not required, each with a located warning saying how it was read (the
/// writer then writes the boolean). `None` when there is no `required`.
fn read_required(map: &Map<String, Value>, at: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<bool> {
    let value = map.get("required")?;
    if let Value::Bool(required) = value {
        return Some(*required);
    }
    let said = match value {
        Value::String(text) => match text.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "on" | "1" => Some(true),
            "false" | "no" | "n" | "off" | "0" => Some(false),
            _ => None,
        },
        Value::Number(number) => number.as_f64().filter(|n| *n == 0.0 || *n == 1.0).map(|n| n == 1.0),
        _ => None,
    };
    let required = said.unwrap_or(false);
    let read_as = match (said, required) {
        (Some(_), true) => "it is read as required (true)",
        (Some(_), false) => "it is read as not required (false)",
        (None, _) => "it says neither true nor false, so it is read as not required (false)",
    };
    diagnostics.push(Diagnostic::warning(
        codes::INPUT_TOLERATED,
        child(at, "required"),
        format!(
            "`required` is a boolean, not {}: {value} is not one; {read_as}",
            toolport_plugin::json_kind::kind_of(value)
        ),
    ));
    Some(required)
}

fn pick_media(content: &Map<String, Value>) -> Option<(&String, &Value)> {
    content
        .iter()
        .find(|(k, _)| k.as_str() == "application/json")
        .or_else(|| content.iter().find(|(k, _)| k.contains("json")))
        .or_else(|| content.iter().next())
}
