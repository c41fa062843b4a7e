//! Reading JSON Schema values into canonical [`Schema`]s: [`read`], [`read_with_definitions`]
//! and the [`Reader`] of schemas inside a larger document. References are resolved here;
//! each object's keywords are read by part (annotations, constraints, structure), and what
//! depends on several keywords (`required`, 3.0's boolean bounds, `allOf`) last.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::json_kind::kind_of;
use toolport_core::source::child;
use toolport_core::{AdditionalProperties, Diagnostic, EnumValue, Property, Schema, SchemaType, codes};

use crate::merge::{merge, resolve_required_leftovers};
use crate::{Dialect, ENUM_LABELS, EXTRAS_KEY, MULTILINE, ONE_OF_MARK, VALUE_SET};
use references::percent_decode;

mod references;

/// Reads one self-contained schema (its own `$defs` are the root for `$ref`s), with every
/// reference to a named schema inlined (recursion cut at the first repeat, see
/// [`toolport_core::definitions::inline`]). [`read_with_definitions`] keeps them instead.
pub fn read(value: &Value, dialect: Dialect) -> (Schema, Vec<Diagnostic>) {
    let mut reader = Reader::new(value, dialect);
    let schema = reader.read(value, "");
    let definitions = reader.take_definitions();
    let mut diagnostics = reader.take_diagnostics();
    if definitions.is_empty() {
        return (schema, diagnostics);
    }
    // Reading tolerates recursion: one note per recursive definition, at its place.
    let mut references: Vec<(&String, &String)> = reader.names.iter().map(|(r, n)| (n, r)).collect();
    references.sort_by_key(|(name, _)| definitions.get_index_of(*name));
    let mut recursion = toolport_core::definitions::Recursion::new(&definitions);
    for (name, reference) in references {
        let probe = Schema { reference: Some(name.clone()), ..Schema::default() };
        if recursion.first_in(&probe).as_ref() == Some(name) {
            diagnostics.push(Diagnostic::info(
                codes::INPUT_TOLERATED,
                percent_decode(reference.trim_start_matches('#')),
                format!("recursive reference `{reference}`: inner occurrences are read as a loose schema"),
            ));
        }
    }
    let (inlined, _) = toolport_core::definitions::inline(&schema, &definitions, "");
    (inlined, diagnostics)
}

/// Reads one self-contained schema, keeping references to its named schemas (`$defs`,
/// `definitions`) as [`Schema::reference`] with the definitions they name.
pub fn read_with_definitions(value: &Value, dialect: Dialect) -> (Schema, IndexMap<String, Schema>, Vec<Diagnostic>) {
    let mut reader = Reader::new(value, dialect);
    let schema = reader.read(value, "");
    (schema, reader.take_definitions(), reader.take_diagnostics())
}

