//! How tools are reached over HTTP: servers, authentication, where a parameter goes, and a
//! tool's method and path.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Server {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// OpenAPI server variables, kept as written.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub variables: IndexMap<String, Value>,
}

/// One way to authenticate. Secrets are references (e.g. Secret Manager names) that a
/// converter carries and never invents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Auth {
    pub kind: AuthKind,
    /// The scheme's name where the source names it (OpenAPI `securitySchemes` key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// API key: the header/query/cookie parameter name that carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_name: Option<String>,
    /// API key: where it goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<ParamLocation>,
    /// A reference to a stored secret (API key, basic credentials, token).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// A literal credential the source itself contained (Vertex `apiKeyString`, `accessToken`, `idToken`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account: Option<String>,
    /// HTTP auth: `bearer_format`, OAuth flows, OpenID Connect URL and the like, as written.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub settings: IndexMap<String, Value>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthKind {
    #[default]
    None,
    ApiKey,
    HttpBasic,
    HttpBearer,
    OAuth,
    Oidc,
    GoogleServiceAccount,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamLocation {
    Path,
    Query,
    Header,
    Cookie,
    Body,
}

impl ParamLocation {
    pub fn as_str(self) -> &'static str {
        match self {
            ParamLocation::Path => "path",
            ParamLocation::Query => "query",
            ParamLocation::Header => "header",
            ParamLocation::Cookie => "cookie",
            ParamLocation::Body => "body",
        }
    }
}

/// How to call the tool over HTTP. Each parameter's place is its
/// [`Parameter::location`](super::Parameter::location).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HttpBinding {
    /// Upper-case method: `GET`, `POST`, …
    pub method: String,
    /// Path template with `{param}` placeholders, relative to the server.
    pub path: String,
    /// The operation's id in the source, when it differs from the tool name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// Media type of the request body (`application/json`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_content_type: Option<String>,
    /// When the body is not an object, the name of the single parameter that is the whole body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_parameter: Option<String>,
    /// Servers for this operation only, overriding the set's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<Server>,
}
