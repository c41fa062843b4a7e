//! [`SchemaWriter`]: canonical schemas written in one dialect for one document, each schema
//! with the `$defs` of the definitions it reaches (or them inlined), every expansion charged to
//! the document's [`Expansion`] budget.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::definitions::{
    Budget, cut_references, inline_within, referenced_directly, schema_weight, uses_references,
};
use toolport_core::source::child;
use toolport_core::{Diagnostic, Parameter, Schema, ToolSet, ValueSet, codes};
use toolport_jsonschema::{Dialect, Writer};

/// Writes schemas in one dialect, with the tool set's value sets (inlined as enums) and
/// definitions. Where the dialect has references (JSON Schema) and `inline` is off, a written
/// schema that uses definitions gets a `$defs` object at its root holding every definition it
/// reaches, referenced as `#/$defs/<name>`; otherwise (Gemini, strict modes) references are
/// inlined, recursion cut with a `loss/schema` diagnostic. Either way every expansion is
/// charged to the document's [`Expansion`] budget, and cut when it is spent.
#[derive(Clone, Copy, Debug)]
pub struct SchemaWriter<'a> {
    pub dialect: Dialect,
    pub value_sets: &'a IndexMap<String, ValueSet>,
    pub definitions: &'a IndexMap<String, Schema>,
    pub inline: bool,
    /// Shared by every schema of the document being written.
    pub expansion: &'a Expansion,
    /// Whether written schemas are [`crate::clean`]ed for a model to read (no `x-toolport-*`
    /// bookkeeping, no OpenAPI-only keywords, no empty `enum`): on for outputs, off for the
    /// schemas a reader regenerates to compare with its input.
    pub clean: bool,
}

/// What the schemas of one written document share: the expansion budget
/// ([`Budget::for_model`]), and the definitions as written into `$defs` (each written once and
/// copied where used, its diagnostics reported once). One per document, whose diagnostics go
/// to one list.
#[derive(Debug)]
pub struct Expansion {
    budget: Budget,
    /// Per definition (by index): its weight and the definitions it refers to directly.
    shapes: RefCell<HashMap<usize, DefinitionShape>>,
    /// Per definition (by index): as written in `$defs`, all of its references kept.
    written: RefCell<HashMap<usize, Value>>,
    /// Code and path of the diagnostics about definitions reported so far, and how many of the
    /// document's diagnostics have been looked at for them.
    reported: RefCell<HashSet<(String, String)>>,
    looked_at: Cell<usize>,
}

#[derive(Debug)]
struct DefinitionShape {
    /// What a copy costs the budget (`definitions::schema_weight`).
    weight: usize,
    refers_to: Vec<usize>,
}

impl DefinitionShape {
    /// Definition `index`'s, worked out once.
    fn of<'s>(
        shapes: &'s mut HashMap<usize, DefinitionShape>,
        definitions: &IndexMap<String, Schema>,
        index: usize,
    ) -> &'s DefinitionShape {
        shapes.entry(index).or_insert_with(|| {
            let definition = &definitions[index];
            let refers_to = referenced_directly(definition, definitions);
            DefinitionShape {
                weight: schema_weight(definition),
                refers_to: refers_to.iter().filter_map(|n| definitions.get_index_of(n)).collect(),
            }
        })
    }
}

impl Expansion {
    /// The expansion state of a document written from `model`.
    pub fn for_model(model: &ToolSet) -> Self {
        Self::with_budget(Budget::for_model(model))
    }

    /// With no limit: for schemas written to be compared, not output.
    pub fn unlimited() -> Self {
        Self::with_budget(Budget::unlimited())
    }

    pub fn with_budget(budget: Budget) -> Self {
        Expansion {
            budget,
            shapes: Default::default(),
            written: Default::default(),
            reported: Default::default(),
            looked_at: Cell::new(0),
        }
    }

    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Adds `found` (diagnostics of a definition's writing) to `diagnostics`, leaving out any
    /// already there: each definition's changes are reported once however many tools use it.
    fn report_once(&self, found: Vec<Diagnostic>, diagnostics: &mut Vec<Diagnostic>) {
        let mut reported = self.reported.borrow_mut();
        let from = self.looked_at.get().min(diagnostics.len());
        for d in &diagnostics[from..] {
            if d.path.starts_with("/definitions/") {
                reported.insert((d.code.clone(), d.path.clone()));
            }
        }
        for d in found {
            if reported.insert((d.code.clone(), d.path.clone())) {
                diagnostics.push(d);
            }
        }
        self.looked_at.set(diagnostics.len());
    }
}

/// The definitions a written schema carries in its `$defs`, in first-use order, and those its
/// closure needed but the budget could not afford (cut to loose schemas).
#[derive(Debug, Default)]
struct Closure {
    included: Vec<usize>,
    excluded: Vec<usize>,
}

impl<'a> SchemaWriter<'a> {
    /// A writer with the model's value sets and definitions, references kept where possible,
    /// expansions charged to `expansion` (the document's, [`Expansion::for_model`]).
    pub fn for_model(dialect: Dialect, model: &'a ToolSet, expansion: &'a Expansion) -> Self {
        SchemaWriter {
            dialect,
            value_sets: &model.value_sets,
            definitions: &model.definitions,
            inline: false,
            expansion,
            clean: true,
        }
    }

