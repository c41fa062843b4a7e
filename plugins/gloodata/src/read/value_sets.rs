//! `tagValues`: the document's value sets, and how a field's `dtypeName` reaches one.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::definitions::{Budget, value_set_weight};
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::limits::{EXPANSION_FACTOR, MIN_EXPANSION_BYTES};
use toolport_plugin::source::child;
use toolport_plugin::{EnumValue, Parameter, Severity, ToolSet, ValueSet, codes};

use super::Reader;
use super::residue::{Residue, mark_absent};

/// How a value set is referred to from `ui.args.<a>.dtypeName`.
pub(super) struct ValueSetIndex {
    /// Reference (map key, and `id` where it differs) → map key.
    pub(super) by_reference: IndexMap<String, String>,
    /// Map key → the set's entries.
    pub(super) entries: IndexMap<String, Vec<EnumValue>>,
    /// Map key → what a copy of the set's entries weighs (`value_set_weight`), weighed once.
    weights: IndexMap<String, usize>,
    /// What copying sets' entries into fields' enums may cost ([`link_value_set`]): a large
    /// set used by many fields would otherwise multiply the model (and every output) by the
    /// number of fields. A field past it keeps only its `value_set`, which writers expand
    /// within their own budget, reporting where they cut.
    pub(super) copies: Budget,
}

impl ValueSetIndex {
    /// An index of no sets yet.
    pub(super) fn empty() -> Self {
        ValueSetIndex {
            by_reference: IndexMap::new(),
            entries: IndexMap::new(),
            weights: IndexMap::new(),
            copies: Budget::with_limit(0),
        }
    }
}

impl Reader<'_> {
    pub(super) fn read_tag_values(&mut self, value: &Value, set: &mut ToolSet, residue: &mut Residue) -> ValueSetIndex {
        let mut index = ValueSetIndex::empty();
        let Value::Object(sets) = value else {
            self.wrong_type("/tagValues", "tagValues", "an object keyed by value set id", value, residue);
            return index;
        };
        if sets.is_empty() {
            // The writer leaves out an empty `tagValues`; keep it so it comes back.
            residue.keep("tagValues", value);
        }
        for (key, entry) in sets {
            let path = child("/tagValues", key);
            let Value::Object(entry) = entry else {
                self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    &path,
                    format!("value set `{key}` should be an object, found {}; kept as written", kind_of(entry)),
                );
                residue.keep_in("tagValues", key, entry.clone());
                continue;
            };
            let value_set = self.read_value_set(&path, entry);
            index.by_reference.insert(key.clone(), key.clone());
            index.entries.insert(key.clone(), value_set.entries.clone());
            index.weights.insert(key.clone(), value_set_weight(&value_set));
            if let Some(id) = entry.get("id").and_then(Value::as_str) {
                index.by_reference.entry(id.to_owned()).or_insert_with(|| key.clone());
            }
            set.value_sets.insert(key.clone(), value_set);
        }
        let weight: usize = set.value_sets.values().map(value_set_weight).sum();
        index.copies = Budget::with_limit(weight.saturating_mul(EXPANSION_FACTOR).max(MIN_EXPANSION_BYTES));
        index
    }

    fn read_value_set(&mut self, path: &str, entry: &Map<String, Value>) -> ValueSet {
        let mut value_set = ValueSet::default();
        let mut residue = Residue::default();
        for (key, value) in entry {
            let path = child(path, key);
            match key.as_str() {
                // The id is how fields refer to the set; it may differ from the map key.
                "id" => residue.keep(key, value),
                "name" => value_set.name = self.nullable_string(&path, key, value, &mut residue),
                "description" => value_set.description = self.nullable_string(&path, key, value, &mut residue),
                "icon" => value_set.icon = self.nullable_string(&path, key, value, &mut residue),
                "entries" => match entries(value) {
                    Some(entries) => value_set.entries = entries,
                    None => {
                        self.report(
                            Severity::Error,
                            codes::INPUT_INVALID,
                            &path,
                            "`entries` should be a list of [key, label] pairs with text labels; kept as written".into(),
                        );
                        residue.keep(key, value);
                    }
                },
                _ => match key.strip_suffix("HandlerId").filter(|role| !role.is_empty()) {
                    Some(role) => match value {
                        Value::String(id) => {
                            value_set.handlers.insert(role.to_owned(), id.clone());
                        }
                        Value::Null => residue.keep(key, value),
                        _ => self.wrong_type(&path, key, "a handler id", value, &mut residue),
                    },
                    None => self.unknown_key(&path, key, &mut residue, value),
                },
            }
        }
        residue.store(&mut value_set.extras);
        value_set
    }
}

/// The values of a field's value set (one with entries) become its enum (with labels). A
/// field that lists no `enum` of its own gets the set's entries, marked so the writer leaves
/// `enum` out.
pub(super) fn link_value_set(parameter: &mut Parameter, set_key: &str, index: &ValueSetIndex) {
    let Some(entries) = index.entries.get(set_key) else { return };
    let weight = index.weights.get(set_key).copied().unwrap_or_default();
    if parameter.schema.enumeration.is_none() && !index.copies.take(weight) {
        return;
    }
    match &mut parameter.schema.enumeration {
        Some(values) => {
            // Looked up by the value's JSON text: a scan of the set per value was quadratic.
            // The first entry of a value counts, as a scan from the start found it.
            let mut labels: HashMap<String, Option<&String>> = HashMap::with_capacity(entries.len());
            for entry in entries {
                labels.entry(entry.value.to_string()).or_insert(entry.label.as_ref());
            }
            for value in values.iter_mut() {
                value.label = labels.get(&value.value.to_string()).copied().flatten().cloned();
            }
        }
        None => {
            parameter.schema.enumeration = Some(entries.clone());
            mark_absent(&mut parameter.extras, "enum");
        }
    }
}

/// `[[key, label], …]` as enum values, or `None` when any entry has another shape.
fn entries(value: &Value) -> Option<Vec<EnumValue>> {
    value
        .as_array()?
        .iter()
        .map(|entry| match entry.as_array()?.as_slice() {
            [key, Value::String(label)] if !key.is_array() && !key.is_object() => {
                Some(EnumValue { value: key.clone(), label: Some(label.clone()) })
            }
            _ => None,
        })
        .collect()
}
