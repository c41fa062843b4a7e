//! What every function-tool writer shares, mirroring [`crate::read`]: the keys a reader kept
//! given back ([`give_back_kept`]), the parts of an output only a schema can say, and the
//! document written in the shape its source had ([`by_shape`]) as a one-file bundle.

use serde_json::{Map, Value};
use toolport_core::source::child;
use toolport_core::{Bundle, Diagnostic, Options, Outcome, Output, ToolSet, codes};

use crate::common::Shape;

/// Gives back the keys a reader kept as written (`keep` in the tool's `extras`,
/// [`crate::read::keep_unknown`]) where the writer did not write a key of its own.
pub fn give_back_kept(out: &mut Map<String, Value>, extras: &Map<String, Value>) {
    if let Some(Value::Object(keep)) = extras.get("keep") {
        for (key, value) in keep {
            out.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
}

/// Reports each field of `output` (at `path`) besides its schema as lost, for a format that
/// describes a result only by a schema: "`how`; the output's `<field>` was left out".
pub fn report_output_fields(output: &Output, path: &str, how: &str, diagnostics: &mut Vec<Diagnostic>) {
    for (field, present) in [
        ("description", output.description.is_some()),
        ("kind", output.kind.is_some()),
        ("format", output.format.is_some()),
        ("language", output.language.is_some()),
        ("allowed_values", output.allowed_values.is_some()),
        ("content_type", output.content_type.is_some()),
    ] {
        if present {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_FIELD,
                child(path, field),
                format!("{how}; the output's `{field}` was left out"),
            ));
        }
    }
}

/// `tools` as a document of the shape its source had (`shape` in the tool set's extras,
/// recorded by [`crate::read::tool_list`]), else of `default`: wrapped (`{"<key>": [...]}`
/// followed by the source's other top-level keys, [`wrapped`]), a bare array, or the one tool.
/// A one-tool shape holds exactly one; other counts are written in `default` (an array when
/// that is one-tool too). A document read from a JSON-RPC response goes back into it
/// ([`in_envelope`]).
pub fn by_shape(mut tools: Vec<Value>, set_extras: &Map<String, Value>, default: Shape, key: &str) -> Value {
    let recorded = set_extras.get("shape").and_then(Value::as_str).and_then(Shape::parse);
    let shape = match recorded.unwrap_or(default) {
        Shape::Single if tools.len() != 1 => default,
        shape => shape,
    };
    let document = match shape {
        Shape::Single if tools.len() == 1 => tools.remove(0),
        Shape::Single | Shape::Array => Value::Array(tools),
        Shape::Wrapped => wrapped(key, tools, set_extras),
    };
    in_envelope(document, set_extras)
}

/// `document` as the `result` of the JSON-RPC response the source came in (`envelope` in the
/// tool set's extras, recorded by [`crate::read::tool_list`]), its other keys in their order;
/// else `document` itself.
pub fn in_envelope(document: Value, set_extras: &Map<String, Value>) -> Value {
    match set_extras.get("envelope") {
        Some(Value::Object(envelope)) => {
            let mut response = envelope.clone();
            response.insert("result".into(), document);
            Value::Object(response)
        }
        _ => document,
    }
}

/// `{"<key>": [...]}` followed by the source's other top-level keys (`document` in the tool
/// set's extras, recorded by [`crate::read::tool_list`]).
pub fn wrapped(key: &str, tools: Vec<Value>, set_extras: &Map<String, Value>) -> Value {
    let mut document = Map::new();
    document.insert(key.into(), Value::Array(tools));
    if let Some(Value::Object(others)) = set_extras.get("document") {
        document.extend(others.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    Value::Object(document)
}

/// A written document as a one-file bundle, `<output name>.json`, pretty-printed.
pub fn json_bundle(document: &Value, options: &Options) -> Bundle {
    let mut bundle = Bundle::default();
    bundle.insert(format!("{}.json", options.output_name("tools")), pretty(document));
    bundle
}

/// Pretty JSON, 2-space indented, with a trailing newline.
pub fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// A function-tool format's `Format::write`: the format's own `document`, as one JSON file
/// named after the output ([`json_bundle`]).
pub fn write_entry(
    model: &ToolSet,
    options: &Options,
    document: fn(&ToolSet, &Options) -> (Value, Vec<Diagnostic>),
) -> Outcome<Bundle> {
    let (written, diagnostics) = document(model, options);
    Outcome::ok(json_bundle(&written, options), diagnostics)
}
