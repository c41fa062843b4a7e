//! The writer's side of a residue: finding what the reader kept at one level and merging it
//! back into what the writer built (see `read/residue.rs`).

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::{ABSENT, FORMAT_ID, TOOLS_KEY};

/// This format's residue in an extras map, when it is an object.
pub(super) fn residue(extras: &toolport_plugin::Extras) -> Option<&Map<String, Value>> {
    extras.get(FORMAT_ID).and_then(Value::as_object)
}

/// Whether a residue says the source had no `key` at its level.
pub(super) fn is_absent(residue: Option<&Map<String, Value>>, key: &str) -> bool {
    residue
        .and_then(|r| r.get(ABSENT))
        .and_then(Value::as_array)
        .is_some_and(|keys| keys.iter().any(|k| k.as_str() == Some(key)))
}

/// Merges a residue into what the writer built: kept keys are added (objects merged key by
/// key, anything else replacing what was built) and `$absent` keys removed.
pub(super) fn merge(target: &mut Map<String, Value>, residue: &Map<String, Value>) {
    for (key, value) in residue {
        match key.as_str() {
            ABSENT => {
                // One pass over the object, not a removal (a shift of what follows) per name.
                let absent: HashSet<&str> = value.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                if !absent.is_empty() {
                    target.retain(|key, _| !absent.contains(key.as_str()));
                }
            }
            TOOLS_KEY => {}
            _ => match (target.get_mut(key), value) {
                (Some(Value::Object(built)), Value::Object(kept)) => merge(built, kept),
                (None, Value::Object(kept)) => {
                    // Markers inside must not leak into the document.
                    let mut fresh = Map::new();
                    merge(&mut fresh, kept);
                    target.insert(key.clone(), Value::Object(fresh));
                }
                _ => {
                    target.insert(key.clone(), value.clone());
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(built: Value, residue: Value, expect: Value) {
        let (Value::Object(mut built), Value::Object(residue)) = (built, residue) else { panic!("objects") };
        merge(&mut built, &residue);
        assert_eq!(Value::Object(built), expect);
    }

    #[test]
    fn merges_residues() {
        check(json!({"a": 1}), json!({"b": null}), json!({"a": 1, "b": null}));
        check(
            json!({"ui": {"args": {"x": {"prefix": "X"}}}}),
            json!({"ui": {"args": {"x": "X"}}}),
            json!({"ui": {"args": {"x": "X"}}}),
        );
        check(json!({"ui": {"args": {}}, "schema": {}}), json!({"$absent": ["ui", "schema"]}), json!({}));
        check(json!({}), json!({"s": {"k": 1, "$absent": ["fields"]}}), json!({"s": {"k": 1}}));
    }
}
