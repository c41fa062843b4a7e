//! The `openapi` writer's `profile=bedrock-agent`: the document as an Amazon Bedrock Agents
//! action group takes it in its `apiSchema` (Bedrock's user guide, [`SOURCE`]): OpenAPI `3.0.0`
//! (a 3.1 source brought down to 3.0 as for Vertex, each change said), a `description` on every
//! operation (the agent reads it to choose the operation: the summary, else one made from the
//! tool's name, said), `x-requireConfirmation: ENABLED` on the operation of a tool that asks for
//! confirmation, and no `enum` (Bedrock's agents do not support it; the guide says to list the
//! allowed values in the description): each enum's values move into its schema's description,
//! a `changed/schema` naming the tool and parameter, or the shared schema.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::descriptions::generated_description;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Limit, ToolSet, codes};

/// The option's value that selects this profile (the option is `gpt_actions::OPTION`).
pub(crate) const VALUE: &str = "bedrock-agent";

/// The version Bedrock's agents take ("must be 3.0.0").
pub(crate) const VERSION: &str = "3.0.0";

pub(crate) const SOURCE: &str = "Amazon Bedrock user guide, Define OpenAPI schemas for your agent's action groups \
    (https://docs.aws.amazon.com/bedrock/latest/userguide/agents-api-schema.html)";

/// The rules this profile keeps, as `convert formats openapi` shows them.
pub(crate) fn limits(option: &str) -> Vec<Limit> {
    let when = format!("{option}={VALUE}");
    vec![
        Limit::rule(
            "OpenAPI 3.0.0; a description on every operation; no enum (its values listed in the description); x-requireConfirmation for a tool that asks first",
            SOURCE,
        )
        .when(&when),
    ]
}

/// Applies the profile to the written `document`; `names` are the tools' written operationIds.
pub(crate) fn apply(document: &mut Value, set: &ToolSet, names: &[String], out: &mut Vec<Diagnostic>) {
    let Some(root) = document.as_object_mut() else { return };
    if let Some(Value::Object(schemas)) = root.get_mut("components").and_then(|c| c.get_mut("schemas")) {
        for (name, schema) in schemas.iter_mut() {
            let at = child("/definitions", name);
            let mut moved = Vec::new();
            enums_to_descriptions(schema, "", &mut moved);
            for (inner, values) in moved {
                out.push(Diagnostic::warning(
                    codes::CHANGED_SCHEMA,
                    at.clone(),
                    format!(
                        "Bedrock's agents take no `enum`: the values of shared schema `{name}`{} are listed in its description instead ({values}; source: {SOURCE})",
                        within(&inner)
                    ),
                ));
            }
        }
    }
    let Some(paths) = root.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for op in item.values_mut().filter_map(Value::as_object_mut) {
            let Some(id) = op.get("operationId").and_then(Value::as_str).map(str::to_owned) else { continue };
            let Some(i) = names.iter().position(|n| *n == id) else { continue };
            operation(op, set, i, &id, out);
        }
    }
}

