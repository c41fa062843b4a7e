//! The body of a tool with an HTTP binding: a `fetch` that sends what the API expects. Path,
//! query, header and cookie values are serialised by their OpenAPI style (`simple`, `label`,
//! `matrix`, `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`, with `explode`); request
//! bodies as JSON, form-encoded (`application/x-www-form-urlencoded`, each field by its
//! encoding's style) or multipart; GET and HEAD send no body. The serialisers are one helper
//! module per extension, `src/lib/http.ts` ([`HELPER`]).

use std::collections::HashSet;

use serde_json::Value;
use toolport_plugin::source::child;
use toolport_plugin::{AdditionalProperties, Diagnostic, ParamLocation, Parameter, Schema, Tool, ToolSet, codes};

use super::code::{json_string, property_key, template_text};

/// Where the helpers live in a written extension.
pub const HELPER_PATH: &str = "src/lib/http.ts";

/// How one input value goes on the wire.
#[derive(Debug)]
pub(super) struct Wire {
    /// The input property.
    key: String,
    /// The name the API knows it by.
    name: String,
    location: ParamLocation,
    style: String,
    explode: bool,
}

#[derive(Debug, PartialEq)]
enum BodyKind {
    Json,
    Form,
    Multipart,
    Raw(String),
}

#[derive(Debug)]
enum Body {
    None,
    /// One input value is the whole body.
    Whole(String),
    /// Input values are the body's fields.
    Fields(Vec<Wire>),
}

/// What a tool's request needs, decided before its `Input` is written.
#[derive(Debug)]
pub(super) struct Request {
    base: String,
    method: String,
    path: String,
    params: Vec<Wire>,
    body: Body,
    kind: BodyKind,
    /// Style and explode of body fields, by wire name (a form body's `encoding`).
    encoding: Vec<(String, String, bool)>,
    /// Path placeholders no parameter declares: they become required string inputs.
    pub undeclared: Vec<String>,
    /// Parameters left out of the input (an empty body of a GET).
    pub dropped: Vec<usize>,
}

/// The serialisation hints an OpenAPI source keeps beside the model: the wire name when the
/// model renamed a parameter, and `style`/`explode`. The model has no place for them yet.
fn hints(parameter: &Parameter) -> (Option<String>, Option<String>, Option<bool>) {
    let openapi = parameter.extras.get("openapi");
    let name = openapi.and_then(|o| o.get("name")).and_then(Value::as_str).map(str::to_owned);
    let param = openapi.and_then(|o| o.get("param"));
    let style = param.and_then(|p| p.get("style")).and_then(Value::as_str).map(str::to_owned);
    let explode = param.and_then(|p| p.get("explode")).and_then(Value::as_bool);
    (name, style, explode)
}

fn body_encoding(tool: &Tool) -> Vec<(String, String, bool)> {
    let encoding =
        tool.extras.get("openapi").and_then(|o| o.pointer("/body/media/encoding")).and_then(Value::as_object);
    encoding
        .into_iter()
        .flatten()
        .map(|(name, e)| {
            let style = e.get("style").and_then(Value::as_str).unwrap_or("form").to_owned();
            let explode = e.get("explode").and_then(Value::as_bool).unwrap_or(style == "form");
            (name.clone(), style, explode)
        })
        .collect()
}

/// An object that can hold nothing: `{type: object, properties: {}, additionalProperties: false}`.
fn holds_nothing(schema: &Schema) -> bool {
    schema.properties.is_empty()
        && schema.any_of.is_empty()
        && matches!(schema.additional_properties, Some(AdditionalProperties::Allowed(false)))
}

