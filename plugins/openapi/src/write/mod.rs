//! Canonical model → OpenAPI document, for the `openapi` writer and (in [`Mode::Vertex`]) the
//! spec inside a Vertex import body.
//!
//! Operations are regenerated from the model. A tool read from OpenAPI whose regenerated
//! operation has the digest recorded at read time is unchanged, and its operation as written
//! in the source (with its `$ref`s) is emitted instead (see `crate::verbatim`), so a
//! same-format round trip is exact. Model fields OpenAPI has no place for go to
//! `x-toolport-*` keys, which the reader restores; the last step moves every one of them into
//! the top-level section [`crate::bookkeeping::SECTION`].
//!
//! The parts mirror `read/`: `document` (version, the order of the parts, the rest of the
//! document), `info`, `servers`, `security`, `paths` (tool names, paths, which operations are
//! written as the source had them), `operation`, `parameter`, `body`, `responses`, and
//! `x_toolport`; beside them `schema` (one schema in the target's dialect), `components`, and
//! `root_keywords` (what another format kept of a tool's input schema root, for the body); last,
//! `downgrade` (a 3.1 source written as 3.0 without what only 3.1 has), `upgrade` (a 3.0
//! document as 3.1.0 for readers that take only 3.1), both over `places` (where schemas are).

use serde_json::{Map, Value};
use toolport_plugin::Diagnostic;

mod body;
mod components;
mod document;
mod downgrade;
mod info;
mod operation;
mod parameter;
mod paths;
mod places;
mod responses;
mod root_keywords;
mod schema;
mod security;
mod servers;
pub(crate) mod upgrade;
mod vertex_subset;
mod x_toolport;

pub(crate) use document::document;
pub(crate) use operation::OpWriter;
pub(crate) use responses::output_schemas;
pub(crate) use security::security_schemes;
pub(crate) use servers::servers_value;
pub(crate) use vertex_subset::VertexCleanliness;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    OpenApi,
    /// Vertex's rules: one server, Vertex function and parameter names, the Gemini schema
    /// subset, an operationId and a response on every operation, OpenAPI 3.0.
    Vertex,
}

impl Mode {
    /// The target's name as diagnostics say it.
    fn target(self) -> &'static str {
        match self {
            Mode::OpenApi => "openapi",
            Mode::Vertex => "vertex",
        }
    }
}

/// What the Vertex writer tells the document builder.
#[derive(Debug, Default)]
pub(crate) struct VertexParts<'a> {
    /// Index of the auth entry that is the Vertex `authConfig` (not an OpenAPI scheme).
    pub auth_config: Option<usize>,
    /// Tool-set fields the import body carries (left out of the spec's `x-toolport-*` keys).
    pub carried_by_body: &'a [&'a str],
    pub base_url: Option<&'a str>,
    /// `info.title` when the tool set has neither title nor id: made from the output's name.
    pub fallback_title: Option<String>,
    /// The OpenAPI version when the source had none (else 3.0.3).
    pub default_version: Option<&'static str>,
    /// The OpenAPI version written whatever the source's (a platform that takes one only),
    /// the change said; a 3.1 source written as 3.0 is brought down as for Vertex.
    pub required_version: Option<&'static str>,
}

/// The document and, per tool, the name it was written under.
#[derive(Debug)]
pub(crate) struct Written {
    pub document: Value,
    pub names: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
}

/// An object of `first` (when there is one), then `rest`'s entries (what the source had beside
/// it, kept for a same-format write), made the size it holds: a map grown by inserting keeps
/// room for 3, 7 or 14 entries, and a document of many small operations holds many such
/// objects (content, media type, a response).
fn object_with(first: Option<(String, Value)>, rest: Option<Map<String, Value>>) -> Map<String, Value> {
    let mut map = Map::with_capacity(usize::from(first.is_some()) + rest.as_ref().map_or(0, Map::len));
    map.extend(first);
    map.extend(rest.into_iter().flatten());
    map
}

/// An object of one entry ([`object_with`]).
fn object_of(key: impl Into<String>, value: Value) -> Value {
    Value::Object(object_with(Some((key.into(), value)), None))
}

/// Whether the source's OpenAPI version (none: not an OpenAPI source) is 3.0.
fn dialect_is_30(version: Option<&str>) -> bool {
    version.is_none_or(|v| v.starts_with("3.0"))
}
