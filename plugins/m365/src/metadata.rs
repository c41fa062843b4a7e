//! What a plugin manifest requires of a tool set that it may lack (a name for people, a
//! namespace, a description for people, the runtime's auth), taken from the model where it has
//! it and otherwise generated, each generated or shortened value said at its place, as
//! Raycast's package.json and MCPB's manifest writers do. Microsoft's lengths are
//! [`crate::MANIFEST_SOURCE`]'s.

use serde_json::{Value, json};
use toolport_plugin::fit::cut_and_say;
use toolport_plugin::names::{NameRules, sanitize, tool_set_description, tool_set_name};
use toolport_plugin::{AuthKind, Diagnostic, Options, ParamLocation, ToolSet, codes};

use crate::MANIFEST_SOURCE;

/// `name_for_human`: characters past this many may be ignored.
const NAME_MAX: usize = 20;
/// `description_for_human`: characters past this many may be ignored.
const HUMAN_DESCRIPTION_MAX: usize = 100;
/// `description_for_model`: characters past this many may be ignored.
const MODEL_DESCRIPTION_MAX: usize = 2048;

/// Where Microsoft lists the auth schemes API plugins support.
const AUTH_SOURCE: &str = "Microsoft Learn, Configure authentication for MCP and API plugins \
    (https://learn.microsoft.com/microsoft-365-copilot/extensibility/plugin-authentication)";

fn alphanumeric(c: char) -> bool {
    c.is_ascii_alphanumeric()
}
fn alphanumeric_or_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

/// `namespace`, as the published schema's pattern takes it.
const NAMESPACE: NameRules = NameRules {
    pattern: "^[A-Za-z0-9-]+$",
    max_len: 64,
    first: alphanumeric,
    rest: alphanumeric_or_dash,
    replacement: '-',
    lead: "x",
};

/// `name_for_human`: the tool set's title; else its id or the output's name, said.
pub fn name_for_human(model: &ToolSet, options: &Options, diagnostics: &mut Vec<Diagnostic>) -> String {
    let name = match model.title.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(title) => title.to_owned(),
        None => {
            let name = model.id.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(options.output_name("plugin"));
            diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                "/title",
                format!("the tool set has no title, and a plugin needs a name for people: `{name}` is written"),
            ));
            name.to_owned()
        }
    };
    let length = name.chars().count();
    if length > NAME_MAX {
        diagnostics.push(Diagnostic::warning(
            codes::LIMIT_NAME,
            "/title",
            format!(
                "name_for_human `{name}` has {length} characters; Copilot may ignore those past {NAME_MAX} (source: {MANIFEST_SOURCE})"
            ),
        ));
    }
    name
}

/// `namespace`: the tool set's id, else made from its title or the output's name; made to fit
/// the schema's pattern, each change said.
pub fn namespace(model: &ToolSet, options: &Options, diagnostics: &mut Vec<Diagnostic>) -> String {
    let (name, made_from) =
        tool_set_name(model.id.as_deref(), model.title.as_deref(), options.output_name("plugin"), &NAMESPACE);
    let valid = if NAMESPACE.is_valid(&name) { name.clone() } else { sanitize(&name, &NAMESPACE) };
    match made_from {
        Some(from) => diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            "/id",
            format!("the tool set has no id, and a plugin needs a namespace: `{valid}` is made from {from}"),
        )),
        None if valid != name => diagnostics.push(Diagnostic::warning(
            codes::CHANGED_NAME,
            "/id",
            format!("a plugin's namespace must match {}: `{name}` is written as `{valid}`", NAMESPACE.pattern),
        )),
        None => {}
    }
    valid
}

/// `description_for_human` (required): the tool set's description, else its title, else one
/// naming its tools, said; cut at a sentence to what Copilot shows.
pub fn description_for_human(model: &ToolSet, name: &str, diagnostics: &mut Vec<Diagnostic>) -> String {
    let (text, made) = tool_set_description(model, name);
    if let Some(how) = made {
        diagnostics.push(Diagnostic::warning(
            codes::GENERATED,
            "/description",
            format!("the tool set has no description, and a plugin needs one for people: {how}"),
        ));
    }
    cut(&text, HUMAN_DESCRIPTION_MAX, "description_for_human", "/description", diagnostics)
}

