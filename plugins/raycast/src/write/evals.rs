//! Canonical examples to Raycast evals: each written back in the form it was read (the
//! reader's `explicit` and `long_form` flags, the source's key order, expectations it did not
//! recognise at their places).

use serde_json::{Map, Value, json};
use toolport_plugin::{Example, Expectation, Matcher};

use crate::FORMAT_ID;
use crate::extension::{EVAL_KEYS, matcher_form};

/// Writes examples as evals. `rename` maps model tool names to the written ones.
pub fn write_evals(examples: &[Example], rename: &dyn Fn(&str) -> String) -> Value {
    Value::Array(examples.iter().map(|e| write_eval(e, rename)).collect())
}

fn write_eval(example: &Example, rename: &dyn Fn(&str) -> String) -> Value {
    let extras = example.extras.get(FORMAT_ID).and_then(Value::as_object);
    if let Some(verbatim) = extras.and_then(|e| e.get("verbatim")) {
        return verbatim.clone();
    }
    let mut fields = Map::new();
    fields.insert("input".into(), Value::from(example.prompt.as_str()));
    if !example.mocks.is_empty() {
        let mocks = example.mocks.iter().map(|(k, v)| (rename(k), v.clone())).collect();
        fields.insert("mocks".into(), Value::Object(mocks));
    }
    let mut expected: Vec<Value> = example.expected.iter().map(|e| write_expectation(e, rename)).collect();
    for item in extras.and_then(|e| e.get("unrecognised_expected")).and_then(Value::as_array).into_iter().flatten() {
        if let (Some(index), Some(value)) = (item.get(0).and_then(Value::as_u64), item.get(1)) {
            let index = (index as usize).min(expected.len());
            expected.insert(index, value.clone());
        }
    }
    if !expected.is_empty() {
        fields.insert("expected".into(), Value::Array(expected));
    }
    if let Some(used) = example.used_as_example {
        fields.insert("usedAsExample".into(), Value::Bool(used));
    }
    if let Some(kept) = extras.and_then(|e| e.get("keys")).and_then(Value::as_object) {
        for (key, value) in kept {
            if key == "input" && value.is_null() {
                fields.remove("input");
            } else {
                fields.insert(key.clone(), value.clone());
            }
        }
    }
    let order = extras.and_then(|e| e.get("key_order")).and_then(Value::as_array);
    let mut out = Map::new();
    for key in order.into_iter().flatten().filter_map(Value::as_str) {
        if let Some(value) = fields.remove(key) {
            out.insert(key.to_owned(), value);
        }
    }
    for key in EVAL_KEYS {
        if let Some(value) = fields.remove(key) {
            out.insert(key.to_owned(), value);
        }
    }
    out.extend(fields);
    Value::Object(out)
}

pub fn write_expectation(expectation: &Expectation, rename: &dyn Fn(&str) -> String) -> Value {
    match expectation {
        Expectation::Includes(s) => json!({ "includes": s }),
        Expectation::Matches(s) => json!({ "matches": s }),
        Expectation::MeetsCriteria(s) => json!({ "meetsCriteria": s }),
        Expectation::Not(inner) => json!({ "not": write_expectation(inner, rename) }),
        Expectation::Or(items) => {
            json!({ "or": items.iter().map(|e| write_expectation(e, rename)).collect::<Vec<_>>() })
        }
        Expectation::And(items) => {
            json!({ "and": items.iter().map(|e| write_expectation(e, rename)).collect::<Vec<_>>() })
        }
        Expectation::CallsTool(call) => {
            let name = rename(&call.tool);
            match &call.arguments {
                None if !call.long_form => json!({ "callsTool": name }),
                None => json!({ "callsTool": { "name": name } }),
                Some(arguments) => {
                    let arguments: Map<String, Value> =
                        arguments.iter().map(|(k, m)| (k.clone(), write_matcher(m))).collect();
                    json!({ "callsTool": { "name": name, "arguments": arguments } })
                }
            }
        }
    }
}

pub fn write_matcher(matcher: &Matcher) -> Value {
    match matcher {
        // A bare array or object would be read as `and` or as a matcher: those need `eq`.
        Matcher::Eq { value, explicit } => {
            let bare_is_ambiguous = value.is_array() || matcher_form(value).is_some();
            if *explicit || bare_is_ambiguous { json!({ "eq": value }) } else { value.clone() }
        }
        Matcher::Includes(v) => json!({ "includes": v }),
        Matcher::Matches(s) => json!({ "matches": s }),
        Matcher::And { all, explicit } => {
            let items: Vec<Value> = all.iter().map(write_matcher).collect();
            if *explicit { json!({ "and": items }) } else { Value::Array(items) }
        }
        Matcher::Or(items) => json!({ "or": items.iter().map(write_matcher).collect::<Vec<_>>() }),
        Matcher::Not(inner) => json!({ "not": write_matcher(inner) }),
    }
}
