//! Expanding references: [`inline`] one schema, [`resolve`] a whole model (or
//! [`resolve_carried`] only where a writer reads it), or [`cut_references`] a writer could not
//! afford, all within a [`Budget`] of bytes of schema.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::Value;

use super::{model_schemas, model_weight, name_in_reference, node_weight, refine, refs_in_value, uses_references};
use crate::limits::{EXPANSION_FACTOR, MIN_EXPANSION_BYTES};
use crate::loss::Carried;
use crate::model::SchemaAt;
use crate::source::child;
use crate::{AdditionalProperties, Diagnostic, Schema, SchemaType, ToolSet, codes};

/// Schema nodes one [`inline`] call produces before it stops expanding references.
pub const INLINE_NODE_BUDGET: usize = 500;

/// How deeply [`inline`] nests schemas (items, properties, members) before it stops expanding
/// references: a chain of definitions inlined 500 deep is written indented 500 levels, its
/// indentation growing with the square of the depth, and deeper than any reader (toolport's
/// own, `limits::MAX_NESTING`) reads back.
pub const INLINE_DEPTH: usize = 32;

/// The bytes of schema ([`schema_weight`](super::schema_weight)) a writer may still produce by
/// expanding references for one document (`limits::EXPANSION_FACTOR`). Shared by reference (the count is a [`Cell`]) so that every
/// schema writer of a document draws on the same budget.
#[derive(Debug)]
pub struct Budget {
    limit: usize,
    spent: Cell<usize>,
    /// What the descriptions kept on cut references took ([`loose_within`]): their own
    /// allowance, as large as the limit, so a cut keeps its description while it lasts.
    described: Cell<usize>,
    /// How many times a check found the budget too small (or spent), so that an expansion
    /// that met none can be charged again instead of made again ([`Budget::charged_since`]).
    refused: Cell<usize>,
}

/// What a [`Budget`] had charged and refused at one moment ([`Budget::spending`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spending {
    spent: usize,
    described: usize,
    refused: usize,
}

/// What an expansion charged a [`Budget`] without being refused anything
/// ([`Budget::charged_since`]): the same expansion made again decides as it did wherever the
/// budget still holds this much, so it can be charged again instead ([`Budget::charge_again`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    weight: usize,
    described: usize,
}

impl Budget {
    /// The budget of a document written from `model`: [`EXPANSION_FACTOR`] times the weight
    /// of the model's schemas ([`model_weight`]), at least [`MIN_EXPANSION_BYTES`].
    pub fn for_model(model: &ToolSet) -> Budget {
        Budget::with_limit(model_weight(model).saturating_mul(EXPANSION_FACTOR).max(MIN_EXPANSION_BYTES))
    }

    pub fn with_limit(limit: usize) -> Budget {
        Budget { limit, spent: Cell::new(0), described: Cell::new(0), refused: Cell::new(0) }
    }

