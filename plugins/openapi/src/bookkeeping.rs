//! Where toolport's bookkeeping lives in a written document, and putting it back on reading.
//!
//! Model fields OpenAPI has no place for (another format's extras and display hints, value-set
//! names, enum labels, Vertex's renames, …) are kept so that the same-format round trip (write,
//! read, write) gives the same document, but never inside the operations, parameters and
//! schemas a model reads: the writers build them inline as `x-toolport-*` keys (the reader's
//! digests of regenerated operations are taken on that form) and [`move_into_section`] moves
//! every one into the top-level [`SECTION`] as the last step; the reader puts them back first
//! ([`put_back`]). A document from elsewhere has no section and gets none back.

use serde_json::{Map, Value};
use toolport_plugin::source::{child, push_segment};
use toolport_plugin::{Diagnostic, codes};

/// Prefix of the keys toolport writes for model fields OpenAPI has no place for.
pub(crate) const XT: &str = "x-toolport-";

/// The top-level section that holds toolport's bookkeeping: JSON pointer of an object in the
/// document → the `x-toolport-*` keys that belong to it.
pub(crate) const SECTION: &str = "x-toolport";

/// Marks a security scheme written as a bearer token for an auth kind OpenAPI cannot state
/// without what the source did not give (see `write::security`); bookkeeping, so kept out of
/// the scheme a reader sees.
pub(crate) const AUTH_MARK: &str = "x-toolport-auth";

/// Moves every `x-toolport-*` key of the document into the [`SECTION`], by the pointer of the
/// object that held it, and with `no_false_nullable` removes `nullable: false`. Values a user
/// wrote (other `x-` extensions, examples, defaults, enums) are not searched.
pub(crate) fn move_into_section(doc: &mut Map<String, Value>, no_false_nullable: bool) {
    /// `at` is the pointer of `map`: one buffer, grown and cut back around each member, so an
    /// object's pointer is written out only when it holds bookkeeping.
    fn walk(map: &mut Map<String, Value>, at: &mut String, section: &mut Map<String, Value>, no_false_nullable: bool) {
        // One look at the keys (every object of the document comes here): both questions
        // start with a rare first letter.
        let (mut false_nullable, mut bookkeeping) = (false, false);
        for (key, value) in map.iter() {
            match key.as_bytes().first() {
                Some(b'n') => false_nullable |= key == "nullable" && *value == Value::Bool(false),
                Some(b'x') => bookkeeping |= key.starts_with(XT),
                _ => {}
            }
        }
        if no_false_nullable && false_nullable {
            map.shift_remove("nullable");
        }
        if bookkeeping {
            let mut kept = Map::new();
            let mut moved = Map::new();
            for (key, value) in std::mem::take(map) {
                if key.starts_with(XT) {
                    moved.insert(key, value);
                } else {
                    kept.insert(key, value);
                }
            }
            *map = kept;
            section.insert(at.clone(), Value::Object(moved));
        }
        let parent = at.len();
        for (key, value) in map.iter_mut() {
            // A scalar holds no object: its pointer is not written out.
            let holds_objects = matches!(value, Value::Object(_) | Value::Array(_));
            if !holds_objects
                || key.starts_with("x-")
                || matches!(key.as_str(), "example" | "examples" | "default" | "enum" | "const")
            {
                continue;
            }
            at.push('/');
            push_segment(at, key);
            match value {
                Value::Object(inner) => walk(inner, at, section, no_false_nullable),
                Value::Array(items) => {
                    let items_at = at.len();
                    for (i, item) in items.iter_mut().enumerate() {
                        if let Value::Object(inner) = item {
                            use std::fmt::Write;
                            let _ = write!(at, "/{i}");
                            walk(inner, at, section, no_false_nullable);
                            at.truncate(items_at);
                        }
                    }
                }
                _ => {}
            }
            at.truncate(parent);
        }
    }
    let mut section = Map::new();
    walk(doc, &mut String::new(), &mut section, no_false_nullable);
    if !section.is_empty() {
        doc.insert(SECTION.into(), Value::Object(section));
    }
}

/// The document with its bookkeeping [`SECTION`] put back where a writer took it from, so the
/// rest of reading sees what the writer built.
pub(crate) fn put_back(mut doc: Value, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let section = doc.as_object_mut().and_then(|root| root.remove(SECTION));
    let Some(Value::Object(section)) = section else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            child("", SECTION),
            "toolport's bookkeeping section must be an object; ignored",
        ));
        return doc;
    };
    for (pointer, keys) in section {
        let at = child(&child("", SECTION), &pointer);
        match (doc.pointer_mut(&pointer), keys) {
            (Some(Value::Object(target)), Value::Object(keys)) if keys.keys().all(|k| k.starts_with(XT)) => {
                target.extend(keys);
            }
            _ => diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                at,
                "this bookkeeping entry names no object of the document, or holds keys other than x-toolport-*; ignored",
            )),
        }
    }
    doc
}