/// `description_for_model`: the tool set's instructions; else, for a tool set that was not read
/// from a plugin manifest, its description (the whole text, where description_for_human may be
/// cut). Cut at a sentence to what Copilot reads.
pub fn description_for_model(
    model: &ToolSet,
    from_manifest: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let (text, path) = match (&model.instructions, &model.description) {
        (Some(instructions), _) => (instructions, "/instructions"),
        (None, Some(description)) if !from_manifest && !description.trim().is_empty() => (description, "/description"),
        _ => return None,
    };
    Some(cut(text, MODEL_DESCRIPTION_MAX, "description_for_model", path, diagnostics))
}

/// `text` within `max` characters, cut at a sentence and said (core's `fit::cut_and_say`).
fn cut(text: &str, max: usize, key: &str, path: &str, diagnostics: &mut Vec<Diagnostic>) -> String {
    let rule = format!("Copilot may ignore characters past {max} (source: {MANIFEST_SOURCE})");
    match cut_and_say(text, max, key, path, &rule) {
        Some((cut, said)) => {
            diagnostics.push(said);
            cut
        }
        None => text.to_owned(),
    }
}

/// The `OpenApi` runtime's `auth`: how Copilot gets the credential the spec's security scheme
/// asks for, from the first auth entry. An auth registration's id is the plugin's own (made in
/// the Teams developer portal or by the Agents Toolkit), so it is written as a placeholder and
/// said; a scheme API plugins do not support is written as `None`, its loss said.
pub fn runtime_auth(model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> Value {
    for (i, other) in model.auth.iter().enumerate().skip(1) {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_AUTH,
            format!("/auth/{i}"),
            format!(
                "a plugin's runtime authenticates one way: auth entry {} ({:?}) is in the spec's security schemes, not in the runtime (source: {AUTH_SOURCE})",
                other.id.as_deref().unwrap_or("without a name"),
                other.kind
            ),
        ));
    }
    let Some(auth) = model.auth.first() else { return json!({"type": "None"}) };
    let unsupported = |what: &str, diagnostics: &mut Vec<Diagnostic>| {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_AUTH,
            "/auth/0",
            format!(
                "API plugins authenticate with Microsoft Entra SSO, OAuth 2.0 authorization code or an API key: {what} is not supported, and the runtime is written without auth (source: {AUTH_SOURCE})"
            ),
        ));
        json!({"type": "None"})
    };
    let vault = |kind: &str, placeholder: &str, diagnostics: &mut Vec<Diagnostic>| {
        diagnostics.push(Diagnostic::warning(
            codes::GENERATED_PLACEHOLDER,
            "/auth/0",
            format!(
                "the runtime's auth is `{kind}`, whose reference_id is the plugin's registration in the Teams developer portal: `{placeholder}` is a placeholder (the Agents Toolkit fills it); set yours"
            ),
        ));
        json!({"type": kind, "reference_id": placeholder})
    };
    match auth.kind {
        AuthKind::None => json!({"type": "None"}),
        AuthKind::ApiKey if auth.location == Some(ParamLocation::Cookie) => {
            unsupported("an API key in a cookie", diagnostics)
        }
        AuthKind::ApiKey | AuthKind::HttpBearer => {
            vault("ApiKeyPluginVault", "${{APIKEYAUTH_REGISTRATION_ID}}", diagnostics)
        }
        AuthKind::OAuth | AuthKind::Oidc => {
            let flows = auth.settings.get("flows").and_then(Value::as_object);
            let others: Vec<&str> =
                flows.into_iter().flatten().map(|(k, _)| k.as_str()).filter(|k| *k != "authorizationCode").collect();
            if !others.is_empty() {
                diagnostics.push(Diagnostic::loss(
                    codes::LOSS_AUTH,
                    "/auth/0",
                    format!(
                        "API plugins support OAuth's authorization code flow (with or without PKCE) only: the {} flow is not used (source: {})",
                        others.join(", "),
                        crate::KNOWN_ISSUES_SOURCE
                    ),
                ));
            }
            vault("OAuthPluginVault", "${{OAUTH2AUTHCODE_CONFIGURATION_ID}}", diagnostics)
        }
        AuthKind::HttpBasic => unsupported("HTTP basic authentication", diagnostics),
        AuthKind::GoogleServiceAccount => unsupported("a Google service account", diagnostics),
    }
}
