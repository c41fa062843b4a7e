//! Raycast evals ↔ canonical examples. Every expectation and matcher form is kept with enough
//! detail (`Matcher::Eq { explicit }`, `ToolCall::long_form`) to write it back as it was read;
//! anything unrecognised is kept verbatim in the example's extras with a diagnostic.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Example, Expectation, Matcher, ToolCall, codes};

use crate::FORMAT_ID;

/// Keys of an eval the model has a place for.
const EVAL_KEYS: [&str; 4] = ["input", "mocks", "expected", "usedAsExample"];

/// Reads `evals` (at JSON pointer `path` of `file`) into examples.
pub fn read_evals(value: &Value, file: &str, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<Example> {
    let Some(evals) = value.as_array() else {
        diagnostics.push(Diagnostic::error(codes::INPUT_INVALID, path, format!("{file}: `evals` must be an array")));
        return Vec::new();
    };
    evals.iter().enumerate().map(|(i, eval)| read_eval(eval, file, &child(path, i.to_string()), diagnostics)).collect()
}

fn read_eval(eval: &Value, file: &str, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Example {
    let mut example = Example::default();
    let mut kept = Map::new();
    let Some(object) = eval.as_object() else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            format!("{file}: an eval must be an object; kept as is"),
        ));
        example.extras.insert(FORMAT_ID.into(), json!({ "verbatim": eval }));
        return example;
    };
    match object.get("input") {
        Some(Value::String(input)) => example.prompt = input.clone(),
        Some(other) => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "input"),
                format!("{file}: `input` is not text; kept as is"),
            ));
            kept.insert("input".into(), other.clone());
        }
        None => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                path,
                format!("{file}: the eval has no `input`"),
            ));
            kept.insert("input".into(), Value::Null);
        }
    }
    match object.get("mocks") {
        Some(Value::Object(mocks)) => example.mocks = mocks.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        Some(other) => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "mocks"),
                format!("{file}: `mocks` is not an object; kept as is"),
            ));
            kept.insert("mocks".into(), other.clone());
        }
        None => {}
    }
    let mut unrecognised = Vec::new();
    match object.get("expected") {
        Some(Value::Array(expected)) => {
            for (i, item) in expected.iter().enumerate() {
                let item_path = child(&child(path, "expected"), i.to_string());
                match read_expectation(item) {
                    Some(expectation) => example.expected.push(expectation),
                    None => {
                        diagnostics.push(Diagnostic::warning(
                            codes::INPUT_UNKNOWN_KEY,
                            &item_path,
                            format!("{file}: unrecognised expectation {item}; kept as is"),
                        ));
                        unrecognised.push(json!([i, item]));
                    }
                }
            }
        }
        Some(other) => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "expected"),
                format!("{file}: `expected` is not an array; kept as is"),
            ));
            kept.insert("expected".into(), other.clone());
        }
        None => {}
    }
    match object.get("usedAsExample") {
        Some(Value::Bool(b)) => example.used_as_example = Some(*b),
        Some(other) => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "usedAsExample"),
                format!("{file}: `usedAsExample` is not a boolean; kept as is"),
            ));
            kept.insert("usedAsExample".into(), other.clone());
        }
        None => {}
    }
    for (key, value) in object {
        if !EVAL_KEYS.contains(&key.as_str()) {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_UNKNOWN_KEY,
                child(path, key),
                format!("{file}: unknown eval key `{key}`; kept as is"),
            ));
            kept.insert(key.clone(), value.clone());
        }
    }
    let order: Vec<Value> = object.keys().map(|k| Value::from(k.as_str())).collect();
    let mut extras = Map::new();
    if !kept.is_empty() {
        extras.insert("keys".into(), Value::Object(kept));
    }
    if !unrecognised.is_empty() {
        extras.insert("unrecognised_expected".into(), Value::Array(unrecognised));
    }
    if order.iter().map(|v| v.as_str().unwrap_or_default()).ne(default_order(&example, &extras)) {
        extras.insert("key_order".into(), Value::Array(order));
    }
    if !extras.is_empty() {
        example.extras.insert(FORMAT_ID.into(), Value::Object(extras));
    }
    example
}

