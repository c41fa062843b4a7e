//! One schema as an object in the target's dialect, references pointing into
//! `components.schemas`, with empty enums (which allow no value) left out.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::definitions::Budget;
use toolport_plugin::jsonschema::{Dialect, Writer};
use toolport_plugin::source::child;
use toolport_plugin::{AdditionalProperties, Diagnostic, Schema, ValueSet, codes};

/// Where schema references point in both modes: the document's `components.schemas`
/// (Vertex accepts them in its spec even though its schema subset is Gemini's).
const COMPONENT_SCHEMAS: &str = "#/components/schemas/";

/// The tool set's value sets, listed as the `enum` of each schema naming one, and the
/// document's expansion budget those lists are charged to: a large set used by many fields
/// would otherwise be written once per field (a 0.56 MB Gloodata document became 100 MB).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValueSets<'a> {
    pub(crate) sets: &'a IndexMap<String, ValueSet>,
    pub(crate) budget: &'a Budget,
}

/// One schema as an object in `dialect`, references pointing into `components.schemas`.
pub(super) fn schema_map(
    dialect: Dialect,
    value_sets: Option<ValueSets>,
    schema: &Schema,
    path: &str,
    out: &mut Vec<Diagnostic>,
) -> Map<String, Value> {
    let mut writer = Writer::new(dialect).with_reference_prefix(Some(COMPONENT_SCHEMAS));
    if let Some(ValueSets { sets, budget }) = value_sets {
        writer = writer.with_value_sets(sets).with_budget(budget);
    }
    let fixed = without_empty_enums(schema, value_sets.map(|v| v.sets), path, out);
    let (value, diagnostics) = writer.write(fixed.as_ref().unwrap_or(schema), path);
    out.extend(diagnostics);
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `schema` without empty enums, or `None` when it has none. An empty `enum` (or a value set
/// that lists no values) allows no value at all: validators reject the document (OpenAPI's
/// schema says `minItems: 1`), and on a required parameter no valid call exists. It is left
/// out, so any value of the type is accepted, with a `changed/schema` warning.
fn without_empty_enums(
    schema: &Schema,
    value_sets: Option<&IndexMap<String, ValueSet>>,
    path: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Schema> {
    let empty_set = |s: &Schema| {
        s.enumeration.is_none()
            && s.value_set.as_ref().and_then(|id| value_sets?.get(id)).is_some_and(|set| set.entries.is_empty())
    };
    let needs = |s: &Schema| s.enumeration.as_ref().is_some_and(Vec::is_empty) || empty_set(s);
    if !schema_any(schema, &needs) {
        return None;
    }
    let mut fixed = schema.clone();
    fix_empty_enums(&mut fixed, &needs, path, out);
    Some(fixed)
}

/// Whether `test` holds for `schema` or any schema inside it.
fn schema_any(schema: &Schema, test: &dyn Fn(&Schema) -> bool) -> bool {
    test(schema)
        || schema.items.as_deref().is_some_and(|s| schema_any(s, test))
        || schema.properties.iter().any(|p| schema_any(&p.schema, test))
        || matches!(&schema.additional_properties, Some(AdditionalProperties::Schema(s)) if schema_any(s, test))
        || schema.any_of.iter().any(|s| schema_any(s, test))
}

fn fix_empty_enums(schema: &mut Schema, needs: &dyn Fn(&Schema) -> bool, path: &str, out: &mut Vec<Diagnostic>) {
    if needs(schema) {
        let what = match (&schema.enumeration, &schema.value_set) {
            (Some(_), _) | (None, None) => "an empty enum".to_owned(),
            (None, Some(id)) => format!("value set `{id}`, which lists no values,"),
        };
        out.push(Diagnostic::warning(
            codes::CHANGED_SCHEMA,
            child(path, "enum"),
            format!("{what} would allow no value at all: left out, so any value of the type is accepted"),
        ));
        schema.enumeration = None;
        schema.value_set = None;
    }
    if let Some(items) = schema.items.as_deref_mut() {
        fix_empty_enums(items, needs, &child(path, "items"), out);
    }
    let at = child(path, "properties");
    for (i, property) in schema.properties.iter_mut().enumerate() {
        fix_empty_enums(&mut property.schema, needs, &child(&child(&at, i.to_string()), "schema"), out);
    }
    if let Some(AdditionalProperties::Schema(inner)) = &mut schema.additional_properties {
        fix_empty_enums(inner, needs, &child(path, "additional_properties"), out);
    }
    let at = child(path, "any_of");
    for (i, member) in schema.any_of.iter_mut().enumerate() {
        fix_empty_enums(member, needs, &child(&at, i.to_string()), out);
    }
}
