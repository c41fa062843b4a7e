//! Named schemas ([`ToolSet::definitions`]) and the references to them ([`Schema::reference`]).
//!
//! Writers whose target can hold references write the closure of the definitions a schema
//! uses ([`referenced`], [`used_by`]); writers whose target cannot call [`resolve`] (or
//! [`inline`] per schema, or [`resolve_carried`] to inline only along the fields they carry)
//! first and then report losses with `loss::uncarried` on the resolved model, so only real
//! losses (a recursive definition cut short) are reported.
//!
//! Inlining cuts recursion at the first repeat of a definition on the current path, and stops
//! expanding references after [`INLINE_NODE_BUDGET`] schema nodes (shared definitions can make
//! an inlined schema exponentially large) or at [`INLINE_DEPTH`] levels of nesting; each cut
//! leaves a loose schema (type object or any, description kept while the budget's allowance for
//! them lasts) and one `loss/schema` diagnostic.
//!
//! Every expansion a writer makes for one document (inlined definitions, closures copied into
//! each tool's `$defs`) is also charged to one [`Budget`] of bytes ([`schema_weight`]:
//! `limits::EXPANSION_FACTOR` times the model's own): once it is spent, references are cut the same way ([`cut_references`]
//! for writers that copy closures), so no output can grow beyond a fixed multiple of its input.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::Value;

use crate::schema_merge::{self, MergePolicy};
use crate::{AdditionalProperties, EnumValue, Schema, ToolSet, ValueSet};

mod expand;

pub use expand::{
    Budget, Charge, INLINE_DEPTH, INLINE_NODE_BUDGET, Spending, cut_references, cut_references_in, inline,
    inline_within, loose, loose_within, resolve, resolve_carried,
};

/// The schema nodes of `schema`: itself and every schema inside it (references not followed).
pub fn schema_nodes(schema: &Schema) -> usize {
    1 + children(schema).map(schema_nodes).sum::<usize>()
}

/// The bytes `schema` takes written as compact JSON, estimated from its own fields, text and
/// values and those of every schema inside it (references not followed): what an expansion
/// costs. Counting bytes, not nodes, keeps a definition with long descriptions or enums from
/// being copied as cheaply as a bare `{"type": "string"}`.
pub fn schema_weight(schema: &Schema) -> usize {
    node_weight(schema) + children(schema).map(schema_weight).sum::<usize>()
}

/// The weight ([`schema_weight`]) of a model's schemas: its tools' parameter and output
/// schemas, its definitions and its value sets, about the bytes they took in the input. A
/// value set's values that a reader copied into a field naming the set (Gloodata's) count
/// once, in the set: they were not in the input, and counting each copy let a reader's
/// expansion raise the writer's budget in turn (a 0.56 MB document's to 36 MB).
pub fn model_weight(model: &ToolSet) -> usize {
    let weigh = |schema: &Schema| weight_without_copies(schema, &model.value_sets);
    let tools: usize = model
        .tools
        .iter()
        .flat_map(|tool| tool.parameters.iter().map(|p| &p.schema).chain(tool.output.iter().flat_map(|o| &o.schema)))
        .map(weigh)
        .sum();
    tools
        + model.definitions.values().map(weigh).sum::<usize>()
        + model.value_sets.values().map(value_set_weight).sum::<usize>()
}

/// [`schema_weight`] less the enums in `schema` that list all of the values of the value set
/// their schema names: copies of the set ([`model_weight`]), in one walk.
fn weight_without_copies(schema: &Schema, sets: &IndexMap<String, ValueSet>) -> usize {
    let copied = match (&schema.value_set, &schema.enumeration) {
        (Some(id), Some(values)) if sets.get(id).is_some_and(|set| set.entries.len() == values.len()) => {
            enumeration_weight(values)
        }
        _ => 0,
    };
    // A node's weight holds its enum's, so the copy is never more than the node.
    node_weight(schema) - copied + children(schema).map(|child| weight_without_copies(child, sets)).sum::<usize>()
}

/// The bytes a value set's values and labels take as an `enum` (and its labels) written
/// into a schema: what each schema that lists them instead of naming the set costs.
pub fn value_set_weight(set: &ValueSet) -> usize {
    set.entries.iter().map(|e| value_bytes(&e.value) + e.label.as_ref().map_or(0, |l| l.len() + 3)).sum()
}

