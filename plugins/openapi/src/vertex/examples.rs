//! `toolUseExamples` ↔ the model's examples, both ways. Arguments and responses may be in
//! protobuf's verbose `Struct` form, which is read and written back as the source had it.

use std::collections::HashMap;

use serde_json::{Map, Value, json};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Example, Expectation, Matcher, ToolCall, ToolSet, codes};

use super::{VX, camel, get, others, text};

/// Decodes the verbose protobuf `Struct` form `{fields: [{key, value: {string_value: …}}]}`.
fn decode_struct(value: &Value) -> Option<Value> {
    let fields = value.as_object().filter(|m| m.len() == 1)?.get("fields")?.as_array()?;
    let mut out = Map::new();
    for field in fields {
        let key = field.get("key")?.as_str()?;
        out.insert(key.to_owned(), decode_value(field.get("value")?)?);
    }
    Some(Value::Object(out))
}

fn decode_value(value: &Value) -> Option<Value> {
    let map = value.as_object().filter(|m| m.len() == 1)?;
    let (kind, inner) = map.iter().next()?;
    Some(match camel(kind).as_str() {
        "stringValue" | "numberValue" | "boolValue" => inner.clone(),
        "nullValue" => Value::Null,
        "structValue" => decode_struct(inner).or_else(|| inner.is_object().then(|| inner.clone()))?,
        "listValue" => {
            Value::Array(inner.get("values")?.as_array()?.iter().map(decode_value).collect::<Option<Vec<_>>>()?)
        }
        _ => return None,
    })
}

/// The verbose protobuf `Struct` form of a JSON object (the inverse of [`decode_struct`]).
fn encode_struct(value: &Value) -> Value {
    let fields: Vec<Value> =
        value.as_object().into_iter().flatten().map(|(k, v)| json!({"key": k, "value": encode_value(v)})).collect();
    json!({ "fields": fields })
}

fn encode_value(value: &Value) -> Value {
    match value {
        Value::String(_) => json!({ "string_value": value }),
        Value::Number(_) => json!({ "number_value": value }),
        Value::Bool(_) => json!({ "bool_value": value }),
        Value::Null => json!({ "null_value": "NULL_VALUE" }),
        Value::Object(_) => json!({ "struct_value": encode_struct(value) }),
        Value::Array(items) => {
            json!({ "list_value": { "values": items.iter().map(encode_value).collect::<Vec<_>>() } })
        }
    }
}

/// The `i`th `toolUseExamples` entry as an example of `set` (whose tools are read).
pub(super) fn read_example(example: &Value, set: &ToolSet, i: usize, diagnostics: &mut Vec<Diagnostic>) -> Example {
    let at = child("/toolUseExamples", i.to_string());
    let mut ext = Map::new();
    let mut out = Example { name: text(example, "displayName"), ..Example::default() };
    match text(example, "query") {
        Some(query) => out.prompt = query,
        None => diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, &at, "a tool-use example needs a `query`")),
    }
    let mut verbose = false;
    let mut decode = |value: &Value| match decode_struct(value) {
        Some(decoded) => {
            verbose = true;
            decoded
        }
        None => value.clone(),
    };
    let arguments = get(example, "requestParams").map(&mut decode);
    out.response = get(example, "responseParams").map(&mut decode);
    if verbose {
        ext.insert("struct".into(), Value::Bool(true));
    }
    out.response_summary = text(example, "responseSummary");
    let target = if let Some(operation) = get(example, "extensionOperation") {
        let rest = others(operation, &["operationId"]);
        if !rest.is_empty() {
            ext.insert("extensionOperation".into(), Value::Object(rest));
        }
        text(operation, "operationId")
    } else if let Some(name) = text(example, "functionName") {
        ext.insert("target".into(), Value::from("functionName"));
        Some(name)
    } else {
        ext.insert("target".into(), Value::from("none"));
        None
    };
    if let Some(operation_id) = target {
        // The tool whose operation this is (its name differs when the id was repeated).
        let tool = set
            .tools
            .iter()
            .find(|t| t.http.as_ref().and_then(|h| h.operation_id.as_deref()) == Some(operation_id.as_str()))
            .map(|t| t.name.clone())
            .unwrap_or_else(|| {
                if set.tool(&operation_id).is_none() {
                    diagnostics.push(Diagnostic::warning(
                        codes::INPUT_UNRESOLVED,
                        &at,
                        format!("operation `{operation_id}` is not in the spec"),
                    ));
                }
                operation_id
            });
        let arguments = arguments
            .as_ref()
            .and_then(Value::as_object)
            .map(|args| args.iter().map(|(k, v)| (k.clone(), Matcher::eq(v.clone()))).collect());
        if arguments.is_none() {
            ext.insert("noRequestParams".into(), Value::Bool(true));
        }
        out.expected.push(Expectation::CallsTool(ToolCall { tool, arguments, long_form: false }));
    } else if let Some(arguments) = arguments {
        ext.insert("requestParams".into(), arguments);
    }
    let rest = others(
        example,
        &[
            "displayName",
            "query",
            "requestParams",
            "responseParams",
            "responseSummary",
            "extensionOperation",
            "functionName",
        ],
    );
    if !rest.is_empty() {
        ext.insert("other".into(), Value::Object(rest));
    }
    if !ext.is_empty() {
        out.extras.insert(VX.into(), Value::Object(ext));
    }
    out
}

