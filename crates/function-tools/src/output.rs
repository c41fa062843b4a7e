//! How much of a tool's output (result) schema a writer writes: the `output_schema` option,
//! one choice for every target that describes results (MCP's `outputSchema`, Gemini's
//! `response`, OpenAPI's and Vertex's response schemas):
//! - `full`: the whole schema, with every definition it reaches (Stripe's responses reach
//!   hundreds each: inlined for Gemini, 76 MB for 417 tools);
//! - `shallow`: the result's own object and its properties, each use of a definition written as
//!   the definition itself when it is a small schema without references (an enum, a string
//!   format), else as a loose schema with its description (`{"type": "object", "description":
//!   …}`). A model sees what the result holds at the top, for a few kilobytes per tool;
//! - `none`: no output schemas.
//!
//! Each writer chooses its default ([`Mode::from_options`]); what was shortened or left out is
//! said once per document ([`Shortened::report`]).

use std::borrow::Cow;
use std::collections::HashMap;

use indexmap::IndexMap;
use toolport_core::definitions::{
    Budget, Charge, cut_references_in, loose_within, refine, schema_nodes, schema_weight, uses_references,
};
use toolport_core::{AdditionalProperties, Diagnostic, OptionSpec, Options, Schema, ToolSet, codes};

use crate::write::Written;

/// The option key.
pub const OPTION: &str = "output_schema";

/// A definition of at most this many schema nodes and no references of its own is written in
/// place of a reference in a shallow output schema.
pub const SMALL_DEFINITION: usize = 4;

/// A shallow output schema is expanded until it holds this many schema nodes.
pub const SHALLOW_NODES: usize = 30;

/// How much of each output schema is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Full,
    Shallow,
    None,
}

impl Mode {
    /// `full` for a model read from the format `own` (a same-format round trip gives its
    /// author's schemas back), else `shallow`.
    pub fn by_source(model: &ToolSet, own: &str) -> Mode {
        if model.extras.contains_key(own) { Mode::Full } else { Mode::Shallow }
    }

    /// The mode `options` ask for, else `default`. An unknown value is reported and the
    /// default used.
    pub fn from_options(options: &Options, default: Mode, diagnostics: &mut Vec<Diagnostic>) -> Mode {
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

/// The option as a format declares it; `default` says what its writer uses when it is not
/// given, `field` names what it governs (`each tool's \`outputSchema\``).
pub fn option_spec(default: &str, field: &str) -> OptionSpec {
    OptionSpec::one_of(
        OPTION,
        &["full", "shallow", "none"],
        default,
        &format!(
            "{field}: full (with every definition it reaches), shallow (the result's own object, definitions loosened), none (left out)"
        ),
    )
}

/// What one document's writer did to its output schemas, said once for all of them.
#[derive(Debug)]
pub struct Shortened {
    pub mode: Mode,
    /// Tools whose output schema was left out (`none`).
    pub left_out: usize,
    /// Names of the tools whose output schema lost definitions to `shallow`.
    pub shallowed: Vec<String>,
}

/// How many tool names a summary diagnostic lists.
const NAMES_SHOWN: usize = 5;

impl Shortened {
    pub fn new(mode: Mode) -> Self {
        Self { mode, left_out: 0, shallowed: Vec::new() }
    }

    /// `schema`, the output schema of the tool written as `tool`, as the mode asks: `None` when
    /// it is left out; shallow expansion as [`shallow`] (`wrapped` and `budget` are its).
    pub fn apply(
        &mut self,
        tool: &str,
        schema: Schema,
        definitions: &IndexMap<String, Schema>,
        wrapped: bool,
        path: &str,
        budget: &Budget,
    ) -> Option<Schema> {
        match self.mode {
            Mode::None => {
                self.left_out += 1;
                None
            }
            Mode::Full => Some(schema),
            Mode::Shallow => {
                let (cut, shallowed) = shallow(schema, definitions, wrapped, path, budget);
                if shallowed {
                    self.shallowed.push(tool.to_owned());
                }
                Some(cut)
            }
        }
    }

    /// A `loss/schema` for what was left out or shortened, naming the first tools.
    pub fn report(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.left_out > 0 {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                "",
                format!("`{OPTION}=none`: the output schemas of {} tools were left out", self.left_out),
            ));
        }
        if !self.shallowed.is_empty() {
            let mut names: Vec<String> = self.shallowed.iter().take(NAMES_SHOWN).map(|n| format!("`{n}`")).collect();
            if self.shallowed.len() > NAMES_SHOWN {
                names.push("…".into());
            }
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                "",
                format!(
                    "`{OPTION}=shallow`: {} output schemas ({}) were written without the definitions they refer to, each use of one a loose schema with its description (`--option {OPTION}=full` writes them whole)",
                    self.shallowed.len(),
                    names.join(", "),
                ),
            ));
        }
    }
}

/// Output schemas written and printed once for every tool whose result is the same bare
/// reference (`shallow` only): tools that return the same object share its text (Stripe's 417
/// tools return 206 schemas). One is given again while what it charged the document's budget
/// fits again (the budget only shrinks, so the same expansion would decide the same:
/// `Budget::charge_again`), with what it said of itself said again at the tool's own place:
/// kept only when everything it said is at a place inside the output and names neither that
/// place nor the tool in its message.
#[derive(Debug, Default)]
pub struct SharedOutputs {
    printed: HashMap<String, SharedOutput>,
}

