//! MCP output schemas. MCP's SDKs accept a tools/list result only when every `outputSchema` is
//! an object schema (`"type": "object"` at its root), since a tool's structured result
//! (`structuredContent`) is a JSON object. So a result schema that is a reference to an object
//! definition is written as that object, and any other result (an array, a string, a nullable
//! object, a union) is wrapped as `{"type": "object", "properties": {"result": <schema>},
//! "required": ["result"]}`, which is how a server has to return it anyway. Wrapping keeps
//! what the result is; leaving the schema out would lose it.
//!
//! How much of the schema is written is the `output_schema` option:
//! - `full`: the whole schema, with the `$defs` of every definition it reaches (Stripe's
//!   responses reach hundreds each: 270 MB for 417 tools);
//! - `shallow` (the default for a model read from another format): the result's own object
//!   and its properties, each use of a definition written as the definition itself when it
//!   is a small schema without references (an enum, a string format), else as a loose schema
//!   with its description (`{"type": "object", "description": …}`). A client validating
//!   `structuredContent` accepts every real result, and a model reading the tool list sees
//!   what the result holds at the top, for a few kilobytes per tool;
//! - `none`: no output schemas (a client then takes results as unstructured content).
//!
//! A model read from MCP is written `full` unless the option says otherwise, so a same-format
//! round trip gives its author's schemas back.

use indexmap::IndexMap;
use toolport_plugin::definitions::{
    Budget, cut_references, loose_within, refine, schema_nodes, schema_weight, uses_references,
};
use toolport_plugin::{AdditionalProperties, Diagnostic, Options, Property, Schema, SchemaType, ToolSet, codes};

/// The option key.
pub const OPTION: &str = "output_schema";

/// A definition of at most this many schema nodes and no references of its own is written in
/// place of a reference in a shallow output schema.
pub const SMALL_DEFINITION: usize = 4;

/// How much of each output schema is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Full,
    Shallow,
    None,
}

impl Mode {
    /// The mode `options` ask for; otherwise `full` for a model read from MCP, else `shallow`.
    /// An unknown value is reported and the default used.
    pub fn from_options(options: &Options, model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> Mode {
        let default = if model.extras.contains_key("mcp") { Mode::Full } else { Mode::Shallow };
        match options.get(OPTION) {
            None => default,
            Some("full") => Mode::Full,
            Some("shallow") => Mode::Shallow,
            Some("none") => Mode::None,
            Some(other) => {
                diagnostics.push(Diagnostic::warning(
                    codes::CHANGED_VALUE,
                    "",
                    format!("unknown `{OPTION}={other}` (use full, shallow or none); {} was used", default.as_str()),
                ));
                default
            }
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Shallow => "shallow",
            Mode::None => "none",
        }
    }
}

/// `schema` as an object schema: a reference (or a chain of them) to an object definition
/// resolved one level (what it says beside the reference wins); anything that is not a plain
/// object wrapped as `{result: schema}`. Whether it was wrapped.
pub fn object_root(schema: &Schema, definitions: &IndexMap<String, Schema>) -> (Schema, bool) {
    let mut root = schema.clone();
    // A chain of references is as long as the definitions at most.
    for _ in 0..=definitions.len() {
        let Some(definition) = root.reference.as_ref().and_then(|name| definitions.get(name)) else { break };
        root.reference = None;
        refine(&mut root, definition.clone());
    }
    let is_object = root.reference.is_none()
        && !root.nullable
        && (root.kind == Some(SchemaType::Object) || (root.kind.is_none() && is_plain_object(&root)));
    if is_object {
        root.kind = Some(SchemaType::Object);
        return (root, false);
    }
    let wrapped = Schema {
        properties: vec![Property { name: "result".into(), required: true, schema: schema.clone() }],
        additional_properties: None,
        ..Schema::of(SchemaType::Object)
    };
    (wrapped, true)
}

/// A schema without a type that says only object things (properties).
fn is_plain_object(schema: &Schema) -> bool {
    !schema.properties.is_empty() && schema.any_of.is_empty() && schema.items.is_none() && schema.enumeration.is_none()
}

/// `schema` with its references expanded level by level (breadth first: every reference of
/// one level before any of the next), after what the result is (its object, the members of a
/// union, an array's items: [`top`]) is resolved whole, while the schema stays within
/// [`SHALLOW_NODES`] schema nodes; past that each reference becomes a loose schema with its description. Small
/// definitions without references of their own (an enum, a formatted string;
/// [`SMALL_DEFINITION`]) are always expanded. `$ref`s kept in extras that name definitions
/// are left out. Every expansion is charged to `budget`, the document's, and is cut when it
/// does not fit. Whether any reference was cut loose.
pub fn shallow(
    mut schema: Schema,
    definitions: &IndexMap<String, Schema>,
    wrapped: bool,
    path: &str,
    budget: &Budget,
) -> (Schema, bool) {
    let whole = match schema.properties.first_mut() {
        Some(result) if wrapped => top(&mut result.schema, definitions, 2, budget),
        _ => top(&mut schema, definitions, 2, budget),
    };
    let mut level = Level { definitions, budget, nodes: schema_nodes(&schema), cut: !whole, found: false };
    loop {
        level.found = false;
        level.expand(&mut schema);
        if !level.found {
            break;
        }
    }
    let (cut, first) = cut_references(&schema, definitions, path, &|_| false, budget);
    (cut, level.cut || first.is_some())
}

/// A shallow output schema is expanded until it holds this many schema nodes.
pub const SHALLOW_NODES: usize = 30;

struct Level<'d> {
    definitions: &'d IndexMap<String, Schema>,
    budget: &'d Budget,
    /// Schema nodes so far.
    nodes: usize,
    cut: bool,
    /// Whether this level met a reference.
    found: bool,
}