/// Reads schemas that live inside a larger document (an OpenAPI file), resolving `$ref`s
/// against it. Keep one reader per document: each named schema is read once, into
/// [`Reader::definitions`].
#[derive(Debug)]
pub struct Reader<'a> {
    root: &'a Value,
    dialect: Dialect,
    /// Inlined (unnamed) references, memoized.
    cache: HashMap<String, Schema>,
    /// References being inlined, innermost last: a reference already here is a cycle.
    active: Vec<String>,
    /// Nesting of `read` calls (0 = a top-level read).
    nesting: usize,
    /// Named schemas read so far, by definition name.
    definitions: IndexMap<String, Schema>,
    /// Definition name of each named `$ref` met, by reference text.
    names: HashMap<String, String>,
    /// The definition names assigned (the values of `names`), so a free one is found without
    /// collecting them for every new reference.
    taken_names: HashSet<String>,
    /// Named schemas met but not read yet (reference, name): read after the current
    /// top-level read, so long chains of references never nest.
    pending: Vec<(String, String)>,
    reported: HashSet<String>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    /// Nested inlined references deeper than this are cut to a schema of any type.
    pub const MAX_DEPTH: usize = 48;

    pub fn new(root: &'a Value, dialect: Dialect) -> Self {
        Reader {
            root,
            dialect,
            cache: HashMap::new(),
            active: Vec::new(),
            nesting: 0,
            definitions: IndexMap::new(),
            names: HashMap::new(),
            taken_names: HashSet::new(),
            pending: Vec::new(),
            reported: HashSet::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The diagnostics so far (paths are JSON pointers into the root document).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// The named schemas the schemas read so far refer to, by definition name (the last
    /// segment of the reference; a name met in two containers gets a `_2` suffix).
    pub fn definitions(&self) -> &IndexMap<String, Schema> {
        &self.definitions
    }

    /// Takes [`Reader::definitions`]; later reads start a new map (names stay assigned).
    pub fn take_definitions(&mut self) -> IndexMap<String, Schema> {
        std::mem::take(&mut self.definitions)
    }

    /// Reads the schema `value`, found at JSON pointer `path` of the root document.
    pub fn read(&mut self, value: &Value, path: &str) -> Schema {
        self.nesting += 1;
        let schema = self.read_value(value, path);
        self.nesting -= 1;
        if self.nesting == 0 {
            self.read_pending();
        }
        schema
    }

    fn read_value(&mut self, value: &Value, path: &str) -> Schema {
        match value {
            Value::Object(map) => match map.get("$ref") {
                Some(Value::String(reference)) => self.read_ref(reference, map, path),
                _ => self.read_object(map, path),
            },
            // `true` accepts anything; `false` nothing: kept as written.
            Value::Bool(true) => Schema::default(),
            other => {
                let mut schema = Schema::default();
                schema
                    .extras
                    .insert(EXTRAS_KEY.into(), Value::Object(Map::from_iter([("$schema".into(), other.clone())])));
                if !other.is_boolean() {
                    self.diagnostics.push(Diagnostic::warning(
                        codes::INPUT_INVALID,
                        path,
                        format!("a schema must be an object or a boolean, found {}", kind_of(other)),
                    ));
                }
                schema
            }
        }
    }

    fn read_object(&mut self, map: &Map<String, Value>, path: &str) -> Schema {
        let mut o = Object::new(map, path);
        for (key, value) in map {
            if self.read_keyword(&mut o, key, value) {
                self.keep(&mut o.extras, key, value);
            }
        }
        o.read_markers();
        self.finish_object(o)
    }

    /// Reads one keyword into `o`; says whether it is kept verbatim instead (unknown, or a
    /// value of a form the canonical field cannot hold).
    fn read_keyword<'v>(&mut self, o: &mut Object<'v>, key: &str, value: &'v Value) -> bool {
        match key {
            "type" | "nullable" | "title" | "description" | "default" | "enum" | "examples" | "example" | "format" => {
                self.read_annotation(o, key, value)
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "minLength" | "maxLength"
            | "minItems" | "maxItems" | "pattern" | "uniqueItems" => o.read_constraint(key, value),
            "items" | "properties" | "required" | "additionalProperties" | "anyOf" | "oneOf" | "allOf" => {
                self.read_structure(o, key, value)
            }
            // Read after the other keywords, by `Object::read_markers`.
            ENUM_LABELS => !value.is_array(),
            VALUE_SET => !value.is_string(),
            MULTILINE => *value != Value::Bool(true),
            // Definitions are reached through `$ref`s, which are inlined.
            "$defs" | "definitions" => !value.is_object(),
            _ => true,
        }
    }

    /// The type and the keywords that describe values: title, description, default, enum,
    /// examples, format.
    fn read_annotation(&mut self, o: &mut Object, key: &str, value: &Value) -> bool {
        let is_2020 = self.dialect.is_2020();
        let s = &mut o.schema;
        match (key, value) {
            ("type", Value::String(name)) => match SchemaType::parse(name) {
                Some(kind) => s.kind = Some(kind),
                None => match type_alias(name) {
                    Some(kind) => {
                        s.kind = kind;
                        self.diagnostics.push(alias_read(name, kind, &child(o.path, key)));
                    }
                    None => {
                        self.diagnostics.push(Diagnostic::warning(
                            codes::INPUT_INVALID,
                            child(o.path, key),
                            format!("unknown type `{name}`; kept as written"),
                        ));
                        return true;
                    }
                },
            },
            ("type", Value::Array(names)) if !o.map.contains_key("anyOf") => {
                return read_type_array(s, names, &child(o.path, key), &mut self.diagnostics);
            }
            ("nullable", Value::Bool(true)) => s.nullable = true,
            ("title", Value::String(text)) => s.title = Some(text.clone()),
            ("description", Value::String(text)) => s.description = Some(text.clone()),
            ("default", v) => s.default = Some(Box::new(v.clone())),
            ("enum", Value::Array(values)) => {
                s.enumeration = Some(values.iter().cloned().map(EnumValue::new).collect())
            }
            ("examples", Value::Array(values)) if is_2020 => s.examples = values.clone(),
            ("example", v) if !is_2020 => s.examples = vec![v.clone()],
            ("format", Value::String(text)) => s.format = Some(text.clone()),
            _ => return true,
        }
        false
    }

    /// Items, properties and the names they require, additional properties, alternatives and
    /// `allOf` members (merged once every other keyword is read).
    fn read_structure<'v>(&mut self, o: &mut Object<'v>, key: &str, value: &'v Value) -> bool {
        let path = o.path;
        match (key, value) {
            ("items", v @ (Value::Object(_) | Value::Bool(true))) => {
                o.schema.items = Some(Box::new(self.read(v, &child(path, key))));
            }
            ("properties", Value::Object(properties)) => {
                let at = child(path, key);
                for (name, schema) in properties {
                    let schema = self.read(schema, &child(&at, name));
                    o.schema.properties.push(Property { name: name.clone(), required: false, schema });
                }
            }
            ("required", Value::Array(names)) => {
                // One name of the wrong kind does not cost the others: each is said and left out.
                for (index, name) in names.iter().enumerate() {
                    match name {
                        Value::String(name) => o.required.push(name),
                        other => self.diagnostics.push(Diagnostic::warning(
                            codes::INPUT_TOLERATED,
                            child(&child(path, key), index.to_string()),
                            format!(
                                "`required` lists property names, not {}: {other} is left out, the names beside it are read",
                                kind_of(other)
                            ),
                        )),
                    }
                }
            }
            ("additionalProperties", Value::Bool(allowed)) => {
                o.schema.additional_properties = Some(AdditionalProperties::Allowed(*allowed));
            }
            ("additionalProperties", v @ Value::Object(_)) => {
                let schema = self.read(v, &child(path, key));
                o.schema.additional_properties = Some(AdditionalProperties::Schema(Box::new(schema)));
            }
            ("anyOf", Value::Array(members)) => self.read_alternatives(&mut o.schema, members, &child(path, key)),
            ("oneOf", Value::Array(members)) if !o.map.contains_key("anyOf") => {
                self.read_alternatives(&mut o.schema, members, &child(path, key));
                o.extras.insert(ONE_OF_MARK.into(), Value::Bool(true));
            }
            ("allOf", Value::Array(members)) => o.all_of = Some(members),
            _ => return true,
        }
        false
    }

    /// Keeps a keyword verbatim. Kept keywords may hold schemas (`not`,
    /// `x-expansionResources`): the named schemas they refer to become definitions too, so
    /// written `$ref`s resolve.
    fn keep(&mut self, extras: &mut Map<String, Value>, key: &str, value: &Value) {
        let mut refs = Vec::new();
        toolport_core::definitions::refs_in_value(value, &mut refs);
        for reference in refs {
            self.named(reference);
        }
        extras.insert(key.to_owned(), value.clone());
    }

    /// What depends on more than one keyword: OpenAPI 3.0's boolean exclusive bounds, the
    /// `required` names, and the `allOf` members merged into the rest.
    fn finish_object(&mut self, o: Object) -> Schema {
        let Object { map: _, path, mut schema, mut extras, required, all_of, exclusive_minimum, exclusive_maximum } = o;
        let s = &mut schema;
        // OpenAPI 3.0: `exclusiveMinimum: true` makes `minimum` exclusive.
        if exclusive_minimum {
            match s.constraints.minimum.take() {
                Some(n) => s.constraints.exclusive_minimum = Some(n),
                None => drop(extras.insert("exclusiveMinimum".into(), Value::Bool(true))),
            }
        }
        if exclusive_maximum {
            match s.constraints.maximum.take() {
                Some(n) => s.constraints.exclusive_maximum = Some(n),
                None => drop(extras.insert("exclusiveMaximum".into(), Value::Bool(true))),
            }
        }
        let mut unmatched = Vec::new();
        for name in required {
            match s.properties.iter_mut().find(|p| p.name == name) {
                Some(property) => property.required = true,
                None => unmatched.push(Value::String(name.to_owned())),
            }
        }
        if !unmatched.is_empty() {
            extras.insert("required".into(), Value::Array(unmatched));
        }
        if !extras.is_empty() {
            s.extras.insert(EXTRAS_KEY.into(), Value::Object(extras));
        }
        if let Some(members) = all_of {
            let at = child(path, "allOf");
            for (i, member) in members.iter().enumerate() {
                let member = self.read_member(member, &child(&at, i.to_string()));
                merge(s, member);
            }
            resolve_required_leftovers(s);
        }
        schema
    }

    fn read_alternatives(&mut self, s: &mut Schema, members: &[Value], path: &str) {
        s.any_of = members.iter().enumerate().map(|(i, m)| self.read(m, &child(path, i.to_string()))).collect();
    }
}

