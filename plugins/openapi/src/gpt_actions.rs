//! The `openapi` writer's `profile=gpt-actions`: the document as ChatGPT's GPT Actions take it,
//! per OpenAI's production notes ([`SOURCE`]): an operation's summary and description of at
//! most [`OPERATION_TEXT_MAX`] characters and a parameter's description of at most
//! [`PARAMETER_TEXT_MAX`], each longer one cut at a sentence (core's `fit::cut_and_say`,
//! a `changed/description` each); `x-openai-isConsequential` on every operation (ChatGPT asks
//! before each call of a consequential one); a header parameter, which actions do not send,
//! named as lost. Written as OpenAPI 3.1.0 unless the source had a version of its own.

use serde_json::{Map, Value};
use toolport_plugin::fit::cut_and_say;
use toolport_plugin::{Diagnostic, Limit, LimitKind, Tool, ToolSet, codes};

/// The option and its value that select this profile.
pub(crate) const OPTION: &str = "profile";
pub(crate) const VALUE: &str = "gpt-actions";

/// The version written when the source had none: what OpenAI's GPT builder generates.
pub(crate) const VERSION: &str = "3.1.0";

pub(crate) const SOURCE: &str = "OpenAI docs, Production notes on GPT Actions: OpenAPI specification limits \
    (https://developers.openai.com/api/docs/actions/production)";

/// Characters of an operation's `summary` or `description`.
pub(crate) const OPERATION_TEXT_MAX: usize = 300;
/// Characters of a parameter's `description`.
pub(crate) const PARAMETER_TEXT_MAX: usize = 700;

/// The limits this profile keeps, as `convert formats openapi` shows them.
pub(crate) fn limits() -> Vec<Limit> {
    let when = format!("{OPTION}={VALUE}");
    vec![
        Limit::at_most(LimitKind::DescriptionChars, OPERATION_TEXT_MAX as u64, SOURCE)
            .when(&when)
            .kept_by_writer()
            .note("an operation's summary and description, each"),
        Limit::rule(&format!("a parameter's description: at most {PARAMETER_TEXT_MAX} characters"), SOURCE).when(&when),
    ]
}

/// Whether ChatGPT should ask before calling `tool` (`x-openai-isConsequential`): what the
/// model says (a confirmation, a destructive or read-only hint), else the method: GET reads,
/// anything else may change something.
fn consequential(tool: &Tool, method: &str) -> bool {
    if tool.confirmation.is_some() || tool.hints.destructive == Some(true) {
        return true;
    }
    if tool.hints.read_only == Some(true) {
        return false;
    }
    !method.eq_ignore_ascii_case("get")
}

/// Applies the profile to the written `document`; `names` are the tools' written operationIds.
pub(crate) fn apply(document: &mut Value, set: &ToolSet, names: &[String], out: &mut Vec<Diagnostic>) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else { return };
    // operationId → its operation object, and its method.
    let mut operations: std::collections::HashMap<String, (&mut Map<String, Value>, String)> = Default::default();
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for (method, op) in item.iter_mut() {
            if let Some(op) = op.as_object_mut()
                && let Some(id) = op.get("operationId").and_then(Value::as_str).map(str::to_owned)
            {
                operations.insert(id, (op, method.clone()));
            }
        }
    }
    for (i, (tool, name)) in set.tools.iter().zip(names).enumerate() {
        let Some((op, method)) = operations.get_mut(name) else { continue };
        if !op.contains_key("x-openai-isConsequential") {
            op.insert("x-openai-isConsequential".into(), Value::Bool(consequential(tool, method)));
        }
        for (key, field) in [("summary", "title"), ("description", "description")] {
            cut(
                op,
                key,
                OPERATION_TEXT_MAX,
                &format!("/tools/{i}/{field}"),
                &format!("{key} of operation `{name}`"),
                out,
            );
        }
        let parameter_path = |parameter: &str| {
            let j = tool.parameters.iter().position(|p| p.name == parameter);
            j.map(|j| format!("/tools/{i}/parameters/{j}/schema/description")).unwrap_or(format!("/tools/{i}"))
        };
        for parameter in op.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
            let Some(parameter) = parameter.as_object_mut() else { continue };
            let pname = parameter.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            let at = parameter_path(&pname);
            cut(
                parameter,
                "description",
                PARAMETER_TEXT_MAX,
                &at,
                &format!("description of parameter `{pname}` of `{name}`"),
                out,
            );
            if parameter.get("in").and_then(Value::as_str) == Some("header") {
                out.push(Diagnostic::loss(
                    codes::LOSS_HTTP,
                    at.trim_end_matches("/schema/description"),
                    format!("GPT Actions send no custom headers: header parameter `{pname}` of `{name}` is never sent (source: {SOURCE})"),
                ));
            }
        }
        // A JSON body's own properties are parameters to the model too.
        let body =
            op.get_mut("requestBody").and_then(|b| b.get_mut("content")).and_then(|c| c.get_mut("application/json"));
        let properties = body.and_then(|b| b.get_mut("schema")).and_then(|s| s.get_mut("properties"));
        for (pname, schema) in properties.and_then(Value::as_object_mut).into_iter().flatten() {
            if let Some(schema) = schema.as_object_mut() {
                let what = format!("description of parameter `{pname}` of `{name}`");
                cut(schema, "description", PARAMETER_TEXT_MAX, &parameter_path(pname), &what, out);
            }
        }
    }
}

/// Cuts `object[key]` past `max` characters at a sentence, saying so at `at`.
fn cut(object: &mut Map<String, Value>, key: &str, max: usize, at: &str, what: &str, out: &mut Vec<Diagnostic>) {
    let Some(Value::String(text)) = object.get_mut(key) else { return };
    let rule = format!("GPT Actions take at most {max} (source: {SOURCE})");
    if let Some((cut, said)) = cut_and_say(text, max, what, at, &rule) {
        *text = cut;
        out.push(said);
    }
}
