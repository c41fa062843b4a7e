//! The document as a whole: its version and dialect, its parts in order, the source's other
//! top-level keys, and the bookkeeping moved out of the way last.

use serde_json::{Map, Value};
use toolport_plugin::definitions::Budget;
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::{Diagnostic, ToolSet, codes, loss};

use super::schema::ValueSets;
use super::{
    Mode, VertexParts, Written, components, dialect_is_30, downgrade, info, parameter, paths, servers, x_toolport,
};
use crate::{ID, bookkeeping};

/// Tool-set fields written only as `x-toolport-*` bookkeeping that mean something to the
/// platforms the tools came from: OpenAPI has no place for prompts that select an operation
/// (Vertex's import body has, `toolUseExamples`).
const KEPT_ONLY_AS_BOOKKEEPING: &[&str] = &["examples"];

/// Writes `set` as an OpenAPI document (for `mode`).
pub(crate) fn document(set: &ToolSet, mode: Mode, vertex: &VertexParts) -> Written {
    let mut out = Vec::new();
    let empty = Map::new();
    let ext = set.extras.get(ID).and_then(Value::as_object).unwrap_or(&empty);
    let version = match vertex.required_version {
        Some(required) => required_version(ext, required, &mut out),
        None => version(ext, mode, &mut out).unwrap_or_else(|| vertex.default_version.unwrap_or("3.0.3").into()),
    };
    let dialect = match mode {
        Mode::Vertex => Dialect::Gemini,
        Mode::OpenApi if version.starts_with("3.0") => Dialect::OpenApi30,
        Mode::OpenApi => Dialect::OpenApi31,
    };
    let mut doc = Map::new();
    let raw = ext.get("openapiRaw").filter(|_| vertex.required_version.is_none());
    doc.insert("openapi".into(), raw.cloned().unwrap_or(Value::String(version)));
    let info = info::write_info(set, ext, vertex.fallback_title.as_deref(), &mut out);
    doc.insert("info".into(), Value::Object(info));
    if let Some(servers) = servers::write_servers(set, ext, mode, vertex.base_url, &mut out) {
        doc.insert("servers".into(), servers);
    }
    // Charged only for value sets written out as enums: the model is weighed only when it
    // has some.
    let budget = if set.value_sets.is_empty() { Budget::unlimited() } else { Budget::for_model(set) };
    let value_sets = ValueSets { sets: &set.value_sets, budget: &budget };
    let (paths, names) = paths::write_paths(set, mode, dialect, ext, value_sets, &mut out);
    doc.insert("paths".into(), Value::Object(paths));
    let components =
        components::write_components(set, mode, dialect, vertex.auth_config, doc.get("paths"), value_sets, &mut out);
    let document_ext = ext.get("document").and_then(Value::as_object).unwrap_or(&empty);
    for (k, v) in document_ext {
        if k != "components" {
            doc.insert(k.clone(), v.clone());
        }
    }
    if let Some(components) = components {
        doc = with_components(doc, components);
    }
    x_toolport::set_fields(set, mode, vertex.carried_by_body, &mut doc, &mut out);
    // A 3.1 source written as 3.0 (Vertex's spec): the parts kept as written are 3.1's.
    let written_30 = doc.get("openapi").and_then(Value::as_str).is_some_and(|v| v.starts_with("3.0"));
    if written_30 && !dialect_is_30(ext.get("openapi").and_then(Value::as_str)) {
        downgrade::to_openapi_30(&mut doc, &mut out);
    }

    // Every model field is carried above (`x-toolport-*` keys where OpenAPI has no place);
    // the schema writer reports what schemas lose. Other formats' extras on a parameter are
    // kept (`x-toolport-extras`) only on an OpenAPI parameter object: Vertex drops them all,
    // and a request body's properties have no place for them.
    for (i, tool) in set.tools.iter().enumerate() {
        for (j, parameter) in tool.parameters.iter().enumerate() {
            if mode == Mode::OpenApi && !parameter::in_body(tool, parameter) {
                continue;
            }
            for (key, value) in parameter.extras.iter().filter(|(k, _)| k.as_str() != ID) {
                out.push(Diagnostic::loss(
                    codes::LOSS_EXTRAS,
                    format!("/tools/{i}/parameters/{j}/extras/{key}"),
                    format!(
                        "{} cannot hold data only {key} has on parameter `{}`{}; it was left out",
                        mode.target(),
                        parameter.name,
                        listed_keys(value)
                    ),
                ));
            }
        }
    }
    // `nullable: false` says what leaving it out says; it stays only in what the source format
    // itself wrote (the same-format round trip gives the document back).
    let from_vertex = set.extras.contains_key("vertex");
    let same_format = match mode {
        Mode::OpenApi => set.extras.contains_key(ID) && !from_vertex,
        Mode::Vertex => from_vertex,
    };
    if mode == Mode::OpenApi && !same_format {
        out.extend(loss::kept_only_as_bookkeeping(
            set,
            ID,
            KEPT_ONLY_AS_BOOKKEEPING,
            &format!("`{}`", bookkeeping::SECTION),
        ));
    }
    bookkeeping::move_into_section(&mut doc, !same_format);
    Written { document: Value::Object(doc), names, diagnostics: out }
}

/// The OpenAPI version to write: the source's (for Vertex, 3.0 only, else 3.0.3); `None` when
/// the source had none.
fn version(ext: &Map<String, Value>, mode: Mode, out: &mut Vec<Diagnostic>) -> Option<String> {
    Some(match (mode, ext.get("openapi").and_then(Value::as_str)) {
        (Mode::OpenApi, Some(v)) => v.to_owned(),
        (Mode::Vertex, Some(v)) if v.starts_with("3.0") => v.to_owned(),
        (Mode::Vertex, Some(v)) => {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                "/extras/openapi/openapi",
                format!("Vertex reads OpenAPI 3.0: the {v} document is written as 3.0.3"),
            ));
            "3.0.3".into()
        }
        (_, None) => return None,
    })
}

/// `required`, the version a platform takes, with a `changed/value` when the source had another.
fn required_version(ext: &Map<String, Value>, required: &str, out: &mut Vec<Diagnostic>) -> String {
    if let Some(source) = ext.get("openapi").and_then(Value::as_str).filter(|v| *v != required) {
        out.push(Diagnostic::warning(
            codes::CHANGED_VALUE,
            "/extras/openapi/openapi",
            format!("the target takes OpenAPI {required} only: the {source} document is written as {required}"),
        ));
    }
    required.to_owned()
}

/// `doc` with `components` placed after the keys that come before it in OpenAPI's order.
fn with_components(doc: Map<String, Value>, mut components: Map<String, Value>) -> Map<String, Value> {
    let mut ordered = Map::new();
    let mut placed = false;
    for (k, v) in doc {
        if !placed && !matches!(k.as_str(), "openapi" | "info" | "servers" | "paths" | "jsonSchemaDialect" | "webhooks")
        {
            ordered.insert("components".into(), Value::Object(std::mem::take(&mut components)));
            placed = true;
        }
        ordered.insert(k, v);
    }
    if !placed {
        ordered.insert("components".into(), Value::Object(components));
    }
    ordered
}

/// The keys of an extras object, backquoted in parentheses (` (`minimum`, `width`)`), or
/// nothing for another value.
fn listed_keys(value: &Value) -> String {
    match value.as_object() {
        Some(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().map(|k| format!("`{k}`")).collect();
            format!(" ({})", keys.join(", "))
        }
        _ => String::new(),
    }
}