/// What one schema node weighs without its children ([`schema_weight`]): a fixed part for its
/// braces and keywords, its texts and values, and its properties' names.
fn node_weight(schema: &Schema) -> usize {
    /// Braces, a `"type"` and the separators around a node.
    const NODE_BYTES: usize = 16;
    /// A text field's key and quotes.
    const FIELD_BYTES: usize = 16;
    let s = schema;
    let texts: usize = [&s.reference, &s.title, &s.description, &s.value_set, &s.format, &s.constraints.pattern]
        .into_iter()
        .flatten()
        .map(|text| text.len() + FIELD_BYTES)
        .sum();
    let values: usize = s.default.as_deref().into_iter().chain(&s.examples).map(value_bytes).sum::<usize>()
        + s.enumeration.as_deref().map_or(0, enumeration_weight)
        + s.extras.iter().map(|(key, value)| key.len() + 4 + value_bytes(value)).sum::<usize>();
    let names: usize = s.properties.iter().map(|p| p.name.len() + 4).sum();
    NODE_BYTES + texts + values + names
}

/// What an enum's values and their labels weigh in a schema node ([`node_weight`]).
fn enumeration_weight(values: &[EnumValue]) -> usize {
    values.iter().map(|e| value_bytes(&e.value) + e.label.as_ref().map_or(0, String::len)).sum()
}

/// The bytes a JSON value takes written compactly, about (numbers count 8).
fn value_bytes(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(text) => text.len() + 3,
        Value::Array(items) => 2 + items.iter().map(|item| value_bytes(item) + 1).sum::<usize>(),
        Value::Object(map) => 2 + map.iter().map(|(key, item)| key.len() + 4 + value_bytes(item)).sum::<usize>(),
    }
}

/// The direct children of a schema: items, property schemas, additional properties, members.
fn children(schema: &Schema) -> impl Iterator<Item = &Schema> {
    let extra = match &schema.additional_properties {
        Some(AdditionalProperties::Schema(extra)) => Some(&**extra),
        _ => None,
    };
    schema
        .items
        .as_deref()
        .into_iter()
        .chain(schema.properties.iter().map(|p| &p.schema))
        .chain(extra)
        .chain(&schema.any_of)
}

/// Every schema of the model that may hold references, with its model path: parameter
/// schemas and output schemas (definitions themselves are reached through them).
fn model_schemas(model: &ToolSet) -> Vec<(String, &Schema)> {
    let mut out = Vec::new();
    for (i, tool) in model.tools.iter().enumerate() {
        for (j, parameter) in tool.parameters.iter().enumerate() {
            out.push((format!("/tools/{i}/parameters/{j}/schema"), &parameter.schema));
        }
        if let Some(schema) = tool.output.as_ref().and_then(|o| o.schema.as_ref()) {
            out.push((format!("/tools/{i}/output/schema"), schema));
        }
    }
    out
}

/// The names of the definitions `schema` uses, directly or through other definitions, in the
/// order they are first met (depth first). Names missing from `definitions` are left out.
/// `$ref`s to named schemas inside `extras["jsonschema"]` count too ([`name_in_reference`]).
pub fn referenced(schema: &Schema, definitions: &IndexMap<String, Schema>) -> Vec<String> {
    let mut seen = IndexMap::new();
    collect(schema, definitions, &mut seen);
    seen.into_keys().collect()
}

/// [`referenced`] over several schemas at once.
pub fn referenced_by_all<'a>(
    schemas: impl IntoIterator<Item = &'a Schema>,
    definitions: &IndexMap<String, Schema>,
) -> Vec<String> {
    let mut seen = IndexMap::new();
    for schema in schemas {
        collect(schema, definitions, &mut seen);
    }
    seen.into_keys().collect()
}

/// The names of the definitions `schema` itself refers to (at any depth, `$ref`s in
/// `extras["jsonschema"]` included), without following them into their definitions, in the
/// order met. Names missing from `definitions` are left out; a name may repeat.
pub fn referenced_directly(schema: &Schema, definitions: &IndexMap<String, Schema>) -> Vec<String> {
    fn walk(schema: &Schema, definitions: &IndexMap<String, Schema>, out: &mut Vec<String>) {
        out.extend(schema.reference.iter().filter(|name| definitions.contains_key(*name)).cloned());
        if let Some(kept) = schema.extras.get("jsonschema") {
            let mut refs = Vec::new();
            refs_in_value(kept, &mut refs);
            out.extend(refs.into_iter().filter_map(name_in_reference).filter(|name| definitions.contains_key(name)));
        }
        for child in children(schema) {
            walk(child, definitions, out);
        }
    }
    let mut out = Vec::new();
    walk(schema, definitions, &mut out);
    out
}

/// The definitions the model's tools use (parameter and output schemas), in first-use order.
pub fn used_by(model: &ToolSet) -> Vec<String> {
    referenced_by_all(model_schemas(model).into_iter().map(|(_, s)| s), &model.definitions)
}

