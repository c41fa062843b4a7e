//! HTTP facts both sides use: the operation methods of a path item, the side effects a method
//! implies, and parameter locations by name.

use toolport_plugin::{Hints, ParamLocation};

/// The keys of a path item that hold operations.
pub(crate) const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Side-effect hints that follow from the HTTP method alone: read from an operation, and left
/// unwritten when a tool's hints are these.
pub(crate) fn method_hints(method: &str) -> Hints {
    let mut hints = Hints::default();
    match method {
        "GET" | "HEAD" => hints.read_only = Some(true),
        "DELETE" => hints.destructive = Some(true),
        _ => {}
    }
    hints
}

/// The location an OpenAPI `in` names (the inverse of [`ParamLocation::as_str`]).
pub(crate) fn location(text: &str) -> Option<ParamLocation> {
    Some(match text {
        "path" => ParamLocation::Path,
        "query" => ParamLocation::Query,
        "header" => ParamLocation::Header,
        "cookie" => ParamLocation::Cookie,
        "body" => ParamLocation::Body,
        _ => return None,
    })
}
