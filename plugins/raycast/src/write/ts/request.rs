//! The body of a tool with an HTTP binding: a `fetch` that sends what the API expects, written
//! from the request's plan (`write::http`). Path, query, header and cookie values are
//! serialised by their OpenAPI style (`simple`, `label`, `matrix`, `form`, `spaceDelimited`,
//! `pipeDelimited`, `deepObject`, with `explode`); request bodies as JSON, form-encoded
//! (`application/x-www-form-urlencoded`, each field by its encoding's style) or multipart; GET
//! and HEAD send no body. The serialisers are one helper module per extension,
//! `src/lib/http.ts` ([`HELPER`], kept in http.ts beside this file).

use toolport_plugin::ParamLocation;

use super::super::http::{Arg, Body, BodyKind, Request};
use super::syntax::{json_string, property_key, template_text};
use crate::extension::REQUEST_CALL;

/// Where the helpers live in a written extension.
pub const HELPER_PATH: &str = "src/lib/http.ts";

/// `src/lib/http.ts`: how values are serialised (OpenAPI's parameter styles) and responses read.
pub const HELPER: &str = include_str!("http.ts");

/// The expression of a value sent: `args["name"]`, the input value after JSON text is parsed,
/// or a pinned value as a literal.
fn arg(arg: &Arg) -> String {
    match arg {
        Arg::Input(key) => format!("args[{}]", json_string(key)),
        Arg::Pinned(value) => value.to_string(),
    }
}

/// The helpers a tool's body uses, for its import line.
pub(super) fn imports(request: &Request, json_paths: &[Vec<String>]) -> Vec<&'static str> {
    let mut names = Vec::new();
    if !json_paths.is_empty() {
        names.push("decodeJson");
    }
    let locations: Vec<ParamLocation> = request.params.iter().map(|p| p.location).collect();
    for (location, name) in [
        (ParamLocation::Path, "pathValue"),
        (ParamLocation::Query, "appendQuery"),
        (ParamLocation::Header, "headerValue"),
        (ParamLocation::Cookie, "cookieValue"),
    ] {
        if locations.contains(&location) {
            names.push(name);
        }
    }
    if !matches!(request.body, Body::None) {
        match request.kind {
            BodyKind::Form => names.push("formBody"),
            BodyKind::Multipart => names.push("multipartBody"),
            BodyKind::Raw(_) => names.push("rawBody"),
            BodyKind::Json => {}
        }
    }
    names.push("readResponse");
    names
}

/// The statements of the tool function.
pub(super) fn body(request: &Request, json_paths: &[Vec<String>], has_input: bool) -> String {
    let mut out = format!("  const BASE_URL = {};\n", json_string(&request.base));
    if has_input {
        if json_paths.is_empty() {
            out.push_str("  const args: Record<string, unknown> = input;\n");
        } else {
            let paths: Vec<String> = json_paths
                .iter()
                .map(|p| format!("[{}]", p.iter().map(|s| json_string(s)).collect::<Vec<_>>().join(", ")))
                .collect();
            out.push_str(&format!(
                "  // Maps are given as JSON text (Raycast's tool schemas have no maps).\n  const args: Record<string, unknown> = decodeJson(input, [{}]);\n",
                paths.join(", ")
            ));
        }
    }
    // The path, each `{name}` replaced by its serialised value.
    let mut url = String::new();
    let mut rest = request.path.as_str();
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else { break };
        url.push_str(&template_text(&rest[..open]));
        let name = &rest[open + 1..open + close];
        match request.params.iter().find(|p| p.location == ParamLocation::Path && p.name == name) {
            Some(p) => url.push_str(&format!(
                "${{pathValue({}, {}, {}, {})}}",
                json_string(&p.name),
                arg(&p.arg),
                json_string(&p.style),
                p.explode
            )),
            None => url.push_str(&template_text(&rest[open..=open + close])),
        }
        rest = &rest[open + close + 1..];
    }
    url.push_str(&template_text(rest));
    out.push_str(&format!("  const url = new URL(`${{BASE_URL}}{url}`);\n"));
    out.push_str("  const headers: Record<string, string> = { Accept: \"application/json\" };\n");
    let mut cookies = Vec::new();
    for p in &request.params {
        let value = arg(&p.arg);
        let name = json_string(&p.name);
        let style = json_string(&p.style);
        match p.location {
            ParamLocation::Query => {
                out.push_str(&format!("  appendQuery(url, {name}, {value}, {style}, {});\n", p.explode));
            }
            // A pinned value is always there; an input value may be left out.
            ParamLocation::Header if matches!(p.arg, Arg::Pinned(_)) => {
                out.push_str(&format!("  headers[{name}] = headerValue({value}, {});\n", p.explode))
            }
            ParamLocation::Header => out.push_str(&format!(
                "  if ({value} !== undefined) headers[{name}] = headerValue({value}, {});\n",
                p.explode
            )),
            ParamLocation::Cookie => cookies.push(format!("cookieValue({name}, {value}, {})", p.explode)),
            ParamLocation::Path | ParamLocation::Body => {}
        }
    }
    if !cookies.is_empty() {
        out.push_str(&format!(
            "  const cookies = [{}].filter((c) => c !== \"\");\n  if (cookies.length > 0) headers.Cookie = cookies.join(\"; \");\n",
            cookies.join(", ")
        ));
    }
    let mut init = format!("method: {}, headers", json_string(&request.method));
    let value = match &request.body {
        Body::None => None,
        Body::Whole(value) => Some(arg(value)),
        Body::Fields(fields) => {
            let entries: Vec<String> =
                fields.iter().map(|f| format!("{}: {}", property_key(&f.name), arg(&f.arg))).collect();
            Some(format!("{{ {} }}", entries.join(", ")))
        }
    };
    if let Some(value) = value {
        match &request.kind {
            BodyKind::Json => {
                out.push_str("  headers[\"Content-Type\"] = \"application/json\";\n");
                init.push_str(&format!(", body: JSON.stringify({value})"));
            }
            BodyKind::Form => {
                let encoding: Vec<String> = request
                    .encoding
                    .iter()
                    .map(|(name, style, explode)| {
                        format!("{}: {{ style: {}, explode: {explode} }}", property_key(name), json_string(style))
                    })
                    .collect();
                out.push_str("  headers[\"Content-Type\"] = \"application/x-www-form-urlencoded\";\n");
                init.push_str(&format!(", body: formBody({value}, {{ {} }})", encoding.join(", ")));
            }
            BodyKind::Multipart => init.push_str(&format!(", body: multipartBody({value})")),
            BodyKind::Raw(content_type) => {
                out.push_str(&format!("  headers[\"Content-Type\"] = {};\n", json_string(content_type)));
                init.push_str(&format!(", body: rawBody({value})"));
            }
        }
    }
    out.push_str(&format!("  const response = await fetch(url, {{ {init} }});\n"));
    out.push_str(&format!(
        "  return {REQUEST_CALL}{});\n",
        json_string(&format!("{} {}", request.method, request.path))
    ));
    out
}