    /// No limit: for expansions that are compared, never written.
    pub fn unlimited() -> Budget {
        Budget::with_limit(usize::MAX)
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Bytes charged so far (an expansion under way may overshoot the limit by the weight of one
    /// definition, not counting that behind its own references: see [`inline_within`]).
    pub fn spent(&self) -> usize {
        self.spent.get()
    }

    pub fn remaining(&self) -> usize {
        self.limit.saturating_sub(self.spent.get())
    }

    /// Whether nothing is left (a refusal, for [`Budget::charged_since`], when so).
    pub fn is_spent(&self) -> bool {
        let spent = self.remaining() == 0;
        self.refuse_if(spent);
        spent
    }

    /// Whether `weight` fits, charging nothing (a refusal when it does not).
    pub fn fits(&self, weight: usize) -> bool {
        let fits = weight <= self.remaining();
        self.refuse_if(!fits);
        fits
    }

    /// Charges `weight` when it fits, else nothing; says whether it did.
    pub fn take(&self, weight: usize) -> bool {
        let fits = self.fits(weight);
        if fits {
            self.charge(weight);
        }
        fits
    }

    /// Charges `bytes` of a cut reference's description to their own allowance when they fit;
    /// says whether they did.
    fn take_description(&self, bytes: usize) -> bool {
        let fits = bytes <= self.limit.saturating_sub(self.described.get());
        self.refuse_if(!fits);
        if fits {
            self.described.set(self.described.get() + bytes);
        }
        fits
    }

    fn refuse_if(&self, refused: bool) {
        if refused {
            self.refused.set(self.refused.get() + 1);
        }
    }

    /// What has been charged and refused so far.
    pub fn spending(&self) -> Spending {
        Spending { spent: self.spent.get(), described: self.described.get(), refused: self.refused.get() }
    }

    /// What was charged since `before`, unless something was refused meanwhile. (The budget
    /// only shrinks, so an expansion made again where its charge still fits would be refused
    /// no less; excluding refusals keeps that argument to checks that all passed.)
    pub fn charged_since(&self, before: Spending) -> Option<Charge> {
        (self.refused.get() == before.refused).then(|| Charge {
            weight: self.spent.get() - before.spent,
            described: self.described.get() - before.described,
        })
    }

    /// Charges `charge` again when all of it fits, else nothing; says whether it did. Every
    /// check of the expansion that charged it passed, so with this much left each would pass
    /// again: charging it is making that expansion again, as far as the budget can tell.
    pub fn charge_again(&self, charge: Charge) -> bool {
        let fits =
            charge.weight <= self.remaining() && charge.described <= self.limit.saturating_sub(self.described.get());
        if fits {
            self.charge(charge.weight);
            self.described.set(self.described.get() + charge.described);
        }
        fits
    }

    fn charge(&self, weight: usize) {
        self.spent.set(self.spent.get().saturating_add(weight));
    }

    /// Why a reference was cut, for messages.
    pub fn describe(&self) -> String {
        format!(
            "the document's expansion budget ({} bytes of schema: {EXPANSION_FACTOR} times the tool set's own, at least {MIN_EXPANSION_BYTES}) is spent",
            self.limit
        )
    }
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

/// [`inline`], charging every node it expands (by weight) to `budget`, the writer's for the whole document.
/// Once the budget is spent, each later reference is cut to a loose schema like a recursive
/// one, with one `loss/schema` diagnostic (for the first cut) per call. An expansion under way
/// finishes the definition it is in, so the budget can be overshot by at most the weight of one
/// definition (not counting that behind its own references).
pub fn inline_within(
    schema: &Schema,
    definitions: &IndexMap<String, Schema>,
    path: &str,
    budget: &Budget,
) -> (Schema, Vec<Diagnostic>) {
    inline_owned(schema.clone(), definitions, path, &mut HashMap::new(), budget, Reach::ALL)
}

/// [`inline_within`] of an owned schema, sharing `memo` (expansions of definitions) across calls.
fn inline_owned<'d>(
    schema: Schema,
    definitions: &'d IndexMap<String, Schema>,
    path: &str,
    memo: &mut HashMap<&'d str, Expansion<'d>>,
    budget: &Budget,
    reach: Reach,
) -> (Schema, Vec<Diagnostic>) {
    let mut inliner = Inliner {
        definitions,
        budget,
        reach,
        active: HashSet::new(),
        nodes: 0,
        weight: 0,
        cuts: 0,
        reached: Vec::new(),
        memo,
        reported: HashSet::new(),
        diagnostics: Vec::new(),
    };
    let schema = inliner.walk(schema, &SchemaAt::Root(path));
    (schema, inliner.diagnostics)
}

/// A copy of `model` with every schema inlined ([`inline_within`] the document's
/// [`Budget::for_model`]) and no definitions, for writers that cannot hold references. Call
/// `loss::uncarried` on the result.
pub fn resolve(model: &ToolSet) -> (ToolSet, Vec<Diagnostic>) {
    let (resolved, cuts) = resolve_reaching(model, Reach::ALL);
    (resolved.into_owned(), cuts)
}

/// [`resolve`] only where a writer that declares `carried` reads schemas: a reference is
/// replaced at the root of each parameter schema (and output schema, when `carried.tool` lists
/// `output`) and, from there, inside the children `carried.schema` lists (`items`,
/// `properties`, `additional_properties`, `any_of`). A child it does not list is left as it is,
/// references and all: `loss::uncarried` reports it lost at the level above and never looks
/// inside, so neither the expansion nor a cut inside it would reach the output.
/// A model without definitions or references is its own resolution, borrowed (a batch of small
/// files copied each model for nothing).
pub fn resolve_carried<'a>(model: &'a ToolSet, carried: &Carried) -> (Cow<'a, ToolSet>, Vec<Diagnostic>) {
    resolve_reaching(model, Reach::carried(carried))
}

fn resolve_reaching(model: &ToolSet, reach: Reach) -> (Cow<'_, ToolSet>, Vec<Diagnostic>) {
    if model.definitions.is_empty() && !model_schemas(model).iter().any(|(_, s)| uses_references(s)) {
        return (Cow::Borrowed(model), Vec::new());
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
            let (schema, found) = inline_owned(taken, definitions, &path, &mut memo, &budget, reach);
            parameter.schema = schema;
            diagnostics.extend(found);
        }
        if let Some(slot) = tool.output.as_mut().and_then(|o| o.schema.as_mut()).filter(|_| reach.outputs) {
            let taken = std::mem::take(slot);
            let path = format!("/tools/{i}/output/schema");
            let (schema, found) = inline_owned(taken, definitions, &path, &mut memo, &budget, reach);
            *slot = schema;
            diagnostics.extend(found);
        }
    }
    (Cow::Owned(resolved), diagnostics)
}

