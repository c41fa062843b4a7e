//! An input schema (an object schema) <-> the canonical parameter list, and single schemas,
//! through toolport-jsonschema. Also decides when a schema must be kept verbatim because the
//! canonical form cannot reproduce it exactly (`$ref`/`$defs`, `allOf`, key spellings).

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::definitions::{free_name, inline};
use toolport_core::{Diagnostic, Parameter, Schema, SchemaType, codes};
use toolport_jsonschema::Dialect;

use crate::common::Source;

mod writer;

pub use writer::{Expansion, SchemaWriter};

/// Canonical schema fields carried: all of them, since toolport-jsonschema reports its own
/// partial losses per dialect.
pub const CARRIED_SCHEMA: &[&str] = toolport_jsonschema::ALL_SCHEMA_KEYS;

/// A schema as a canonical schema; problems are reported at `path` in the source. Its named
/// schemas (`$defs`, `definitions`) join the source's definitions: identical ones merge, a
/// different one under a taken name gets a `_2`-style suffix (its references follow).
pub fn read_schema(
    source: &Source,
    value: &Value,
    dialect: Dialect,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Schema {
    let (mut schema, found, renames) = read_keeping_references(source, value, dialect);
    diagnostics.extend(found.into_iter().map(|mut d| {
        d.path = format!("{path}{}", d.path);
        source.at(d)
    }));
    rename_references(&mut schema, &renames);
    schema
}

/// Reads `value` with its definitions merged into the source's; the renames applied to them.
fn read_keeping_references(
    source: &Source,
    value: &Value,
    dialect: Dialect,
) -> (Schema, Vec<Diagnostic>, IndexMap<String, String>) {
    let (schema, definitions, found) = toolport_jsonschema::read_with_definitions(value, dialect);
    let mut all = source.definitions.borrow_mut();
    let mut renames = IndexMap::new();
    for (name, definition) in &definitions {
        match all.get(name) {
            Some(existing) if existing == definition => {}
            None => {}
            Some(_) => {
                let fresh = free_name(name, |n| all.contains_key(n) || definitions.contains_key(n));
                renames.insert(name.clone(), fresh);
            }
        }
    }
    for (name, mut definition) in definitions {
        rename_references(&mut definition, &renames);
        let name = renames.get(&name).cloned().unwrap_or(name);
        all.entry(name).or_insert(definition);
    }
    (schema, found, renames)
}

fn rename_references(schema: &mut Schema, renames: &IndexMap<String, String>) {
    if renames.is_empty() {
        return;
    }
    if let Some(fresh) = schema.reference.as_ref().and_then(|name| renames.get(name)) {
        schema.reference = Some(fresh.clone());
    }
    if let Some(items) = &mut schema.items {
        rename_references(items, renames);
    }
    for property in &mut schema.properties {
        rename_references(&mut property.schema, renames);
    }
    if let Some(toolport_core::AdditionalProperties::Schema(extra)) = &mut schema.additional_properties {
        rename_references(extra, renames);
    }
    for member in &mut schema.any_of {
        rename_references(member, renames);
    }
}

/// The parameters an input schema (an object schema) declares.
pub fn read_parameters(
    source: &Source,
    value: &Value,
    dialect: Dialect,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Parameter> {
    let root = read_schema(source, value, dialect, path, diagnostics);
    // `dict` read as `object` is an object type too.
    let is_object_type = root.kind == Some(SchemaType::Object)
        || value.get("type").and_then(Value::as_str).is_some_and(|t| t.eq_ignore_ascii_case("object"));
    if root.kind.is_some_and(|k| k != SchemaType::Object) || !value.is_object() || !is_object_type {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            "an input schema should be an object schema (`\"type\": \"object\"`); kept as written",
        )));
    }
    parameters_of(root)
}

fn parameters_of(root: Schema) -> Vec<Parameter> {
    root.properties
        .into_iter()
        .map(|p| Parameter { name: p.name, required: p.required, schema: p.schema, ..Parameter::default() })
        .collect()
}