/// One schema object being read: the keywords (at JSON pointer `path`), the schema so far, and
/// what waits for [`Reader::finish_object`]: the keywords kept verbatim and those that depend
/// on others.
struct Object<'v> {
    map: &'v Map<String, Value>,
    path: &'v str,
    schema: Schema,
    extras: Map<String, Value>,
    required: Vec<&'v str>,
    all_of: Option<&'v Vec<Value>>,
    /// OpenAPI 3.0's `exclusiveMinimum: true`, which makes `minimum` exclusive.
    exclusive_minimum: bool,
    exclusive_maximum: bool,
}

impl<'v> Object<'v> {
    fn new(map: &'v Map<String, Value>, path: &'v str) -> Self {
        Object {
            map,
            path,
            schema: Schema::default(),
            extras: Map::new(),
            required: Vec::new(),
            all_of: None,
            exclusive_minimum: false,
            exclusive_maximum: false,
        }
    }

    /// Bounds, lengths, pattern and `uniqueItems`.
    fn read_constraint(&mut self, key: &str, value: &Value) -> bool {
        let s = &mut self.schema;
        match (key, value) {
            ("minimum", Value::Number(n)) => s.constraints.minimum = Some(n.clone()),
            ("maximum", Value::Number(n)) => s.constraints.maximum = Some(n.clone()),
            ("exclusiveMinimum", Value::Number(n)) => s.constraints.exclusive_minimum = Some(n.clone()),
            ("exclusiveMaximum", Value::Number(n)) => s.constraints.exclusive_maximum = Some(n.clone()),
            ("exclusiveMinimum", Value::Bool(true)) => self.exclusive_minimum = true,
            ("exclusiveMaximum", Value::Bool(true)) => self.exclusive_maximum = true,
            ("minLength", v) => return set_u64(&mut s.constraints.min_length, v),
            ("maxLength", v) => return set_u64(&mut s.constraints.max_length, v),
            ("minItems", v) => return set_u64(&mut s.constraints.min_items, v),
            ("maxItems", v) => return set_u64(&mut s.constraints.max_items, v),
            ("pattern", Value::String(text)) => s.constraints.pattern = Some(text.clone()),
            ("uniqueItems", Value::Bool(true)) => s.constraints.unique_items = true,
            _ => return true,
        }
        false
    }

