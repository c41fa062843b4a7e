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
//!
//! Every expansion a writer makes for one document (inlined definitions, closures copied into
//! each tool's `$defs`) is also charged to one [`Budget`] (`limits::EXPANSION_FACTOR` nodes per
//! node of the model): once it is spent, references are cut the same way ([`cut_references`]
//! for writers that copy closures), so no output can grow beyond a fixed multiple of its input.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::Value;

use crate::limits::{EXPANSION_FACTOR, MIN_EXPANSION_NODES};
use crate::schema_merge::{self, MergePolicy};
use crate::source::child;
use crate::{AdditionalProperties, Diagnostic, Schema, SchemaType, ToolSet, codes};

/// Schema nodes one [`inline`] call produces before it stops expanding references.
pub const INLINE_NODE_BUDGET: usize = 500;

/// The schema nodes a writer may still produce by expanding references for one document
/// (`limits::EXPANSION_FACTOR`). Shared by reference (the count is a [`Cell`]) so that every
/// schema writer of a document draws on the same budget.
#[derive(Debug)]
pub struct Budget {
    limit: usize,
    spent: Cell<usize>,
}

impl Budget {
    /// The budget of a document written from `model`: [`EXPANSION_FACTOR`] nodes per schema
    /// node of the model ([`model_nodes`]), at least [`MIN_EXPANSION_NODES`].
    pub fn for_model(model: &ToolSet) -> Budget {
        Budget::with_limit(model_nodes(model).saturating_mul(EXPANSION_FACTOR).max(MIN_EXPANSION_NODES))
    }

    pub fn with_limit(limit: usize) -> Budget {
        Budget { limit, spent: Cell::new(0) }
    }

