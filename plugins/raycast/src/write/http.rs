//! The request of a tool with an HTTP binding, planned from the model before any code is
//! written: the server, the method, where each input value goes (path, query, header, cookie,
//! body) with its OpenAPI `style` and `explode`, and the body's media type. The TypeScript
//! writer (`ts::request`) writes the plan as a `fetch` call.

use std::collections::HashSet;

use serde_json::Value;
use toolport_plugin::source::child;
use toolport_plugin::{
    AdditionalProperties, Diagnostic, HttpBinding, ParamLocation, Parameter, Schema, Server, Tool, ToolSet, codes,
};

/// How one input value goes on the wire.
#[derive(Debug)]
pub(super) struct Wire {
    /// The input property.
    pub(super) key: String,
    /// The name the API knows it by.
    pub(super) name: String,
    pub(super) location: ParamLocation,
    pub(super) style: String,
    pub(super) explode: bool,
}

#[derive(Debug, PartialEq)]
pub(super) enum BodyKind {
    Json,
    Form,
    Multipart,
    Raw(String),
}

#[derive(Debug)]
pub(super) enum Body {
    None,
    /// One input value is the whole body.
    Whole(String),
    /// Input values are the body's fields.
    Fields(Vec<Wire>),
}

/// What a tool's request needs, decided before its `Input` is written.
#[derive(Debug)]
pub(super) struct Request {
    pub(super) base: String,
    pub(super) method: String,
    pub(super) path: String,
    pub(super) params: Vec<Wire>,
    pub(super) body: Body,
    pub(super) kind: BodyKind,
    /// Style and explode of body fields, by wire name (a form body's `encoding`).
    pub(super) encoding: Vec<(String, String, bool)>,
    /// Path placeholders no parameter declares: they become required string inputs.
    pub(super) undeclared: Vec<String>,
    /// Parameters left out of the input (an empty body of a GET).
    pub(super) dropped: Vec<usize>,
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

pub(super) fn plan(model: &ToolSet, tool: &Tool, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Request> {
    let http = tool.http.as_ref()?;
    let server = server(model, http, path, diagnostics)?;
    let method = http.method.to_ascii_uppercase();
    let no_body = matches!(method.as_str(), "GET" | "HEAD");
    let takes_body = matches!(method.as_str(), "POST" | "PUT" | "PATCH" | "DELETE");
    let kind = body_kind(http.body_content_type.as_deref());
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
    let undeclared = undeclared(&placeholders, &path_names, path, diagnostics);
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

/// The server the request goes to: the binding's first, else the tool set's first.
fn server<'m>(
    model: &'m ToolSet,
    http: &'m HttpBinding,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'m Server> {
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
    Some(server)
}

fn body_kind(content_type: Option<&str>) -> BodyKind {
    match content_type {
        None => BodyKind::Json,
        Some(t) if t.contains("json") => BodyKind::Json,
        Some(t) if t.starts_with("application/x-www-form-urlencoded") => BodyKind::Form,
        Some(t) if t.starts_with("multipart/form-data") => BodyKind::Multipart,
        Some(t) => BodyKind::Raw(t.to_owned()),
    }
}

/// Path placeholders no parameter declares, each said in a diagnostic.
fn undeclared(
    placeholders: &[String],
    path_names: &HashSet<String>,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut undeclared = Vec::new();
    for name in placeholders {
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
    undeclared
}