    /// The `x-toolport-*` markers rich dialects write: enum labels, the value set, multi-line.
    fn read_markers(&mut self) {
        let s = &mut self.schema;
        if let Some(Value::Array(labels)) = self.map.get(ENUM_LABELS) {
            for (entry, label) in s.enumeration.iter_mut().flatten().zip(labels) {
                entry.label = label.as_str().map(str::to_owned);
            }
        }
        s.value_set = self.map.get(VALUE_SET).and_then(Value::as_str).map(str::to_owned);
        s.multiline = self.map.get(MULTILINE) == Some(&Value::Bool(true));
    }
}

/// A `type` array (`["string", "null"]`): one type, a nullable one, or several as `any_of`.
/// Says whether it is kept verbatim instead (a name that is neither a type nor an alias).
fn read_type_array(s: &mut Schema, names: &[Value], path: &str, diagnostics: &mut Vec<Diagnostic>) -> bool {
    // Each name's type, `None` for an alias meaning any type.
    let mut kinds: Vec<Option<SchemaType>> = Vec::with_capacity(names.len());
    let mut aliases = Vec::new();
    for name in names {
        let Some(name) = name.as_str() else { return true };
        match SchemaType::parse(name) {
            Some(kind) => kinds.push(Some(kind)),
            None => match type_alias(name) {
                Some(kind) => {
                    kinds.push(kind);
                    aliases.push(alias_read(name, kind, path));
                }
                None => return true,
            },
        }
    }
    diagnostics.extend(aliases);
    if kinds.contains(&None) {
        // One of the types is any type: so is the union.
        return false;
    }
    let kinds: Vec<SchemaType> = kinds.into_iter().flatten().collect();
    let non_null: Vec<SchemaType> = kinds.iter().copied().filter(|k| *k != SchemaType::Null).collect();
    s.nullable = non_null.len() < kinds.len() && !non_null.is_empty();
    match non_null.as_slice() {
        [] if kinds.is_empty() => return true,
        [] => s.kind = Some(SchemaType::Null),
        [one] => s.kind = Some(*one),
        several => s.any_of = several.iter().map(|k| Schema::of(*k)).collect(),
    }
    false
}