/// Resolves what a result is, whatever its size (within `budget`): its reference (chain), and
/// `depth` levels of union members and array items. Whether the budget afforded all of it.
fn top(schema: &mut Schema, definitions: &IndexMap<String, Schema>, depth: usize, budget: &Budget) -> bool {
    for _ in 0..=definitions.len() {
        let Some(definition) = schema.reference.as_ref().and_then(|name| definitions.get(name)) else { break };
        if !budget.take(schema_weight(definition)) {
            return false;
        }
        schema.reference = None;
        refine(schema, definition.clone());
    }
    if depth == 0 {
        return true;
    }
    let mut whole = true;
    if let Some(items) = &mut schema.items {
        whole &= top(items, definitions, depth - 1, budget);
    }
    for member in &mut schema.any_of {
        whole &= top(member, definitions, depth - 1, budget);
    }
    whole
}

impl Level<'_> {
    /// Replaces the references present now (not those the definitions bring, which are the
    /// next level's).
    fn expand(&mut self, schema: &mut Schema) {
        if let Some(name) = schema.reference.take() {
            self.found = true;
            if let Some(definition) = self.definitions.get(&name) {
                let cost = schema_nodes(definition);
                let small = cost <= SMALL_DEFINITION && !uses_references(definition);
                if (small || self.nodes + cost <= SHALLOW_NODES) && self.budget.take(schema_weight(definition)) {
                    self.nodes += cost;
                    refine(schema, definition.clone());
                    // Its own references wait for the next level.
                    return;
                }
                refine(schema, loose_within(definition, self.budget));
                self.cut = true;
            }
        }
        if let Some(items) = &mut schema.items {
            self.expand(items);
        }
        for property in &mut schema.properties {
            self.expand(&mut property.schema);
        }
        if let Some(AdditionalProperties::Schema(extra)) = &mut schema.additional_properties {
            self.expand(extra);
        }
        for member in &mut schema.any_of {
            self.expand(member);
        }
    }
}
