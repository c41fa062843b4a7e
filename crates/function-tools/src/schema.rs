//! An input schema (an object schema) <-> the canonical parameter list, and single schemas,
//! through toolport-jsonschema. Also decides when a schema must be kept verbatim because the
//! canonical form cannot reproduce it exactly (`$ref`/`$defs`, `allOf`, key spellings).

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::{Diagnostic, Parameter, Property, Schema, SchemaType, ValueSet, codes};
use toolport_jsonschema::{Dialect, Writer};

use crate::common::Source;

/// Canonical schema fields carried: all of them, since toolport-jsonschema reports its own
/// partial losses per dialect.
pub const CARRIED_SCHEMA: &[&str] = toolport_jsonschema::ALL_SCHEMA_KEYS;

/// Writes schemas in one dialect, with the tool set's value sets (inlined as enums).
#[derive(Clone, Copy, Debug)]
pub struct SchemaWriter<'a> {
    pub dialect: Dialect,
    pub value_sets: &'a IndexMap<String, ValueSet>,
}

impl SchemaWriter<'_> {
    /// The canonical schema in the dialect; forced changes are reported at `path` in the model.
    pub fn schema(&self, schema: &Schema, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
        let (value, found) = Writer::new(self.dialect).with_value_sets(self.value_sets).write(schema, path);
        diagnostics.extend(found);
        value
    }

    /// The object schema of a parameter list; diagnostics at `path` (`/tools/0/parameters`).
    pub fn parameters(&self, parameters: &[Parameter], path: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
        let (mut value, found) =
            Writer::new(self.dialect).with_value_sets(self.value_sets).write(&parameters_schema(parameters), path);
        diagnostics.extend(found.into_iter().map(|d| rebase_parameters(d, path)));
        // Tool APIs want `properties` even when empty: "an object with no parameters".
        if let Value::Object(map) = &mut value {
            map.entry("properties").or_insert_with(|| Value::Object(Map::new()));
        }
        value
    }
}

/// A schema as a canonical schema; problems are reported at `path` in the source.
pub fn read_schema(
    source: &Source,
    value: &Value,
    dialect: Dialect,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Schema {
    let (schema, found) = toolport_jsonschema::read(value, dialect);
    diagnostics.extend(found.into_iter().map(|mut d| {
        d.path = format!("{path}{}", d.path);
        source.at(d)
    }));
    schema
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
    let is_object_type = value.get("type").and_then(Value::as_str).is_some_and(|t| t.eq_ignore_ascii_case("object"));
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

/// The object schema of a parameter list. A parameter's location is reported by the loss walk.
pub fn parameters_schema(parameters: &[Parameter]) -> Schema {
    Schema {
        properties: parameters
            .iter()
            .map(|p| Property { name: p.name.clone(), required: p.required, schema: p.schema.clone() })
            .collect(),
        ..Schema::of(SchemaType::Object)
    }
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

/// Reads an input schema as parameters and records under `extras` what a write needs to give
/// it back exactly: the root's other keys as `<key>Root`, or, when the canonical form cannot
/// reproduce the schema (`$ref`, `allOf`, spellings), the schema itself as `<key>`.
pub fn read_input(
    source: &Source,
    value: &Value,
    dialect: Dialect,
    path: &str,
    key: &str,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Parameter> {
    let parameters = read_parameters(source, value, dialect, path, diagnostics);
    let residue = Value::Object(root_residue(value));
    let none = IndexMap::new();
    let regenerated = SchemaWriter { dialect, value_sets: &none }.parameters(&parameters, "", &mut Vec::new());
    if with_residue(regenerated, Some(&residue)) == *value {
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
    match extras.get(key) {
        Some(kept) if parameters_of(toolport_jsonschema::read(kept, writer.dialect).0) == parameters => kept.clone(),
        _ => with_residue(writer.parameters(parameters, path, diagnostics), extras.get(&format!("{key}Root"))),
    }
}

/// Reads a single schema (an output schema); keeps it under `extras[key]` when the canonical
/// form cannot reproduce it.
pub fn read_single(
    source: &Source,
    value: &Value,
    dialect: Dialect,
    path: &str,
    key: &str,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Schema {
    let schema = read_schema(source, value, dialect, path, diagnostics);
    if toolport_jsonschema::write(&schema, dialect, "").0 != *value {
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
    match extras.get(key) {
        Some(kept) if toolport_jsonschema::read(kept, writer.dialect).0 == *schema => kept.clone(),
        _ => writer.schema(schema, path, diagnostics),
    }
}

/// A diagnostic about the parameters' object schema: `…/parameters/properties/3/schema/…` is
/// the schema of parameter 3, `…/parameters/3/schema/…` in the model.
fn rebase_parameters(mut diagnostic: Diagnostic, path: &str) -> Diagnostic {
    let prefix = format!("{path}/properties/");
    if let Some(rest) = diagnostic.path.strip_prefix(&prefix) {
        diagnostic.path = format!("{path}/{rest}");
    }
    diagnostic
}
