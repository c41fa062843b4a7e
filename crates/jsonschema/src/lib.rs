//! Conversion between JSON Schema values and toolport's canonical [`Schema`], for the dialects
//! tool formats use:
//!
//! | [`Dialect`] | used by | notes |
//! |---|---|---|
//! | `JsonSchema` | MCP, OpenAI, Anthropic (2020-12) | `type` arrays, `examples`, numeric `exclusiveMinimum` |
//! | `OpenApi30` | OpenAPI 3.0 schema objects | `nullable`, `example`, boolean `exclusiveMinimum` |
//! | `OpenApi31` | OpenAPI 3.1 schema objects | JSON Schema 2020-12 plus `x-` keys |
//! | `Gemini` | Gemini / Vertex function declarations (write only; reads like 3.0) | the OpenAPI 3.0 subset: string enums, no oneOf/allOf/not |
//!
//! Reading ([`Reader`], or [`read`] for a self-contained schema):
//! - a `$ref` to a named schema (`#/components/schemas/X`, `#/$defs/X`, `#/definitions/X`)
//!   becomes [`Schema::reference`] `X`, and the named schema is read once into
//!   [`Reader::definitions`] (for `ToolSet::definitions`; a name met in two containers gets a
//!   `_2` suffix). Recursion needs no cut. [`read`] inlines them for callers without a place
//!   for definitions. Other local pointers are inlined, memoized, cycles and nesting deeper
//!   than [`Reader::MAX_DEPTH`] cut to a schema of any type with one diagnostic. Remote
//!   references are never fetched: they stay as `$ref` in the extras, with a diagnostic;
//! - `allOf` members are merged into one schema; `oneOf` is read as `any_of` (remembered, so a
//!   rich dialect writes `oneOf` again); `nullable: true` and a `null` in a type array both
//!   become [`Schema::nullable`];
//! - every keyword outside the canonical subset is kept verbatim in
//!   `Schema::extras["jsonschema"]`, so a schema-rich to schema-rich conversion loses nothing.
//!
//! Writing ([`write()`], [`Writer`]) emits the dialect's form and returns a diagnostic (with the
//! model path given) for everything the dialect cannot express or forced to change. A reference
//! is written `$ref: <prefix><name>` ([`reference_prefix`]: `#/$defs/` for JSON Schema,
//! `#/components/schemas/` for OpenAPI; the caller writes the definitions there); Gemini has
//! no references, so they are inlined with `toolport_core::definitions::inline`.
#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Number, Value};
use toolport_core::schema_merge::{self, MergePolicy};
use toolport_core::source::child;
use toolport_core::{AdditionalProperties, Diagnostic, EnumValue, Property, Schema, SchemaType, ValueSet, codes};

/// Key of [`Schema::extras`] holding keywords outside the canonical subset.
pub const EXTRAS_KEY: &str = "jsonschema";
/// Marks an `any_of` that was written `oneOf`.
const ONE_OF_MARK: &str = "x-toolport-one-of";
/// Labels of enum values, aligned with `enum` (`null` where a value has none).
const ENUM_LABELS: &str = "x-toolport-enum-labels";
/// [`Schema::value_set`] in rich dialects.
const VALUE_SET: &str = "x-toolport-value-set";
/// [`Schema::multiline`] in rich dialects.
const MULTILINE: &str = "x-toolport-multiline";

/// Every key of the canonical schema's JSON form. [`write`] reports its own partial losses
/// (and other formats' extras on schemas), so writers pass this as `Carried::schema` to
/// `toolport_core::loss::uncarried`.
pub const ALL_SCHEMA_KEYS: &[&str] = &[
    "reference",
    "type",
    "nullable",
    "title",
    "description",
    "default",
    "enum",
    "value_set",
    "examples",
    "format",
    "multiline",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "min_length",
    "max_length",
    "pattern",
    "min_items",
    "max_items",
    "unique_items",
    "items",
    "properties",
    "additional_properties",
    "any_of",
];

