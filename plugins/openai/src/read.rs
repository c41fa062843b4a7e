//! Reading OpenAI function tools into the model, mirrored by [`crate::write`]: the document's
//! shape, each tool's form and `strict` flag, built-in tools with their position
//! ([`crate::builtin`]), unknown keys and schemas the model cannot reproduce are kept under
//! `extras["openai"]`.

use serde_json::{Map, Value, json};
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::read::{
    Kept, Reading, ToolKeys, check_name, keep_unknown, optional_string, read_tool_list, tool_name, tool_object,
};
use toolport_plugin::function_tools::schema;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Outcome, Tool, ToolSet, codes};

use crate::{DIALECT, ID, NAME_RULES};

/// The tools of an OpenAI document: an array of tools, `{"tools": [...]}`, or one tool.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    read_tool_list(
        source,
        ID,
        |map| map.contains_key("type"),
        "expected OpenAI tools: an array of tools, {\"tools\": [...]}, or one tool",
        |reading, item, i, path| {
            if item.get("type").is_some_and(|t| t != "function") {
                keep_builtin(reading, item, i, &path);
            } else if let Some(tool) = read_tool(source, item, &path, &mut reading.diagnostics) {
                reading.add(tool, "tool name", path);
            }
        },
    )
}

/// A built-in tool (`web_search`, `file_search`, …): not a function, kept with its position
/// (`otherTools` in the tool set's extras, [`crate::builtin`]).
fn keep_builtin(reading: &mut Reading, item: &Value, at: usize, path: &str) {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("?");
    reading.diagnostics.push(reading.source.at(Diagnostic::info(
        codes::INPUT_UNKNOWN_KEY,
        path,
        format!("built-in tool `{kind}` is not a function: kept as written for an OpenAI output, left out of every other format"),
    )));
    let others = reading.set_extras.entry("otherTools").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(others) = others {
        others.push(json!({"at": at, "tool": item}));
    }
}

/// The keys of a Chat Completions `function` object.
const FUNCTION_KEYS: ToolKeys =
    ToolKeys { format: ID, what: "function", known: &["name", "description", "parameters", "strict"], quiet: &[] };

/// The keys of a Responses API tool: the function's and the tool's `type`.
const RESPONSES_KEYS: ToolKeys =
    ToolKeys { known: &["name", "description", "parameters", "strict", "type"], ..FUNCTION_KEYS };

fn read_tool(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let outer = tool_object(source, value, path, "tool", diagnostics)?;
    let mut kept = Kept::default();
    let (function, function_path, keys) = match outer.get("function") {
        Some(Value::Object(function)) => {
            let outer_rest: Map<String, Value> = outer
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "type" | "function"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !outer_rest.is_empty() {
                kept.extras.insert("keepOuter".into(), Value::Object(outer_rest));
            }
            (function, child(path, "function"), FUNCTION_KEYS)
        }
        _ => {
            kept.extras.insert("form".into(), "responses".into());
            (outer, path.to_owned(), RESPONSES_KEYS)
        }
    };
    if !outer.contains_key("type") {
        kept.extras.insert("noType".into(), true.into());
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            path,
            "a tool without `\"type\": \"function\"` was read as a function",
        )));
    }
    let name = tool_name(source, function, &function_path, "function", diagnostics)?;
    check_name(source, &name, NAME_RULES, "function", "OpenAI", &function_path, diagnostics);
    let mut tool = Tool::new(name);
    tool.description = optional_string(source, function, "description", &function_path, &mut kept.keep, diagnostics);
    let extras = &mut kept.extras;
    match function.get("parameters") {
        Some(parameters) => {
            let at = child(&function_path, "parameters");
            tool.parameters = schema::read_input(source, parameters, DIALECT, &at, "parameters", extras, diagnostics);
        }
        None => {
            extras.insert("noParameters".into(), true.into());
        }
    }
    match function.get("strict") {
        Some(Value::Bool(flag)) => {
            extras.insert("strict".into(), (*flag).into());
        }
        Some(Value::Null) => {
            extras.insert("strict".into(), Value::Null);
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(&function_path, "strict"),
                "`strict` should be a boolean; kept as written",
            )));
            kept.keep.insert("strict".into(), other.clone());
        }
        None => {}
    }
    keep_unknown(source, function, &keys, &function_path, kept, &mut tool, diagnostics);
    Some(tool)
}