/// Keys of an input schema's root that a parameter list does not produce (`additionalProperties`,
/// `$schema`, a description, …).
fn root_residue(value: &Value) -> Map<String, Value> {
    let Some(map) = value.as_object() else { return Map::new() };
    map.iter()
        .filter(|(k, _)| !matches!(k.as_str(), "type" | "properties" | "required"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn with_residue(mut value: Value, residue: Option<&Value>) -> Value {
    if let (Value::Object(map), Some(Value::Object(residue))) = (&mut value, residue) {
        for (key, kept) in residue {
            map.entry(key.clone()).or_insert_with(|| kept.clone());
        }
    }
    value
}

/// Whether reading a schema changed it (a `dict` type read as `object`): the diagnostics from
/// `start` on say so. Such a schema is written as read, never given back as its source spelled
/// it, or every output would keep what was changed.
fn changed_since(diagnostics: &[Diagnostic], start: usize) -> bool {
    diagnostics[start..].iter().any(|d| d.code == codes::CHANGED_SCHEMA)
}

/// Reads an input schema as parameters and records under `extras` what a write needs to give
/// it back exactly: the root's other keys as `<key>Root`, or, when the canonical form cannot
/// reproduce the schema (`$ref`, `allOf`, spellings) and reading did not change it
/// (`changed_since`), the schema itself as `<key>`.
pub fn read_input(
    source: &Source,
    value: &Value,
    dialect: Dialect,
    path: &str,
    key: &str,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Parameter> {
    let start = diagnostics.len();
    let parameters = read_parameters(source, value, dialect, path, diagnostics);
    let changed = changed_since(diagnostics, start);
    let mut residue = root_residue(value);
    if !source.keeps_as_written {
        // Toward another format only the root's keys the model lacks are kept (and reported
        // lost by the writer); the schema as written serves only this format's writer, and
        // regenerating it to compare is a third of reading a tool. Definitions the model holds
        // (read where referenced) are not among them.
        let read = source.definitions.borrow();
        for defs in ["$defs", "definitions"] {
            if residue.get(defs).and_then(Value::as_object).is_some_and(|d| d.keys().all(|n| read.contains_key(n))) {
                residue.shift_remove(defs);
            }
        }
        if !residue.is_empty() {
            extras.insert(format!("{key}Root"), Value::Object(residue));
        }
        return parameters;
    }
    let none = IndexMap::new();
    let definitions = source.definitions.borrow();
    let expansion = Expansion::unlimited();
    let writer = SchemaWriter::comparing(dialect, &none, &definitions, &expansion);
    let regenerated = writer.parameters(&parameters, "", &mut Vec::new());
    if regenerated.get("$defs").is_some() {
        // The writer gives the definitions back from the model's; kept only if they differ.
        residue.remove("$defs");
    }
    let residue = Value::Object(residue);
    if changed || with_residue(regenerated, Some(&residue)) == *value {
        if residue.as_object().is_some_and(|r| !r.is_empty()) {
            extras.insert(format!("{key}Root"), residue);
        }
    } else {
        extras.insert(key.to_owned(), value.clone());
    }
    parameters
}

/// Writes parameters as an input schema, giving back what [`read_input`] kept when the
/// parameters are still the ones read.
pub fn write_input(
    writer: SchemaWriter,
    parameters: &[Parameter],
    extras: &Map<String, Value>,
    key: &str,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    // The kept schema is given back when it still means the parameters: compared with every
    // reference inlined, since names may have changed on reading.
    let same = |kept: &Value| {
        let (inlined, _) = inline(&Schema::of_parameters(parameters), writer.definitions, "");
        let mine: Vec<Parameter> = parameters
            .iter()
            .zip(inlined.properties)
            .map(|(p, inlined)| Parameter { schema: inlined.schema, ..p.clone() })
            .collect();
        parameters_of(toolport_jsonschema::read(kept, writer.dialect).0) == mine
    };
    match extras.get(key) {
        Some(kept) if same(kept) => kept_cleaned(writer, kept, path, diagnostics),
        _ => {
            let mut residue = extras.get(&format!("{key}Root")).cloned();
            if writer.inline
                && let Some(Value::Object(residue)) = &mut residue
            {
                // Inlined: the source's definitions have nothing left to refer to them.
                residue.remove("$defs");
                residue.remove("definitions");
            }
            with_residue(writer.parameters(parameters, path, diagnostics), residue.as_ref())
        }
    }
}

/// Reads a single schema (an output schema); keeps it under `extras[key]` when the canonical
/// form cannot reproduce it and reading did not change it (`changed_since`).
pub fn read_single(
    source: &Source,
    value: &Value,
    dialect: Dialect,
    path: &str,
    key: &str,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Schema {
    let start = diagnostics.len();
    let schema = read_schema(source, value, dialect, path, diagnostics);
    if changed_since(diagnostics, start) {
        return schema;
    }
    let none = IndexMap::new();
    let definitions = source.definitions.borrow();
    let expansion = Expansion::unlimited();
    let writer = SchemaWriter::comparing(dialect, &none, &definitions, &expansion);
    if writer.schema(&schema, "", &mut Vec::new()) != *value {
        extras.insert(key.to_owned(), value.clone());
    }
    schema
}

/// Writes a single schema, giving back what [`read_single`] kept when the schema is unchanged.
pub fn write_single(
    writer: SchemaWriter,
    schema: &Schema,
    extras: &Map<String, Value>,
    key: &str,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let same =
        |kept: &Value| toolport_jsonschema::read(kept, writer.dialect).0 == inline(schema, writer.definitions, "").0;
    match extras.get(key) {
        Some(kept) if same(kept) => kept_cleaned(writer, kept, path, diagnostics),
        _ => writer.schema(schema, path, diagnostics),
    }
}

/// A schema kept as its source wrote it, cleaned like a written one when the writer cleans.
fn kept_cleaned(writer: SchemaWriter, kept: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let mut value = kept.clone();
    if writer.clean {
        crate::clean::clean(&mut value, writer.dialect, path, diagnostics);
    }
    value
}
