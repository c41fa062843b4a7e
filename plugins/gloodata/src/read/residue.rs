//! The reader's side of a residue: what one level of the document holds that the model
//! cannot, collected for the writer to merge back (see `write/residue.rs`).

use serde_json::{Map, Value};

use crate::{ABSENT, FORMAT_ID};

/// What the model cannot hold at one level of the document: kept keys and absent keys.
#[derive(Default)]
pub(super) struct Residue {
    pub(super) kept: Map<String, Value>,
    pub(super) absent: Vec<String>,
}

impl Residue {
    pub(super) fn keep(&mut self, key: &str, value: &Value) {
        self.kept.insert(key.to_owned(), value.clone());
    }

    /// Keeps `value` under `key` inside the kept object `parent` (created when missing).
    pub(super) fn keep_in(&mut self, parent: &str, key: &str, value: Value) {
        let entry = self.kept.entry(parent.to_owned()).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(map) = entry {
            map.insert(key.to_owned(), value);
        }
    }

    pub(super) fn into_value(mut self) -> Option<Value> {
        if !self.absent.is_empty() {
            self.kept.insert(ABSENT.into(), self.absent.into_iter().map(Value::String).collect());
        }
        (!self.kept.is_empty()).then_some(Value::Object(self.kept))
    }

    pub(super) fn store(self, extras: &mut toolport_plugin::Extras) {
        if let Some(value) = self.into_value() {
            extras.insert(FORMAT_ID.into(), value);
        }
    }
}

/// Adds `key` to the `$absent` list of a residue stored in `extras`.
pub(super) fn mark_absent(extras: &mut toolport_plugin::Extras, key: &str) {
    let residue = extras.entry(FORMAT_ID.to_owned()).or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(residue) = residue {
        let absent = residue.entry(ABSENT.to_owned()).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(keys) = absent {
            keys.push(Value::String(key.to_owned()));
        }
    }
}