/// The key order the writer uses when the source did not say otherwise.
fn default_order<'e>(example: &'e Example, extras: &'e Map<String, Value>) -> impl Iterator<Item = &'e str> {
    let written = written_keys(example);
    let kept = extras.get("keys").and_then(Value::as_object);
    let mut keys: Vec<&str> = Vec::new();
    for key in EVAL_KEYS {
        if written.contains(&key) || kept.is_some_and(|k| k.contains_key(key)) {
            keys.push(key);
        }
    }
    keys.extend(kept.into_iter().flat_map(|k| k.keys()).map(String::as_str).filter(|k| !EVAL_KEYS.contains(k)));
    keys.into_iter()
}

fn written_keys(example: &Example) -> Vec<&'static str> {
    let mut keys = vec!["input"];
    if !example.mocks.is_empty() {
        keys.push("mocks");
    }
    if !example.expected.is_empty() {
        keys.push("expected");
    }
    if example.used_as_example.is_some() {
        keys.push("usedAsExample");
    }
    keys
}

/// One expectation, or `None` when its shape is not one Raycast defines.
pub fn read_expectation(value: &Value) -> Option<Expectation> {
    let object = value.as_object()?;
    if object.len() != 1 {
        return None;
    }
    let (key, inner) = object.iter().next()?;
    Some(match key.as_str() {
        "includes" => Expectation::Includes(inner.as_str()?.to_owned()),
        "matches" => Expectation::Matches(inner.as_str()?.to_owned()),
        "meetsCriteria" => Expectation::MeetsCriteria(inner.as_str()?.to_owned()),
        "not" => Expectation::Not(Box::new(read_expectation(inner)?)),
        "or" => Expectation::Or(inner.as_array()?.iter().map(read_expectation).collect::<Option<_>>()?),
        "and" => Expectation::And(inner.as_array()?.iter().map(read_expectation).collect::<Option<_>>()?),
        "callsTool" => Expectation::CallsTool(read_call(inner)?),
        _ => return None,
    })
}

fn read_call(value: &Value) -> Option<ToolCall> {
    match value {
        Value::String(name) => Some(ToolCall { tool: name.clone(), arguments: None, long_form: false }),
        Value::Object(object) => {
            if object.keys().any(|k| k != "name" && k != "arguments") {
                return None;
            }
            let tool = object.get("name")?.as_str()?.to_owned();
            let arguments = match object.get("arguments") {
                None => None,
                Some(Value::Object(arguments)) => {
                    Some(arguments.iter().map(|(k, v)| (k.clone(), read_matcher(v))).collect::<IndexMap<_, _>>())
                }
                Some(_) => return None,
            };
            Some(ToolCall { tool, arguments, long_form: true })
        }
        _ => None,
    }
}

/// An argument matcher. A plain value is `eq`, an array is `and`; an object that is not one
/// of the matcher forms is an equality on that object (Raycast would read it the same way).
pub fn read_matcher(value: &Value) -> Matcher {
    match value {
        Value::Array(items) => Matcher::And { all: items.iter().map(read_matcher).collect(), explicit: false },
        Value::Object(object) if object.len() == 1 => {
            let (key, inner) = object.iter().next().expect("one entry");
            let matcher = match (key.as_str(), inner) {
                ("eq", v) => Some(Matcher::Eq { value: v.clone(), explicit: true }),
                ("includes", v) => Some(Matcher::Includes(v.clone())),
                ("matches", Value::String(s)) => Some(Matcher::Matches(s.clone())),
                ("and", Value::Array(items)) => {
                    Some(Matcher::And { all: items.iter().map(read_matcher).collect(), explicit: true })
                }
                ("or", Value::Array(items)) => Some(Matcher::Or(items.iter().map(read_matcher).collect())),
                ("not", v) => Some(Matcher::Not(Box::new(read_matcher(v)))),
                _ => None,
            };
            matcher.unwrap_or_else(|| Matcher::eq(value.clone()))
        }
        other => Matcher::eq(other.clone()),
    }
}

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
            let bare_is_ambiguous = value.is_array() || read_matcher(value) != Matcher::eq(value.clone());
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
