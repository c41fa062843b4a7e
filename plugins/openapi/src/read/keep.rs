//! What to keep as written: each part of the source is compared with what the writer
//! regenerates from the model read, and a [`verbatim`] record is kept only where they differ.
//!
//! This is the one place the reader uses the writer, and on purpose: only the writer knows the
//! form it regenerates, and comparing with that form lets a same-format round trip be exact
//! without keeping a copy of every part.

use serde_json::{Map, Value};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::{Auth, Server, Tool};

use super::object_slot;
use crate::write::{OpWriter, security_schemes, servers_value};
use crate::{ID, verbatim};

/// Keeps the document's `servers` as written (`raw`) when the model's do not give them back.
pub(super) fn keep_servers(extras: &mut Map<String, Value>, raw: Option<&Value>, servers: &[Server]) {
    let Some(raw) = raw else { return };
    let regenerated = servers_value(servers);
    if *raw != regenerated {
        extras.insert("servers".into(), Value::Object(verbatim::record(raw.clone(), &regenerated)));
    }
}

/// Keeps `components.securitySchemes` as written when the model's auth entries do not give
/// them back.
pub(super) fn keep_security_schemes(extras: &mut Map<String, Value>, raw: &Map<String, Value>, auth: &[Auth]) {
    let regenerated = security_schemes(auth);
    if *raw != regenerated {
        let record = verbatim::record(Value::Object(raw.clone()), &regenerated);
        extras.insert("securitySchemes".into(), Value::Object(record));
    }
}

/// Keeps the operation as written in the tool's extras when the model alone would not give it
/// back.
pub(super) fn keep_operation(tool: &mut Tool, raw: Map<String, Value>, dialect: Dialect) {
    let (regenerated, _) = OpWriter::for_openapi(dialect).operation(tool, &tool.name, None);
    if regenerated != raw {
        let ext = object_slot(tool.extras.entry(ID.to_owned()).or_insert_with(|| Value::Object(Map::new())));
        ext.extend(verbatim::record(Value::Object(raw), &regenerated));
    }
}
