//! Model fields OpenAPI has no place for, written as `x-toolport-*` keys of the document and
//! of each operation (`usage_notes` → `x-toolport-usage-notes`), which the reader puts back
//! (see `read::x_toolport`). They are built inline and moved into the bookkeeping section last
//! (see `crate::bookkeeping`).

use serde_json::{Map, Value, json};
use toolport_plugin::{Diagnostic, Extras, Tool, ToolSet, loss};

use super::Mode;
use crate::ID;
use crate::http::method_hints;

/// The tool-set fields, but those `carried_by_body` (a Vertex import body has a place for).
pub(super) fn set_fields(
    set: &ToolSet,
    mode: Mode,
    carried_by_body: &[&str],
    doc: &mut Map<String, Value>,
    out: &mut Vec<Diagnostic>,
) {
    let fields = [
        ("id", set.id.as_ref().map(|v| json!(v))),
        ("instructions", set.instructions.as_ref().map(|v| json!(v))),
        ("icon", set.icon.as_ref().map(|v| json!(v))),
        ("timestamps", (!set.timestamps.is_empty()).then(|| json!(set.timestamps))),
        ("runtime_defaults", (!set.runtime_defaults.is_empty()).then(|| json!(set.runtime_defaults))),
        ("value_sets", (!set.value_sets.is_empty()).then(|| json!(set.value_sets))),
        ("examples", (!set.examples.is_empty()).then(|| json!(set.examples))),
    ];
    for (key, value) in fields {
        if let Some(value) = value
            && !carried_by_body.contains(&key)
        {
            doc.insert(format!("x-toolport-{}", key.replace('_', "-")), value);
        }
    }
    let target = if mode == Mode::Vertex { "vertex" } else { ID };
    // Only the other formats' records are copied (the source's own can be most of the extras).
    let foreign =
        loss::without_source_files(&set.extras, "/extras", target, |k| is_foreign(k, mode == Mode::Vertex), out);
    insert_extras(doc, foreign.into_inner().into_iter().collect());
}

/// The tool fields, the name the model has when Vertex's rules changed it, and the parameter
/// names they changed (`renamed`: written name → model name).
pub(super) fn tool_fields(
    tool: &Tool,
    name: &str,
    mode: Mode,
    renamed: Map<String, Value>,
    op: &mut Map<String, Value>,
) {
    let derived = tool.http.as_ref().map(|h| method_hints(&h.method)).unwrap_or_default();
    let fields = [
        ("usage-notes", tool.usage_notes.as_ref().map(|v| json!(v))),
        ("icon", tool.icon.as_ref().map(|v| json!(v))),
        ("prompt", tool.prompt.as_ref().map(|v| json!(v))),
        ("model-settings", tool.model_settings.as_ref().map(|v| json!(v))),
        ("display", tool.display.as_ref().map(|v| json!(v))),
        ("confirmation", tool.confirmation.as_ref().map(|v| json!(v))),
        ("hints", (tool.hints != derived).then(|| json!(tool.hints))),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            op.insert(format!("x-toolport-{key}"), value);
        }
    }
    insert_foreign(op, &tool.extras, true);
    if mode == Mode::Vertex && name != tool.name {
        op.insert("x-toolport-original-name".into(), Value::String(tool.name.clone()));
    }
    if !renamed.is_empty() {
        op.insert("x-toolport-parameter-names".into(), Value::Object(renamed));
    }
}

/// Whether extras under `key` are another format's (not OpenAPI's own record, nor Vertex's
/// where `without_vertex`).
fn is_foreign(key: &str, without_vertex: bool) -> bool {
    key != ID && !(without_vertex && key == "vertex")
}

/// Inserts `x-toolport-extras`: what other formats keep in `extras` (not OpenAPI's own record,
/// nor Vertex's where `without_vertex`), when there is any.
pub(super) fn insert_foreign(object: &mut Map<String, Value>, extras: &Extras, without_vertex: bool) {
    let foreign = extras.iter().filter(|(k, _)| is_foreign(k, without_vertex)).map(|(k, v)| (k.clone(), v.clone()));
    insert_extras(object, foreign.collect());
}

/// Inserts `foreign`, other formats' records, as `x-toolport-extras` when there is any.
fn insert_extras(object: &mut Map<String, Value>, foreign: Map<String, Value>) {
    if !foreign.is_empty() {
        object.insert("x-toolport-extras".into(), Value::Object(foreign));
    }
}
