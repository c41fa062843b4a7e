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

/// Where a value sent comes from.
#[derive(Debug)]
pub(super) enum Arg {
    /// The input property of this name.
    Input(String),
    /// A value an overlay pinned (`Tool::pinned`): every call sends it, the model never sees it.
    Pinned(Value),
}

/// How one value goes on the wire.
#[derive(Debug)]
pub(super) struct Wire {
    pub(super) arg: Arg,
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
    /// One value is the whole body.
    Whole(Arg),
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

/// The values a request sends, sorted by where they go.
#[derive(Default)]
struct Sent {
    params: Vec<Wire>,
    fields: Vec<Wire>,
    whole: Option<Arg>,
    /// Wire names sent in the path.
    path_names: HashSet<String>,
}

impl Sent {
    /// `wire` where its location puts it; `is_whole`: it is the whole body.
    fn add(&mut self, wire: Wire, is_whole: bool) {
        match wire.location {
            ParamLocation::Body if is_whole => self.whole = Some(wire.arg),
            ParamLocation::Body => self.fields.push(wire),
            ParamLocation::Path => {
                self.path_names.insert(wire.name.clone());
                self.params.push(wire)
            }
            _ => self.params.push(wire),
        }
    }
}

/// Where a value goes that says nothing of it: a path placeholder of its name, else the body
/// of a method that takes one, else the query.
fn default_location(name: &str, placeholders: &[String], takes_body: bool) -> ParamLocation {
    if placeholders.iter().any(|p| p == name) {
        ParamLocation::Path
    } else if takes_body {
        ParamLocation::Body
    } else {
        ParamLocation::Query
    }
}

/// The OpenAPI `style` and `explode` of a value at `location`, OpenAPI's defaults for what the
/// source did not say.
fn styled(location: ParamLocation, style: Option<String>, explode: Option<bool>) -> (String, bool) {
    let default_style = match location {
        ParamLocation::Path | ParamLocation::Header => "simple",
        _ => "form",
    };
    let style = style.unwrap_or_else(|| default_style.to_owned());
    let explode = explode.unwrap_or(style == "form");
    (style, explode)
}

/// The request of `tool`, `None` when it has no HTTP binding (or no server). Pinned arguments
/// of a tool without one have no request to go into: each is reported lost.
pub(super) fn plan(model: &ToolSet, tool: &Tool, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Request> {
    let Some(http) = tool.http.as_ref() else {
        for (i, pinned) in tool.pinned.iter().enumerate() {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_HTTP,
                child(&child(path, "pinned"), i.to_string()),
                format!(
                    "the tool has no HTTP request to send pinned `{}` in: its generated body throws \"not implemented\"",
                    pinned.name
                ),
            ));
        }
        return None;
    };
    let server = server(model, http, path, diagnostics)?;
    let method = http.method.to_ascii_uppercase();
    let no_body = matches!(method.as_str(), "GET" | "HEAD");
    let takes_body = matches!(method.as_str(), "POST" | "PUT" | "PATCH" | "DELETE");
    let kind = body_kind(http.body_content_type.as_deref());
    let placeholders: Vec<String> =
        http.path.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name.to_owned())).collect();
    let mut sent = Sent::default();
    let mut dropped = Vec::new();
    for (i, parameter) in tool.parameters.iter().enumerate() {
        let (wire_name, style, explode) = hints(parameter);
        let name = wire_name.unwrap_or_else(|| parameter.name.clone());
        let location = parameter.location.unwrap_or_else(|| default_location(&name, &placeholders, takes_body));
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
        let (style, explode) = styled(location, style, explode);
        sent.add(Wire { arg: Arg::Input(parameter.name.clone()), name, location, style, explode }, is_whole);
    }
    // Pinned values go where the parameters they replace went, sent as written.
    for (i, pinned) in tool.pinned.iter().enumerate() {
        let name = pinned.name.clone();
        let mut location = pinned.location.unwrap_or_else(|| default_location(&name, &placeholders, takes_body));
        if location == ParamLocation::Body && no_body {
            diagnostics.push(Diagnostic::warning(
                codes::LOSS_HTTP,
                child(&child(path, "pinned"), i.to_string()),
                format!("{method} sends no body (fetch refuses one): this pinned value is sent in the query string"),
            ));
            location = ParamLocation::Query;
        }
        let is_whole = http.body_parameter.as_deref() == Some(pinned.name.as_str());
        let (style, explode) = styled(location, None, None);
        sent.add(Wire { arg: Arg::Pinned(pinned.value.clone()), name, location, style, explode }, is_whole);
    }
    let Sent { mut params, fields, whole, path_names } = sent;
    let undeclared = undeclared(&placeholders, &path_names, path, diagnostics);
    for name in &undeclared {
        params.push(Wire {
            arg: Arg::Input(name.clone()),
            name: name.clone(),
            location: ParamLocation::Path,
            style: "simple".into(),
            explode: false,
        });
    }
    let body = match (whole, fields.is_empty()) {
        (Some(arg), _) => Body::Whole(arg),
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