/// A JSON Schema dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// JSON Schema 2020-12.
    JsonSchema,
    /// OpenAPI 3.0 schema objects.
    OpenApi30,
    /// OpenAPI 3.1 schema objects (2020-12 with `x-` keys).
    OpenApi31,
    /// The Gemini / Vertex function-declaration subset of OpenAPI 3.0.
    Gemini,
}

impl Dialect {
    /// `type` arrays, `examples`, numeric exclusive bounds.
    fn is_2020(self) -> bool {
        matches!(self, Dialect::JsonSchema | Dialect::OpenApi31)
    }

    /// Dialects that keep every keyword (extras, markers) verbatim.
    fn is_rich(self) -> bool {
        !matches!(self, Dialect::Gemini)
    }

    fn name(self) -> &'static str {
        match self {
            Dialect::JsonSchema => "JSON Schema 2020-12",
            Dialect::OpenApi30 => "OpenAPI 3.0",
            Dialect::OpenApi31 => "OpenAPI 3.1",
            Dialect::Gemini => "the Gemini/Vertex schema subset",
        }
    }
}

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
    for (name, reference) in references {
        let probe = Schema { reference: Some(name.clone()), ..Schema::default() };
        if toolport_core::definitions::recursive(&probe, &definitions).as_ref() == Some(name) {
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

    /// The value a local reference (`#/a/b`) points to in the root document.
    pub fn lookup(&self, reference: &str) -> Option<&'a Value> {
        let pointer = reference.strip_prefix('#')?;
        let decoded = percent_decode(pointer);
        self.root.pointer(&decoded)
    }

    /// Follows a chain of `$ref`s (parameters, request bodies, responses) to the object they
    /// name, with the pointer of that object. Unresolvable or cyclic chains give `None`.
    pub fn follow(&self, value: &'a Value, path: &str) -> Option<(&'a Value, String)> {
        let mut current = value;
        let mut at = path.to_owned();
        for _ in 0..Self::MAX_DEPTH {
            match current.get("$ref").and_then(Value::as_str) {
                Some(reference) => {
                    current = self.lookup(reference)?;
                    at = reference.trim_start_matches('#').to_owned();
                }
                None => return Some((current, at)),
            }
        }
        None
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

    fn read_pending(&mut self) {
        self.nesting += 1;
        while let Some((reference, name)) = self.pending.pop() {
            let Some(target) = self.lookup(&reference) else { continue };
            let target_path = percent_decode(reference.trim_start_matches('#'));
            let schema = self.read_value(target, &target_path);
            self.definitions.insert(name, schema);
        }
        self.nesting -= 1;
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

    /// The definition name of a `$ref` to a named schema that exists, assigning one (and
    /// queueing the schema to be read) the first time.
    fn named(&mut self, reference: &str) -> Option<String> {
        if let Some(name) = self.names.get(reference) {
            return Some(name.clone());
        }
        let base = toolport_core::definitions::name_in_reference(&percent_decode(reference))?;
        self.lookup(reference)?;
        let taken: HashSet<&String> = self.names.values().collect();
        let name = toolport_core::definitions::free_name(&base, |n| taken.contains(&n.to_owned()));
        self.names.insert(reference.to_owned(), name.clone());
        // Reserve the slot so definitions keep the order they were first met in.
        self.definitions.insert(name.clone(), Schema::default());
        self.pending.push((reference.to_owned(), name.clone()));
        Some(name)
    }

    fn read_ref(&mut self, reference: &str, map: &Map<String, Value>, path: &str) -> Schema {
        if let Some(name) = self.named(reference) {
            let mut schema = if map.len() == 1 {
                Schema::default()
            } else {
                // Keywords beside `$ref` (a description, `nullable`) refine the referenced schema.
                let siblings: Map<String, Value> =
                    map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
                self.read_object(&siblings, path)
            };
            schema.reference = Some(name);
            return schema;
        }
        let resolved = self.inline_ref(reference, path);
        if map.len() == 1 {
            return resolved;
        }
        let siblings: Map<String, Value> =
            map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
        let mut refined = self.read_object(&siblings, path);
        merge(&mut refined, resolved);
        refined
    }

    /// The schema a reference points to, read in place (a deep pointer, or an `allOf` member
    /// whose properties must merge).
    fn inline_ref(&mut self, reference: &str, path: &str) -> Schema {
        if !reference.starts_with('#') {
            self.report_once(
                reference,
                Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    child(path, "$ref"),
                    format!("remote reference `{reference}` is not fetched; the schema is left open (any type)"),
                ),
            );
            keep_ref(reference)
        } else if self.active.iter().any(|r| r == reference) {
            self.report_once(
                reference,
                Diagnostic::info(
                    codes::INPUT_TOLERATED,
                    child(path, "$ref"),
                    format!("recursive reference `{reference}`: inner occurrences are read as a schema of any type"),
                ),
            );
            Schema::default()
        } else if let Some(cached) = self.cache.get(reference) {
            cached.clone()
        } else if self.active.len() >= Self::MAX_DEPTH {
            self.report_once(
                "#depth",
                Diagnostic::info(
                    codes::INPUT_TOLERATED,
                    child(path, "$ref"),
                    format!("references nest deeper than {}; deeper schemas are left open", Self::MAX_DEPTH),
                ),
            );
            Schema::default()
        } else {
            match self.lookup(reference) {
                Some(target) => {
                    self.active.push(reference.to_owned());
                    let target_path = percent_decode(reference.trim_start_matches('#'));
                    let schema = self.read_value(target, &target_path);
                    self.active.pop();
                    self.cache.insert(reference.to_owned(), schema.clone());
                    schema
                }
                None => {
                    self.report_once(
                        reference,
                        Diagnostic::warning(
                            codes::INPUT_UNRESOLVED,
                            child(path, "$ref"),
                            format!("reference `{reference}` names nothing in this document; the schema is left open"),
                        ),
                    );
                    keep_ref(reference)
                }
            }
        }
    }

    /// An `allOf` member: a reference is read in place so its properties merge.
    fn read_member(&mut self, member: &Value, path: &str) -> Schema {
        match member.as_object() {
            Some(map) if map.len() == 1 && matches!(map.get("$ref"), Some(Value::String(_))) => {
                let reference = map["$ref"].as_str().unwrap_or_default().to_owned();
                self.inline_ref(&reference, path)
            }
            _ => self.read(member, path),
        }
    }

    fn report_once(&mut self, key: &str, diagnostic: Diagnostic) {
        if self.reported.insert(key.to_owned()) {
            self.diagnostics.push(diagnostic);
        }
    }

    fn read_object(&mut self, map: &Map<String, Value>, path: &str) -> Schema {
        let mut s = Schema::default();
        let mut extras = Map::new();
        let mut required: Vec<&str> = Vec::new();
        let mut all_of: Option<&Vec<Value>> = None;
        let mut exclusive_flags = (None, None);
        let dialect = self.dialect;
        for (key, value) in map {
            let keep = match (key.as_str(), value) {
                ("type", Value::String(name)) => match SchemaType::parse(name) {
                    Some(kind) => {
                        s.kind = Some(kind);
                        false
                    }
                    None => {
                        self.diagnostics.push(Diagnostic::warning(
                            codes::INPUT_INVALID,
                            child(path, key),
                            format!("unknown type `{name}`; kept as written"),
                        ));
                        true
                    }
                },
                ("type", Value::Array(names)) if !map.contains_key("anyOf") => self.read_type_array(&mut s, names),
                ("nullable", Value::Bool(true)) => {
                    s.nullable = true;
                    false
                }
                ("title", Value::String(text)) => {
                    s.title = Some(text.clone());
                    false
                }
                ("description", Value::String(text)) => {
                    s.description = Some(text.clone());
                    false
                }
                ("default", v) => {
                    s.default = Some(v.clone());
                    false
                }
                ("enum", Value::Array(values)) => {
                    s.enumeration = Some(values.iter().cloned().map(EnumValue::new).collect());
                    false
                }
                ("examples", Value::Array(values)) if dialect.is_2020() => {
                    s.examples = values.clone();
                    false
                }
                ("example", v) if !dialect.is_2020() => {
                    s.examples = vec![v.clone()];
                    false
                }
                ("format", Value::String(text)) => {
                    s.format = Some(text.clone());
                    false
                }
                ("minimum", Value::Number(n)) => set(&mut s.minimum, n),
                ("maximum", Value::Number(n)) => set(&mut s.maximum, n),
                ("exclusiveMinimum", Value::Number(n)) => set(&mut s.exclusive_minimum, n),
                ("exclusiveMaximum", Value::Number(n)) => set(&mut s.exclusive_maximum, n),
                ("exclusiveMinimum", Value::Bool(true)) => {
                    exclusive_flags.0 = Some(());
                    false
                }
                ("exclusiveMaximum", Value::Bool(true)) => {
                    exclusive_flags.1 = Some(());
                    false
                }
                ("minLength", v) => set_u64(&mut s.min_length, v),
                ("maxLength", v) => set_u64(&mut s.max_length, v),
                ("minItems", v) => set_u64(&mut s.min_items, v),
                ("maxItems", v) => set_u64(&mut s.max_items, v),
                ("pattern", Value::String(text)) => {
                    s.pattern = Some(text.clone());
                    false
                }
                ("uniqueItems", Value::Bool(true)) => {
                    s.unique_items = true;
                    false
                }
                ("items", v @ (Value::Object(_) | Value::Bool(true))) => {
                    s.items = Some(Box::new(self.read(v, &child(path, key))));
                    false
                }
                ("properties", Value::Object(properties)) => {
                    let at = child(path, key);
                    for (name, schema) in properties {
                        let schema = self.read(schema, &child(&at, name));
                        s.properties.push(Property { name: name.clone(), required: false, schema });
                    }
                    false
                }
                ("required", Value::Array(names)) if names.iter().all(Value::is_string) => {
                    required = names.iter().filter_map(Value::as_str).collect();
                    false
                }
                ("additionalProperties", Value::Bool(allowed)) => {
                    s.additional_properties = Some(AdditionalProperties::Allowed(*allowed));
                    false
                }
                ("additionalProperties", v @ Value::Object(_)) => {
                    let schema = self.read(v, &child(path, key));
                    s.additional_properties = Some(AdditionalProperties::Schema(Box::new(schema)));
                    false
                }
                ("anyOf", Value::Array(members)) => {
                    self.read_alternatives(&mut s, members, &child(path, key));
                    false
                }
                ("oneOf", Value::Array(members)) if !map.contains_key("anyOf") => {
                    self.read_alternatives(&mut s, members, &child(path, key));
                    extras.insert(ONE_OF_MARK.into(), Value::Bool(true));
                    false
                }
                ("allOf", Value::Array(members)) => {
                    all_of = Some(members);
                    false
                }
                (ENUM_LABELS, Value::Array(_)) | (VALUE_SET, Value::String(_)) | (MULTILINE, Value::Bool(true)) => {
                    false
                }
                // Definitions are reached through `$ref`s, which are inlined.
                ("$defs" | "definitions", Value::Object(_)) => false,
                _ => true,
            };
            if keep {
                // Kept keywords may hold schemas (`not`, `x-expansionResources`): the named
                // schemas they refer to become definitions too, so written `$ref`s resolve.
                let mut refs = Vec::new();
                toolport_core::definitions::refs_in_value(value, &mut refs);
                for reference in refs {
                    self.named(reference);
                }
                extras.insert(key.clone(), value.clone());
            }
        }
        if let Some(Value::Array(labels)) = map.get(ENUM_LABELS) {
            for (entry, label) in s.enumeration.iter_mut().flatten().zip(labels) {
                entry.label = label.as_str().map(str::to_owned);
            }
        }
        s.value_set = map.get(VALUE_SET).and_then(Value::as_str).map(str::to_owned);
        s.multiline = map.get(MULTILINE) == Some(&Value::Bool(true));
        // OpenAPI 3.0: `exclusiveMinimum: true` makes `minimum` exclusive.
        if exclusive_flags.0.is_some() {
            match s.minimum.take() {
                Some(n) => s.exclusive_minimum = Some(n),
                None => drop(extras.insert("exclusiveMinimum".into(), Value::Bool(true))),
            }
        }
        if exclusive_flags.1.is_some() {
            match s.maximum.take() {
                Some(n) => s.exclusive_maximum = Some(n),
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
                merge(&mut s, member);
            }
            resolve_required_leftovers(&mut s);
        }
        s
    }

    fn read_type_array(&mut self, s: &mut Schema, names: &[Value]) -> bool {
        let kinds: Option<Vec<SchemaType>> = names.iter().map(|n| n.as_str().and_then(SchemaType::parse)).collect();
        let Some(kinds) = kinds else { return true };
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

    fn read_alternatives(&mut self, s: &mut Schema, members: &[Value], path: &str) {
        s.any_of = members.iter().enumerate().map(|(i, m)| self.read(m, &child(path, i.to_string()))).collect();
    }
}

fn keep_ref(reference: &str) -> Schema {
    let mut schema = Schema::default();
    let extras = Map::from_iter([("$ref".to_owned(), Value::String(reference.to_owned()))]);
    schema.extras.insert(EXTRAS_KEY.into(), Value::Object(extras));
    schema
}

fn set(slot: &mut Option<Number>, n: &Number) -> bool {
    *slot = Some(n.clone());
    false
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

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `%25`-style escapes in URI fragments (`#/paths/~1a%7Bb%7D`).
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

fn jsonschema_extras(schema: &mut Schema) -> &mut Map<String, Value> {
    let slot = schema.extras.entry(EXTRAS_KEY.to_owned()).or_insert_with(|| Value::Object(Map::new()));
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("just made an object")
}

/// Merges `other` into `base` (an `allOf` member, or a referenced schema under sibling
/// keywords): what `base` says wins; properties and examples are combined
/// ([`MergePolicy::Conjunction`]).
fn merge(base: &mut Schema, other: Schema) {
    schema_merge::merge(base, other, MergePolicy::Conjunction { keep_alternatives });
}

/// Both sides of a merge have alternatives: the second set is kept as written (an `allOf`
/// member `{anyOf: [...]}` in the extras) rather than guessed at.
fn keep_alternatives(base: &mut Schema, any_of: Vec<Schema>) {
    let values: Vec<Value> = any_of.iter().map(|s| write(s, Dialect::JsonSchema, "").0).collect();
    jsonschema_extras(base).entry("allOf").or_insert_with(|| Value::Array(Vec::new()));
    if let Some(Value::Array(all)) = jsonschema_extras(base).get_mut("allOf") {
        all.push(Value::Object(Map::from_iter([("anyOf".to_owned(), Value::Array(values))])));
    }
}

/// After a merge, `required` names left over from one member may name another's properties.
fn resolve_required_leftovers(s: &mut Schema) {
    let Some(Value::Object(extras)) = s.extras.get_mut(EXTRAS_KEY) else { return };
    let Some(Value::Array(names)) = extras.remove("required") else { return };
    let mut unmatched = Vec::new();
    for name in names {
        match s.properties.iter_mut().find(|p| Some(p.name.as_str()) == name.as_str()) {
            Some(property) => property.required = true,
            None if !unmatched.contains(&name) => unmatched.push(name),
            None => {}
        }
    }
    let Some(Value::Object(extras)) = s.extras.get_mut(EXTRAS_KEY) else { return };
    if !unmatched.is_empty() {
        extras.insert("required".into(), Value::Array(unmatched));
    }
    if extras.is_empty() {
        s.extras.shift_remove(EXTRAS_KEY);
    }
}

/// Keywords an OpenAPI 3.0 schema object may have (besides `x-` keys).
const OPENAPI_30_KEYWORDS: &[&str] = &[
    "title",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
    "required",
    "enum",
    "type",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "items",
    "properties",
    "additionalProperties",
    "description",
    "format",
    "default",
    "nullable",
    "discriminator",
    "readOnly",
    "writeOnly",
    "xml",
    "externalDocs",
    "example",
    "deprecated",
    "$ref",
];

/// Writes `schema` in `dialect`. `path` is the schema's place in the model
/// (`/tools/0/parameters/2/schema`), used in the diagnostics.
pub fn write(schema: &Schema, dialect: Dialect, path: &str) -> (Value, Vec<Diagnostic>) {
    Writer::new(dialect).write(schema, path)
}

/// Where a dialect's `$ref`s to named schemas point by default: `None` for Gemini, whose
/// subset has no references (they are inlined).
pub fn reference_prefix(dialect: Dialect) -> Option<&'static str> {
    match dialect {
        Dialect::JsonSchema => Some("#/$defs/"),
        Dialect::OpenApi30 | Dialect::OpenApi31 => Some("#/components/schemas/"),
        Dialect::Gemini => None,
    }
}

/// The `$ref` text for definition `name` under `prefix` (the name as a JSON-pointer segment).
pub fn reference_to(prefix: &str, name: &str) -> String {
    format!("{prefix}{}", name.replace('~', "~0").replace('/', "~1"))
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
}

impl<'a> Writer<'a> {
    pub fn new(dialect: Dialect) -> Self {
        Writer { dialect, value_sets: None, definitions: None, reference_prefix: reference_prefix(dialect) }
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

    pub fn write(&self, schema: &Schema, path: &str) -> (Value, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        if self.reference_prefix.is_none() && toolport_core::definitions::uses_references(schema) {
            let none = IndexMap::new();
            let (inlined, cuts) = toolport_core::definitions::inline(schema, self.definitions.unwrap_or(&none), path);
            diagnostics.extend(cuts);
            let value = Value::Object(self.object(&inlined, path, &mut diagnostics));
            return (value, diagnostics);
        }
        let value = Value::Object(self.object(schema, path, &mut diagnostics));
        (value, diagnostics)
    }

    fn object(&self, s: &Schema, path: &str, out: &mut Vec<Diagnostic>) -> Map<String, Value> {
        let d = self.dialect;
        let mut m = Map::new();
        if let (Some(name), Some(prefix)) = (&s.reference, self.reference_prefix) {
            m.insert("$ref".into(), Value::String(reference_to(prefix, name)));
        }
        let extras = s.extras.get(EXTRAS_KEY).and_then(Value::as_object);
        let one_of = extras.is_some_and(|e| e.get(ONE_OF_MARK) == Some(&Value::Bool(true)));
        let mut enumeration: Option<Vec<EnumValue>> = s.enumeration.clone();
        if enumeration.is_none()
            && let Some(set) = s.value_set.as_ref().and_then(|id| self.value_sets?.get(id))
        {
            enumeration = Some(set.entries.clone());
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
                child(path, "enum"),
                format!("{} allows only string enums: the values were written as strings of type string", d.name()),
            ));
            kind = Some(SchemaType::String);
        }

        // `type` (and nullability).
        let collapsible = d.is_2020()
            && kind.is_none()
            && !one_of
            && s.any_of.len() >= 2
            && s.any_of.iter().all(|m| {
                m.kind.is_some_and(|k| k != SchemaType::Null) && *m == Schema::of(m.kind.unwrap_or(SchemaType::Null))
            });
        let mut any_of_written = false;
        match kind {
            Some(SchemaType::Null) if !d.is_2020() => {
                m.insert("nullable".into(), Value::Bool(true));
                out.push(Diagnostic::warning(
                    codes::CHANGED_SCHEMA,
                    child(path, "type"),
                    format!("{} has no `null` type: written as `nullable: true` without a type", d.name()),
                ));
            }
            Some(k) if d.is_2020() && s.nullable && k != SchemaType::Null => {
                m.insert("type".into(), Value::from(vec![k.as_str(), "null"]));
            }
            Some(k) => {
                m.insert("type".into(), Value::from(k.as_str()));
                if (s.nullable || (stringify_enum && enum_has_null)) && !d.is_2020() {
                    m.insert("nullable".into(), Value::Bool(true));
                }
            }
            None if collapsible => {
                let mut names: Vec<Value> =
                    s.any_of.iter().filter_map(|m| m.kind).map(|k| Value::from(k.as_str())).collect();
                if s.nullable {
                    names.push(Value::from("null"));
                }
                m.insert("type".into(), Value::Array(names));
                any_of_written = true;
            }
            None => {
                if s.nullable && !d.is_2020() {
                    m.insert("nullable".into(), Value::Bool(true));
                }
            }
        }
        if let Some(title) = &s.title {
            m.insert("title".into(), Value::from(title.as_str()));
        }
        if let Some(description) = &s.description {
            m.insert("description".into(), Value::from(description.as_str()));
        }
        if let Some(format) = &s.format {
            m.insert("format".into(), Value::from(format.as_str()));
        }
        if let Some(values) = &enumeration {
            // Gemini: `nullable` says what a `null` among string values would.
            let written: Vec<Value> = values
                .iter()
                .filter(|v| !(stringify_enum && v.value.is_null()))
                .map(|v| match (&v.value, stringify_enum) {
                    (Value::String(_), _) | (_, false) => v.value.clone(),
                    (other, true) => Value::String(other.to_string()),
                })
                .collect();
            m.insert("enum".into(), Value::Array(written));
            if values.iter().any(|v| v.label.is_some()) {
                if d.is_rich() {
                    let labels = values.iter().map(|v| v.label.clone().map_or(Value::Null, Value::String)).collect();
                    m.insert(ENUM_LABELS.into(), Value::Array(labels));
                } else {
                    out.push(Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(path, "enum"),
                        format!("{} has no labels for enum values; they were left out", d.name()),
                    ));
                }
            }
        }
        if let Some(id) = &s.value_set {
            if d.is_rich() {
                m.insert(VALUE_SET.into(), Value::from(id.as_str()));
            } else if enumeration.is_none() {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, "value_set"),
                    format!("{} cannot name the value set `{id}`; it was left out", d.name()),
                ));
            }
        }
        if let Some(default) = &s.default {
            let default = match (default, stringify_enum) {
                (Value::String(_) | Value::Null, _) | (_, false) => default.clone(),
                (other, true) => Value::String(other.to_string()),
            };
            m.insert("default".into(), default);
        }
        if !s.examples.is_empty() {
            if d.is_2020() {
                m.insert("examples".into(), Value::Array(s.examples.clone()));
            } else {
                m.insert("example".into(), s.examples[0].clone());
                if s.examples.len() > 1 {
                    out.push(Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(path, "examples"),
                        format!(
                            "{} holds one example per schema; {} more were left out",
                            d.name(),
                            s.examples.len() - 1
                        ),
                    ));
                }
            }
        }
        if s.multiline {
            if d.is_rich() {
                m.insert(MULTILINE.into(), Value::Bool(true));
            } else {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, "multiline"),
                    format!("{} cannot mark a string as multi-line; the hint was left out", d.name()),
                ));
            }
        }
        self.bounds(s, &mut m, path, out);
        let lengths = [
            ("minLength", s.min_length),
            ("maxLength", s.max_length),
            ("minItems", s.min_items),
            ("maxItems", s.max_items),
        ];
        for (key, value) in lengths {
            if let Some(n) = value {
                m.insert(key.into(), Value::from(n));
            }
        }
        if let Some(pattern) = &s.pattern {
            m.insert("pattern".into(), Value::from(pattern.as_str()));
        }
        if s.unique_items {
            if d == Dialect::Gemini {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, "unique_items"),
                    format!("{} has no `uniqueItems`; it was left out", d.name()),
                ));
            } else {
                m.insert("uniqueItems".into(), Value::Bool(true));
            }
        }
        if let Some(items) = &s.items {
            m.insert("items".into(), Value::Object(self.object(items, &child(path, "items"), out)));
        }
        let mut required: Vec<Value> = Vec::new();
        if !s.properties.is_empty() {
            let mut properties = Map::new();
            let at = child(path, "properties");
            for (i, property) in s.properties.iter().enumerate() {
                let schema = self.object(&property.schema, &child(&child(&at, i.to_string()), "schema"), out);
                properties.insert(property.name.clone(), Value::Object(schema));
                if property.required {
                    required.push(Value::from(property.name.as_str()));
                }
            }
            m.insert("properties".into(), Value::Object(properties));
        }
        if let Some(Value::Array(more)) = extras.and_then(|e| e.get("required")) {
            if d.is_rich() {
                required.extend(more.iter().cloned());
            } else {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, "extras/jsonschema/required"),
                    format!("{} cannot require properties the schema does not list; left out", d.name()),
                ));
            }
        }
        if !required.is_empty() {
            m.insert("required".into(), Value::Array(required));
        }
        match &s.additional_properties {
            Some(AdditionalProperties::Allowed(allowed)) => {
                m.insert("additionalProperties".into(), Value::Bool(*allowed));
            }
            Some(AdditionalProperties::Schema(schema)) => {
                let at = child(path, "additional_properties");
                m.insert("additionalProperties".into(), Value::Object(self.object(schema, &at, out)));
            }
            None => {}
        }
        if !s.any_of.is_empty() && !any_of_written {
            let at = child(path, "any_of");
            let mut members: Vec<Value> = s
                .any_of
                .iter()
                .enumerate()
                .map(|(i, member)| Value::Object(self.object(member, &child(&at, i.to_string()), out)))
                .collect();
            if s.nullable && kind.is_none() && d.is_2020() {
                members.push(Value::Object(Map::from_iter([("type".to_owned(), Value::from("null"))])));
            }
            let key = if one_of && d.is_rich() { "oneOf" } else { "anyOf" };
            if one_of && !d.is_rich() {
                out.push(Diagnostic::warning(
                    codes::CHANGED_SCHEMA,
                    child(path, "any_of"),
                    format!("{} has no `oneOf`: the alternatives were written as `anyOf`", d.name()),
                ));
            }
            m.insert(key.into(), Value::Array(members));
        }
        self.extras(extras, &mut m, path, out);
        for format_id in s.extras.keys().filter(|k| k.as_str() != EXTRAS_KEY) {
            out.push(Diagnostic::loss(
                codes::LOSS_EXTRAS,
                child(&child(path, "extras"), format_id),
                format!("a schema cannot hold data only {format_id} has; it was left out"),
            ));
        }
        m
    }

    fn bounds(&self, s: &Schema, m: &mut Map<String, Value>, path: &str, out: &mut Vec<Diagnostic>) {
        let d = self.dialect;
        let pairs = [
            ("minimum", "exclusiveMinimum", &s.minimum, &s.exclusive_minimum, "exclusive_minimum"),
            ("maximum", "exclusiveMaximum", &s.maximum, &s.exclusive_maximum, "exclusive_maximum"),
        ];
        for (inclusive_key, exclusive_key, inclusive, exclusive, model_key) in pairs {
            if let Some(n) = inclusive {
                m.insert(inclusive_key.into(), Value::Number(n.clone()));
            }
            let Some(n) = exclusive else { continue };
            match d {
                Dialect::JsonSchema | Dialect::OpenApi31 => {
                    m.insert(exclusive_key.into(), Value::Number(n.clone()));
                }
                Dialect::OpenApi30 if inclusive.is_none() => {
                    m.insert(inclusive_key.into(), Value::Number(n.clone()));
                    m.insert(exclusive_key.into(), Value::Bool(true));
                }
                Dialect::OpenApi30 => out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, model_key),
                    format!(
                        "{} cannot hold both an inclusive and an exclusive bound; the exclusive one was left out",
                        d.name()
                    ),
                )),
                Dialect::Gemini => {
                    if inclusive.is_none() {
                        m.insert(inclusive_key.into(), Value::Number(n.clone()));
                    }
                    out.push(Diagnostic::warning(
                        codes::CHANGED_SCHEMA,
                        child(path, model_key),
                        format!("{} has no exclusive bounds: written as the inclusive `{inclusive_key}`", d.name()),
                    ));
                }
            }
        }
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
        path: &str,
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
                    child(&child(&child(path, "extras"), EXTRAS_KEY), key),
                    format!("`{key}` refers to named schemas, which are inlined here; it was left out"),
                ));
            } else if allowed {
                m.insert(key.clone(), self.retarget(value));
            } else {
                out.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&child(&child(path, "extras"), EXTRAS_KEY), key),
                    format!("{} has no `{key}`; it was left out", d.name()),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests;
