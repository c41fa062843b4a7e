//! `servers` (of the document, a path item or an operation) → the model's servers.

use serde_json::Value;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Server, codes};

pub(super) fn read_servers(value: Option<&Value>, at: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<Server> {
    let Some(value) = value else { return Vec::new() };
    let Some(servers) = value.as_array() else {
        diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, at, "`servers` must be an array; ignored"));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, server) in servers.iter().enumerate() {
        let at = child(at, i.to_string());
        let url = match server.get("url") {
            Some(Value::String(url)) => url.clone(),
            // `url: [API_SERVICE_URL]` (a placeholder YAML reads as a list) is meant as text.
            Some(Value::Array(parts)) if parts.len() == 1 && parts[0].is_string() => {
                let url = format!("[{}]", parts[0].as_str().unwrap_or_default());
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_TOLERATED,
                    child(&at, "url"),
                    format!("the server URL is a YAML list (write it quoted); read as the text `{url}`"),
                ));
                url
            }
            _ => {
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_INVALID,
                    &at,
                    "a server needs a `url` string; skipped",
                ));
                continue;
            }
        };
        let description = server.get("description").and_then(Value::as_str).map(str::to_owned);
        let variables = server
            .get("variables")
            .and_then(Value::as_object)
            .map(|v| v.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        out.push(Server { url, description, variables });
    }
    out
}