    /// A writer of schemas a reader regenerates to compare with its input: nothing cleaned.
    pub(crate) fn comparing(
        dialect: Dialect,
        value_sets: &'a IndexMap<String, ValueSet>,
        definitions: &'a IndexMap<String, Schema>,
        expansion: &'a Expansion,
    ) -> Self {
        SchemaWriter { dialect, value_sets, definitions, inline: false, expansion, clean: false }
    }

    /// The same writer, inlining every reference (for targets that refuse `$ref`).
    pub fn inlined(self) -> Self {
        SchemaWriter { inline: true, ..self }
    }

    /// `schema` written at `path`, cleaned when [`Self::clean`] says so; its diagnostics.
    fn write_value(&self, schema: &Schema, path: &str) -> (Value, Vec<Diagnostic>) {
        let (mut value, mut found) = self.writer().write(schema, path);
        if self.clean {
            crate::clean::clean(&mut value, self.dialect, path, &mut found);
        }
        (value, found)
    }

    fn writer(&self) -> Writer<'a> {
        let writer = Writer::new(self.dialect)
            .with_value_sets(self.value_sets)
            .with_definitions(self.definitions)
            .with_budget(&self.expansion.budget);
        if self.inline { writer.with_reference_prefix(None) } else { writer }
    }

    /// Whether written references point into the schema's own `$defs`.
    fn holds_definitions(&self) -> bool {
        !self.inline && toolport_jsonschema::reference_prefix(self.dialect) == Some("#/$defs/")
    }

    /// Whether references are inlined.
    fn inlines(&self) -> bool {
        self.inline || toolport_jsonschema::reference_prefix(self.dialect).is_none()
    }