/// Whether an example can be a Vertex tool-use example: Vertex needs the user's `query`, and
/// an example names an operation of the spec (Raycast evals may call tools the extension does
/// not list; `tools`: `ToolSet::tool_indices`). One that cannot is left out with a
/// `loss/examples` diagnostic.
pub(super) fn example_fits(
    example: &Example,
    i: usize,
    tools: &HashMap<&str, usize>,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let at = format!("/examples/{i}");
    if example.prompt.trim().is_empty() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            child(&at, "prompt"),
            "a Vertex tool-use example needs a `query` (what the user asked); this example has none: left out",
        ));
        return false;
    }
    if let Some(call) = example.called_tools().next()
        && !tools.contains_key(call.tool.as_str())
    {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            child(&at, "expected"),
            format!(
                "this example calls `{}`, which is not one of the tools, so not an operation of the spec: left out",
                call.tool
            ),
        ));
        return false;
    }
    true
}

/// The `toolUseExamples` entry for the `i`th example; `names` are the tools' written names,
/// `tools` their indices by name (`ToolSet::tool_indices`).
pub(super) fn write_example(
    example: &Example,
    i: usize,
    tools: &HashMap<&str, usize>,
    names: &[String],
    out: &mut Vec<Diagnostic>,
) -> Value {
    let at = format!("/examples/{i}");
    let empty = Map::new();
    let ext = example.extras.get(VX).and_then(Value::as_object).unwrap_or(&empty);
    let verbose = ext.get("struct") == Some(&Value::Bool(true));
    let encode = |v: &Value| if verbose { encode_struct(v) } else { v.clone() };
    let mut m = Map::new();
    let mut calls = example.called_tools();
    if let Some(call) = calls.next() {
        let name = tools.get(call.tool.as_str()).map_or(call.tool.clone(), |&index| names[index].clone());
        if ext.get("target").and_then(Value::as_str) == Some("functionName") {
            m.insert("functionName".into(), Value::String(name));
        } else {
            let mut operation = Map::new();
            if let Some(Value::Object(rest)) = ext.get("extensionOperation") {
                operation.extend(rest.clone());
            }
            operation.insert("operationId".into(), Value::String(name));
            m.insert("extensionOperation".into(), Value::Object(operation));
        }
        if let Some(arguments) = &call.arguments {
            let mut params = Map::new();
            for (k, matcher) in arguments {
                match matcher.as_eq() {
                    Some(v) => drop(params.insert(k.clone(), v.clone())),
                    None => out.push(Diagnostic::loss(
                        codes::LOSS_EXAMPLES,
                        format!("{at}/expected/0/calls_tool/arguments/{k}"),
                        "Vertex example arguments are plain values: a matcher other than equality was left out",
                    )),
                }
            }
            if !(params.is_empty() && ext.get("noRequestParams") == Some(&Value::Bool(true))) {
                m.insert("requestParams".into(), encode(&Value::Object(params)));
            }
        }
    } else if ext.get("target").and_then(Value::as_str) != Some("none") {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/expected"),
            "a Vertex tool-use example names the operation it calls; this example calls none",
        ));
    }
    if let Some(Value::Object(params)) = ext.get("requestParams") {
        m.insert("requestParams".into(), encode(&Value::Object(params.clone())));
    }
    let display_name = example.name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| {
        out.push(Diagnostic::info(
            codes::GENERATED,
            format!("{at}/name"),
            "Vertex examples need a displayName: the prompt was used",
        ));
        example.prompt.chars().take(128).collect()
    });
    m.insert("displayName".into(), Value::String(display_name));
    m.insert("query".into(), Value::from(example.prompt.as_str()));
    if let Some(response) = &example.response {
        m.insert("responseParams".into(), encode(response));
    }
    if let Some(summary) = &example.response_summary {
        m.insert("responseSummary".into(), Value::from(summary.as_str()));
    }
    if let Some(Value::Object(rest)) = ext.get("other") {
        for (k, v) in rest {
            m.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    report_losses(example, &at, out);
    Value::Object(m)
}

/// A `loss/examples` (or `loss/extras`) diagnostic for each part of `example` a Vertex
/// tool-use example cannot hold.
fn report_losses(example: &Example, at: &str, out: &mut Vec<Diagnostic>) {
    let mut expectations = example.expected.iter().enumerate().filter(|(_, e)| !matches!(e, Expectation::CallsTool(_)));
    if let Some((j, _)) = expectations.next() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/expected/{j}"),
            "Vertex examples hold no checks on the response other than the call; left out",
        ));
    }
    if example.called_tools().count() > 1 {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/expected"),
            "Vertex examples name one call; the others were left out",
        ));
    }
    if !example.mocks.is_empty() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/mocks"),
            "Vertex examples have no mocked tool results; left out",
        ));
    }
    if example.used_as_example.is_some() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/used_as_example"),
            "Vertex has no `usedAsExample`; left out",
        ));
    }
    for key in example.extras.keys().filter(|k| k.as_str() != VX) {
        out.push(Diagnostic::loss(
            codes::LOSS_EXTRAS,
            format!("{at}/extras/{key}"),
            format!("vertex cannot hold data only {key} has"),
        ));
    }
}
