//! Raycast evals to canonical examples. Every expectation and matcher form is kept with enough
//! detail (`Matcher::Eq { explicit }`, `ToolCall::long_form`) to write it back as it was read;
//! anything unrecognised is kept verbatim in the example's extras with a diagnostic.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Example, Expectation, Matcher, ToolCall, codes};

use crate::FORMAT_ID;
use crate::extension::{EVAL_KEYS, MatcherForm, matcher_form};

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
        _ => match matcher_form(value) {
            Some(MatcherForm::Eq(v)) => Matcher::Eq { value: v.clone(), explicit: true },
            Some(MatcherForm::Includes(v)) => Matcher::Includes(v.clone()),
            Some(MatcherForm::Matches(s)) => Matcher::Matches(s.to_owned()),
            Some(MatcherForm::And(items)) => {
                Matcher::And { all: items.iter().map(read_matcher).collect(), explicit: true }
            }
            Some(MatcherForm::Or(items)) => Matcher::Or(items.iter().map(read_matcher).collect()),
            Some(MatcherForm::Not(v)) => Matcher::Not(Box::new(read_matcher(v))),
            None => Matcher::eq(value.clone()),
        },
    }
}
