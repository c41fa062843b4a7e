//! The first auth entry (a Vertex extension's `authConfig`) → the `auth_scheme` and
//! `auth_credential` ADK's `OpenAPIToolset` takes, made with ADK's own helpers
//! (`google.adk.tools.openapi_tool.auth.auth_helpers`, `google.adk.auth.auth_credential`,
//! as of google-adk 2.13).
//!
//! Secrets never go into code: a key, token or password comes from an environment variable
//! named after the agent, and where the source held one (a Secret Manager reference or the
//! literal itself) a warning says which variable to set. A Google service account becomes
//! ADK's `ServiceAccount` with Application Default Credentials: the agent calls as whatever
//! account it runs as, and a warning names the account the extension used.

use toolport_plugin::{Auth, AuthKind, Diagnostic, ParamLocation, ToolSet, codes};

use crate::python::{comment, env_var, string};

/// Google's scope for calling Cloud services with an access token.
const CLOUD_PLATFORM: &str = "https://www.googleapis.com/auth/cloud-platform";

/// The Python that defines `auth_scheme` and `auth_credential`, and what it imports.
#[derive(Debug, Default)]
pub(crate) struct AuthCode {
    pub imports: Vec<&'static str>,
    pub code: String,
}

const HELPERS: &str = "from google.adk.tools.openapi_tool.auth import auth_helpers";

/// The auth code for `set`'s first auth entry, or `None` when it has none; what ADK cannot
/// hold is reported in `out`.
pub(crate) fn auth_code(set: &ToolSet, agent: &str, out: &mut Vec<Diagnostic>) -> Option<AuthCode> {
    for (i, other) in set.auth.iter().enumerate().skip(1) {
        out.push(Diagnostic::loss(
            codes::LOSS_AUTH,
            format!("/auth/{i}"),
            format!(
                "ADK's OpenAPIToolset takes one auth scheme for all its tools: the {} entry{} is left to the spec's securitySchemes, without a credential",
                kind_words(other.kind),
                other.id.as_deref().map(|id| format!(" `{id}`")).unwrap_or_default()
            ),
        ));
    }
    let auth = set.auth.first()?;
    let at = "/auth/0";
    let mut code = AuthCode::default();
    let secret_note = |what: &str, variable: &str, out: &mut Vec<Diagnostic>| {
        if let Some(secret) = &auth.secret {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                format!("{at}/secret"),
                format!("the {what} was read from the secret `{secret}`; ADK reads it from the environment variable {variable}: set it to that secret's value"),
            ));
        }
        if auth.value.is_some() {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                format!("{at}/value"),
                format!("the {what} the source held as a literal is not written into agent.py; set the environment variable {variable} to it"),
            ));
        }
    };
    let secret_comment = |what: &str| {
        auth.secret.as_deref().map(|s| comment(&format!("The extension read the {what} from {s}."))).unwrap_or_default()
    };
    match auth.kind {
        AuthKind::None => return None,
        AuthKind::ApiKey => {
            let location = match auth.location {
                Some(ParamLocation::Header) | None => "header",
                Some(ParamLocation::Query) => "query",
                Some(ParamLocation::Cookie) => "cookie",
                Some(other @ (ParamLocation::Path | ParamLocation::Body)) => {
                    out.push(Diagnostic::loss(
                        codes::LOSS_AUTH,
                        format!("{at}/location"),
                        format!("ADK sends an API key in a header, a query parameter or a cookie, not in the {}: the agent is written without auth", other.as_str()),
                    ));
                    return None;
                }
            };
            if auth.location.is_none() {
                out.push(Diagnostic::warning(
                    codes::GENERATED,
                    format!("{at}/location"),
                    "the API key's place was not said: sent in a header",
                ));
            }
            let name = auth.parameter_name.clone().unwrap_or_else(|| {
                out.push(Diagnostic::warning(
                    codes::GENERATED,
                    format!("{at}/parameter_name"),
                    "the API key's parameter was not named: sent as X-API-Key",
                ));
                "X-API-Key".to_owned()
            });
            let variable = env_var(agent, "API_KEY");
            secret_note("API key", &variable, out);
            code.imports.push(HELPERS);
            code.code = format!(
                "{}auth_scheme, auth_credential = auth_helpers.token_to_scheme_credential(\n    \"apikey\", {}, {}, os.environ.get({})\n)\n",
                secret_comment("API key"),
                string(location),
                string(&name),
                string(&variable)
            );
        }
        AuthKind::HttpBasic => {
            let (user, password) = (env_var(agent, "USERNAME"), env_var(agent, "PASSWORD"));
            secret_note("user name and password", &format!("{user} and {password}"), out);
            code.imports.extend([
                "from fastapi.openapi.models import HTTPBase",
                "from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes, HttpAuth, HttpCredentials",
            ]);
            code.code = format!(
                "{}auth_scheme = HTTPBase(scheme=\"basic\")\nauth_credential = AuthCredential(\n    auth_type=AuthCredentialTypes.HTTP,\n    http=HttpAuth(\n        scheme=\"basic\",\n        credentials=HttpCredentials(username=os.environ.get({}), password=os.environ.get({})),\n    ),\n)\n",
                secret_comment("credentials"),
                string(&user),
                string(&password)
            );
        }
        AuthKind::GoogleServiceAccount => service_account(auth, at, false, None, &mut code, out),
        AuthKind::OAuth | AuthKind::Oidc if auth.service_account.is_some() => {
            let id_token = auth.kind == AuthKind::Oidc;
            let audience = set.servers.first().map(|s| s.url.as_str());
            if id_token && audience.is_none() {
                out.push(Diagnostic::loss(
                    codes::LOSS_AUTH,
                    at,
                    "an ID token needs an audience, the API's URL, and the tool set names no server: the agent is written without auth",
                ));
                return None;
            }
            service_account(auth, at, id_token, audience, &mut code, out);
        }
        AuthKind::OAuth if auth.value.is_none() && auth.settings.contains_key("flows") => {
            let (id, secret) = (env_var(agent, "CLIENT_ID"), env_var(agent, "CLIENT_SECRET"));
            let flows = serde_json::json!({"type": "oauth2", "flows": auth.settings["flows"]});
            code.imports.extend([
                "import json",
                HELPERS,
                "from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes, OAuth2Auth",
            ]);
            code.code = format!(
                "# OAuth 2.0: ADK asks the user to sign in through the agent's client.\nauth_scheme = auth_helpers.dict_to_auth_scheme(json.loads({}))\nauth_credential = AuthCredential(\n    auth_type=AuthCredentialTypes.OAUTH2,\n    oauth2=OAuth2Auth(client_id=os.environ.get({}), client_secret=os.environ.get({})),\n)\n",
                string(&flows.to_string()),
                string(&id),
                string(&secret)
            );
            out.push(Diagnostic::warning(
                codes::GENERATED,
                at,
                format!("OAuth 2.0 needs the agent's own client: set {id} and {secret}"),
            ));
        }
        AuthKind::OAuth | AuthKind::Oidc | AuthKind::HttpBearer => {
            let variable = env_var(agent, "TOKEN");
            secret_note("token", &variable, out);
            if auth.kind != AuthKind::HttpBearer {
                out.push(Diagnostic::warning(
                    codes::CHANGED_VALUE,
                    format!("{at}/kind"),
                    format!(
                        "{} without a service account is written as a bearer token from {variable}: ADK does not get or refresh it",
                        kind_words(auth.kind)
                    ),
                ));
            }
            code.imports.push(HELPERS);
            code.code = format!(
                "{}auth_scheme, auth_credential = auth_helpers.token_to_scheme_credential(\n    \"oauth2Token\", \"header\", \"Authorization\", os.environ.get({})\n)\n",
                secret_comment("token"),
                string(&variable)
            );
        }
    }
    Some(code)
}

