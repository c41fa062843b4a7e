//! Reading OpenAI function tools into the model, mirrored by [`crate::write`]: the document's
//! shape, each tool's form and `strict` flag, built-in tools with their position
//! ([`other_tools`]), unknown keys and schemas the model cannot reproduce are kept under
//! `extras["openai"]`.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::read::{
    Kept, ToolKeys, check_name, keep_unknown, optional_string, read_strict, read_tool_list, tool_name, tool_object,
};
use toolport_plugin::function_tools::{other_tools, schema};
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
                let kind = item.get("type").and_then(Value::as_str).unwrap_or("?");
                let what = format!("built-in tool `{kind}`");
                other_tools::keep(reading, item, i, &path, &what, "OpenAI");
            } else if let Some(tool) = read_tool(source, item, &path, &mut reading.diagnostics) {
                reading.add(tool, "tool name", path);
            }
        },
    )
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
    read_strict(source, function, &function_path, true, &mut kept, diagnostics);
    keep_unknown(source, function, &keys, &function_path, kept, &mut tool, diagnostics);
    Some(tool)
}