    /// No limit: for expansions that are compared, never written.
    pub fn unlimited() -> Budget {
        Budget::with_limit(usize::MAX)
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Nodes charged so far (an expansion under way may overshoot the limit by the nodes of one
    /// definition, not counting those behind its own references: see [`inline_within`]).
    pub fn spent(&self) -> usize {
        self.spent.get()
    }

    pub fn remaining(&self) -> usize {
        self.limit.saturating_sub(self.spent.get())
    }

    pub fn is_spent(&self) -> bool {
        self.remaining() == 0
    }

    /// Charges `nodes` when they fit, else nothing; says whether they did.
    pub fn take(&self, nodes: usize) -> bool {
        let fits = nodes <= self.remaining();
        if fits {
            self.charge(nodes);
        }
        fits
    }

    fn charge(&self, nodes: usize) {
        self.spent.set(self.spent.get().saturating_add(nodes));
    }

    /// Why a reference was cut, for messages.
    pub fn describe(&self) -> String {
        format!(
            "the document's expansion budget ({} schema nodes: {EXPANSION_FACTOR} per schema node of the tool set, at least {MIN_EXPANSION_NODES}) is spent",
            self.limit
        )
    }
}

/// The schema nodes of `schema`: itself and every schema inside it (references not followed).
pub fn schema_nodes(schema: &Schema) -> usize {
    1 + children(schema).map(schema_nodes).sum::<usize>()
}

/// The schema nodes of a model: its tools' parameter and output schemas and its definitions.
pub fn model_nodes(model: &ToolSet) -> usize {
    let tools: usize = model
        .tools
        .iter()
        .flat_map(|tool| tool.parameters.iter().map(|p| &p.schema).chain(tool.output.iter().flat_map(|o| &o.schema)))
        .map(schema_nodes)
        .sum();
    tools + model.definitions.values().map(schema_nodes).sum::<usize>()
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
/// when there is one: targets that forbid recursive schemas report it.
pub fn recursive(schema: &Schema, definitions: &IndexMap<String, Schema>) -> Option<String> {
    // `active`: the definitions being walked (a set: a chain of definitions can be long).
    fn walk<'d>(
        schema: &'d Schema,
        definitions: &'d IndexMap<String, Schema>,
        active: &mut HashSet<&'d str>,
        done: &mut HashSet<&'d str>,
    ) -> Option<String> {
        if let Some(name) = &schema.reference {
            if active.contains(name.as_str()) {
                return Some(name.clone());
            }
            if !done.contains(name.as_str())
                && let Some((name, definition)) = definitions.get_key_value(name)
            {
                active.insert(name);
                let found = walk(definition, definitions, active, done);
                active.remove(name.as_str());
                if found.is_some() {
                    return found;
                }
                done.insert(name);
            }
        }
        children(schema).find_map(|c| walk(c, definitions, active, done))
    }
    walk(schema, definitions, &mut HashSet::new(), &mut HashSet::new())
}

/// `schema` with every reference replaced by its definition (fields set beside the reference
/// win). `path` is the schema's model path, for the diagnostics: one `loss/schema` per
/// recursive definition cut short, one when the node budget stopped the expansion, and one
/// `input/unresolved` per name `definitions` lacks (that reference is dropped, keeping the
/// fields beside it).
///
/// Nothing is charged to a document's budget: this is for expansions that are compared, not
/// written; a writer calls [`inline_within`].
pub fn inline(schema: &Schema, definitions: &IndexMap<String, Schema>, path: &str) -> (Schema, Vec<Diagnostic>) {
    inline_within(schema, definitions, path, &Budget::unlimited())
}

/// [`inline`], charging every node it expands to `budget`, the writer's for the whole document.
/// Once the budget is spent, each later reference is cut to a loose schema like a recursive
/// one, with one `loss/schema` diagnostic (for the first cut) per call. An expansion under way
/// finishes the definition it is in, so the budget can be overshot by at most the nodes of one
/// definition (not counting those behind its own references).
pub fn inline_within(
    schema: &Schema,
    definitions: &IndexMap<String, Schema>,
    path: &str,
    budget: &Budget,
) -> (Schema, Vec<Diagnostic>) {
    inline_owned(schema.clone(), definitions, path, &mut HashMap::new(), budget)
}

/// [`inline_within`] of an owned schema, sharing `memo` (expansions of definitions) across calls.
fn inline_owned<'d>(
    schema: Schema,
    definitions: &'d IndexMap<String, Schema>,
    path: &str,
    memo: &mut HashMap<&'d str, Expansion<'d>>,
    budget: &Budget,
) -> (Schema, Vec<Diagnostic>) {
    let mut inliner = Inliner {
        definitions,
        budget,
        active: HashSet::new(),
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

/// A copy of `model` with every schema inlined ([`inline_within`] the document's
/// [`Budget::for_model`]) and no definitions, for writers that cannot hold references. Call
/// `loss::uncarried` on the result.
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
    let budget = Budget::for_model(model);
    let mut memo = HashMap::new();
    let mut diagnostics = Vec::new();
    for (i, tool) in resolved.tools.iter_mut().enumerate() {
        for (j, parameter) in tool.parameters.iter_mut().enumerate() {
            let taken = std::mem::take(&mut parameter.schema);
            let path = format!("/tools/{i}/parameters/{j}/schema");
            let (schema, found) = inline_owned(taken, definitions, &path, &mut memo, &budget);
            parameter.schema = schema;
            diagnostics.extend(found);
        }
        if let Some(slot) = tool.output.as_mut().and_then(|o| o.schema.as_mut()) {
            let taken = std::mem::take(slot);
            let path = format!("/tools/{i}/output/schema");
            let (schema, found) = inline_owned(taken, definitions, &path, &mut memo, &budget);
            *slot = schema;
            diagnostics.extend(found);
        }
    }
    (resolved, diagnostics)
}

/// Whether `schema` or any schema inside it has a reference.
pub fn uses_references(schema: &Schema) -> bool {
    schema.reference.is_some() || children(schema).any(uses_references)
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
    /// The document's: charged for every node expanded from a definition.
    budget: &'m Budget,
    /// The definitions being expanded (the current path's).
    active: HashSet<&'d str>,
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
        if !self.active.is_empty() {
            self.budget.charge(1);
        }
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
        let recursive = self.active.contains(name);
        let spent = self.budget.is_spent();
        if recursive || self.nodes >= INLINE_NODE_BUDGET || spent {
            self.cuts += 1;
            let key = if recursive {
                format!("recursive {name}")
            } else if self.nodes >= INLINE_NODE_BUDGET {
                "budget".to_owned()
            } else {
                "document budget".to_owned()
            };
            let budget = self.budget;
            self.report(key, || {
                let why = if recursive {
                    format!("the definition `{name}` is recursive")
                } else if !spent {
                    format!("inlining stopped after {INLINE_NODE_BUDGET} schema nodes")
                } else {
                    let why = budget.describe();
                    return Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&at.path(), "reference"),
                        format!(
                            "{why}; the target cannot refer to schemas, so this occurrence of `{name}`, and every later reference in this schema, was written as a loose schema (its description kept)"
                        ),
                    );
                };
                Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&at.path(), "reference"),
                    format!(
                        "{why}; the target cannot refer to schemas, so this occurrence of `{name}` was written as a loose schema (its description kept)"
                    ),
                )
            });
            refine(&mut schema, loose(definition));
            return schema;
        }
        let resolved = match self.memo.get(name) {
            // Every budget check inside the expansion happens within `nodes` more nodes.
            Some(known)
                if self.nodes + known.nodes < INLINE_NODE_BUDGET
                    && known.nodes <= self.budget.remaining()
                    && !known.reached.iter().any(|r| self.active.contains(r)) =>
            {
                self.nodes += known.nodes;
                self.budget.charge(known.nodes);
                self.reached.extend_from_slice(&known.reached);
                known.schema.clone()
            }
            _ => {
                let (nodes, cuts, reached) = (self.nodes, self.cuts, self.reached.len());
                self.active.insert(name);
                self.reached.push(name);
                let resolved = self.walk(definition.clone(), at);
                self.active.remove(name);
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

/// `schema` (at model path `path`) with every reference to a definition that `keep` refuses cut
/// to a loose schema ([`loose`], the fields beside the reference kept), and every keyword kept
/// in `extras["jsonschema"]` that refers to one left out: for writers that copy a closure of
/// definitions and could not afford all of it, so no written `$ref` dangles. Also returns the
/// model path of the first cut, when there was one. Names `definitions` lacks are left as
/// they are.
pub fn cut_references(
    schema: &Schema,
    definitions: &IndexMap<String, Schema>,
    path: &str,
    keep: &dyn Fn(&str) -> bool,
) -> (Schema, Option<String>) {
    struct Cutter<'k> {
        definitions: &'k IndexMap<String, Schema>,
        keep: &'k dyn Fn(&str) -> bool,
        first: Option<String>,
    }
    impl Cutter<'_> {
        fn cut(&self, name: &str) -> bool {
            self.definitions.contains_key(name) && !(self.keep)(name)
        }

        fn walk(&mut self, schema: &mut Schema, at: &At) {
            if let Some(name) = schema.reference.take_if(|name| self.cut(name)) {
                refine(schema, loose(&self.definitions[&name]));
                self.first.get_or_insert_with(|| child(&at.path(), "reference"));
            }
            if let Some(Value::Object(kept)) = schema.extras.get_mut("jsonschema") {
                let before = kept.len();
                kept.retain(|_, value| {
                    let mut refs = Vec::new();
                    refs_in_value(value, &mut refs);
                    !refs.into_iter().filter_map(name_in_reference).any(|name| self.cut(&name))
                });
                if kept.len() < before {
                    self.first.get_or_insert_with(|| child(&child(&at.path(), "extras"), "jsonschema"));
                }
            }
            if let Some(items) = &mut schema.items {
                self.walk(items, &At::Items(at));
            }
            for (i, property) in schema.properties.iter_mut().enumerate() {
                self.walk(&mut property.schema, &At::Property(at, i));
            }
            if let Some(AdditionalProperties::Schema(extra)) = &mut schema.additional_properties {
                self.walk(extra, &At::AdditionalProperties(at));
            }
            for (i, member) in schema.any_of.iter_mut().enumerate() {
                self.walk(member, &At::AnyOf(at, i));
            }
        }
    }
    let mut cutter = Cutter { definitions, keep, first: None };
    let mut copy = schema.clone();
    cutter.walk(&mut copy, &At::Root(path));
    (copy, cutter.first)
}