/// ADK's `ServiceAccount` on Application Default Credentials: an access token for Google's
/// cloud-platform scope, or (`id_token`) an ID token for `audience`.
fn service_account(
    auth: &Auth,
    at: &str,
    id_token: bool,
    audience: Option<&str>,
    code: &mut AuthCode,
    out: &mut Vec<Diagnostic>,
) {
    code.imports.extend([HELPERS, "from google.adk.auth.auth_credential import ServiceAccount"]);
    let mut note = String::new();
    if let Some(account) = &auth.service_account {
        note = comment(&format!("The extension called as the service account {account}: run the agent as it."));
        out.push(Diagnostic::warning(
            codes::CHANGED_VALUE,
            format!("{at}/service_account"),
            format!(
                "ADK calls with the Application Default Credentials of wherever the agent runs, not as `{account}`: run it as that service account"
            ),
        ));
    }
    let token = match audience.filter(|_| id_token) {
        Some(audience) => format!("use_id_token=True, audience={}", string(audience)),
        None => format!("scopes=[{}]", string(CLOUD_PLATFORM)),
    };
    code.code = format!(
        "{note}auth_scheme, auth_credential = auth_helpers.service_account_scheme_credential(\n    ServiceAccount(use_default_credential=True, {token})\n)\n"
    );
}

/// The auth kind as a message says it.
fn kind_words(kind: AuthKind) -> &'static str {
    match kind {
        AuthKind::None => "no-auth",
        AuthKind::ApiKey => "API key",
        AuthKind::HttpBasic => "HTTP basic",
        AuthKind::HttpBearer => "bearer token",
        AuthKind::OAuth => "OAuth 2.0",
        AuthKind::Oidc => "OpenID Connect",
        AuthKind::GoogleServiceAccount => "Google service account",
    }
}
