//! Named schemas ([`ToolSet::definitions`]) and the references to them ([`Schema::reference`]).
//!
//! Writers whose target can hold references write the closure of the definitions a schema
//! uses ([`referenced`], [`used_by`]); writers whose target cannot call [`resolve`] (or
//! [`inline`] per schema) first and then report losses with `loss::uncarried` on the resolved
//! model, so only real losses (a recursive definition cut short) are reported.
//!
//! Inlining cuts recursion at the first repeat of a definition on the current path, and stops
//! expanding references after [`INLINE_NODE_BUDGET`] schema nodes (shared definitions can make
//! an inlined schema exponentially large); both cuts leave a loose schema (type object or any,
//! description kept) and one `loss/schema` diagnostic.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::Value;

use crate::source::child;
use crate::{AdditionalProperties, Diagnostic, Schema, SchemaType, ToolSet, codes};

/// Schema nodes one [`inline`] call produces before it stops expanding references.
pub const INLINE_NODE_BUDGET: usize = 500;

/// The direct children of a schema with their model paths relative to it.
fn children(schema: &Schema) -> Vec<(String, &Schema)> {
    let mut out = Vec::new();
    if let Some(items) = &schema.items {
        out.push(("items".to_owned(), &**items));
    }
    for (i, property) in schema.properties.iter().enumerate() {
        out.push((format!("properties/{i}/schema"), &property.schema));
    }
    if let Some(AdditionalProperties::Schema(extra)) = &schema.additional_properties {
        out.push(("additional_properties".to_owned(), &**extra));
    }
    for (i, member) in schema.any_of.iter().enumerate() {
        out.push((format!("any_of/{i}"), member));
    }
    out
}

fn children_mut(schema: &mut Schema) -> Vec<(String, &mut Schema)> {
    let mut out = Vec::new();
    if let Some(items) = &mut schema.items {
        out.push(("items".to_owned(), &mut **items));
    }
    for (i, property) in schema.properties.iter_mut().enumerate() {
        out.push((format!("properties/{i}/schema"), &mut property.schema));
    }
    if let Some(AdditionalProperties::Schema(extra)) = &mut schema.additional_properties {
        out.push(("additional_properties".to_owned(), &mut **extra));
    }
    for (i, member) in schema.any_of.iter_mut().enumerate() {
        out.push((format!("any_of/{i}"), member));
    }
    out
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
    for (_, child) in children(schema) {
        collect(child, definitions, seen);
    }
}

/// The first definition `schema` reaches that refers to itself (directly or through others),
/// when there is one: targets that forbid recursive schemas report it.
pub fn recursive(schema: &Schema, definitions: &IndexMap<String, Schema>) -> Option<String> {
    fn walk(
        schema: &Schema,
        definitions: &IndexMap<String, Schema>,
        active: &mut Vec<String>,
        done: &mut HashSet<String>,
    ) -> Option<String> {
        if let Some(name) = &schema.reference {
            if active.contains(name) {
                return Some(name.clone());
            }
            if !done.contains(name)
                && let Some(definition) = definitions.get(name)
            {
                active.push(name.clone());
                let found = walk(definition, definitions, active, done);
                active.pop();
                if found.is_some() {
                    return found;
                }
                done.insert(name.clone());
            }
        }
        children(schema).into_iter().find_map(|(_, c)| walk(c, definitions, active, done))
    }
    walk(schema, definitions, &mut Vec::new(), &mut HashSet::new())
}

/// `schema` with every reference replaced by its definition (fields set beside the reference
/// win). `path` is the schema's model path, for the diagnostics: one `loss/schema` per
/// recursive definition cut short, one when the node budget stopped the expansion, and one
/// `input/unresolved` per name `definitions` lacks (that reference is dropped, keeping the
/// fields beside it).
pub fn inline(schema: &Schema, definitions: &IndexMap<String, Schema>, path: &str) -> (Schema, Vec<Diagnostic>) {
    let mut inliner =
        Inliner { definitions, active: Vec::new(), nodes: 0, reported: HashSet::new(), diagnostics: Vec::new() };
    let schema = inliner.walk(schema.clone(), path);
    (schema, inliner.diagnostics)
}

