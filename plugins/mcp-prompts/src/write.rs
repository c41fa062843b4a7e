//! Writing MCP prompts from the model, mirroring [`crate::read`]: each tool a prompt, its
//! parameters string arguments, its `prompt` the message template in `_meta`
//! ([`crate::MESSAGES_META`]).

use std::collections::HashSet;

use serde_json::{Map, Value, json};
use toolport_plugin::function_tools::common::extras_object;
use toolport_plugin::function_tools::descriptions::{Need, descriptions};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::function_tools::write::{Made, give_back_kept, in_envelope};
use toolport_plugin::loss::{Carried, uncarried_as_asked};
use toolport_plugin::source::child;
use toolport_plugin::template::placeholders;
use toolport_plugin::{Diagnostic, Options, Parameter, SchemaType, ToolSet, codes};

use crate::{ID, MESSAGES_META, NAME_RULES};

/// What a prompt holds: a string argument has a title and a description, nothing else.
const CARRIED: Carried = Carried {
    tool_set: &[],
    tool: &["title", "description", "prompt"],
    parameter: &["required"],
    schema: &["type", "title", "description"],
    example: &[],
};

/// The `prompts/list` result of `model`, in the JSON-RPC response its source came in, if any.
pub fn document(model: &ToolSet, options: &Options) -> Made<Value> {
    let (mut diagnostics, counted) = uncarried_as_asked(model, ID, &CARRIED, options);
    let names = tool_names(model, NAME_RULES, ID, &mut diagnostics);
    let descriptions = descriptions(model, ID, Need::Optional, &mut diagnostics);
    let set_extras = extras_object(&model.extras, ID);
    let mut prompts = Vec::with_capacity(model.tools.len());
    for (i, ((tool, name), description)) in model.tools.iter().zip(&names).zip(descriptions).enumerate() {
        let path = child("/tools", i.to_string());
        let extras = extras_object(&tool.extras, ID);
        let mut out = Map::new();
        out.insert("name".into(), name.as_str().into());
        if let Some(title) = &tool.title {
            out.insert("title".into(), title.as_str().into());
        }
        if let Some(description) = description {
            out.insert("description".into(), description.into());
        }
        let unfilled = tool.prompt.as_deref().map(|t| unfilled(t, &tool.parameters)).unwrap_or_default();
        let no_arguments = extras.get("noArguments") == Some(&Value::Bool(true));
        if !(tool.parameters.is_empty() && unfilled.is_empty() && no_arguments) {
            let mut arguments: Vec<Value> = tool
                .parameters
                .iter()
                .enumerate()
                .map(|(j, p)| {
                    argument(p, &tool.name, &child(&child(&path, "parameters"), j.to_string()), &mut diagnostics)
                })
                .collect();
            for name in unfilled {
                diagnostics.push(Diagnostic::warning(
                    codes::GENERATED,
                    child(&path, "prompt"),
                    format!(
                        "the template of prompt `{}` uses {{{{{name}}}}}, which names no parameter: written as an optional argument `{name}`, so a server can fill it in",
                        tool.name
                    ),
                ));
                arguments.push(json!({"name": name, "required": false}));
            }
            out.insert("arguments".into(), Value::Array(arguments));
        }
        let mut meta = match extras.get("meta") {
            Some(Value::Object(meta)) => meta.clone(),
            _ => Map::new(),
        };
        if let Some(template) = &tool.prompt {
            meta.insert(MESSAGES_META.into(), json!([{"role": "user", "content": {"type": "text", "text": template}}]));
        }
        if !meta.is_empty() {
            out.insert("_meta".into(), Value::Object(meta));
        }
        give_back_kept(&mut out, &extras);
        prompts.push(Value::Object(out));
    }
    let mut list = Map::new();
    list.insert("prompts".into(), Value::Array(prompts));
    if let Some(Value::Object(others)) = set_extras.get("document") {
        list.extend(others.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    (in_envelope(Value::Object(list), &set_extras), diagnostics, counted)
}

/// The names the template's placeholders use that no parameter has, each once, in order: a
/// prompt's arguments are what `prompts/get` fills the template with.
fn unfilled(template: &str, parameters: &[Parameter]) -> Vec<String> {
    // Sets, not scans: a template may hold many thousands of placeholders.
    let found = placeholders(template);
    let mut seen: HashSet<&str> = parameters.iter().map(|p| p.name.as_str()).collect();
    found.iter().filter(|p| seen.insert(p.name.as_str())).map(|p| p.name.clone()).collect()
}

/// A parameter as a string argument; another type is written as a string, with a warning.
fn argument(parameter: &Parameter, tool: &str, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let extras = extras_object(&parameter.extras, ID);
    let schema = &parameter.schema;
    let mut out = Map::new();
    out.insert("name".into(), parameter.name.as_str().into());
    if let Some(title) = &schema.title {
        out.insert("title".into(), title.as_str().into());
    }
    if let Some(description) = &schema.description {
        out.insert("description".into(), description.as_str().into());
    }
    // A source that left `required` out (not required) gets it left out again.
    let spelled_without = extras.get("noRequired") == Some(&Value::Bool(true));
    if parameter.required || !spelled_without {
        out.insert("required".into(), parameter.required.into());
    }
    if schema.kind != Some(SchemaType::String) {
        let kind = match (&schema.kind, &schema.reference) {
            (Some(kind), _) => kind.as_str().to_owned(),
            (None, Some(reference)) => format!("the schema `{reference}`"),
            (None, None) => "any type".to_owned(),
        };
        diagnostics.push(Diagnostic::warning(
            codes::CHANGED_SCHEMA,
            child(path, "schema"),
            format!(
                "MCP prompt arguments are strings: parameter `{}` of prompt `{tool}` ({kind}) is written as a string argument",
                parameter.name
            ),
        ));
    }
    if let Some(Value::Object(keep)) = extras.get("keep") {
        out.extend(keep.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    Value::Object(out)
}
