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

use std::collections::{HashMap, HashSet};

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
        for (_, child) in children(schema) {
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
    inline_owned(schema.clone(), definitions, path, &mut HashMap::new())
}

/// [`inline`] of an owned schema, sharing `memo` (expansions of definitions) across calls.
fn inline_owned<'d>(
    schema: Schema,
    definitions: &'d IndexMap<String, Schema>,
    path: &str,
    memo: &mut HashMap<&'d str, Expansion<'d>>,
) -> (Schema, Vec<Diagnostic>) {
    let mut inliner = Inliner {
        definitions,
        active: Vec::new(),
        nodes: 0,
        cuts: 0,
        reached: Vec::new(),
        memo,
        reported: HashSet::new(),
        diagnostics: Vec::new(),
    };
    let schema = inliner.walk(schema, &At::Root(path));
    (schema, inliner.diagnostics)
}

/// A copy of `model` with every schema inlined ([`inline`]) and no definitions, for writers
/// that cannot hold references. Call `loss::uncarried` on the result.
pub fn resolve(model: &ToolSet) -> (ToolSet, Vec<Diagnostic>) {
    if model.definitions.is_empty() && !model_schemas(model).iter().any(|(_, s)| uses_references(s)) {
        return (model.clone(), Vec::new());
    }
    // Every field but the definitions, which the resolved model drops (listed in full so a new
    // field is not forgotten).
    let ToolSet {
        id,
        title,
        description,
        instructions,
        version,
        creator,
        icon,
        timestamps,
        servers,
        auth,
        runtime_defaults,
        value_sets,
        definitions,
        tools,
        examples,
        extras,
    } = model;
    let mut resolved = ToolSet {
        id: id.clone(),
        title: title.clone(),
        description: description.clone(),
        instructions: instructions.clone(),
        version: version.clone(),
        creator: creator.clone(),
        icon: icon.clone(),
        timestamps: timestamps.clone(),
        servers: servers.clone(),
        auth: auth.clone(),
        runtime_defaults: runtime_defaults.clone(),
        value_sets: value_sets.clone(),
        definitions: IndexMap::new(),
        tools: tools.clone(),
        examples: examples.clone(),
        extras: extras.clone(),
    };
    let mut memo = HashMap::new();
    let mut diagnostics = Vec::new();
    for (i, tool) in resolved.tools.iter_mut().enumerate() {
        for (j, parameter) in tool.parameters.iter_mut().enumerate() {
            let taken = std::mem::take(&mut parameter.schema);
            let path = format!("/tools/{i}/parameters/{j}/schema");
            let (schema, found) = inline_owned(taken, definitions, &path, &mut memo);
            parameter.schema = schema;
            diagnostics.extend(found);
        }
        if let Some(slot) = tool.output.as_mut().and_then(|o| o.schema.as_mut()) {
            let taken = std::mem::take(slot);
            let (schema, found) = inline_owned(taken, definitions, &format!("/tools/{i}/output/schema"), &mut memo);
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

/// A model path built only when a diagnostic needs it (most schema nodes never do).
enum At<'p> {
    Root(&'p str),
    Items(&'p At<'p>),
    Property(&'p At<'p>, usize),
    AdditionalProperties(&'p At<'p>),
    AnyOf(&'p At<'p>, usize),
}

impl At<'_> {
    fn path(&self) -> String {
        match self {
            At::Root(path) => (*path).to_owned(),
            At::Items(parent) => format!("{}/items", parent.path()),
            At::Property(parent, i) => format!("{}/properties/{i}/schema", parent.path()),
            At::AdditionalProperties(parent) => format!("{}/additional_properties", parent.path()),
            At::AnyOf(parent, i) => format!("{}/any_of/{i}", parent.path()),
        }
    }
}

/// A definition expanded without any cut or unknown name: the same wherever none of `reached`
/// is being expanded and the node budget leaves room for `nodes` more.
struct Expansion<'d> {
    schema: Schema,
    nodes: usize,
    reached: Vec<&'d str>,
}

struct Inliner<'d, 'm> {
    definitions: &'d IndexMap<String, Schema>,
    active: Vec<&'d str>,
    nodes: usize,
    /// Cuts and unknown names met so far (reported or not): an expansion that met none is
    /// independent of where it happened and can be reused.
    cuts: usize,
    /// Every definition expanded so far, in order (expansions reused included).
    reached: Vec<&'d str>,
    memo: &'m mut HashMap<&'d str, Expansion<'d>>,
    reported: HashSet<String>,
    diagnostics: Vec<Diagnostic>,
}

impl<'d> Inliner<'d, '_> {
    fn walk(&mut self, mut schema: Schema, at: &At) -> Schema {
        self.nodes += 1;
        if let Some(items) = &mut schema.items {
            let taken = std::mem::take(&mut **items);
            **items = self.walk(taken, &At::Items(at));
        }
        for (i, property) in schema.properties.iter_mut().enumerate() {
            let taken = std::mem::take(&mut property.schema);
            property.schema = self.walk(taken, &At::Property(at, i));
        }
        if let Some(AdditionalProperties::Schema(extra)) = &mut schema.additional_properties {
            let taken = std::mem::take(&mut **extra);
            **extra = self.walk(taken, &At::AdditionalProperties(at));
        }
        for (i, member) in schema.any_of.iter_mut().enumerate() {
            let taken = std::mem::take(member);
            *member = self.walk(taken, &At::AnyOf(at, i));
        }
        let Some(name) = schema.reference.take() else { return schema };
        let Some((name, definition)) = self.definitions.get_key_value(&name) else {
            self.cuts += 1;
            self.report(format!("unknown {name}"), || {
                Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    child(&at.path(), "reference"),
                    format!(
                        "the schema refers to `{name}`, which the tool set does not define; the reference was left out"
                    ),
                )
            });
            return schema;
        };
        let name = name.as_str();
        let recursive = self.active.contains(&name);
        if recursive || self.nodes >= INLINE_NODE_BUDGET {
            self.cuts += 1;
            let key = if recursive { format!("recursive {name}") } else { "budget".to_owned() };
            self.report(key, || {
                let why = if recursive {
                    format!("the definition `{name}` is recursive")
                } else {
                    format!("inlining stopped after {INLINE_NODE_BUDGET} schema nodes")
                };
                Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&at.path(), "reference"),
                    format!(
                        "{why}; the target cannot refer to schemas, so this occurrence of `{name}` was written as a loose schema (its description kept)"
                    ),
                )
            });
            let loose = Schema {
                kind: definition.kind.filter(|k| *k == SchemaType::Object),
                description: definition.description.clone(),
                ..Schema::default()
            };
            refine(&mut schema, loose);
            return schema;
        }
        let resolved = match self.memo.get(name) {
            // Every budget check inside the expansion happens within `nodes` more nodes.
            Some(known)
                if self.nodes + known.nodes < INLINE_NODE_BUDGET
                    && !known.reached.iter().any(|r| self.active.contains(r)) =>
            {
                self.nodes += known.nodes;
                self.reached.extend_from_slice(&known.reached);
                known.schema.clone()
            }
            _ => {
                let (nodes, cuts, reached) = (self.nodes, self.cuts, self.reached.len());
                self.active.push(name);
                self.reached.push(name);
                let resolved = self.walk(definition.clone(), at);
                self.active.pop();
                if self.cuts == cuts && !self.memo.contains_key(name) {
                    let expansion = Expansion {
                        schema: resolved.clone(),
                        nodes: self.nodes - nodes,
                        reached: self.reached[reached..].to_vec(),
                    };
                    self.memo.insert(name, expansion);
                }
                resolved
            }
        };
        refine(&mut schema, resolved);
        schema
    }

    /// Adds the diagnostic the first time `key` is met (built only then).
    fn report(&mut self, key: String, diagnostic: impl FnOnce() -> Diagnostic) {
        if self.reported.insert(key) {
            self.diagnostics.push(diagnostic());
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
    base.properties.reserve(properties.len());
    for property in properties {
        if !base.properties.iter().any(|p| p.name == property.name) {
            base.properties.push(property);
        }
    }
    fill(&mut base.additional_properties, additional_properties);
    if base.any_of.is_empty() {
        base.any_of = any_of;
    }
    if base.extras.is_empty() {
        // The usual case (a bare reference): every entry would be inserted as is, in order.
        base.extras = extras;
        return;
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
