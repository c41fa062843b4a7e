//! The servers: the model's as `servers` objects, and Vertex's one server URL.

use serde_json::{Map, Value, json};
use toolport_plugin::{Diagnostic, Server, ToolSet, codes};

use super::Mode;
use crate::verbatim;

/// The server URL Vertex is given when neither the source nor the options name one.
const DEFAULT_BASE_URL: &str = "https://example.invalid";

/// The `servers` list for `servers`.
pub(crate) fn servers_value(servers: &[Server]) -> Value {
    Value::Array(
        servers
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("url".into(), Value::from(s.url.as_str()));
                if let Some(d) = &s.description {
                    m.insert("description".into(), Value::from(d.as_str()));
                }
                if !s.variables.is_empty() {
                    m.insert("variables".into(), Value::Object(s.variables.clone().into_iter().collect()));
                }
                Value::Object(m)
            })
            .collect(),
    )
}

/// The document's `servers`, or `None` when there are none to write: the source's as written
/// when the model's did not change, else the model's; for Vertex exactly one. `ext` is the
/// set's `extras["openapi"]`; `base_url` is the option of that name.
pub(super) fn write_servers(
    set: &ToolSet,
    ext: &Map<String, Value>,
    mode: Mode,
    base_url: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> Option<Value> {
    let servers = servers_value(&set.servers);
    // `url: [API_SERVICE_URL]` (a placeholder YAML reads as a list) was read as the text it
    // means, and the reader keeps no record of the list (no OpenAPI reader takes it).
    let mut servers_out = verbatim::unchanged(ext.get("servers"), || &servers).cloned().unwrap_or(servers);
    if mode == Mode::Vertex {
        let count = servers_out.as_array().map_or(0, Vec::len);
        if count == 0 {
            servers_out = json!([{ "url": vertex_server_url(set, base_url, out) }]);
        } else if count > 1 {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                "/servers",
                format!("Vertex takes one server: the first of {count} was kept"),
            ));
            servers_out = Value::Array(servers_out.as_array().map(|a| a[..1].to_vec()).unwrap_or_default());
        }
    }
    (servers_out.as_array().is_some_and(|a| !a.is_empty()) || ext.contains_key("servers")).then_some(servers_out)
}

/// Vertex's server URL when the document names none: the `base_url` option, else the first
/// server a tool names, else a placeholder; said in a diagnostic.
fn vertex_server_url(set: &ToolSet, base_url: Option<&str>, out: &mut Vec<Diagnostic>) -> String {
    let from_tools = set.tools.iter().find_map(|t| t.http.as_ref().and_then(|h| h.servers.first()));
    // A URL the user gave is theirs, not made up: nothing to say about it.
    let (url, diagnostic) = match (base_url, from_tools) {
        (Some(url), _) => (url.to_owned(), None),
        (None, Some(server)) => (
            server.url.clone(),
            Some(Diagnostic::info(
                codes::CHANGED_VALUE,
                "/servers",
                format!(
                    "Vertex needs one server URL: the tools' `{}` was written (the base_url option sets another)",
                    server.url
                ),
            )),
        ),
        (None, None) => (
            DEFAULT_BASE_URL.to_owned(),
            Some(Diagnostic::warning(
                codes::GENERATED_PLACEHOLDER,
                "/servers",
                format!(
                    "Vertex needs one server URL: the placeholder `{DEFAULT_BASE_URL}` was written; set yours with the `base_url` option"
                ),
            )),
        ),
    };
    out.extend(diagnostic);
    url
}