/// Plans the request of a tool with an HTTP binding; `None` (and a diagnostic) when it cannot
/// be sent, so the body is a stub.
pub(super) fn plan(model: &ToolSet, tool: &Tool, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Request> {
    let http = tool.http.as_ref()?;
    let Some(server) = http.servers.first().or(model.servers.first()) else {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_HTTP,
            child(path, "http"),
            "the tool has an HTTP binding but no server URL; its body throws \"not implemented\"",
        ));
        return None;
    };
    if !server.variables.is_empty() {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_HTTP,
            "/servers",
            "server variables are not substituted; the URL is used as written",
        ));
    }
    if http.servers.len() + model.servers.len() > 1 {
        diagnostics.push(Diagnostic::info(
            codes::CHANGED_VALUE,
            "/servers",
            format!("the generated fetch uses the first server, {}", server.url),
        ));
    }
    let method = http.method.to_ascii_uppercase();
    let no_body = matches!(method.as_str(), "GET" | "HEAD");
    let takes_body = matches!(method.as_str(), "POST" | "PUT" | "PATCH" | "DELETE");
    let kind = match http.body_content_type.as_deref() {
        None => BodyKind::Json,
        Some(t) if t.contains("json") => BodyKind::Json,
        Some(t) if t.starts_with("application/x-www-form-urlencoded") => BodyKind::Form,
        Some(t) if t.starts_with("multipart/form-data") => BodyKind::Multipart,
        Some(t) => BodyKind::Raw(t.to_owned()),
    };
    let placeholders: Vec<String> =
        http.path.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name.to_owned())).collect();
    let mut params = Vec::new();
    let mut fields = Vec::new();
    let mut whole = None;
    let mut dropped = Vec::new();
    let mut path_names = HashSet::new();
    for (i, parameter) in tool.parameters.iter().enumerate() {
        let (wire_name, style, explode) = hints(parameter);
        let name = wire_name.unwrap_or_else(|| parameter.name.clone());
        let location = parameter.location.unwrap_or(if placeholders.contains(&name) {
            ParamLocation::Path
        } else if takes_body {
            ParamLocation::Body
        } else {
            ParamLocation::Query
        });
        let at = child(&child(path, "parameters"), i.to_string());
        let is_whole = http.body_parameter.as_deref() == Some(parameter.name.as_str());
        let mut location = location;
        if location == ParamLocation::Body && no_body {
            if holds_nothing(&parameter.schema) {
                diagnostics.push(Diagnostic::info(
                    codes::LOSS_HTTP,
                    at,
                    format!("{method} sends no body, and this empty request body could hold nothing: it is left out"),
                ));
                dropped.push(i);
                continue;
            }
            diagnostics.push(Diagnostic::warning(
                codes::LOSS_HTTP,
                at,
                format!("{method} sends no body (fetch refuses one): this body value is sent in the query string"),
            ));
            location = ParamLocation::Query;
        }
        if location == ParamLocation::Path {
            path_names.insert(name.clone());
        }
        let default_style = match location {
            ParamLocation::Path | ParamLocation::Header => "simple",
            _ => "form",
        };
        let style = style.unwrap_or_else(|| default_style.to_owned());
        let explode = explode.unwrap_or(style == "form");
        let wire = Wire { key: parameter.name.clone(), name, location, style, explode };
        match location {
            ParamLocation::Body if is_whole => whole = Some(wire.key),
            ParamLocation::Body => fields.push(wire),
            _ => params.push(wire),
        }
    }
    let mut undeclared = Vec::new();
    for name in &placeholders {
        if !path_names.contains(name) && !undeclared.contains(name) {
            diagnostics.push(Diagnostic::warning(
                codes::GENERATED,
                child(path, "http"),
                format!(
                    "the path names `{{{name}}}`, which no parameter declares: the input gets a required string `{name}`"
                ),
            ));
            undeclared.push(name.clone());
        }
    }
    for name in &undeclared {
        params.push(Wire {
            key: name.clone(),
            name: name.clone(),
            location: ParamLocation::Path,
            style: "simple".into(),
            explode: false,
        });
    }
    let body = match (whole, fields.is_empty()) {
        (Some(key), _) => Body::Whole(key),
        (None, false) => Body::Fields(fields),
        (None, true) => Body::None,
    };
    if !model.auth.is_empty() {
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            child(path, "http"),
            "the generated fetch sends no credentials; add them (for example from a Raycast preference)",
        ));
    }
    Some(Request {
        base: server.url.trim_end_matches('/').to_owned(),
        method,
        path: http.path.clone(),
        params,
        body,
        kind,
        encoding: body_encoding(tool),
        undeclared,
        dropped,
    })
}