/// A copy of `model` with every schema inlined ([`inline`]) and no definitions, for writers
/// that cannot hold references. Call `loss::uncarried` on the result.
pub fn resolve(model: &ToolSet) -> (ToolSet, Vec<Diagnostic>) {
    let mut resolved = model.clone();
    if model.definitions.is_empty() && !model_schemas(model).iter().any(|(_, s)| uses_references(s)) {
        return (resolved, Vec::new());
    }
    let definitions = std::mem::take(&mut resolved.definitions);
    let mut diagnostics = Vec::new();
    for (i, tool) in resolved.tools.iter_mut().enumerate() {
        for (j, parameter) in tool.parameters.iter_mut().enumerate() {
            let (schema, found) = inline(&parameter.schema, &definitions, &format!("/tools/{i}/parameters/{j}/schema"));
            parameter.schema = schema;
            diagnostics.extend(found);
        }
        if let Some(slot) = tool.output.as_mut().and_then(|o| o.schema.as_mut()) {
            let (schema, found) = inline(slot, &definitions, &format!("/tools/{i}/output/schema"));
            *slot = schema;
            diagnostics.extend(found);
        }
    }
    (resolved, diagnostics)
}

/// Whether `schema` or any schema inside it has a reference.
pub fn uses_references(schema: &Schema) -> bool {
    schema.reference.is_some() || children(schema).into_iter().any(|(_, c)| uses_references(c))
}

struct Inliner<'a> {
    definitions: &'a IndexMap<String, Schema>,
    active: Vec<String>,
    nodes: usize,
    reported: HashSet<String>,
    diagnostics: Vec<Diagnostic>,
}

impl Inliner<'_> {
    fn walk(&mut self, mut schema: Schema, path: &str) -> Schema {
        self.nodes += 1;
        for (key, slot) in children_mut(&mut schema) {
            let taken = std::mem::take(slot);
            *slot = self.walk(taken, &format!("{path}/{key}"));
        }
        let Some(name) = schema.reference.take() else { return schema };
        let Some(definition) = self.definitions.get(&name) else {
            self.report(
                &format!("unknown {name}"),
                Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    child(path, "reference"),
                    format!(
                        "the schema refers to `{name}`, which the tool set does not define; the reference was left out"
                    ),
                ),
            );
            return schema;
        };
        let recursive = self.active.contains(&name);
        if recursive || self.nodes >= INLINE_NODE_BUDGET {
            let (key, why) = if recursive {
                (format!("recursive {name}"), format!("the definition `{name}` is recursive"))
            } else {
                ("budget".to_owned(), format!("inlining stopped after {INLINE_NODE_BUDGET} schema nodes"))
            };
            self.report(
                &key,
                Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, "reference"),
                    format!(
                        "{why}; the target cannot refer to schemas, so this occurrence of `{name}` was written as a loose schema (its description kept)"
                    ),
                ),
            );
            let loose = Schema {
                kind: definition.kind.filter(|k| *k == SchemaType::Object),
                description: definition.description.clone(),
                ..Schema::default()
            };
            refine(&mut schema, loose);
            return schema;
        }
        self.active.push(name);
        let resolved = self.walk(definition.clone(), path);
        self.active.pop();
        refine(&mut schema, resolved);
        schema
    }

    fn report(&mut self, key: &str, diagnostic: Diagnostic) {
        if self.reported.insert(key.to_owned()) {
            self.diagnostics.push(diagnostic);
        }
    }
}

