//! `components.securitySchemes` → the model's auth entries.

use serde_json::{Map, Value};
use toolport_plugin::jsonschema::Reader;
use toolport_plugin::{Auth, AuthKind};

use crate::bookkeeping::AUTH_MARK;
use crate::http::location;

/// Reads each scheme (following a `$ref`) into an auth entry.
pub(super) fn read_security_schemes(reader: &mut Reader, schemes: &Map<String, Value>, auth: &mut Vec<Auth>) {
    for (id, scheme) in schemes {
        let scheme = reader.follow(scheme, "").map_or(scheme, |(v, _)| v);
        auth.push(read_security_scheme(id, scheme));
    }
}

fn read_security_scheme(id: &str, scheme: &Value) -> Auth {
    let mut auth = Auth { id: Some(id.to_owned()), ..Auth::default() };
    let Some(map) = scheme.as_object() else {
        auth.settings.insert("x-toolport-raw".into(), scheme.clone());
        return auth;
    };
    let kind = map.get("type").and_then(Value::as_str).unwrap_or_default();
    let http_scheme = map.get("scheme").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
    // A bearer token a toolport writer wrote for an auth kind OpenAPI could not state.
    let marked = map
        .get(AUTH_MARK)
        .and_then(|k| serde_json::from_value::<AuthKind>(k.clone()).ok())
        .filter(|_| kind == "http" && http_scheme == "bearer");
    auth.kind = match (kind, http_scheme.as_str()) {
        _ if let Some(marked) = marked => marked,
        ("apiKey", _) => AuthKind::ApiKey,
        ("http", "basic") => AuthKind::HttpBasic,
        ("http", "bearer") => AuthKind::HttpBearer,
        ("oauth2", _) => AuthKind::OAuth,
        ("openIdConnect", _) => AuthKind::Oidc,
        _ => AuthKind::None,
    };
    for (key, value) in map {
        match (key.as_str(), value) {
            ("type", _) if auth.kind != AuthKind::None => {}
            ("scheme", Value::String(s))
                if (marked.is_some() || matches!(auth.kind, AuthKind::HttpBasic | AuthKind::HttpBearer))
                    && s == &http_scheme => {}
            (AUTH_MARK, _) if marked.is_some() => {}
            ("description", Value::String(s)) => auth.description = Some(s.clone()),
            ("name", Value::String(s)) if auth.kind == AuthKind::ApiKey => auth.parameter_name = Some(s.clone()),
            ("in", Value::String(s)) if auth.kind == AuthKind::ApiKey && location(s).is_some() => {
                auth.location = location(s)
            }
            _ => {
                auth.settings.insert(key.clone(), value.clone());
            }
        }
    }
    auth
}
