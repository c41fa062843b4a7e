//! Merging the members of an `allOf` (and a referenced schema under sibling keywords) into
//! one schema: the field-by-field combination is `toolport_core::schema_merge`'s
//! [`MergePolicy::Conjunction`]; what only JSON Schema can say about a merge is here.

use serde_json::{Map, Value};
use toolport_core::Schema;
use toolport_core::schema_merge::{self, MergePolicy};

use crate::{Dialect, EXTRAS_KEY, write};

/// Merges `other` into `base` (an `allOf` member, or a referenced schema under sibling
/// keywords): what `base` says wins; properties and examples are combined
/// ([`MergePolicy::Conjunction`]).
pub(crate) fn merge(base: &mut Schema, other: Schema) {
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
pub(crate) fn resolve_required_leftovers(s: &mut Schema) {
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

/// `extras["jsonschema"]` as an object, made when missing.
fn jsonschema_extras(schema: &mut Schema) -> &mut Map<String, Value> {
    let slot = schema.extras.entry(EXTRAS_KEY.to_owned()).or_insert_with(|| Value::Object(Map::new()));
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("just made an object")
}