/// `args["name"]`: the input value, after JSON text is parsed.
fn arg(key: &str) -> String {
    format!("args[{}]", json_string(key))
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
                arg(&p.key),
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
        let value = arg(&p.key);
        let name = json_string(&p.name);
        let style = json_string(&p.style);
        match p.location {
            ParamLocation::Query => {
                out.push_str(&format!("  appendQuery(url, {name}, {value}, {style}, {});\n", p.explode));
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
        Body::Whole(key) => Some(arg(key)),
        Body::Fields(fields) => {
            let entries: Vec<String> =
                fields.iter().map(|f| format!("{}: {}", property_key(&f.name), arg(&f.key))).collect();
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
        "  return readResponse(response, {});\n",
        json_string(&format!("{} {}", request.method, request.path))
    ));
    out
}

/// `src/lib/http.ts`: how values are serialised (OpenAPI's parameter styles) and responses read.
pub const HELPER: &str = r#"// Written by toolport: serialises tool inputs the way the API's OpenAPI description says.
// https://spec.openapis.org/oas/v3.1.0#style-values

type Pairs = Array<[string, string]>;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A scalar as text; objects and arrays inside a value as JSON. */
function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function entries(value: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

/** `name[key][0]=value` pairs (deepObject; nested values as Stripe, Rails and qs read them). */
function brackets(name: string, value: unknown, out: Pairs): void {
  if (Array.isArray(value)) value.forEach((item, i) => brackets(`${name}[${i}]`, item, out));
  else if (isObject(value)) for (const [k, v] of entries(value)) brackets(`${name}[${k}]`, v, out);
  else if (value !== undefined) out.push([name, text(value)]);
}

/** Pairs for a query parameter or a form field of the given style. */
function formPairs(name: string, value: unknown, style: string, explode: boolean): Pairs {
  const out: Pairs = [];
  if (value === undefined) return out;
  if (style === "deepObject") {
    brackets(name, value, out);
  } else if (Array.isArray(value)) {
    const separator = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
    if (explode) for (const item of value) out.push([name, text(item)]);
    else out.push([name, value.map(text).join(separator)]);
  } else if (isObject(value)) {
    if (explode) for (const [k, v] of entries(value)) out.push([k, text(v)]);
    else out.push([name, entries(value).flatMap(([k, v]) => [k, text(v)]).join(",")]);
  } else {
    out.push([name, text(value)]);
  }
  return out;
}

/** Values given as JSON text (maps) parsed back, at each path (`*`: every item of an array). */
export function decodeJson(input: object, paths: string[][]): Record<string, unknown> {
  const at = (value: unknown, path: string[]): unknown => {
    if (path.length === 0) {
      if (typeof value !== "string") return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    }
    const [head, ...rest] = path;
    if (head === "*") return Array.isArray(value) ? value.map((item) => at(item, rest)) : value;
    if (!isObject(value) || value[head] === undefined) return value;
    return { ...value, [head]: at(value[head], rest) };
  };
  let result: unknown = input;
  for (const path of paths) result = at(result, path);
  return result as Record<string, unknown>;
}

/** A path parameter (style simple, label or matrix), encoded. */
export function pathValue(name: string, value: unknown, style: string, explode: boolean): string {
  const e = (v: unknown) => encodeURIComponent(text(v));
  const prefix = style === "label" ? "." : style === "matrix" ? `;${name}=` : "";
  if (Array.isArray(value)) {
    if (style === "matrix" && explode) return value.map((v) => `;${name}=${e(v)}`).join("");
    return prefix + value.map(e).join(explode && style === "label" ? "." : ",");
  }
  if (isObject(value)) {
    if (explode) {
      const pairs = entries(value).map(([k, v]) => `${encodeURIComponent(k)}=${e(v)}`);
      return style === "matrix" ? pairs.map((p) => `;${p}`).join("") : prefix + pairs.join(style === "label" ? "." : ",");
    }
    return prefix + entries(value).flatMap(([k, v]) => [encodeURIComponent(k), e(v)]).join(",");
  }
  return prefix + e(value);
}

/** Appends a query parameter (style form, spaceDelimited, pipeDelimited or deepObject). */
export function appendQuery(url: URL, name: string, value: unknown, style: string, explode: boolean): void {
  for (const [k, v] of formPairs(name, value, style, explode)) url.searchParams.append(k, v);
}

/** A header value (style simple). */
export function headerValue(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(text).join(",");
  if (isObject(value)) return entries(value).map(([k, v]) => (explode ? `${k}=${text(v)}` : `${k},${text(v)}`)).join(",");
  return text(value);
}

/** A cookie (style form); empty when the value is absent. */
export function cookieValue(name: string, value: unknown, explode: boolean): string {
  return formPairs(name, value, "form", explode)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("; ");
}

/** An application/x-www-form-urlencoded body, each field by its encoding (default: form, explode). */
export function formBody(
  fields: unknown,
  encoding: Record<string, { style: string; explode: boolean }>,
): URLSearchParams {
  const body = new URLSearchParams();
  if (!isObject(fields)) return body;
  for (const [name, value] of entries(fields)) {
    const { style, explode } = encoding[name] ?? { style: "form", explode: true };
    for (const [k, v] of formPairs(name, value, style, explode)) body.append(k, v);
  }
  return body;
}

/** A multipart/form-data body: scalars as text, objects and arrays as JSON. */
export function multipartBody(fields: unknown): FormData {
  const body = new FormData();
  if (!isObject(fields)) return body;
  for (const [name, value] of entries(fields)) {
    if (Array.isArray(value)) for (const item of value) body.append(name, text(item));
    else body.append(name, text(value));
  }
  return body;
}

/** A body of another media type: text as is, anything else as JSON. */
export function rawBody(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The response as JSON or text; an error status throws with the API's message. */
export async function readResponse(response: Response, operation: string): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const detail = typeof body === "string" ? body : JSON.stringify(body);
    throw new Error(`${operation} failed: ${response.status} ${response.statusText} ${detail}`.trim());
  }
  return body;
}
"#;