/// Type names that are not JSON Schema's but that function-calling datasets write (Python's
/// names, as in the Berkeley function-calling leaderboard's `dict`), with the JSON Schema type
/// each means; `None` for `any`, a schema of any type.
const TYPE_ALIASES: &[(&str, Option<SchemaType>)] = &[
    ("dict", Some(SchemaType::Object)),
    ("list", Some(SchemaType::Array)),
    ("tuple", Some(SchemaType::Array)),
    ("float", Some(SchemaType::Number)),
    ("int", Some(SchemaType::Integer)),
    ("bool", Some(SchemaType::Boolean)),
    ("str", Some(SchemaType::String)),
    ("any", None),
];

/// The JSON Schema type an alias names ([`TYPE_ALIASES`]); `None` when `name` is no alias.
fn type_alias(name: &str) -> Option<Option<SchemaType>> {
    TYPE_ALIASES.iter().find(|(alias, _)| *alias == name).map(|(_, kind)| *kind)
}

/// The warning that the `type` at `path` was the alias `name`, read as `kind`: every writer
/// then writes the JSON Schema type, which validators accept.
fn alias_read(name: &str, kind: Option<SchemaType>, path: &str) -> Diagnostic {
    let read_as = match kind {
        Some(kind) => format!("`{}`", kind.as_str()),
        None => "a schema of any type (no `type`)".to_owned(),
    };
    Diagnostic::warning(
        codes::CHANGED_SCHEMA,
        path,
        format!("type `{name}` is not a JSON Schema type; read as {read_as}"),
    )
}

fn set_u64(slot: &mut Option<u64>, value: &Value) -> bool {
    match value.as_u64() {
        Some(n) => {
            *slot = Some(n);
            false
        }
        None => true,
    }
}