/// Containers of named schemas in JSON Schema and OpenAPI documents.
pub const NAMED_CONTAINERS: &[&str] = &["#/components/schemas/", "#/$defs/", "#/definitions/"];

/// The schema name a `$ref` text points to when it names an entry of a [`NAMED_CONTAINERS`]
/// container (`#/components/schemas/Pet` → `Pet`), JSON-pointer escapes decoded.
pub fn name_in_reference(reference: &str) -> Option<String> {
    let segment = NAMED_CONTAINERS.iter().find_map(|c| reference.strip_prefix(c)).filter(|s| !s.contains('/'))?;
    Some(segment.replace("~1", "/").replace("~0", "~"))
}

/// `$ref` texts inside a JSON value (keywords kept verbatim in `extras["jsonschema"]`, such as
/// `not` or `x-expansionResources`, may refer to definitions too).
pub fn refs_in_value<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                match (key.as_str(), item) {
                    ("$ref", Value::String(reference)) => out.push(reference),
                    _ => refs_in_value(item, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs_in_value(item, out)),
        _ => {}
    }
}

fn collect(schema: &Schema, definitions: &IndexMap<String, Schema>, seen: &mut IndexMap<String, ()>) {
    let mut names: Vec<String> = schema.reference.iter().cloned().collect();
    if let Some(kept) = schema.extras.get("jsonschema") {
        let mut refs = Vec::new();
        refs_in_value(kept, &mut refs);
        names.extend(refs.into_iter().filter_map(name_in_reference));
    }
    for name in names {
        if !seen.contains_key(&name)
            && let Some(definition) = definitions.get(&name)
        {
            seen.insert(name, ());
            collect(definition, definitions, seen);
        }
    }
    for child in children(schema) {
        collect(child, definitions, seen);
    }
}

/// The first definition `schema` reaches that refers to itself (directly or through others),
/// when there is one: targets that forbid recursive schemas report it. To ask about many
/// schemas of one document, use one [`Recursion`]: each definition is then walked once.
pub fn recursive(schema: &Schema, definitions: &IndexMap<String, Schema>) -> Option<String> {
    Recursion::new(definitions).first_in(schema)
}

/// [`recursive`] for many schemas over the same definitions. A definition whose walk met no
/// recursion reaches none (every definition it reaches was walked too), so it is remembered
/// and never walked again: N tools sharing a chain of N definitions cost N walks, not N².
#[derive(Debug)]
pub struct Recursion<'d> {
    definitions: &'d IndexMap<String, Schema>,
    /// Definitions known to reach no recursion.
    done: HashSet<&'d str>,
    /// How many times a definition was walked (what the memory saves, for tests).
    walked: usize,
}

impl<'d> Recursion<'d> {
    pub fn new(definitions: &'d IndexMap<String, Schema>) -> Self {
        Recursion { definitions, done: HashSet::new(), walked: 0 }
    }

    /// How many definitions were walked so far, over every call.
    pub fn walked(&self) -> usize {
        self.walked
    }

    /// The first definition `schema` reaches that refers to itself ([`recursive`]).
    pub fn first_in(&mut self, schema: &Schema) -> Option<String> {
        // `active`: the definitions being walked (a set: a chain of definitions can be long).
        self.walk(schema, &mut HashSet::new())
    }

    fn walk(&mut self, schema: &Schema, active: &mut HashSet<&'d str>) -> Option<String> {
        if let Some(name) = &schema.reference {
            if active.contains(name.as_str()) {
                return Some(name.clone());
            }
            if !self.done.contains(name.as_str())
                && let Some((name, definition)) = self.definitions.get_key_value(name)
            {
                self.walked += 1;
                active.insert(name);
                let found = self.walk(definition, active);
                active.remove(name.as_str());
                if found.is_some() {
                    return found;
                }
                self.done.insert(name);
            }
        }
        children(schema).find_map(|c| self.walk(c, active))
    }
}

/// Whether `schema` or any schema inside it has a reference.
pub fn uses_references(schema: &Schema) -> bool {
    schema.reference.is_some() || children(schema).any(uses_references)
}

/// Fills what `base` (the fields beside a reference) leaves unset from `definition`: what
/// `base` says wins, properties are combined by name, extras by key ([`MergePolicy::Refine`]).
pub fn refine(base: &mut Schema, definition: Schema) {
    schema_merge::merge(base, definition, MergePolicy::Refine);
}

/// A name for a new definition that does not collide with `taken`: `name`, else `name_2`,
/// `name_3`, … (deterministic).
pub fn free_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(name) {
        return name.to_owned();
    }
    (2..).map(|n| format!("{name}_{n}")).find(|candidate| !taken(candidate)).expect("an unused suffix exists")
}

#[cfg(test)]
mod tests;
