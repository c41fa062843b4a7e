//! Whether an operation as the source wrote it stays inside what Vertex accepts, so a Vertex
//! spec may have it verbatim.

use std::collections::HashSet;

use serde_json::{Map, Value};
use toolport_plugin::ToolSet;
use toolport_plugin::names::NameRules;

use crate::ID;

/// Whether operations as a source wrote them (with their `$ref`s, followed through the
/// source's `components`) stay inside what Vertex accepts, so a Vertex spec may have them
/// verbatim. The reader asks it of the source's operations and components, to keep no record
/// of one the writer would find unclean; the writer asks it of each record, in the components
/// kept in the model ([`source_components`]: those less the security schemes, which no
/// operation refers to by `$ref`; a reference it cannot follow is unclean). What a reference
/// leads to is looked at once for all of a document's operations: the operations of a large
/// spec refer to the same schemas again and again.
pub(crate) struct VertexCleanliness<'a> {
    components: Option<&'a Value>,
    known: KnownReferences<'a>,
}

impl<'a> VertexCleanliness<'a> {
    pub(crate) fn new(components: Option<&'a Value>) -> Self {
        VertexCleanliness { components, known: KnownReferences::default() }
    }

    /// Whether `operation`, and all its `$ref`s lead to, stay inside what Vertex accepts.
    pub(crate) fn operation_is_clean(&mut self, operation: &'a Map<String, Value>) -> bool {
        let mut visited = HashSet::new();
        let clean =
            clean_object(operation, self.components, &mut Walk { visited: &mut visited, known: &mut self.known }, "");
        if clean {
            // Everything the operation reaches is clean, so is what each reference leads to.
            self.known.clean.extend(visited);
        }
        clean
    }
}

/// References whose closure (what they lead to, following references) is known clean or not.
#[derive(Default)]
struct KnownReferences<'a> {
    clean: HashSet<&'a str>,
    unclean: HashSet<&'a str>,
}

/// One walk's references followed (each once: a repeat is as clean as its first), and what
/// earlier walks found.
struct Walk<'w, 'a> {
    visited: &'w mut HashSet<&'a str>,
    known: &'w mut KnownReferences<'a>,
}

/// The source's components, where the operations' `$ref`s (`#/components/...`) point.
pub(super) fn source_components(set: &ToolSet) -> Option<&Value> {
    set.extras.get(ID).and_then(|e| e.get("document")).and_then(|d| d.get("components"))
}

/// What a `$ref` names in the source's components; none for a reference elsewhere.
fn resolve<'a>(reference: &str, components: Option<&'a Value>) -> Option<&'a Value> {
    components?.pointer(reference.strip_prefix("#/components")?)
}

/// Whether `value` (under `key`), and what its `$ref`s name, use only what Vertex accepts:
/// property and parameter names by its rules, no `oneOf`/`allOf`/`not`, string enums, one type.
fn clean<'a>(value: &'a Value, components: Option<&'a Value>, walk: &mut Walk<'_, 'a>, key: &str) -> bool {
    match value {
        Value::Object(map) => clean_object(map, components, walk, key),
        Value::Array(items) => items.iter().all(|v| clean(v, components, walk, "")),
        _ => true,
    }
}

/// [`clean`] for an object.
fn clean_object<'a>(
    map: &'a Map<String, Value>,
    components: Option<&'a Value>,
    walk: &mut Walk<'_, 'a>,
    key: &str,
) -> bool {
    // One look at the members for what the rules ask (every object of an operation and of
    // what it refers to comes here, and a lookup hashes the key).
    let mut found = Found::default();
    for (k, v) in map {
        match (k.as_str(), v) {
            ("$ref", Value::String(reference)) => found.reference = Some(reference),
            ("oneOf" | "allOf" | "not", _) => found.combinator = true,
            ("enum", Value::Array(values)) => found.enum_not_of_strings = !values.iter().all(Value::is_string),
            ("in", _) => found.located = true,
            ("name", Value::String(name)) => found.name = Some(name),
            ("type", Value::Array(_)) => found.type_list = true,
            _ => {}
        }
    }
    if let Some(reference) = found.reference {
        if walk.known.clean.contains(reference) {
            return true;
        }
        if walk.known.unclean.contains(reference) {
            return false;
        }
        if !walk.visited.insert(reference) {
            return true;
        }
        // Unclean is final: what made it so is among what the reference leads to.
        let clean = resolve(reference, components).is_some_and(|target| clean(target, components, walk, ""));
        if !clean {
            walk.known.unclean.insert(reference);
        }
        return clean;
    }
    if key == "properties" {
        return map.iter().all(|(k, v)| NameRules::PARAMETER.is_valid(k) && clean(v, components, walk, ""));
    }
    if key != "example" && key != "examples" && key != "default" {
        let unnamed = found.located && !found.name.is_some_and(|n| NameRules::PARAMETER.is_valid(n));
        if found.combinator || found.enum_not_of_strings || unnamed || found.type_list {
            return false;
        }
    }
    map.iter().all(|(k, v)| matches!(k.as_str(), "example" | "examples" | "default") || clean(v, components, walk, k))
}

/// What [`clean_object`] looks for among an object's members.
#[derive(Default)]
struct Found<'a> {
    reference: Option<&'a str>,
    combinator: bool,
    enum_not_of_strings: bool,
    /// An `in` (a parameter), whose `name` must then be one of Vertex's.
    located: bool,
    name: Option<&'a str>,
    type_list: bool,
}