/// Fills what `base` (the fields beside a reference) leaves unset from `definition`: what
/// `base` says wins, properties are combined by name, extras by key.
pub fn refine(base: &mut Schema, definition: Schema) {
    fn fill<T>(slot: &mut Option<T>, value: Option<T>) {
        if slot.is_none() {
            *slot = value;
        }
    }
    let Schema {
        reference,
        kind,
        nullable,
        title,
        description,
        default,
        enumeration,
        value_set,
        examples,
        format,
        multiline,
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        min_length,
        max_length,
        pattern,
        min_items,
        max_items,
        unique_items,
        items,
        properties,
        additional_properties,
        any_of,
        extras,
    } = definition;
    fill(&mut base.reference, reference);
    fill(&mut base.kind, kind);
    base.nullable |= nullable;
    fill(&mut base.title, title);
    fill(&mut base.description, description);
    fill(&mut base.default, default);
    fill(&mut base.enumeration, enumeration);
    fill(&mut base.value_set, value_set);
    if base.examples.is_empty() {
        base.examples = examples;
    }
    fill(&mut base.format, format);
    base.multiline |= multiline;
    fill(&mut base.minimum, minimum);
    fill(&mut base.maximum, maximum);
    fill(&mut base.exclusive_minimum, exclusive_minimum);
    fill(&mut base.exclusive_maximum, exclusive_maximum);
    fill(&mut base.min_length, min_length);
    fill(&mut base.max_length, max_length);
    fill(&mut base.pattern, pattern);
    fill(&mut base.min_items, min_items);
    fill(&mut base.max_items, max_items);
    base.unique_items |= unique_items;
    fill(&mut base.items, items);
    for property in properties {
        if !base.properties.iter().any(|p| p.name == property.name) {
            base.properties.push(property);
        }
    }
    fill(&mut base.additional_properties, additional_properties);
    if base.any_of.is_empty() {
        base.any_of = any_of;
    }
    for (format_id, value) in extras {
        match (base.extras.get_mut(&format_id), value) {
            (Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (k, v) in theirs {
                    mine.entry(k).or_insert(v);
                }
            }
            (None, value) => {
                base.extras.insert(format_id, value);
            }
            _ => {}
        }
    }
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
mod tests {
    use super::*;
    use crate::{Parameter, Property, Tool};

    fn reference(name: &str) -> Schema {
        Schema { reference: Some(name.into()), ..Schema::default() }
    }

    fn object(properties: &[(&str, Schema)]) -> Schema {
        Schema {
            properties: properties
                .iter()
                .map(|(n, s)| Property { name: (*n).into(), required: false, schema: s.clone() })
                .collect(),
            ..Schema::of(SchemaType::Object)
        }
    }

    fn definitions() -> IndexMap<String, Schema> {
        let mut defs = IndexMap::new();
        defs.insert("Id".to_owned(), Schema { description: Some("an id".into()), ..Schema::of(SchemaType::String) });
        defs.insert("Pair".to_owned(), object(&[("a", reference("Id")), ("b", reference("Id"))]));
        defs.insert(
            "Node".to_owned(),
            Schema { description: Some("a tree".into()), ..object(&[("children", reference("Node"))]) },
        );
        defs.insert("Holder".to_owned(), object(&[("pair", reference("Pair")), ("missing", reference("Nope"))]));
        defs
    }

    /// Inlines `schema` against [`definitions`] and compares the result's JSON and the
    /// diagnostics (code, path), plus the reference closure.
    fn check(schema: Schema, expect_json: Value, expect_diagnostics: &[(&str, &str)], expect_closure: &[&str]) {
        let defs = definitions();
        assert_eq!(referenced(&schema, &defs), expect_closure, "closure");
        let (inlined, diagnostics) = inline(&schema, &defs, "/s");
        assert_eq!(serde_json::to_value(&inlined).unwrap(), expect_json);
        let got: Vec<(String, String)> = diagnostics.into_iter().map(|d| (d.code, d.path)).collect();
        let want: Vec<(String, String)> =
            expect_diagnostics.iter().map(|(c, p)| (c.to_string(), p.to_string())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn inlines_references_and_reports_cuts() {
        use serde_json::json;
        // A plain reference with a description beside it: the description wins.
        check(
            Schema { description: Some("user id".into()), ..reference("Id") },
            json!({"type": "string", "description": "user id"}),
            &[],
            &["Id"],
        );
        // Shared definitions are inlined at each use.
        check(
            reference("Pair"),
            json!({"type": "object", "properties": [
                {"name": "a", "schema": {"type": "string", "description": "an id"}},
                {"name": "b", "schema": {"type": "string", "description": "an id"}}]}),
            &[],
            &["Pair", "Id"],
        );
        // Recursion is cut at the first repeat with a loose object, reported once.
        check(
            reference("Node"),
            json!({"type": "object", "description": "a tree", "properties": [
                {"name": "children", "schema": {"type": "object", "description": "a tree"}}]}),
            &[("loss/schema", "/s/properties/0/schema/reference")],
            &["Node"],
        );
        // An unknown name is reported, never a panic.
        check(
            reference("Holder"),
            json!({"type": "object", "properties": [
                {"name": "pair", "schema": {"type": "object", "properties": [
                    {"name": "a", "schema": {"type": "string", "description": "an id"}},
                    {"name": "b", "schema": {"type": "string", "description": "an id"}}]}},
                {"name": "missing", "schema": {}}]}),
            &[("input/unresolved", "/s/properties/1/schema/reference")],
            &["Holder", "Pair", "Id"],
        );
    }

    #[test]
    fn finds_recursion_and_resolves_a_model() {
        let defs = definitions();
        assert_eq!(recursive(&reference("Node"), &defs).as_deref(), Some("Node"));
        assert_eq!(recursive(&reference("Holder"), &defs), None);
        let mut tool = Tool::new("t");
        tool.parameters.push(Parameter::new("p", reference("Pair")));
        let model = ToolSet { definitions: defs, tools: vec![tool], ..ToolSet::default() };
        assert_eq!(used_by(&model), ["Pair", "Id"]);
        let (resolved, diagnostics) = resolve(&model);
        assert!(diagnostics.is_empty());
        assert!(resolved.definitions.is_empty());
        assert!(!uses_references(&resolved.tools[0].parameters[0].schema));
        assert_eq!(free_name("Id", |n| model.definitions.contains_key(n)), "Id_2");
    }
}
