//! Writing canonical [`Schema`]s as JSON Schema values of a [`Dialect`]: [`write()`] and the
//! [`Writer`] with context (value sets, definitions, where references point). Each schema is
//! written by part, in the reader's order (type, annotations, constraints, structure,
//! alternatives, kept keywords), with a diagnostic for what the dialect cannot hold.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::definitions::{Budget, value_set_weight};
use toolport_core::source::child;
use toolport_core::{
    AdditionalProperties, Diagnostic, EnumValue, Parameter, Property, Schema, SchemaAt, SchemaType, ValueSet, codes,
};

use crate::dialect::OPENAPI_30_KEYWORDS;
use crate::{Dialect, ENUM_LABELS, EXTRAS_KEY, MULTILINE, ONE_OF_MARK, VALUE_SET, reference_prefix, reference_to};

/// Writes `schema` in `dialect`. `path` is the schema's place in the model
/// (`/tools/0/parameters/2/schema`), used in the diagnostics.
pub fn write(schema: &Schema, dialect: Dialect, path: &str) -> (Value, Vec<Diagnostic>) {
    Writer::new(dialect).write(schema, path)
}

/// A schema writer with optional context: the tool set's value sets (to inline enums) and
/// definitions (to inline references where the target cannot hold them).
#[derive(Debug)]
pub struct Writer<'a> {
    dialect: Dialect,
    value_sets: Option<&'a IndexMap<String, ValueSet>>,
    definitions: Option<&'a IndexMap<String, Schema>>,
    /// `$ref` prefix for [`Schema::reference`]; `None` inlines the definitions.
    reference_prefix: Option<&'static str>,
    /// The document's expansion budget, charged for every value set written out as an enum.
    budget: Option<&'a Budget>,
}

impl<'a> Writer<'a> {
    pub fn new(dialect: Dialect) -> Self {
        Writer {
            dialect,
            value_sets: None,
            definitions: None,
            reference_prefix: reference_prefix(dialect),
            budget: None,
        }
    }

    /// The tool set's definitions (`ToolSet::definitions`): needed to inline references
    /// (Gemini, or a `None` prefix); references are otherwise written as `$ref`s and the
    /// caller writes the definitions where the prefix points.
    pub fn with_definitions(mut self, definitions: &'a IndexMap<String, Schema>) -> Self {
        self.definitions = Some(definitions);
        self
    }

    /// Overrides the dialect's `$ref` prefix ([`reference_prefix`]); `None` inlines
    /// references. Vertex writes the Gemini subset with `#/components/schemas/` references.
    pub fn with_reference_prefix(mut self, prefix: Option<&'static str>) -> Self {
        self.reference_prefix = prefix;
        self
    }

    /// Value sets (`ToolSet::value_sets`) whose entries become the `enum` of schemas that
    /// reference them without listing values.
    pub fn with_value_sets(mut self, value_sets: &'a IndexMap<String, ValueSet>) -> Self {
        self.value_sets = Some(value_sets);
        self
    }