/// Where the [`Inliner`] replaces references: the children of a schema it descends into, and
/// whether [`resolve_reaching`] inlines output schemas at all.
#[derive(Clone, Copy, Debug)]
struct Reach {
    items: bool,
    properties: bool,
    additional_properties: bool,
    any_of: bool,
    outputs: bool,
}

impl Reach {
    const ALL: Reach =
        Reach { items: true, properties: true, additional_properties: true, any_of: true, outputs: true };

    /// What a writer declaring `carried` reads (the children `loss::uncarried` looks inside).
    fn carried(carried: &Carried) -> Reach {
        let schema = |field| carried.schema.contains(&field);
        Reach {
            items: schema("items"),
            properties: schema("properties"),
            additional_properties: schema("additional_properties"),
            any_of: schema("any_of"),
            outputs: carried.tool.contains(&"output"),
        }
    }
}

/// A definition expanded without any cut or unknown name: the same wherever none of `reached`
/// is being expanded and the budgets leave room for `nodes` more nodes, `weight` more bytes.
struct Expansion<'d> {
    schema: Schema,
    nodes: usize,
    weight: usize,
    reached: Vec<&'d str>,
}

struct Inliner<'d, 'm> {
    definitions: &'d IndexMap<String, Schema>,
    /// The document's: charged for every node expanded from a definition.
    budget: &'m Budget,
    /// The children walked (a reference elsewhere is left as it is).
    reach: Reach,
    /// The definitions being expanded (the current path's).
    active: HashSet<&'d str>,
    nodes: usize,
    /// The weight charged to the budget by this call.
    weight: usize,
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
    fn walk(&mut self, mut schema: Schema, at: &SchemaAt) -> Schema {
        self.nodes += 1;
        if !self.active.is_empty() {
            let weight = node_weight(&schema);
            self.weight += weight;
            self.budget.charge(weight);
        }
        let reach = self.reach;
        if let Some(items) = schema.items.as_mut().filter(|_| reach.items) {
            let taken = std::mem::take(&mut **items);
            **items = self.walk(taken, &SchemaAt::Items(at));
        }
        if reach.properties {
            for (i, property) in schema.properties.iter_mut().enumerate() {
                let taken = std::mem::take(&mut property.schema);
                property.schema = self.walk(taken, &SchemaAt::Property(at, i));
            }
        }
        if let Some(AdditionalProperties::Schema(extra)) =
            schema.additional_properties.as_mut().filter(|_| reach.additional_properties)
        {
            let taken = std::mem::take(&mut **extra);
            **extra = self.walk(taken, &SchemaAt::AdditionalProperties(at));
        }
        if reach.any_of {
            for (i, member) in schema.any_of.iter_mut().enumerate() {
                let taken = std::mem::take(member);
                *member = self.walk(taken, &SchemaAt::AnyOf(at, i));
            }
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
        let deep = at.depth() >= INLINE_DEPTH;
        if recursive || self.nodes >= INLINE_NODE_BUDGET || deep || spent {
            self.cuts += 1;
            let key = if recursive {
                format!("recursive {name}")
            } else if self.nodes >= INLINE_NODE_BUDGET {
                "budget".to_owned()
            } else if deep {
                "depth".to_owned()
            } else {
                "document budget".to_owned()
            };
            let budget = self.budget;
            self.report(key, || {
                let why = if recursive {
                    format!("the definition `{name}` is recursive")
                } else if deep && !spent {
                    format!("inlining stopped at {INLINE_DEPTH} levels of nesting")
                } else if !spent {
                    format!("inlining stopped after {INLINE_NODE_BUDGET} schema nodes")
                } else {
                    let why = budget.describe();
                    return Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&at.path(), "reference"),
                        format!(
                            "{why}; the target cannot refer to schemas, so this occurrence of `{name}`, and every later reference in this schema, was written as a loose schema (its description kept while the budget allows)"
                        ),
                    );
                };
                Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&at.path(), "reference"),
                    format!(
                        "{why}; the target cannot refer to schemas, so this occurrence of `{name}` was written as a loose schema (its description kept while the budget allows)"
                    ),
                )
            });
            refine(&mut schema, loose_within(definition, self.budget));
            return schema;
        }
        let resolved = match self.memo.get(name) {
            // Every budget check inside the expansion happens within `nodes` more nodes.
            Some(known)
                if self.nodes + known.nodes < INLINE_NODE_BUDGET
                    && self.budget.fits(known.weight)
                    && !known.reached.iter().any(|r| self.active.contains(r)) =>
            {
                self.nodes += known.nodes;
                self.weight += known.weight;
                self.budget.charge(known.weight);
                self.reached.extend_from_slice(&known.reached);
                known.schema.clone()
            }
            _ => {
                let (nodes, weight, cuts, reached) = (self.nodes, self.weight, self.cuts, self.reached.len());
                self.active.insert(name);
                self.reached.push(name);
                let resolved = self.walk(definition.clone(), at);
                self.active.remove(name);
                if self.cuts == cuts && !self.memo.contains_key(name) {
                    let expansion = Expansion {
                        schema: resolved.clone(),
                        nodes: self.nodes - nodes,
                        weight: self.weight - weight,
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
/// they are. The descriptions loose schemas keep are charged to `budget` ([`loose_within`]).
pub fn cut_references(
    schema: &Schema,
    definitions: &IndexMap<String, Schema>,
    path: &str,
    keep: &dyn Fn(&str) -> bool,
    budget: &Budget,
) -> (Schema, Option<String>) {
    cut_references_in(schema.clone(), definitions, path, keep, budget)
}

/// [`cut_references`] of a schema the caller gives up: cut where it is, not copied first.
pub fn cut_references_in(
    mut schema: Schema,
    definitions: &IndexMap<String, Schema>,
    path: &str,
    keep: &dyn Fn(&str) -> bool,
    budget: &Budget,
) -> (Schema, Option<String>) {
    struct Cutter<'k> {
        definitions: &'k IndexMap<String, Schema>,
        keep: &'k dyn Fn(&str) -> bool,
        budget: &'k Budget,
        first: Option<String>,
    }
    impl Cutter<'_> {
        fn cut(&self, name: &str) -> bool {
            self.definitions.contains_key(name) && !(self.keep)(name)
        }

        fn walk(&mut self, schema: &mut Schema, at: &SchemaAt) {
            if let Some(name) = schema.reference.take_if(|name| self.cut(name)) {
                refine(schema, loose_within(&self.definitions[&name], self.budget));
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
                self.walk(items, &SchemaAt::Items(at));
            }
            for (i, property) in schema.properties.iter_mut().enumerate() {
                self.walk(&mut property.schema, &SchemaAt::Property(at, i));
            }
            if let Some(AdditionalProperties::Schema(extra)) = &mut schema.additional_properties {
                self.walk(extra, &SchemaAt::AdditionalProperties(at));
            }
            for (i, member) in schema.any_of.iter_mut().enumerate() {
                self.walk(member, &SchemaAt::AnyOf(at, i));
            }
        }
    }
    let mut cutter = Cutter { definitions, keep, budget, first: None };
    cutter.walk(&mut schema, &SchemaAt::Root(path));
    (schema, cutter.first)
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

/// [`loose`], keeping the description only while `budget`'s allowance for them lasts: a cut
/// reference copies its definition's description at every use, and a long one used by
/// thousands of tools would otherwise escape the budget that cut it.
pub fn loose_within(definition: &Schema, budget: &Budget) -> Schema {
    let mut schema = loose(definition);
    if schema.description.as_ref().is_some_and(|d| !budget.take_description(d.len())) {
        schema.description = None;
    }
    schema
}
