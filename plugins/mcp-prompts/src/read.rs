//! Reading MCP prompts into the model, mirrored by [`crate::write`]: a prompt is a tool whose
//! parameters are its arguments (strings) and whose `prompt` is the message template kept in
//! its `_meta` ([`crate::MESSAGES_META`]); the list's other keys, each prompt's `icons`, other
//! `_meta` keys, a template of several messages and unknown keys are kept under
//! `extras["mcp-prompts"]` for a same-format write.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::common::{Source, json_rpc_result};
use toolport_plugin::function_tools::read::{
    Kept, Reading, ToolKeys, check_name, keep_unknown, optional_string, tool_name, tool_object, without,
};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Outcome, Parameter, Schema, SchemaType, Tool, ToolSet, codes};

use crate::{ID, MESSAGES_META, NAME_RULES};

const EXPECTED: &str = "expected MCP prompts: a prompts/list result {\"prompts\": [{\"name\": ..., \"arguments\": [...]}]}, alone or in its JSON-RPC response";

/// Whether `value` looks like an MCP prompt: a name, and arguments (if any) as a list.
pub fn is_prompt(value: &Value) -> bool {
    value.get("name").is_some_and(Value::is_string)
        && value.get("inputSchema").is_none()
        && value.get("arguments").is_none_or(Value::is_array)
}

/// The prompts of a `prompts/list` result, alone or in its JSON-RPC response.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    let mut reading = Reading::new(source);
    let (list, root) = match json_rpc_result(&source.value) {
        Some(result) => {
            let mut envelope = source.value.as_object().cloned().unwrap_or_default();
            // Filled again with the written list.
            envelope.insert("result".into(), Value::Null);
            reading.set_extras.insert("envelope".into(), Value::Object(envelope));
            (result, "/result")
        }
        None => (&source.value, ""),
    };
    let Some(prompts) = list.get("prompts").and_then(Value::as_array) else {
        return Outcome::fail(source.at(Diagnostic::error(codes::INPUT_INVALID, root, EXPECTED)));
    };
    if let Some(map) = list.as_object() {
        let others = without(map, "prompts");
        if !others.is_empty() {
            reading.set_extras.insert("document".into(), Value::Object(others));
        }
    }
    let at = child(root, "prompts");
    for (i, item) in prompts.iter().enumerate() {
        let path = child(&at, i.to_string());
        if let Some(tool) = read_prompt(source, item, &path, &mut reading.diagnostics) {
            reading.add(tool, "prompt name", child(&path, "name"));
        }
    }
    reading.finish(ID)
}

const PROMPT_KEYS: ToolKeys = ToolKeys {
    format: ID,
    what: "prompt",
    known: &["name", "title", "description", "arguments", "_meta"],
    // Icons are MCP's own, as for tools: kept for an MCP prompts output without a word.
    quiet: &["icons"],
};

fn read_prompt(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let map = tool_object(source, value, path, "prompt", diagnostics)?;
    let name = tool_name(source, map, path, "prompt", diagnostics)?;
    check_name(source, &name, NAME_RULES, "prompt", "MCP", path, diagnostics);
    let mut kept = Kept::default();
    let mut tool = Tool::new(name);
    tool.title = optional_string(source, map, "title", path, &mut kept.keep, diagnostics);
    tool.description = optional_string(source, map, "description", path, &mut kept.keep, diagnostics);
    match map.get("arguments") {
        Some(Value::Array(arguments)) => {
            let at = child(path, "arguments");
            for (i, argument) in arguments.iter().enumerate() {
                if let Some(parameter) = read_argument(source, argument, &child(&at, i.to_string()), diagnostics) {
                    tool.parameters.push(parameter);
                }
            }
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "arguments"),
                "`arguments` should be a list of arguments; kept as written, the prompt read without them",
            )));
            kept.keep.insert("arguments".into(), other.clone());
        }
        None => {
            kept.extras.insert("noArguments".into(), true.into());
        }
    }
    if let Some(meta) = map.get("_meta") {
        read_meta(source, meta, &child(path, "_meta"), &mut tool, &mut kept, diagnostics);
    }
    keep_unknown(source, map, &PROMPT_KEYS, path, kept, &mut tool, diagnostics);
    Some(tool)
}

/// A prompt's `_meta`: the message template under [`MESSAGES_META`] becomes the tool's
/// `prompt` when it is one user text message; anything else is kept as written.
fn read_meta(
    source: &Source,
    meta: &Value,
    path: &str,
    tool: &mut Tool,
    kept: &mut Kept,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(map) = meta.as_object() else {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            "`_meta` should be an object; kept as written",
        )));
        kept.keep.insert("_meta".into(), meta.clone());
        return;
    };
    let mut others = without(map, MESSAGES_META);
    match map.get(MESSAGES_META).map(single_user_text) {
        Some(Some(text)) => tool.prompt = Some(text),
        Some(None) => {
            // Several messages, or other content: the model holds one template text.
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(path, MESSAGES_META),
                "a template of several messages (or not only text) is kept as written for an MCP prompts output; other formats get no template",
            )));
            others.insert(MESSAGES_META.into(), map[MESSAGES_META].clone());
        }
        None => {}
    }
    if !others.is_empty() {
        kept.extras.insert("meta".into(), Value::Object(others));
    }
}

/// The text of a template that is one user message of text content.
fn single_user_text(messages: &Value) -> Option<String> {
    let [message] = messages.as_array()?.as_slice() else { return None };
    let content = message.get("content")?;
    let only_text = message.as_object()?.len() == 2 && content.as_object()?.len() == 2;
    (message.get("role")? == "user" && content.get("type")? == "text" && only_text)
        .then(|| content.get("text")?.as_str().map(str::to_owned))
        .flatten()
}

/// The keys of a prompt argument the model holds.
const ARGUMENT_KEYS: [&str; 4] = ["name", "title", "description", "required"];

fn read_argument(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Parameter> {
    let Some(map) = value.as_object() else {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            "an argument should be an object; left out",
        )));
        return None;
    };
    let Some(name) = map.get("name").and_then(Value::as_str) else {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            "an argument needs a string `name`; left out",
        )));
        return None;
    };
    let mut schema = Schema::of(SchemaType::String);
    let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
    schema.title = text("title");
    schema.description = text("description");
    let mut parameter = Parameter::new(name, schema);
    let mut extras = Map::new();
    let mut keep = Map::new();
    match map.get("required") {
        Some(Value::Bool(required)) => parameter.required = *required,
        None => {
            // How the source spelled it (no `required` is not required): written the same way.
            extras.insert("noRequired".into(), true.into());
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "required"),
                format!("`required` of argument `{name}` should be true or false; read as not required"),
            )));
            keep.insert("required".into(), other.clone());
        }
    }
    for (key, value) in map {
        let known = ARGUMENT_KEYS.contains(&key.as_str());
        if !known || (key != "name" && key != "required" && !value.is_string()) {
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(path, key),
                format!("argument key `{key}` kept as written"),
            )));
            keep.insert(key.clone(), value.clone());
        }
    }
    if !keep.is_empty() {
        extras.insert("keep".into(), Value::Object(keep));
    }
    if !extras.is_empty() {
        parameter.extras.insert(ID.into(), Value::Object(extras));
    }
    Some(parameter)
}