    /// The document's expansion budget ([`Budget`]): each value set written out as a
    /// schema's `enum` is charged its weight (`definitions::value_set_weight`), so a large set
    /// used by many fields cannot multiply the output; once spent, a schema is written without
    /// the set's values, with a `loss/schema` naming the set.
    pub fn with_budget(mut self, budget: &'a Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    pub fn write(&self, schema: &Schema, path: &str) -> (Value, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        if self.reference_prefix.is_none() && toolport_core::definitions::uses_references(schema) {
            let none = IndexMap::new();
            let (inlined, cuts) = toolport_core::definitions::inline(schema, self.definitions.unwrap_or(&none), path);
            diagnostics.extend(cuts);
            let value = Value::Object(self.object(&inlined, &SchemaAt::Root(path), &mut diagnostics));
            return (value, diagnostics);
        }
        let value = Value::Object(self.object(schema, &SchemaAt::Root(path), &mut diagnostics));
        (value, diagnostics)
    }

    /// `s` as a JSON Schema object; `at` is its place, written out only for a diagnostic.
    /// The object schema of a parameter list, `{"type": "object", "properties": …, "required":
    /// […]}`, as [`Writer::write`] writes a schema of that type with those properties, written
    /// from the parameters where they are instead of a schema made of copies of theirs. A list
    /// whose schemas use references when this writer inlines them is written through such a
    /// schema (inlining copies them anyway).
    pub fn write_parameters(&self, parameters: &[Parameter], path: &str) -> (Value, Vec<Diagnostic>) {
        if self.reference_prefix.is_none()
            && parameters.iter().any(|p| toolport_core::definitions::uses_references(&p.schema))
        {
            return self.write(&Schema::of_parameters(parameters), path);
        }
        let mut diagnostics = Vec::new();
        let root = Schema::of(SchemaType::Object);
        let members = Members::Parameters(parameters);
        let value = Value::Object(self.object_of(&root, members, &SchemaAt::Root(path), &mut diagnostics));
        (value, diagnostics)
    }

    /// `s` as a JSON Schema object; `at` is its place, written out only for a diagnostic.
    fn object(&self, s: &Schema, at: &SchemaAt, out: &mut Vec<Diagnostic>) -> Map<String, Value> {
        self.object_of(s, Members::Properties(&s.properties), at, out)
    }

    /// [`Writer::object`] with its properties given apart (a parameter list's, [`Members`]).
    fn object_of(&self, s: &Schema, members: Members, at: &SchemaAt, out: &mut Vec<Diagnostic>) -> Map<String, Value> {
        let mut o = self.start(s, members, at, out);
        let any_of_written = self.write_type(&mut o, out);
        self.write_annotations(&mut o, out);
        self.write_bounds(&mut o, out);
        self.write_constraints(&mut o, out);
        self.write_structure(&mut o, out);
        if !s.any_of.is_empty() && !any_of_written {
            self.write_alternatives(&mut o, out);
        }
        self.extras(o.kept, &mut o.m, at, out);
        for format_id in s.extras.keys().filter(|k| k.as_str() != EXTRAS_KEY) {
            out.push(Diagnostic::loss(
                codes::LOSS_EXTRAS,
                child(&child(&at.path(), "extras"), format_id),
                format!("a schema cannot hold data only {format_id} has; it was left out"),
            ));
        }
        o.m
    }

    /// Starts writing `s` (its `$ref` first), deciding the enum and the type written: Gemini's
    /// string-only enums force both.
    fn start<'s>(
        &self,
        s: &'s Schema,
        members: Members<'s>,
        at: &'s SchemaAt<'s>,
        out: &mut Vec<Diagnostic>,
    ) -> Object<'s> {
        let d = self.dialect;
        let kept = s.extras.get(EXTRAS_KEY).and_then(Value::as_object);
        let mut m = Map::with_capacity(keyword_estimate(s, &members, kept.map_or(0, Map::len)));
        if let (Some(name), Some(prefix)) = (&s.reference, self.reference_prefix) {
            m.insert("$ref".into(), Value::String(reference_to(prefix, name)));
        }
        let one_of = kept.is_some_and(|e| e.get(ONE_OF_MARK) == Some(&Value::Bool(true)));
        let mut enumeration: Option<Vec<EnumValue>> = s.enumeration.clone();
        let mut values_cut = false;
        if enumeration.is_none()
            && let Some((id, set)) = s.value_set.as_ref().and_then(|id| Some((id, self.value_sets?.get(id)?)))
        {
            match self.budget {
                Some(budget) if !budget.take(value_set_weight(set)) => {
                    values_cut = true;
                    out.push(Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&at.path(), "value_set"),
                        format!(
                            "{}; the {} values of value set `{id}` were left out of this schema (it accepts any value)",
                            budget.describe(),
                            set.entries.len()
                        ),
                    ));
                }
                _ => enumeration = Some(set.entries.clone()),
            }
        }
        let mut kind = s.kind;
        let stringify_enum = d == Dialect::Gemini
            && enumeration.as_ref().is_some_and(|values| values.iter().any(|v| !v.value.is_string()));
        let enum_has_null = enumeration.as_ref().is_some_and(|values| values.iter().any(|v| v.value.is_null()));
        let only_null_changes = stringify_enum
            && enumeration
                .as_ref()
                .is_some_and(|values| values.iter().all(|v| v.value.is_string() || v.value.is_null()));
        if only_null_changes && s.nullable {
            // `null` among string values of a nullable schema: dropping it changes nothing.
        } else if stringify_enum {
            out.push(Diagnostic::warning(
                codes::CHANGED_SCHEMA,
                child(&at.path(), "enum"),
                format!("{} allows only string enums: the values were written as strings of type string", d.name()),
            ));
            kind = Some(SchemaType::String);
        }
        Object { s, members, at, m, kept, one_of, enumeration, values_cut, stringify_enum, enum_has_null, kind }
    }

    /// `type` and nullability; says whether the alternatives were written as a type array.
    fn write_type(&self, o: &mut Object, out: &mut Vec<Diagnostic>) -> bool {
        let (d, s) = (self.dialect, o.s);
        let collapsible = d.is_2020()
            && o.kind.is_none()
            && !o.one_of
            && s.any_of.len() >= 2
            && s.any_of.iter().all(|m| {
                m.kind.is_some_and(|k| k != SchemaType::Null) && *m == Schema::of(m.kind.unwrap_or(SchemaType::Null))
            });
        match o.kind {
            Some(SchemaType::Null) if !d.is_2020() => {
                o.m.insert("nullable".into(), Value::Bool(true));
                out.push(Diagnostic::warning(
                    codes::CHANGED_SCHEMA,
                    child(&o.at.path(), "type"),
                    format!("{} has no `null` type: written as `nullable: true` without a type", d.name()),
                ));
            }
            Some(k) if d.is_2020() && s.nullable && k != SchemaType::Null => {
                o.m.insert("type".into(), Value::from(vec![k.as_str(), "null"]));
            }
            Some(k) => {
                o.m.insert("type".into(), Value::from(k.as_str()));
                if (s.nullable || (o.stringify_enum && o.enum_has_null)) && !d.is_2020() {
                    o.m.insert("nullable".into(), Value::Bool(true));
                }
            }
            None if collapsible => {
                let mut names: Vec<Value> =
                    s.any_of.iter().filter_map(|m| m.kind).map(|k| Value::from(k.as_str())).collect();
                if s.nullable {
                    names.push(Value::from("null"));
                }
                o.m.insert("type".into(), Value::Array(names));
                return true;
            }
            None => {
                if s.nullable && !d.is_2020() {
                    o.m.insert("nullable".into(), Value::Bool(true));
                }
            }
        }
        false
    }

    /// Title, description, format, enum (with labels and value set), default, examples and
    /// the multi-line hint.
    fn write_annotations(&self, o: &mut Object, out: &mut Vec<Diagnostic>) {
        let (d, s) = (self.dialect, o.s);
        let texts = [("title", &s.title), ("description", &s.description), ("format", &s.format)];
        for (key, text) in texts {
            if let Some(text) = text {
                o.m.insert(key.into(), Value::from(text.as_str()));
            }
        }
        self.write_enum(o, out);
        if !s.examples.is_empty() {
            if d.is_2020() {
                o.m.insert("examples".into(), Value::Array(s.examples.clone()));
            } else {
                o.m.insert("example".into(), s.examples[0].clone());
                if s.examples.len() > 1 {
                    let more = s.examples.len() - 1;
                    out.push(Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&o.at.path(), "examples"),
                        format!("{} holds one example per schema; {more} more were left out", d.name()),
                    ));
                }
            }
        }
        if s.multiline {
            if d.is_rich() {
                o.m.insert(MULTILINE.into(), Value::Bool(true));
            } else {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&o.at.path(), "multiline"),
                    format!("{} cannot mark a string as multi-line; the hint was left out", d.name()),
                ));
            }
        }
    }

    /// The enum (Gemini: as strings, `nullable` saying what a `null` among them would), its
    /// labels, the value set it comes from, and the default (a string when the enum is).
    fn write_enum(&self, o: &mut Object, out: &mut Vec<Diagnostic>) {
        let (d, s, stringify) = (self.dialect, o.s, o.stringify_enum);
        if let Some(values) = &o.enumeration {
            let written: Vec<Value> = values
                .iter()
                .filter(|v| !(stringify && v.value.is_null()))
                .map(|v| match (&v.value, stringify) {
                    (Value::String(_), _) | (_, false) => v.value.clone(),
                    (other, true) => Value::String(other.to_string()),
                })
                .collect();
            o.m.insert("enum".into(), Value::Array(written));
            if values.iter().any(|v| v.label.is_some()) {
                if d.is_rich() {
                    let labels = values.iter().map(|v| v.label.clone().map_or(Value::Null, Value::String)).collect();
                    o.m.insert(ENUM_LABELS.into(), Value::Array(labels));
                } else {
                    out.push(Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&o.at.path(), "enum"),
                        format!("{} has no labels for enum values; they were left out", d.name()),
                    ));
                }
            }
        }
        if let Some(id) = &s.value_set {
            if d.is_rich() {
                o.m.insert(VALUE_SET.into(), Value::from(id.as_str()));
            } else if o.enumeration.is_none() && !o.values_cut {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&o.at.path(), "value_set"),
                    format!("{} cannot name the value set `{id}`; it was left out", d.name()),
                ));
            }
        }
        if let Some(default) = s.default.as_deref() {
            let default = match (default, stringify) {
                (Value::String(_) | Value::Null, _) | (_, false) => default.clone(),
                (other, true) => Value::String(other.to_string()),
            };
            o.m.insert("default".into(), default);
        }
    }

    /// Inclusive and exclusive bounds: OpenAPI 3.0 marks `minimum` exclusive with a boolean,
    /// Gemini has inclusive bounds only.
    fn write_bounds(&self, o: &mut Object, out: &mut Vec<Diagnostic>) {
        let (d, s) = (self.dialect, o.s);
        let pairs = [
            (
                "minimum",
                "exclusiveMinimum",
                &s.constraints.minimum,
                &s.constraints.exclusive_minimum,
                "exclusive_minimum",
            ),
            (
                "maximum",
                "exclusiveMaximum",
                &s.constraints.maximum,
                &s.constraints.exclusive_maximum,
                "exclusive_maximum",
            ),
        ];
        for (inclusive_key, exclusive_key, inclusive, exclusive, model_key) in pairs {
            if let Some(n) = inclusive {
                o.m.insert(inclusive_key.into(), Value::Number(n.clone()));
            }
            let Some(n) = exclusive else { continue };
            match d {
                Dialect::JsonSchema | Dialect::OpenApi31 => {
                    o.m.insert(exclusive_key.into(), Value::Number(n.clone()));
                }
                Dialect::OpenApi30 if inclusive.is_none() => {
                    o.m.insert(inclusive_key.into(), Value::Number(n.clone()));
                    o.m.insert(exclusive_key.into(), Value::Bool(true));
                }
                Dialect::OpenApi30 => out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&o.at.path(), model_key),
                    format!(
                        "{} cannot hold both an inclusive and an exclusive bound; the exclusive one was left out",
                        d.name()
                    ),
                )),
                Dialect::Gemini => {
                    if inclusive.is_none() {
                        o.m.insert(inclusive_key.into(), Value::Number(n.clone()));
                    }
                    out.push(Diagnostic::warning(
                        codes::CHANGED_SCHEMA,
                        child(&o.at.path(), model_key),
                        format!("{} has no exclusive bounds: written as the inclusive `{inclusive_key}`", d.name()),
                    ));
                }
            }
        }
    }

    /// Lengths, pattern and `uniqueItems`.
    fn write_constraints(&self, o: &mut Object, out: &mut Vec<Diagnostic>) {
        let s = o.s;
        let lengths = [
            ("minLength", s.constraints.min_length),
            ("maxLength", s.constraints.max_length),
            ("minItems", s.constraints.min_items),
            ("maxItems", s.constraints.max_items),
        ];
        for (key, value) in lengths {
            if let Some(n) = value {
                o.m.insert(key.into(), Value::from(n));
            }
        }
        if let Some(pattern) = &s.constraints.pattern {
            o.m.insert("pattern".into(), Value::from(pattern.as_str()));
        }
        if s.constraints.unique_items {
            if self.dialect == Dialect::Gemini {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&o.at.path(), "unique_items"),
                    format!("{} has no `uniqueItems`; it was left out", self.dialect.name()),
                ));
            } else {
                o.m.insert("uniqueItems".into(), Value::Bool(true));
            }
        }
    }

    /// Items, properties and the names they require, additional properties.
    fn write_structure(&self, o: &mut Object, out: &mut Vec<Diagnostic>) {
        let (d, s, at) = (self.dialect, o.s, o.at);
        if let Some(items) = &s.items {
            o.m.insert("items".into(), Value::Object(self.object(items, &SchemaAt::Items(at), out)));
        }
        let mut required: Vec<Value> = Vec::new();
        let members = o.members;
        if members.len() > 0 {
            let mut properties = Map::new();
            for i in 0..members.len() {
                let (name, is_required, schema) = members.get(i);
                let schema = self.object(schema, &SchemaAt::Property(at, i), out);
                properties.insert(name.to_owned(), Value::Object(schema));
                if is_required {
                    required.push(Value::from(name));
                }
            }
            o.m.insert("properties".into(), Value::Object(properties));
        }
        if let Some(Value::Array(more)) = o.kept.and_then(|e| e.get("required")) {
            if d.is_rich() {
                required.extend(more.iter().cloned());
            } else {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&at.path(), "extras/jsonschema/required"),
                    format!("{} cannot require properties the schema does not list; left out", d.name()),
                ));
            }
        }
        if !required.is_empty() {
            o.m.insert("required".into(), Value::Array(required));
        }
        match &s.additional_properties {
            Some(AdditionalProperties::Allowed(allowed)) => {
                o.m.insert("additionalProperties".into(), Value::Bool(*allowed));
            }
            Some(AdditionalProperties::Schema(schema)) => {
                let written = self.object(schema, &SchemaAt::AdditionalProperties(at), out);
                o.m.insert("additionalProperties".into(), Value::Object(written));
            }
            None => {}
        }
    }

    /// `anyOf`, or `oneOf` when read so (rich dialects), with `null` as one more member in
    /// 2020-12 when the schema has no type of its own.
    fn write_alternatives(&self, o: &mut Object, out: &mut Vec<Diagnostic>) {
        let (d, s) = (self.dialect, o.s);
        if !d.is_2020() && self.fold_null_branches(o, out) {
            return;
        }
        let mut members: Vec<Value> = s
            .any_of
            .iter()
            .enumerate()
            .map(|(i, member)| Value::Object(self.object(member, &SchemaAt::AnyOf(o.at, i), out)))
            .collect();
        if s.nullable && o.kind.is_none() && d.is_2020() {
            members.push(Value::Object(Map::from_iter([("type".to_owned(), Value::from("null"))])));
        }
        let key = if o.one_of && d.is_rich() { "oneOf" } else { "anyOf" };
        if o.one_of && !d.is_rich() {
            out.push(Diagnostic::warning(
                codes::CHANGED_SCHEMA,
                child(&o.at.path(), "any_of"),
                format!("{} has no `oneOf`: the alternatives were written as `anyOf`", d.name()),
            ));
        }
        o.m.insert(key.into(), Value::Array(members));
    }

    /// OpenAPI 3.0 and Gemini have no `null` type, and `nullable` counts only beside a `type`
    /// in the same schema object (OpenAPI 3.0.3), so a bare `{type: null}` alternative cannot
    /// be written as one. Alternatives `[X, {type: null}]` are written as X with `nullable:
    /// true`: merged into this schema when their keywords do not clash, else as the one
    /// alternative; `[X, Y, {type: null}]` as `anyOf` (not `oneOf`: `null` would match both) of
    /// X and Y each nullable. False, writing nothing, when there is no bare null alternative
    /// or another alternative has no type of its own to carry `nullable` (a reference, whose
    /// siblings OpenAPI 3.0 ignores; a union): the null branch is then written as the schema
    /// writer writes a `null` type, with its diagnostic. An alternative's `enum` gets `null`
    /// too: `nullable` does not widen an `enum` (OpenAPI 3.0.3).
    fn fold_null_branches(&self, o: &mut Object, out: &mut Vec<Diagnostic>) -> bool {
        let s = o.s;
        let null = Schema::of(SchemaType::Null);
        let (nulls, others): (Vec<&Schema>, Vec<&Schema>) = s.any_of.iter().partition(|m| **m == null);
        // A value set's entries become the enum only when written: not one to add `null` to.
        let typed = |m: &&Schema| {
            m.kind.is_some_and(|k| k != SchemaType::Null)
                && m.reference.is_none()
                && (m.value_set.is_none() || m.enumeration.is_some())
        };
        if nulls.is_empty() || others.is_empty() || !others.iter().all(typed) || (o.one_of && others.len() > 1) {
            return false;
        }
        let written: Vec<Map<String, Value>> = others
            .iter()
            .enumerate()
            .map(|(i, member)| {
                let mut nullable = Schema { nullable: true, ..(*member).clone() };
                if let Some(values) = nullable.enumeration.as_mut()
                    && !values.iter().any(|v| v.value.is_null())
                {
                    values.push(EnumValue::new(Value::Null));
                }
                // The model path of the member as read: the null branches are not counted.
                let at = s.any_of.iter().position(|m| std::ptr::eq(m, *member)).unwrap_or(i);
                self.object(&nullable, &SchemaAt::AnyOf(o.at, at), out)
            })
            .collect();
        if let [member] = written.as_slice()
            && s.reference.is_none()
            && o.m.iter().all(|(key, value)| member.get(key).is_none_or(|theirs| theirs == value))
        {
            let mut merged = member.clone();
            merged.extend(std::mem::take(&mut o.m));
            o.m = merged;
            return true;
        }
        let key = if o.one_of && self.dialect.is_rich() { "oneOf" } else { "anyOf" };
        o.m.insert(key.into(), Value::Array(written.into_iter().map(Value::Object).collect()));
        true
    }

    /// A kept keyword's value with its `$ref`s to named schemas pointing where this writer
    /// puts definitions (`#/components/schemas/X` becomes `#/$defs/X` in JSON Schema).
    fn retarget(&self, value: &Value) -> Value {
        let Some(prefix) = self.reference_prefix else { return value.clone() };
        match value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| {
                        let v = match (k.as_str(), v) {
                            ("$ref", Value::String(r)) => toolport_core::definitions::name_in_reference(r)
                                .map_or_else(|| v.clone(), |name| Value::String(reference_to(prefix, &name))),
                            _ => self.retarget(v),
                        };
                        (k.clone(), v)
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.retarget(v)).collect()),
            other => other.clone(),
        }
    }

    fn extras(
        &self,
        extras: Option<&Map<String, Value>>,
        m: &mut Map<String, Value>,
        at: &SchemaAt,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(extras) = extras else { return };
        let d = self.dialect;
        for (key, value) in extras {
            if key == ONE_OF_MARK || key == "required" || m.contains_key(key) {
                continue;
            }
            let allowed = match d {
                Dialect::JsonSchema | Dialect::OpenApi31 => true,
                Dialect::OpenApi30 => key.starts_with("x-") || OPENAPI_30_KEYWORDS.contains(&key.as_str()),
                Dialect::Gemini => false,
            };
            let mut refs = Vec::new();
            toolport_core::definitions::refs_in_value(value, &mut refs);
            let names_schemas = refs.into_iter().any(|r| toolport_core::definitions::name_in_reference(r).is_some());
            if allowed && names_schemas && self.reference_prefix.is_none() {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&child(&child(&at.path(), "extras"), EXTRAS_KEY), key),
                    format!("`{key}` refers to named schemas, which are inlined here; it was left out"),
                ));
            } else if allowed {
                m.insert(key.clone(), self.retarget(value));
            } else {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&child(&child(&at.path(), "extras"), EXTRAS_KEY), key),
                    format!("{} has no `{key}`; it was left out", d.name()),
                ));
            }
        }
    }
}

