//! Resolving `$ref`s while reading: a reference to a named schema becomes a definition
//! (read once, after the current top-level read), other local pointers are read in place
//! (memoized; cycles and nesting deeper than [`Reader::MAX_DEPTH`] cut to a schema of any
//! type), remote references are kept as written.

use serde_json::{Map, Value};
use toolport_core::source::child;
use toolport_core::{Diagnostic, Schema, codes};

use super::Reader;
use crate::EXTRAS_KEY;
use crate::merge::merge;

impl<'a> Reader<'a> {
    /// The value a local reference (`#/a/b`) points to in the root document.
    pub fn lookup(&self, reference: &str) -> Option<&'a Value> {
        let pointer = reference.strip_prefix('#')?;
        let decoded = percent_decode(pointer);
        self.root.pointer(&decoded)
    }

    /// Follows a chain of `$ref`s (parameters, request bodies, responses) to the object they
    /// name, with the pointer of that object. Unresolvable or cyclic chains give `None`.
    pub fn follow(&self, value: &'a Value, path: &str) -> Option<(&'a Value, String)> {
        let mut current = value;
        let mut at = path.to_owned();
        for _ in 0..Self::MAX_DEPTH {
            match current.get("$ref").and_then(Value::as_str) {
                Some(reference) => {
                    current = self.lookup(reference)?;
                    at = reference.trim_start_matches('#').to_owned();
                }
                None => return Some((current, at)),
            }
        }
        None
    }

    pub(super) fn read_pending(&mut self) {
        self.nesting += 1;
        while let Some((reference, name)) = self.pending.pop() {
            let Some(target) = self.lookup(&reference) else { continue };
            let target_path = percent_decode(reference.trim_start_matches('#'));
            let schema = self.read_value(target, &target_path);
            self.definitions.insert(name, schema);
        }
        self.nesting -= 1;
    }

    /// The definition name of a `$ref` to a named schema that exists, assigning one (and
    /// queueing the schema to be read) the first time.
    pub(super) fn named(&mut self, reference: &str) -> Option<String> {
        if let Some(name) = self.names.get(reference) {
            return Some(name.clone());
        }
        let base = toolport_core::definitions::name_in_reference(&percent_decode(reference))?;
        self.lookup(reference)?;
        let name = toolport_core::definitions::free_name(&base, |n| self.taken_names.contains(n));
        self.taken_names.insert(name.clone());
        self.names.insert(reference.to_owned(), name.clone());
        // Reserve the slot so definitions keep the order they were first met in.
        self.definitions.insert(name.clone(), Schema::default());
        self.pending.push((reference.to_owned(), name.clone()));
        Some(name)
    }

    pub(super) fn read_ref(&mut self, reference: &str, map: &Map<String, Value>, path: &str) -> Schema {
        if let Some(name) = self.named(reference) {
            let mut schema = if map.len() == 1 {
                Schema::default()
            } else {
                // Keywords beside `$ref` (a description, `nullable`) refine the referenced schema.
                let siblings: Map<String, Value> =
                    map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
                self.read_object(&siblings, path)
            };
            schema.reference = Some(name);
            return schema;
        }
        let resolved = self.inline_ref(reference, path);
        if map.len() == 1 {
            return resolved;
        }
        let siblings: Map<String, Value> =
            map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
        let mut refined = self.read_object(&siblings, path);
        merge(&mut refined, resolved);
        refined
    }

    /// The schema a reference points to, read in place (a deep pointer, or an `allOf` member
    /// whose properties must merge).
    fn inline_ref(&mut self, reference: &str, path: &str) -> Schema {
        if !reference.starts_with('#') {
            self.report_once(
                reference,
                Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    child(path, "$ref"),
                    format!("remote reference `{reference}` is not fetched; the schema is left open (any type)"),
                ),
            );
            keep_ref(reference)
        } else if self.active.iter().any(|r| r == reference) {
            self.report_once(
                reference,
                Diagnostic::info(
                    codes::INPUT_TOLERATED,
                    child(path, "$ref"),
                    format!("recursive reference `{reference}`: inner occurrences are read as a schema of any type"),
                ),
            );
            Schema::default()
        } else if let Some(cached) = self.cache.get(reference) {
            cached.clone()
        } else if self.active.len() >= Self::MAX_DEPTH {
            self.report_once(
                "#depth",
                Diagnostic::info(
                    codes::INPUT_TOLERATED,
                    child(path, "$ref"),
                    format!("references nest deeper than {}; deeper schemas are left open", Self::MAX_DEPTH),
                ),
            );
            Schema::default()
        } else {
            match self.lookup(reference) {
                Some(target) => {
                    self.active.push(reference.to_owned());
                    let target_path = percent_decode(reference.trim_start_matches('#'));
                    let schema = self.read_value(target, &target_path);
                    self.active.pop();
                    self.cache.insert(reference.to_owned(), schema.clone());
                    schema
                }
                None => {
                    self.report_once(
                        reference,
                        Diagnostic::warning(
                            codes::INPUT_UNRESOLVED,
                            child(path, "$ref"),
                            format!("reference `{reference}` names nothing in this document; the schema is left open"),
                        ),
                    );
                    keep_ref(reference)
                }
            }
        }
    }

    /// An `allOf` member: a reference is read in place so its properties merge.
    pub(super) fn read_member(&mut self, member: &Value, path: &str) -> Schema {
        match member.as_object() {
            Some(map) if map.len() == 1 && matches!(map.get("$ref"), Some(Value::String(_))) => {
                let reference = map["$ref"].as_str().unwrap_or_default().to_owned();
                self.inline_ref(&reference, path)
            }
            _ => self.read(member, path),
        }
    }

    fn report_once(&mut self, key: &str, diagnostic: Diagnostic) {
        if self.reported.insert(key.to_owned()) {
            self.diagnostics.push(diagnostic);
        }
    }
}

fn keep_ref(reference: &str) -> Schema {
    let mut schema = Schema::default();
    let extras = Map::from_iter([("$ref".to_owned(), Value::String(reference.to_owned()))]);
    schema.extras.insert(EXTRAS_KEY.into(), Value::Object(extras));
    schema
}

/// `%25`-style escapes in URI fragments (`#/paths/~1a%7Bb%7D`).
pub(super) fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}