#[derive(Debug)]
struct SharedOutput {
    printed: Written<'static>,
    /// Whether the result was wrapped (MCP's `{result}`).
    wrapped: bool,
    /// Whether `shallow` cut it, said for each tool that has it.
    shallowed: bool,
    charge: Charge,
    /// What writing it said, each at its place below the output's.
    said: Vec<(String, Diagnostic)>,
}

impl SharedOutputs {
    /// What a result is shared under: the definition `schema` names when it is a bare
    /// reference, the mode is `shallow` and the source kept no schema of its own for the tool
    /// (`kept`), with `variant` (what else the writing depends on: a dialect, a spelling).
    pub fn key(schema: &Schema, mode: Mode, kept: bool, variant: &str) -> Option<String> {
        let name = schema.reference.as_deref()?;
        let bare = *schema == Schema { reference: Some(name.to_owned()), ..Schema::default() };
        (mode == Mode::Shallow && !kept && bare).then(|| format!("{name}\u{0}{variant}"))
    }

    /// The printed output schema of `tool` (its output at model path `at`), whose result is
    /// shared under `key` (`None`: not shared), and whether it was wrapped: the one printed
    /// already under `key` when it can be given again (its charge taken again, what it said
    /// said at `at`, its shortening said for `tool`), else what `write` prints, kept for the
    /// next tools when it can be.
    #[allow(clippy::too_many_arguments)]
    pub fn print(
        &mut self,
        key: Option<String>,
        tool: &str,
        at: &str,
        outputs: &mut Shortened,
        budget: &Budget,
        diagnostics: &mut Vec<Diagnostic>,
        write: impl FnOnce(&mut Shortened, &mut Vec<Diagnostic>) -> Option<(Written<'static>, bool)>,
    ) -> Option<(Written<'static>, bool)> {
        if let Some(known) = key.as_ref().and_then(|key| self.printed.get(key))
            && budget.charge_again(known.charge)
        {
            for (below, said) in &known.said {
                diagnostics.push(Diagnostic { path: format!("{at}{below}"), ..said.clone() });
            }
            if known.shallowed {
                outputs.shallowed.push(tool.to_owned());
            }
            return Some((known.printed.clone(), known.wrapped));
        }
        let before = (budget.spending(), diagnostics.len(), outputs.shallowed.len());
        let (printed, wrapped) = write(outputs, diagnostics)?;
        let said = || -> Option<Vec<(String, Diagnostic)>> {
            let places_only_here = |d: &Diagnostic| {
                d.span.is_none() && d.renamed.is_none() && !d.message.contains(at) && !d.message.contains(tool)
            };
            diagnostics[before.1..]
                .iter()
                .map(|d| Some((d.path.strip_prefix(at)?.to_owned(), d.clone())).filter(|_| places_only_here(d)))
                .collect()
        };
        if let Some(key) = key
            && let Some(charge) = budget.charged_since(before.0)
            && let Some(said) = said()
        {
            let shallowed = outputs.shallowed.len() > before.2;
            self.printed.insert(key, SharedOutput { printed: printed.clone(), wrapped, shallowed, charge, said });
        }
        Some((printed, wrapped))
    }
}

/// `model` with each tool's output schema as `mode` asks, for a writer that writes from the
/// model as a whole (OpenAPI, Vertex): borrowed unchanged for `full`, else a copy whose output
/// schemas are shallow or left out (paths `/tools/N/output/schema`); and what was shortened,
/// each tool named by its name in the model.
pub fn apply_to_model(model: &ToolSet, mode: Mode) -> (Cow<'_, ToolSet>, Shortened) {
    let mut shortened = Shortened::new(mode);
    if mode == Mode::Full {
        return (Cow::Borrowed(model), shortened);
    }
    let budget = Budget::for_model(model);
    let mut changed = model.clone();
    let definitions = &model.definitions;
    for (i, tool) in changed.tools.iter_mut().enumerate() {
        let Some(output) = &mut tool.output else { continue };
        let Some(schema) = output.schema.take() else { continue };
        let path = format!("/tools/{i}/output/schema");
        output.schema = shortened.apply(&tool.name, schema, definitions, false, &path, &budget);
    }
    (Cow::Owned(changed), shortened)
}

/// `schema` with its references expanded level by level (breadth first: every reference of
/// one level before any of the next), after what the result is (its object, the members of a
/// union, an array's items: `top`) is resolved whole, while the schema stays within
/// [`SHALLOW_NODES`] schema nodes; past that each reference becomes a loose schema with its
/// description. Small definitions without references of their own (an enum, a formatted
/// string; [`SMALL_DEFINITION`]) are always expanded. `wrapped`: the result is the schema's
/// first property (MCP's `{result}` wrapper). `$ref`s kept in extras that name definitions are
/// left out. Every expansion is charged to `budget`, the document's, and is cut when it does
/// not fit. Whether any reference was cut loose.
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
    let (cut, first) = cut_references_in(schema, definitions, path, &|_| false, budget);
    (cut, level.cut || first.is_some())
}

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
