//! Decoding what crosses the boundary: any message without serde_json's recursion limit, and
//! the model with the fields this SDK does not know kept and reported.

use serde::Deserialize;
use serde_json::value::RawValue;
use toolport_core::limits::MAX_MODEL_NESTING;
use toolport_core::source::json_deeper_than;
use toolport_core::{Diagnostic, MODEL_SCHEMA_MAJOR, ToolSet, UNKNOWN_FIELDS, VersionedToolSet, codes};

use super::{MODEL_SCHEMA, MajorMinor};

/// Decodes one JSON message crossing the boundary (a request, a response, the model). Types
/// that borrow (`&RawValue`, [`WriteRequest`](super::WriteRequest)) borrow from `bytes`.
///
/// serde_json's recursion limit (128) is for untrusted text; here it would refuse models that
/// readers accepted, since a schema nested N levels is several JSON levels each. Input depth
/// is bounded by [`toolport_core::limits::MAX_NESTING`] in every reader, and conversions run on
/// threads with [`toolport_core::limits::CONVERSION_STACK_BYTES`] of stack, so the limit is
/// lifted for these messages only.
pub fn decode_message<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Decodes a model's envelope (`{schema_version, schema_minor, tool_set}`) for `reader` (who
/// decodes, for messages: `plugin toolport-plugin-mcp`, `convert`).
///
/// Another major is refused, naming both versions. Fields of the tool set that this SDK's
/// model does not know (from a newer minor) are not refused: they are kept in
/// `tool_set.extras["toolport-unknown"]` ([`UNKNOWN_FIELDS`]), each under its JSON pointer, and
/// reported as `input/unknown-key` warnings, one per field name. Unknown fields of the envelope
/// itself are protocol, not model, and ignored.
pub fn decode_model(bytes: &[u8], reader: &str) -> Result<(VersionedToolSet, Vec<Diagnostic>), String> {
    #[derive(Deserialize)]
    struct Envelope<'a> {
        schema_version: u32,
        #[serde(default)]
        schema_minor: u32,
        #[serde(borrow)]
        tool_set: &'a RawValue,
    }
    check_model_depth(bytes)?;
    let envelope: Envelope = decode_message(bytes).map_err(|e| format!("invalid model JSON: {e}"))?;
    let tool_set = envelope.tool_set.get();
    let sent = MajorMinor { major: envelope.schema_version, minor: envelope.schema_minor };
    if sent.major != MODEL_SCHEMA_MAJOR {
        return Err(format!(
            "the model is schema version {sent}, {reader} reads model schema {MODEL_SCHEMA_MAJOR}.x (it speaks {MODEL_SCHEMA}); use a toolport and plugins of one model schema major"
        ));
    }
    let (mut tool_set, unknown) = crate::unknown::decode::<ToolSet>(tool_set.as_bytes())
        .map_err(|e| format!("invalid model JSON in tool_set: {e}"))?;
    let diagnostics = keep_unknown(&mut tool_set, unknown, sent, reader);
    Ok((VersionedToolSet { schema_version: sent.major, schema_minor: sent.minor, tool_set }, diagnostics))
}

/// Refuses a model (its versioned envelope, as JSON) nested deeper than [`MAX_MODEL_NESTING`]
/// levels, saying why: deeper than any reader makes, and decoding it would recurse once per
/// level. A linear scan, without recursion.
pub fn check_model_depth(envelope: &[u8]) -> Result<(), String> {
    // The envelope itself is one level around the tool set.
    match json_deeper_than(envelope, MAX_MODEL_NESTING + 1) {
        None => Ok(()),
        Some(at) => Err(format!(
            "the model is nested deeper than {MAX_MODEL_NESTING} levels (at byte {at}), deeper than any reader makes \
             from an input within the nesting limit; it is not decoded"
        )),
    }
}

/// Stores unknown fields in the tool set's extras and reports them, one warning per field name
/// (located at its first place, counting the others), so that a field a newer minor adds to
/// every schema gives one line, not thousands.
fn keep_unknown(
    tool_set: &mut ToolSet,
    unknown: Vec<(String, serde_json::Value)>,
    sent: MajorMinor,
    reader: &str,
) -> Vec<Diagnostic> {
    if unknown.is_empty() {
        return Vec::new();
    }
    // Field name → (first pointer, count), in order of appearance.
    let mut by_name: Vec<(String, (String, usize))> = Vec::new();
    let store = tool_set.extras.entry(UNKNOWN_FIELDS.to_owned()).or_insert_with(|| serde_json::json!({}));
    if !store.is_object() {
        // Not ours: keep it beside the fields rather than drop it.
        let previous = store.take();
        *store = serde_json::json!({ "": previous });
    }
    let Some(store) = store.as_object_mut() else { return Vec::new() };
    for (pointer, value) in unknown {
        let name = pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
        match by_name.iter_mut().find(|(n, _)| *n == name) {
            Some((_, (_, count))) => *count += 1,
            None => by_name.push((name, (pointer.clone(), 1))),
        }
        store.insert(pointer, value);
    }
    by_name
        .into_iter()
        .map(|(name, (first, count))| {
            let more = match count {
                1 => String::new(),
                n => format!(" (and at {} more places)", n - 1),
            };
            Diagnostic::warning(
                codes::INPUT_UNKNOWN_KEY,
                first,
                format!(
                    "model field `{name}`{more} is unknown to {reader}, which reads model schema {MODEL_SCHEMA} (this model is {sent}): kept under extras[\"{UNKNOWN_FIELDS}\"]; update {reader} to use it"
                ),
            )
        })
        .collect()
}
