//! What a bundle manifest and a registry entry require of a server that a tool set may lack
//! (a name, a version, a description, an author, how the server starts), taken from the model
//! where it has it and otherwise generated, each generated value said in a diagnostic at its
//! place, as Raycast's package.json writer does. One place, so server.json and the manifest
//! beside it agree.

use serde_json::{Map, Value, json};
use toolport_plugin::names::{NameRules, tool_set_description, tool_set_name};
use toolport_plugin::{Diagnostic, Options, ToolSet, Version, codes};

/// The manifest version written: the current one of MANIFEST.md (0.4 only adds the
/// experimental `uv` server type).
pub const MANIFEST_VERSION: &str = "0.3";

/// The server.json schema written in `$schema` and checked by the conformance suite
/// (conformance/schemas/server.schema.json, vendored with its source).
pub const SERVER_SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";

/// The server types of manifest 0.3 (`server.type`).
pub const SERVER_TYPES: [&str; 3] = ["node", "python", "binary"];

/// The version a tool set without one is written with.
const FIRST_VERSION: &str = "0.1.0";

/// The author name a tool set without a creator is written with: a placeholder.
const UNKNOWN_AUTHOR: &str = "unknown";

/// Where the model keeps a manifest key it has no field for (a same-format source's `server`).
pub fn kept_key_path(key: &str) -> String {
    format!("/extras/{}/manifest/{key}", crate::MCPB)
}

/// The server's machine name: the tool set's id as written; else made from its title or the
/// output's name (kebab-case), said.
pub fn name(model: &ToolSet, options: &Options, diagnostics: &mut Vec<Diagnostic>) -> String {
    let (name, made_from) =
        tool_set_name(model.id.as_deref(), model.title.as_deref(), options.output_name("tools"), &NameRules::FILE_SLUG);
    if let Some(from) = made_from {
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            "/id",
            format!("the tool set has no id, and a server needs a name: `{name}` is made from {from}"),
        ));
    }
    name
}

/// The server's version: the tool set's, else [`FIRST_VERSION`], said.
pub fn version(model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> String {
    match &model.version {
        Some(Version::Text(text)) if !text.trim().is_empty() => text.clone(),
        Some(Version::Integer(n)) => n.to_string(),
        _ => {
            diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                "/version",
                format!("the tool set has no version, and a server needs one: `{FIRST_VERSION}` is written"),
            ));
            FIRST_VERSION.to_owned()
        }
    }
}

/// The server's description: the tool set's, else its title, else one naming its tools, said
/// (a warning: users and stores read it).
pub fn description(model: &ToolSet, name: &str, diagnostics: &mut Vec<Diagnostic>) -> String {
    let (text, made) = tool_set_description(model, name);
    if let Some(how) = made {
        diagnostics.push(Diagnostic::warning(
            codes::GENERATED,
            "/description",
            format!("the tool set has no description, and a server needs one: {how}"),
        ));
    }
    text
}

/// The manifest's `author` (`{name, email?, url?}`, name required): the tool set's creator, or a
/// placeholder name, said. What the schema would refuse (an e-mail or URL it does not take) and
/// what it has no place for (an organization besides a name) is reported lost.
pub fn author(model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let creator = model.creator.clone().unwrap_or_default();
    let mut out = Map::new();
    let name = creator.name.clone().or_else(|| creator.organization.clone());
    match &name {
        Some(name) => {
            out.insert("name".into(), Value::from(name.as_str()));
        }
        None => {
            diagnostics.push(Diagnostic::warning(
                codes::GENERATED_PLACEHOLDER,
                "/creator",
                format!("the tool set names no creator, and a bundle needs an author: `{UNKNOWN_AUTHOR}` is a placeholder; set yours"),
            ));
            out.insert("name".into(), Value::from(UNKNOWN_AUTHOR));
        }
    }
    if let (Some(organization), Some(_)) = (&creator.organization, &creator.name) {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_FIELD,
            "/creator/organization",
            format!("an MCPB author is a name, an e-mail and a URL: organization `{organization}` is left out"),
        ));
    }
    for (key, value, valid) in
        [("email", &creator.email, is_email as fn(&str) -> bool), ("url", &creator.url, is_web_url as fn(&str) -> bool)]
    {
        let Some(value) = value else { continue };
        if valid(value) {
            out.insert(key.into(), Value::from(value.as_str()));
        } else {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_FIELD,
                format!("/creator/{key}"),
                format!("the creator's {key} `{value}` is not one the MCPB schema takes; left out"),
            ));
        }
    }
    Value::Object(out)
}

/// The manifest's `server`: how the client starts the bundle's server, which no tool set
/// describes. The `server_type` and `entry_point` options choose it; what they leave open is
/// a placeholder, said.
pub fn server(name: &str, options: &Options, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let kind = options.get("server_type").unwrap_or("node");
    let entry_point = match (options.get("entry_point"), kind) {
        (Some(given), _) => given.to_owned(),
        (None, "python") => "server/main.py".to_owned(),
        (None, "binary") => format!("server/{name}"),
        (None, _) => "server/index.js".to_owned(),
    };
    let in_bundle = format!("${{__dirname}}/{entry_point}");
    let mcp_config = match kind {
        "binary" => json!({"command": in_bundle}),
        "python" => json!({"command": "python", "args": [in_bundle]}),
        _ => json!({"command": "node", "args": [in_bundle]}),
    };
    let chosen = match (options.get("server_type"), options.get("entry_point")) {
        (Some(_), Some(_)) => None,
        (None, None) => Some("--option server_type=… and entry_point=…"),
        (None, Some(_)) => Some("--option server_type=…"),
        (Some(_), None) => Some("--option entry_point=…"),
    };
    let message = format!(
        "a bundle says how its server starts, which a tool set does not: `{kind}` running `{entry_point}` is written"
    );
    diagnostics.push(match chosen {
        Some(how) => Diagnostic::warning(
            codes::GENERATED_PLACEHOLDER,
            kept_key_path("server"),
            format!("{message}, a placeholder: put your server there or name it with {how}"),
        ),
        None => Diagnostic::info(codes::GENERATED, kept_key_path("server"), format!("{message}, as the options say")),
    });
    json!({"type": kind, "entry_point": entry_point, "mcp_config": mcp_config})
}

/// An address zod's `email()` takes, roughly: one `@`, a dot in the domain, no spaces.
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else { return false };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !text.chars().any(char::is_whitespace)
}

/// An absolute http(s) URL with a host, without spaces.
pub fn is_web_url(text: &str) -> bool {
    let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"));
    rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/') && !text.chars().any(char::is_whitespace))
}
