//! The auth entries → `components.securitySchemes`.

use serde_json::{Map, Value, json};
use toolport_plugin::{Auth, AuthKind, Diagnostic, ToolSet, codes};

use crate::bookkeeping::AUTH_MARK;
use crate::verbatim;

/// The document's `securitySchemes`: the source's as written when the auth entries did not
/// change, else regenerated. `ext` is the set's `extras["openapi"]`; the entry at
/// `auth_config` is Vertex's `authConfig`, not a scheme.
pub(super) fn write_security_schemes(
    set: &ToolSet,
    ext: &Map<String, Value>,
    auth_config: Option<usize>,
    out: &mut Vec<Diagnostic>,
) -> Value {
    let auth: Vec<(usize, &Auth)> = set.auth.iter().enumerate().filter(|(i, _)| Some(*i) != auth_config).collect();
    let schemes = Value::Object(security_schemes(&auth.iter().map(|(_, a)| (*a).clone()).collect::<Vec<_>>()));
    match verbatim::unchanged(ext.get("securitySchemes"), || &schemes) {
        Some(raw) => raw.clone(),
        None => {
            report_bearer_stand_ins(&auth, out);
            schemes
        }
    }
}

/// `components.securitySchemes` for the auth entries that are OpenAPI schemes.
pub(crate) fn security_schemes(auth: &[Auth]) -> Map<String, Value> {
    let mut schemes = Map::new();
    for (i, a) in auth.iter().enumerate() {
        let mut m = Map::new();
        let (kind, scheme) = match a.kind {
            _ if bearer_stand_in(a) => {
                m.insert(AUTH_MARK.into(), json!(a.kind));
                ("http", Some("bearer"))
            }
            AuthKind::ApiKey => ("apiKey", None),
            AuthKind::HttpBasic => ("http", Some("basic")),
            AuthKind::HttpBearer => ("http", Some("bearer")),
            AuthKind::OAuth => ("oauth2", None),
            AuthKind::Oidc => ("openIdConnect", None),
            AuthKind::GoogleServiceAccount => ("oauth2", None),
            AuthKind::None if a.settings.contains_key("type") => ("", None),
            AuthKind::None => continue,
        };
        if !kind.is_empty() {
            m.insert("type".into(), Value::from(kind));
        }
        if let Some(d) = &a.description {
            m.insert("description".into(), Value::from(d.as_str()));
        }
        if let Some(name) = &a.parameter_name {
            m.insert("name".into(), Value::from(name.as_str()));
        }
        if let Some(place) = a.location {
            m.insert("in".into(), Value::from(place.as_str()));
        }
        if let Some(scheme) = scheme {
            m.insert("scheme".into(), Value::from(scheme));
        }
        for (k, v) in &a.settings {
            if k != "x-toolport-raw" && !k.starts_with("vertex:") {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let value = a.settings.get("x-toolport-raw").cloned().unwrap_or(Value::Object(m));
        let id = a.id.clone().unwrap_or_else(|| {
            format!("{}Auth{}", kind_name(a.kind), if i == 0 { String::new() } else { i.to_string() })
        });
        schemes.insert(id, value);
    }
    schemes
}

/// Whether `auth` is written as `http`/`bearer`: OAuth 2.0 (and a Google service account,
/// which calls with an OAuth 2.0 token) needs `flows`, OpenID Connect its
/// `openIdConnectUrl`; without them the scheme is invalid, and what the caller sends is a
/// bearer token.
fn bearer_stand_in(auth: &Auth) -> bool {
    match auth.kind {
        AuthKind::OAuth | AuthKind::GoogleServiceAccount => !auth.settings.contains_key("flows"),
        AuthKind::Oidc => !auth.settings.contains_key("openIdConnectUrl"),
        _ => false,
    }
}

/// A `changed/value` warning for each auth entry [`security_schemes`] writes as a bearer token.
fn report_bearer_stand_ins(auth: &[(usize, &Auth)], out: &mut Vec<Diagnostic>) {
    for (i, a) in auth.iter().filter(|(_, a)| bearer_stand_in(a) && !a.settings.contains_key("x-toolport-raw")) {
        let (kind, missing) = match a.kind {
            AuthKind::Oidc => ("OpenID Connect", "`openIdConnectUrl`"),
            AuthKind::GoogleServiceAccount => ("Google service account", "OAuth 2.0 `flows`"),
            _ => ("OAuth 2.0", "`flows`"),
        };
        out.push(Diagnostic::warning(
            codes::CHANGED_VALUE,
            format!("/auth/{i}/kind"),
            format!("{kind} auth without {missing} is not a valid OpenAPI scheme: written as an HTTP bearer token, which is what the caller sends"),
        ));
    }
}

fn kind_name(kind: AuthKind) -> &'static str {
    match kind {
        AuthKind::None => "no",
        AuthKind::ApiKey => "apiKey",
        AuthKind::HttpBasic => "basic",
        AuthKind::HttpBearer => "bearer",
        AuthKind::OAuth => "oauth",
        AuthKind::Oidc => "oidc",
        AuthKind::GoogleServiceAccount => "googleServiceAccount",
    }
}
