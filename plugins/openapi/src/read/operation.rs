//! An operation → a tool: its name, texts, servers and HTTP binding; parameters, request body
//! and responses are read by their own modules.

use serde_json::{Map, Value};
use toolport_plugin::jsonschema::Reader;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, HttpBinding, Tool, codes};

use super::{OperationContext, body, parameter, responses, servers, x_toolport};
use crate::ID;
use crate::bookkeeping::XT;
use crate::http::method_hints;

/// The tool for an operation, and the path parameters the reader added to the operation as
/// written (see [`parameter::read_undeclared_placeholders`]).
pub(super) fn read_operation(
    reader: &mut Reader,
    cx: &OperationContext,
    operation: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Tool, Vec<Value>) {
    let at = child(cx.at, cx.method);
    let method = cx.method.to_ascii_uppercase();
    let mut leftovers = Map::new();
    let mut ext = Map::new();
    let name = match operation.get("operationId") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        _ => {
            let name = format!("{method} {}", cx.path);
            diagnostics.push(Diagnostic::info(
                codes::INPUT_TOLERATED,
                &at,
                format!("operation without an operationId: named `{name}` from its method and path"),
            ));
            ext.insert("noOperationId".into(), Value::Bool(true));
            name
        }
    };
    let mut tool = Tool::new(name);
    tool.hints = method_hints(&method);
    let mut http = HttpBinding { method: method.clone(), path: cx.path.to_owned(), ..HttpBinding::default() };

    for (key, value) in operation {
        match (key.as_str(), value) {
            ("operationId", Value::String(id)) if !id.is_empty() => {}
            ("summary", Value::String(s)) => tool.title = Some(s.clone()),
            ("description", Value::String(s)) => tool.description = Some(s.clone()),
            ("parameters" | "requestBody" | "responses", _) => {}
            ("servers", _) => {}
            _ if key.starts_with(XT) => {}
            _ => {
                leftovers.insert(key.clone(), value.clone());
            }
        }
    }
    // A model reads the tool's description: an operation with only a `summary` (the petstore,
    // OpenAI's own spec) or a blank `description` (116 of GitHub's) gets the summary as its
    // description. The record says where it came from (`true`, or the blank text), so the
    // writer gives back what the source said (see `write::operation`).
    if tool.description.as_deref().is_none_or(|d| d.trim().is_empty())
        && let Some(summary) = tool.title.as_ref().filter(|s| !s.trim().is_empty())
    {
        let record = tool.description.take().map_or(Value::Bool(true), Value::String);
        tool.description = Some(summary.clone());
        ext.insert("descriptionFromSummary".into(), record);
    }
    if operation.contains_key("servers") {
        ext.insert("ownServers".into(), Value::Bool(true));
    }
    http.servers = match operation.get("servers") {
        Some(servers) => servers::read_servers(Some(servers), &child(&at, "servers"), diagnostics),
        None => cx.item_servers.to_vec(),
    };

    let declared = parameter::read_parameters(reader, cx, operation, &at, &mut tool, diagnostics);
    let added = parameter::read_undeclared_placeholders(reader, cx, &at, &declared, &mut tool, diagnostics);

    if let Some(body) = operation.get("requestBody") {
        body::read_request_body(reader, body, &child(&at, "requestBody"), &mut tool, &mut http, &mut ext, diagnostics);
    }
    if let Some(responses) = operation.get("responses") {
        responses::read_responses(reader, responses, &child(&at, "responses"), &mut tool, &mut ext);
    }
    if !leftovers.is_empty() {
        ext.insert("operation".into(), Value::Object(leftovers));
    }
    tool.http = Some(Box::new(http));
    if !ext.is_empty() {
        tool.extras.insert(ID.into(), Value::Object(ext));
    }
    x_toolport::restore_tool(operation, &mut tool, &at, diagnostics);
    (tool, added)
}