    /// The definitions `root` reaches, in the order [`referenced_by_all`] gives (depth first,
    /// first use), each charged to the budget by its weight: one that does not fit is
    /// left out, and the definitions only it uses are not followed.
    ///
    /// [`referenced_by_all`]: toolport_core::definitions::referenced_by_all
    fn closure(&self, root: &Schema) -> Closure {
        let definitions = self.definitions;
        let budget = &self.expansion.budget;
        let mut shapes = self.expansion.shapes.borrow_mut();
        let mut closure = Closure::default();
        let mut seen = HashSet::new();
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let starts: Vec<usize> =
            referenced_directly(root, definitions).iter().filter_map(|n| definitions.get_index_of(n)).collect();
        for start in starts {
            // Depth first, without recursion: a chain of definitions can be long.
            let mut next = Some(start);
            loop {
                if let Some(index) = next.take()
                    && seen.insert(index)
                {
                    if budget.take(DefinitionShape::of(&mut shapes, definitions, index).weight) {
                        closure.included.push(index);
                        stack.push((index, 0));
                    } else {
                        closure.excluded.push(index);
                    }
                }
                let Some((index, position)) = stack.last_mut() else { break };
                match shapes[index].refers_to.get(*position) {
                    Some(&child) => {
                        *position += 1;
                        next = Some(child);
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        }
        closure
    }

    /// Writes `root` at model path `path`: inlined, or with the `$defs` of the definitions it
    /// reaches (returned apart). The root of `parameters` is their object schema, whose
    /// diagnostics are rebased onto them ([`on_parameter`]).
    fn write_root(
        &self,
        root: &Schema,
        path: &str,
        parameters: Option<&[Parameter]>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> (Value, Option<Map<String, Value>>) {
        let rebase = |diagnostic: Diagnostic| match parameters {
            Some(parameters) => on_parameter(diagnostic, path, parameters),
            None => diagnostic,
        };
        if self.inlines() && uses_references(root) {
            let (inlined, cuts) = inline_within(root, self.definitions, path, &self.expansion.budget);
            let (value, found) = self.write_value(&inlined, path);
            diagnostics.extend(cuts.into_iter().chain(found).map(rebase));
            return (value, None);
        }
        if !self.holds_definitions() {
            let (value, found) = self.write_value(root, path);
            diagnostics.extend(found.into_iter().map(rebase));
            return (value, None);
        }
        let closure = self.closure(root);
        let excluded_names: Vec<&str> =
            closure.excluded.iter().filter_map(|&i| self.definitions.get_index(i)).map(|(n, _)| n.as_str()).collect();
        let excluded: HashSet<&str> = excluded_names.iter().copied().collect();
        let excluded_indices: HashSet<usize> = closure.excluded.iter().copied().collect();
        let keep = |name: &str| !excluded.contains(name);
        let (value, found, first_cut) = if excluded.is_empty() {
            let (value, found) = self.write_value(root, path);
            (value, found, None)
        } else {
            let (cut, first) = cut_references(root, self.definitions, path, &keep, &self.expansion.budget);
            let (value, found) = self.write_value(&cut, path);
            (value, found, first)
        };
        diagnostics.extend(found.into_iter().map(rebase));
        if closure.included.is_empty() && closure.excluded.is_empty() {
            return (value, None);
        }
        let mut defs = Map::new();
        for &index in &closure.included {
            let Some((name, definition)) = self.definitions.get_index(index) else { continue };
            let cut_inside = !excluded.is_empty()
                && self.expansion.shapes.borrow()[&index].refers_to.iter().any(|r| excluded_indices.contains(r));
            let written = if cut_inside {
                let at = child("/definitions", name);
                let (cut, _) = cut_references(definition, self.definitions, &at, &keep, &self.expansion.budget);
                let (written, found) = self.write_value(&cut, &at);
                self.expansion.report_once(found, diagnostics);
                written
            } else {
                self.written_definition(index, name, definition, diagnostics)
            };
            defs.insert(name.clone(), written);
        }
        if !closure.excluded.is_empty() {
            let mut names: Vec<String> = excluded_names.iter().take(4).map(|n| format!("`{n}`")).collect();
            if excluded_names.len() > names.len() {
                names.push(format!("{} more", excluded_names.len() - names.len()));
            }
            diagnostics.push(rebase(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                first_cut.unwrap_or_else(|| path.to_owned()),
                format!(
                    "{}: {} of the {} definitions this schema uses ({}) were left out of its `$defs`, and every use of them was written as a loose schema (its description kept while the budget allows)",
                    self.expansion.budget.describe(),
                    closure.excluded.len(),
                    closure.included.len() + closure.excluded.len(),
                    names.join(", "),
                ),
            )));
        }
        (value, (!defs.is_empty()).then_some(defs))
    }

    /// Definition `index` as written in a `$defs`: written the first time, copied after.
    fn written_definition(
        &self,
        index: usize,
        name: &str,
        definition: &Schema,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Value {
        if let Some(written) = self.expansion.written.borrow().get(&index) {
            return written.clone();
        }
        let (written, found) = self.write_value(definition, &child("/definitions", name));
        self.expansion.report_once(found, diagnostics);
        self.expansion.written.borrow_mut().insert(index, written.clone());
        written
    }

    /// The canonical schema in the dialect; forced changes are reported at `path` in the model.
    pub fn schema(&self, schema: &Schema, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
        let (mut value, defs) = self.write_root(schema, path, None, diagnostics);
        if let (Value::Object(map), Some(defs)) = (&mut value, defs) {
            map.insert("$defs".into(), Value::Object(defs));
        }
        value
    }

    /// The object schema of a parameter list; diagnostics at `path` (`/tools/0/parameters`).
    pub fn parameters(&self, parameters: &[Parameter], path: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
        let (mut value, defs) = if parameters.iter().any(|p| uses_references(&p.schema)) {
            self.write_root(&Schema::of_parameters(parameters), path, Some(parameters), diagnostics)
        } else {
            // Without references writing the root is writing its object (no definitions to
            // gather, inline or cut): from the parameters where they are, not from copies.
            let (mut value, mut found) = self.writer().write_parameters(parameters, path);
            if self.clean {
                crate::clean::clean(&mut value, self.dialect, path, &mut found);
            }
            diagnostics.extend(found.into_iter().map(|d| on_parameter(d, path, parameters)));
            (value, None)
        };
        if let Value::Object(map) = &mut value {
            // Tool APIs want `properties` even when empty: "an object with no parameters".
            map.entry("properties").or_insert_with(|| Value::Object(Map::new()));
            if let Some(defs) = defs {
                map.insert("$defs".into(), Value::Object(defs));
            }
        }
        value
    }
}

/// A diagnostic about a parameter list's object schema `root` at `path`, moved onto the
/// parameter it is about: `…/parameters/properties/3/schema/…` is the schema of parameter 3,
/// `…/parameters/3/schema/…`, and the message names the parameter (a model path's index says
/// nothing to a reader of the source, who knows the parameter by its name).
fn on_parameter(mut diagnostic: Diagnostic, path: &str, parameters: &[Parameter]) -> Diagnostic {
    let Some(rest) = diagnostic.path.strip_prefix(path).and_then(|rest| rest.strip_prefix("/properties/")) else {
        return diagnostic;
    };
    let parameter = rest.split('/').next().and_then(|i| i.parse::<usize>().ok()).and_then(|i| parameters.get(i));
    diagnostic.path = format!("{path}/{rest}");
    match parameter {
        Some(parameter) => diagnostic.naming_parameter(&parameter.name),
        None => diagnostic,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_core::definitions::value_set_weight;
    use toolport_core::{ConstraintFields, EnumValue, Property, SchemaType};

    use super::*;

    fn reference(name: &str) -> Schema {
        Schema { reference: Some(name.into()), description: Some(format!("a {name}")), ..Schema::default() }
    }

    fn object(properties: &[(&str, Schema)]) -> Schema {
        let properties = properties
            .iter()
            .map(|(n, s)| Property { name: (*n).into(), required: false, schema: s.clone() })
            .collect();
        Schema { properties, ..Schema::of(SchemaType::Object) }
    }

    /// `A` (2 nodes) refers to `B` (1 node).
    fn model() -> ToolSet {
        let mut model = ToolSet::default();
        model.definitions.insert("A".into(), object(&[("b", reference("B"))]));
        model.definitions.insert("B".into(), Schema::of(SchemaType::String));
        model
    }

    /// Writes `{x: A, y: B}` as JSON Schema within a budget of `limit` bytes, twice (as two
    /// tools of one document would): the written schemas, the diagnostics (code, path) and
    /// the weight charged.
    fn check(limit: usize, expect: [Value; 2], expect_diagnostics: &[(&str, &str)], spent: usize) {
        let model = model();
        let expansion = Expansion::with_budget(Budget::with_limit(limit));
        let writer = SchemaWriter::for_model(Dialect::JsonSchema, &model, &expansion);
        let root = object(&[("x", reference("A")), ("y", reference("B"))]);
        let mut diagnostics = Vec::new();
        let written = [0, 1].map(|i| writer.schema(&root, &format!("/tools/{i}/output/schema"), &mut diagnostics));
        assert_eq!(written, expect);
        let got: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_str())).collect();
        assert_eq!(got, expect_diagnostics);
        assert_eq!(expansion.budget().spent(), spent);
    }

    #[test]
    fn closures_are_charged_to_the_document_budget_and_cut_without_dangling() {
        let whole = json!({"type": "object", "properties": {
            "x": {"$ref": "#/$defs/A", "description": "a A"}, "y": {"$ref": "#/$defs/B", "description": "a B"}},
            "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B", "description": "a B"}}},
                "B": {"type": "string"}}});
        let loose = json!({"type": "object", "properties": {
            "x": {"description": "a A", "type": "object"}, "y": {"description": "a B"}}});
        let model = model();
        let (a, b) = (schema_weight(&model.definitions["A"]), schema_weight(&model.definitions["B"]));
        check(2 * (a + b), [whole.clone(), whole.clone()], &[], 2 * (a + b));
        // The second copy of the closure does not fit whole: `A` is left out, `B` still fits.
        let without_a = json!({"type": "object", "properties": {
            "x": {"description": "a A", "type": "object"}, "y": {"$ref": "#/$defs/B", "description": "a B"}},
            "$defs": {"B": {"type": "string"}}});
        check(
            a + 2 * b,
            [whole.clone(), without_a],
            &[("loss/schema", "/tools/1/output/schema/properties/0/schema/reference")],
            a + 2 * b,
        );
        // `A` fits but `B` does not: `A` is written with its use of `B` cut, and so is `y`.
        let partial = json!({"type": "object", "properties": {
            "x": {"$ref": "#/$defs/A", "description": "a A"}, "y": {"description": "a B"}},
            "$defs": {"A": {"type": "object", "properties": {"b": {"description": "a B"}}}}});
        check(
            a,
            [partial, loose.clone()],
            &[
                ("loss/schema", "/tools/0/output/schema/properties/1/schema/reference"),
                ("loss/schema", "/tools/1/output/schema/properties/0/schema/reference"),
            ],
            a,
        );
        check(
            0,
            [loose.clone(), loose],
            &[
                ("loss/schema", "/tools/0/output/schema/properties/0/schema/reference"),
                ("loss/schema", "/tools/1/output/schema/properties/0/schema/reference"),
            ],
            0,
        );
    }

    #[test]
    fn inlined_schemas_are_charged_to_the_same_budget() {
        let model = model();
        // Room for one expansion of `A` (with its `B`) only.
        let limit = schema_weight(&model.definitions["A"]) + schema_weight(&model.definitions["B"]);
        let expansion = Expansion::with_budget(Budget::with_limit(limit));
        let writer = SchemaWriter::for_model(Dialect::Gemini, &model, &expansion);
        let mut diagnostics = Vec::new();
        let parameters = [Parameter::new("x", reference("A"))];
        let first = writer.parameters(&parameters, "/tools/0/parameters", &mut diagnostics);
        let second = writer.parameters(&parameters, "/tools/1/parameters", &mut diagnostics);
        assert_eq!(
            first["properties"]["x"],
            json!({"type": "object", "description": "a A",
            "properties": {"b": {"type": "string", "description": "a B"}}})
        );
        assert_eq!(second["properties"]["x"], json!({"type": "object", "description": "a A"}));
        let got: Vec<&str> = diagnostics.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(got, ["/tools/1/parameters/0/schema/reference"]);
    }

    /// A value set written out as each field's `enum` costs its values at every use: a large
    /// set used by many fields is charged to the document's budget and, once it is spent,
    /// written without its values, each such field a located `loss/schema` naming the set.
    #[test]
    fn value_sets_written_as_enums_are_charged_to_the_budget() {
        let mut model = ToolSet::default();
        let entries = (0..100).map(|i| EnumValue::new(Value::from(format!("v{i}")))).collect();
        model.value_sets.insert("Big".into(), ValueSet { entries, ..ValueSet::default() });
        let weight = value_set_weight(&model.value_sets["Big"]);
        // Room for two copies of the set.
        let expansion = Expansion::with_budget(Budget::with_limit(2 * weight));
        let writer = SchemaWriter::for_model(Dialect::JsonSchema, &model, &expansion);
        let field = Schema { value_set: Some("Big".into()), ..Schema::of(SchemaType::String) };
        let mut diagnostics = Vec::new();
        let written: Vec<Value> = (0..3)
            .map(|i| {
                writer.parameters(
                    &[Parameter::new("pick", field.clone())],
                    &format!("/tools/{i}/parameters"),
                    &mut diagnostics,
                )
            })
            .collect();
        let values = |w: &Value| w["properties"]["pick"]["enum"].as_array().map_or(0, Vec::len);
        assert_eq!(written.iter().map(values).collect::<Vec<_>>(), [100, 100, 0]);
        assert_eq!(expansion.budget().spent(), 2 * weight);
        // (Each tool also reports its `x-toolport-value-set` cleaned away, at its parameters.)
        let cuts: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.path.ends_with("/value_set")).collect();
        let got: Vec<(&str, &str)> = cuts.iter().map(|d| (d.code.as_str(), d.path.as_str())).collect();
        assert_eq!(got, [("loss/schema", "/tools/2/parameters/0/schema/value_set")]);
        assert!(cuts[0].message.contains("100 values of value set `Big`"), "{}", cuts[0].message);
    }

    /// A change to one parameter's schema is reported at that parameter and names it: its
    /// index in the model says nothing to whoever reads the source.
    #[test]
    fn a_parameter_schema_change_names_the_parameter() {
        let model = ToolSet::default();
        let expansion = Expansion::unlimited();
        let writer = SchemaWriter::for_model(Dialect::Gemini, &model, &expansion);
        let tags = Schema {
            constraints: ConstraintFields { unique_items: true, ..ConstraintFields::NONE }.into(),
            ..Schema::of(SchemaType::Array)
        };
        let parameters = [Parameter::new("query", Schema::of(SchemaType::String)), Parameter::new("tags", tags)];
        let mut diagnostics = Vec::new();
        writer.parameters(&parameters, "/tools/2/parameters", &mut diagnostics);
        let got: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.path.as_str(), d.message.as_str())).collect();
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, "/tools/2/parameters/1/schema/unique_items");
        assert!(got[0].1.starts_with("parameter `tags`: "), "{}", got[0].1);
    }
}