/// One schema object being written: the schema, its model path, the keywords written so far,
/// and what [`Writer::start`] decided before writing them.
struct Object<'s> {
    s: &'s Schema,
    /// Its properties: the schema's own, or a parameter list's ([`Writer::write_parameters`]).
    members: Members<'s>,
    at: &'s SchemaAt<'s>,
    m: Map<String, Value>,
    /// `extras["jsonschema"]`: the keywords kept verbatim.
    kept: Option<&'s Map<String, Value>>,
    /// The alternatives were read from `oneOf`.
    one_of: bool,
    /// The enum written: the schema's own, else its value set's entries.
    enumeration: Option<Vec<EnumValue>>,
    /// The value set's entries were left out for the expansion budget (already reported).
    values_cut: bool,
    /// Gemini allows only string enums: the values are written as strings.
    stringify_enum: bool,
    enum_has_null: bool,
    /// The type written (string when the enum was stringified).
    kind: Option<SchemaType>,
}

/// About how many keywords `s` is written with: one per field set, and the keywords kept for
/// it. Its map is made that size rather than grown by inserting, which leaves room for 3, 7
/// or 14 entries: in a document of many small schemas that room is most of their memory.
fn keyword_estimate(s: &Schema, members: &Members, kept: usize) -> usize {
    let set = [
        s.reference.is_some(),
        s.kind.is_some() || s.nullable,
        s.title.is_some(),
        s.description.is_some(),
        s.format.is_some(),
        s.default.is_some(),
        s.enumeration.is_some() || s.value_set.is_some(),
        !s.examples.is_empty(),
        s.multiline,
        s.constraints.minimum.is_some(),
        s.constraints.maximum.is_some(),
        s.constraints.exclusive_minimum.is_some(),
        s.constraints.exclusive_maximum.is_some(),
        s.constraints.min_length.is_some(),
        s.constraints.max_length.is_some(),
        s.constraints.pattern.is_some(),
        s.constraints.min_items.is_some(),
        s.constraints.max_items.is_some(),
        s.constraints.unique_items,
        s.items.is_some(),
        members.len() > 0,
        (0..members.len()).any(|i| members.get(i).1),
        s.additional_properties.is_some(),
        !s.any_of.is_empty(),
    ];
    set.into_iter().filter(|&is_set| is_set).count() + kept
}

/// The properties an object schema is written with: its own, or a parameter list's, each as
/// its name, whether it is required, and its schema.
#[derive(Clone, Copy)]
enum Members<'s> {
    Properties(&'s [Property]),
    Parameters(&'s [Parameter]),
}

impl<'s> Members<'s> {
    fn len(&self) -> usize {
        match self {
            Members::Properties(list) => list.len(),
            Members::Parameters(list) => list.len(),
        }
    }

    fn get(&self, i: usize) -> (&'s str, bool, &'s Schema) {
        match *self {
            Members::Properties(list) => (&list[i].name, list[i].required, &list[i].schema),
            Members::Parameters(list) => (&list[i].name, list[i].required, &list[i].schema),
        }
    }
}
