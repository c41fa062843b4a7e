//! `manifest.authConfig` ↔ an auth entry, both ways: `authType` ↔ the auth kind, the kind's
//! config object ↔ secret, value, service account and API key place. Keys the model has no
//! field for are kept in the entry's settings as `vertex:<key>` (`vertex:config:<key>` inside
//! the config object).

use serde_json::{Map, Value, json};
use toolport_plugin::source::child;
use toolport_plugin::{Auth, AuthKind, Diagnostic, ParamLocation, codes};

use super::{get, others, text};

/// The auth entry for an `authConfig`.
pub(super) fn read_auth_config(config: &Value, diagnostics: &mut Vec<Diagnostic>) -> Auth {
    let mut auth = Auth::default();
    let auth_type = text(config, "authType").unwrap_or_default();
    let (kind, config_key) = match auth_type.as_str() {
        "NO_AUTH" | "" => (AuthKind::None, ""),
        "API_KEY_AUTH" => (AuthKind::ApiKey, "apiKeyConfig"),
        "HTTP_BASIC_AUTH" => (AuthKind::HttpBasic, "httpBasicAuthConfig"),
        "GOOGLE_SERVICE_ACCOUNT_AUTH" => (AuthKind::GoogleServiceAccount, "googleServiceAccountConfig"),
        "OAUTH" => (AuthKind::OAuth, "oauthConfig"),
        "OIDC_AUTH" => (AuthKind::Oidc, "oidcConfig"),
        other => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                "/manifest/authConfig/authType",
                format!("unknown authType `{other}`; kept as written"),
            ));
            auth.settings.insert("vertex:authType".into(), Value::from(other));
            (AuthKind::None, "")
        }
    };
    auth.kind = kind;
    if let Some(inner) = (!config_key.is_empty()).then(|| get(config, config_key)).flatten() {
        auth.secret = text(inner, "apiKeySecret").or_else(|| text(inner, "credentialSecret"));
        auth.value =
            text(inner, "apiKeyString").or_else(|| text(inner, "accessToken")).or_else(|| text(inner, "idToken"));
        auth.service_account = text(inner, "serviceAccount");
        auth.parameter_name = text(inner, "name");
        if let Some(place) = text(inner, "httpElementLocation") {
            auth.location = match place.as_str() {
                "HTTP_IN_QUERY" => Some(ParamLocation::Query),
                "HTTP_IN_HEADER" => Some(ParamLocation::Header),
                "HTTP_IN_PATH" => Some(ParamLocation::Path),
                "HTTP_IN_BODY" => Some(ParamLocation::Body),
                "HTTP_IN_COOKIE" => Some(ParamLocation::Cookie),
                _ => {
                    auth.settings.insert("vertex:httpElementLocation".into(), Value::from(place));
                    None
                }
            };
        }
        let known = [
            "apiKeySecret",
            "credentialSecret",
            "apiKeyString",
            "accessToken",
            "idToken",
            "serviceAccount",
            "name",
            "httpElementLocation",
        ];
        for (k, v) in others(inner, &known) {
            auth.settings.insert(format!("vertex:config:{k}"), v);
        }
    }
    for (k, v) in others(config, &["authType", config_key]) {
        if !k.is_empty() {
            auth.settings.insert(format!("vertex:{k}"), v);
        }
    }
    auth
}

/// The `authConfig` for `auth` (none: `NO_AUTH`); `at` is its diagnostic path.
pub(super) fn write_auth_config(auth: Option<&Auth>, at: &str, out: &mut Vec<Diagnostic>) -> Value {
    let Some(auth) = auth else { return json!({"authType": "NO_AUTH"}) };
    let (auth_type, config_key) = match auth.kind {
        AuthKind::None => ("NO_AUTH", ""),
        AuthKind::ApiKey => ("API_KEY_AUTH", "apiKeyConfig"),
        AuthKind::HttpBasic => ("HTTP_BASIC_AUTH", "httpBasicAuthConfig"),
        AuthKind::GoogleServiceAccount => ("GOOGLE_SERVICE_ACCOUNT_AUTH", "googleServiceAccountConfig"),
        AuthKind::OAuth => ("OAUTH", "oauthConfig"),
        AuthKind::HttpBearer => {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                child(at, "kind"),
                "Vertex has no bearer-token auth: written as OAUTH (the token is sent as a bearer token)",
            ));
            ("OAUTH", "oauthConfig")
        }
        AuthKind::Oidc => ("OIDC_AUTH", "oidcConfig"),
    };
    let auth_type = auth.settings.get("vertex:authType").and_then(Value::as_str).unwrap_or(auth_type);
    let mut config = Map::new();
    config.insert("authType".into(), Value::from(auth_type));
    if !config_key.is_empty() {
        let mut inner = Map::new();
        let mut put = |key: &str, value: &Option<String>| {
            if let Some(v) = value {
                inner.insert(key.into(), Value::from(v.as_str()));
            }
        };
        match auth.kind {
            AuthKind::ApiKey => {
                put("name", &auth.parameter_name);
                put("apiKeySecret", &auth.secret);
                put("apiKeyString", &auth.value);
                let place = match auth.location {
                    Some(ParamLocation::Query) => Some("HTTP_IN_QUERY"),
                    Some(ParamLocation::Header) => Some("HTTP_IN_HEADER"),
                    Some(ParamLocation::Path) => Some("HTTP_IN_PATH"),
                    Some(ParamLocation::Body) => Some("HTTP_IN_BODY"),
                    Some(ParamLocation::Cookie) => Some("HTTP_IN_COOKIE"),
                    None => None,
                };
                if let Some(place) = place {
                    inner.insert("httpElementLocation".into(), Value::from(place));
                }
                if auth.secret.is_none() && auth.value.is_none() {
                    out.push(Diagnostic::warning(
                        codes::GENERATED,
                        at,
                        "Vertex needs `apiKeyConfig.apiKeySecret` (a Secret Manager version): fill it in before importing",
                    ));
                }
            }
            AuthKind::HttpBasic => put("credentialSecret", &auth.secret),
            AuthKind::GoogleServiceAccount => put("serviceAccount", &auth.service_account),
            AuthKind::OAuth | AuthKind::HttpBearer => {
                put("accessToken", &auth.value);
                put("serviceAccount", &auth.service_account);
            }
            AuthKind::Oidc => {
                put("idToken", &auth.value);
                put("serviceAccount", &auth.service_account);
            }
            AuthKind::None => {}
        }
        for (k, v) in &auth.settings {
            if let Some(key) = k.strip_prefix("vertex:config:") {
                inner.insert(key.into(), v.clone());
            }
        }
        config.insert(config_key.into(), Value::Object(inner));
    }
    for (k, v) in &auth.settings {
        if let Some(key) = k
            .strip_prefix("vertex:")
            .filter(|k| !k.starts_with("config:") && *k != "authType" && *k != "httpElementLocation")
        {
            config.insert(key.into(), v.clone());
        }
    }
    let dropped: Vec<&String> = auth.settings.keys().filter(|k| !k.starts_with("vertex:")).collect();
    if !dropped.is_empty() {
        out.push(Diagnostic::loss(
            codes::LOSS_AUTH,
            child(at, "settings"),
            format!("Vertex's authConfig has no place for {dropped:?}; they stay in the spec's security schemes only"),
        ));
    }
    Value::Object(config)
}
