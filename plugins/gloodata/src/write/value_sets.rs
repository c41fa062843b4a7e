//! `tagValues`: each value set with its entries as `[key, label]` pairs and its handlers.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Severity, ValueSet, codes};

use super::residue::{merge, residue};
use super::{Writer, put_opt};
use crate::FORMAT_ID;

impl Writer {
    pub(super) fn write_value_set(&mut self, key: &str, set: &ValueSet) -> Map<String, Value> {
        let mut object = Map::new();
        put_opt(&mut object, "name", &set.name);
        put_opt(&mut object, "description", &set.description);
        put_opt(&mut object, "icon", &set.icon);
        if !set.entries.is_empty() {
            let entries = set
                .entries
                .iter()
                .map(|entry| {
                    let label = entry.label.clone().unwrap_or_else(|| match &entry.value {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    });
                    Value::Array(vec![entry.value.clone(), Value::String(label)])
                })
                .collect();
            object.insert("entries".into(), Value::Array(entries));
        }
        for (role, handler) in &set.handlers {
            object.insert(format!("{role}HandlerId"), Value::String(handler.clone()));
        }
        for format in set.extras.keys().filter(|k| *k != FORMAT_ID) {
            self.say(Severity::Warning, codes::LOSS_EXTRAS, || {
                Diagnostic::loss(
                    codes::LOSS_EXTRAS,
                    child(&child(&child("/value_sets", key), "extras"), format),
                    format!("gloodata cannot hold data only {format} has"),
                )
            });
        }
        if let Some(residue) = residue(&set.extras) {
            merge(&mut object, residue);
        }
        object
    }
}

/// The id fields use to name a value set: its `id` where the source had one, else its key.
pub(super) fn value_set_id(key: &str, set: &ValueSet) -> String {
    residue(&set.extras).and_then(|r| r.get("id")).and_then(Value::as_str).unwrap_or(key).to_owned()
}
