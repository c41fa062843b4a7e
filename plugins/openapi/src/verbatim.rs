//! Parts of a source document written back exactly as the source had them.
//!
//! Regenerating a part from the model does not always give back what the source wrote
//! (`$ref`s, path parameters merged into operations, another order of keys). Where it does
//! not, the reader keeps a record of the part: `raw`, the part as written, and `digest`, the
//! digest of the form the writer regenerated at read time. A writer whose regenerated form
//! still has that digest knows the model did not change there and writes `raw` instead; a
//! changed part is written as regenerated.

use serde::Serialize;
use serde_json::{Map, Value};
use toolport_plugin::names::stable_hash;

/// The hex [`stable_hash`] of `value`'s compact JSON text.
pub(crate) fn digest<T: Serialize + ?Sized>(value: &T) -> String {
    // Serializing a JSON value or map cannot fail.
    let text = serde_json::to_string(value).unwrap_or_default();
    format!("{:016x}", stable_hash(&text))
}

/// The record of a part whose regenerated form differs from `raw`: `{raw, digest}`.
pub(crate) fn record<T: Serialize + ?Sized>(raw: Value, regenerated: &T) -> Map<String, Value> {
    let mut record = Map::new();
    record.insert("raw".into(), raw);
    record.insert("digest".into(), Value::String(digest(regenerated)));
    record
}

/// The part as written, from a `record`, when the regenerated form is still what it was at
/// read time. `regenerated` is called only when there is a record.
pub(crate) fn unchanged<T: Serialize>(record: Option<&Value>, regenerated: impl FnOnce() -> T) -> Option<&Value> {
    let record = record?;
    let raw = record.get("raw")?;
    let recorded = record.get("digest")?.as_str()?;
    (recorded == digest(&regenerated())).then_some(raw)
}
