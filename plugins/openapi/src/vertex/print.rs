//! The import body printed as JSON, its spec (a YAML text of megabytes, most of the body)
//! escaped line by line (function-tools' `json_string`) instead of serde_json's byte by byte.
//!
//! The body is printed with a placeholder where the spec goes, and the spec's string is put
//! in its place; when the placeholder is not found exactly once (a source's own text could
//! hold it), the body is printed whole by serde_json. Either way the text is serde_json's.

use serde_json::Value;
use toolport_plugin::function_tools::write::json_string;

use crate::pretty_json;

/// Where the spec's text is in a body.
const SPEC: &str = "/manifest/apiSpec/openApiYaml";

/// Stands for the spec while the rest of the body is printed: NULs, which serde_json writes
/// escaped and no written YAML holds.
const PLACEHOLDER: &str = "\u{0}toolport:openApiYaml\u{0}";

/// `body` printed as serde_json's pretty printer does (with a final line break).
pub(super) fn print_body(mut body: Value) -> String {
    let spec = match body.pointer_mut(SPEC) {
        Some(Value::String(spec)) => std::mem::replace(spec, PLACEHOLDER.to_owned()),
        _ => return pretty_json(&body),
    };
    let printed = pretty_json(&body);
    let placeholder = serde_json::to_string(PLACEHOLDER).unwrap_or_default();
    let mut places = printed.match_indices(&placeholder);
    match (places.next(), places.next()) {
        (Some((at, _)), None) => {
            let mut out = Vec::with_capacity(printed.len() + spec.len() + spec.len() / 16);
            out.extend_from_slice(&printed.as_bytes()[..at]);
            json_string(&spec, &mut out);
            out.extend_from_slice(&printed.as_bytes()[at + placeholder.len()..]);
            // Only JSON text and an escaped string were written.
            String::from_utf8(out).unwrap_or_default()
        }
        _ => {
            if let Some(slot) = body.pointer_mut(SPEC) {
                *slot = Value::String(spec);
            }
            pretty_json(&body)
        }
    }
}