/// What a cut reference to `definition` becomes: any value, or any object when the definition
/// is an object, with the definition's description.
pub fn loose(definition: &Schema) -> Schema {
    Schema {
        kind: definition.kind.filter(|k| *k == SchemaType::Object),
        description: definition.description.clone(),
        ..Schema::default()
    }
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

    /// Inlines `schema` within a document budget of `limit` nodes: the result's JSON, the
    /// diagnostics (code, path) and the nodes charged.
    fn check_budget(
        schema: Schema,
        limit: usize,
        expect_json: Value,
        expect_diagnostics: &[(&str, &str)],
        spent: usize,
    ) {
        let budget = Budget::with_limit(limit);
        let (inlined, diagnostics) = inline_within(&schema, &definitions(), "/s", &budget);
        assert_eq!(serde_json::to_value(&inlined).unwrap(), expect_json);
        let got: Vec<(String, String)> = diagnostics.into_iter().map(|d| (d.code, d.path)).collect();
        let want: Vec<(String, String)> =
            expect_diagnostics.iter().map(|(c, p)| (c.to_string(), p.to_string())).collect();
        assert_eq!(got, want);
        assert_eq!(budget.spent(), spent, "nodes charged");
    }

    #[test]
    fn the_document_budget_cuts_expansions_once_spent() {
        use serde_json::json;
        let id = json!({"type": "string", "description": "an id"});
        let pair = json!({"type": "object", "properties": [
            {"name": "a", "schema": id}, {"name": "b", "schema": id}]});
        // Room enough: Pair's three nodes and two Ids.
        check_budget(reference("Pair"), 10, pair, &[], 5);
        // Spent after Pair and its first Id: the second Id is cut, reported once with its place.
        check_budget(
            reference("Pair"),
            3,
            json!({"type": "object", "properties": [
                {"name": "a", "schema": id}, {"name": "b", "schema": {"description": "an id"}}]}),
            &[("loss/schema", "/s/properties/1/schema/reference")],
            4,
        );
        // Nothing to spend: the reference itself is cut; the schema's own nodes cost nothing.
        check_budget(
            object(&[("x", reference("Pair")), ("y", reference("Id"))]),
            0,
            json!({"type": "object", "properties": [
                {"name": "x", "schema": {"type": "object"}}, {"name": "y", "schema": {"description": "an id"}}]}),
            &[("loss/schema", "/s/properties/0/schema/reference")],
            0,
        );
    }

    #[test]
    fn cut_references_leave_loose_schemas_and_no_reference_to_the_cut() {
        use serde_json::json;
        let defs = definitions();
        let mut kept = serde_json::Map::new();
        kept.insert("not".into(), json!({"$ref": "#/$defs/Pair"}));
        kept.insert("x-id".into(), json!({"$ref": "#/$defs/Id"}));
        let mut schema = object(&[("pair", reference("Pair")), ("id", reference("Id")), ("gone", reference("Nope"))]);
        schema.extras.insert("jsonschema".into(), Value::Object(kept));
        let (cut, first) = cut_references(&schema, &defs, "/s", &|name| name != "Pair");
        assert_eq!(first.as_deref(), Some("/s/extras/jsonschema"));
        assert_eq!(
            serde_json::to_value(&cut).unwrap(),
            json!({"type": "object", "properties": [
                {"name": "pair", "schema": {"type": "object"}},
                {"name": "id", "schema": {"reference": "Id"}},
                {"name": "gone", "schema": {"reference": "Nope"}}],
                "extras": {"jsonschema": {"x-id": {"$ref": "#/$defs/Id"}}}})
        );
        let (_, first) = cut_references(&reference("Holder"), &defs, "/s", &|name| name != "Holder");
        assert_eq!(first.as_deref(), Some("/s/reference"));
        assert_eq!(referenced(&cut, &defs), ["Id"], "nothing left refers to the cut definition");
    }

    #[test]
    fn refine_keeps_the_first_property_of_a_name() {
        let mut base = object(&[("a", Schema::of(SchemaType::String))]);
        refine(&mut base, object(&[("b", Schema::default()), ("a", Schema::default()), ("b", Schema::default())]));
        let names: Vec<&str> = base.properties.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(base.properties[0].schema.kind, Some(SchemaType::String));
        assert_eq!(schema_nodes(&base), 3);
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