/// One tool's operation: its description, its confirmation flag, its schemas without enums.
fn operation(op: &mut Map<String, Value>, set: &ToolSet, i: usize, id: &str, out: &mut Vec<Diagnostic>) {
    let tool = &set.tools[i];
    let path = child("/tools", i.to_string());
    let described = op.get("description").and_then(Value::as_str).is_some_and(|t| !t.trim().is_empty());
    if !described {
        let (text, from) = match op.get("summary").and_then(Value::as_str).filter(|t| !t.trim().is_empty()) {
            Some(summary) => (summary.to_owned(), "its summary".to_owned()),
            None => {
                let text = generated_description(tool);
                (text, "its name".to_owned())
            }
        };
        out.push(Diagnostic::warning(
            codes::GENERATED,
            child(&path, "description"),
            format!(
                "operation `{id}` has no description, which Bedrock's agents need to choose it: it was given one from {from}: \"{text}\" (source: {SOURCE})"
            ),
        ));
        op.insert("description".into(), text.into());
    }
    if tool.confirmation.is_some() && !op.contains_key("x-requireConfirmation") {
        op.insert("x-requireConfirmation".into(), "ENABLED".into());
    }
    let parameter_path = |name: &str| match tool.parameters.iter().position(|p| p.name == name) {
        Some(j) => child(&child(&path, "parameters"), j.to_string()),
        None => path.clone(),
    };
    let mut moved: Vec<(String, String, String)> = Vec::new();
    for parameter in op.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
        let name = parameter.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        if let Some(schema) = parameter.get_mut("schema") {
            let mut found = Vec::new();
            enums_to_descriptions(schema, "", &mut found);
            moved.extend(found.into_iter().map(|(inner, values)| (name.clone(), inner, values)));
        }
    }
    // A body's own properties are the tool's parameters (or, read from OpenAPI, one `body`).
    let body_parameter = tool.parameter("body").is_some();
    let body = op.get_mut("requestBody").and_then(|b| b.get_mut("content")).and_then(Value::as_object_mut);
    for schema in body.into_iter().flat_map(|c| c.values_mut()).filter_map(|m| m.get_mut("schema")) {
        let mut found = Vec::new();
        enums_to_descriptions(schema, "", &mut found);
        for (inner, values) in found {
            // `/properties/size/items` is parameter `size`'s `/items`, unless the body is one
            // parameter.
            let property = inner.strip_prefix("/properties/").filter(|_| !body_parameter);
            let (parameter, inner) = match property.map(|rest| rest.split_once('/').unwrap_or((rest, ""))) {
                Some((name, rest)) => {
                    (name.to_owned(), if rest.is_empty() { String::new() } else { format!("/{rest}") })
                }
                None => ("body".to_owned(), inner),
            };
            moved.push((parameter, inner, values));
        }
    }
    for (parameter, inner, values) in moved {
        out.push(Diagnostic::warning(
            codes::CHANGED_SCHEMA,
            parameter_path(&parameter),
            format!(
                "Bedrock's agents take no `enum`: the values of parameter `{parameter}`{} of `{id}` are listed in its description instead ({values}; source: {SOURCE})",
                within(&inner)
            ),
        ));
    }
    let responses = op.get_mut("responses").and_then(Value::as_object_mut);
    let mut in_output = Vec::new();
    for response in responses.into_iter().flat_map(|r| r.values_mut()) {
        let content = response.get_mut("content").and_then(Value::as_object_mut);
        for media in content.into_iter().flat_map(|c| c.values_mut()) {
            if let Some(schema) = media.get_mut("schema") {
                enums_to_descriptions(schema, "", &mut in_output);
            }
        }
    }
    for (inner, values) in in_output {
        out.push(Diagnostic::warning(
            codes::CHANGED_SCHEMA,
            child(&child(&path, "output"), "schema"),
            format!(
                "Bedrock's agents take no `enum`: the values in the result of `{id}`{} are listed in its description instead ({values}; source: {SOURCE})",
                within(&inner)
            ),
        ));
    }
}

/// For a place inside a schema, where (and the innermost property, by name): ` (property
/// `x` at /properties/x)`; nothing for the schema itself.
fn within(inner: &str) -> String {
    let property = inner.rsplit_once("/properties/").map(|(_, rest)| rest.split('/').next().unwrap_or(rest));
    match property {
        Some(name) => format!(" (property `{name}` at {inner})"),
        None if inner.is_empty() => String::new(),
        None => format!(" (at {inner})"),
    }
}

/// Moves every `enum` in `schema` (at `at` inside it) into its description, "Allowed values:
/// `a`, `b`."; each move as (where, the values as written).
fn enums_to_descriptions(schema: &mut Value, at: &str, moved: &mut Vec<(String, String)>) {
    let Some(map) = schema.as_object_mut() else { return };
    if let Some(Value::Array(values)) = map.remove("enum") {
        let listed: Vec<String> = values
            .iter()
            .map(|v| match v {
                Value::String(s) => format!("`{s}`"),
                other => format!("`{other}`"),
            })
            .collect();
        let listed = listed.join(", ");
        let sentence = format!("Allowed values: {listed}.");
        let description = match map.get("description").and_then(Value::as_str).filter(|d| !d.trim().is_empty()) {
            Some(text) => format!("{} {sentence}", text.trim_end()),
            None => sentence,
        };
        map.insert("description".into(), description.into());
        moved.push((at.to_owned(), listed));
    }
    for key in ["properties"] {
        if let Some(Value::Object(properties)) = map.get_mut(key) {
            for (name, property) in properties.iter_mut() {
                enums_to_descriptions(property, &format!("{at}/{key}/{name}"), moved);
            }
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(child) = map.get_mut(key) {
            enums_to_descriptions(child, &format!("{at}/{key}"), moved);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(members)) = map.get_mut(key) {
            for (i, member) in members.iter_mut().enumerate() {
                enums_to_descriptions(member, &format!("{at}/{key}/{i}"), moved);
            }
        }
    }
}
