//! What to keep as written: each part of the source is compared with what the writer
//! regenerates from the model read, and a [`verbatim`] record is kept only where they differ.
//!
//! This is the one place the reader uses the writer, and on purpose: only the writer knows the
//! form it regenerates, and comparing with that form lets a same-format round trip be exact
//! without keeping a copy of every part.

use serde_json::{Map, Value};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::names::NameRules;
use toolport_plugin::{Auth, Options, Server, Tool};

use super::object_slot;
use crate::write::{OpWriter, VertexCleanliness, security_schemes, servers_value};
use crate::{ID, verbatim};

/// Whether the reader keeps parts as written. Only the openapi and vertex writers use the
/// records, and regenerating every operation to compare is a large part of reading, so a
/// conversion to another format keeps nothing ([`Options::TARGET_FORMAT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    AsWritten,
    /// As written, but the operations the Vertex writer never writes as the source did.
    ForVertex,
    Nothing,
}

impl Keep {
    /// For the target the host names; everything when it names none (`inspect`, an older host).
    pub(crate) fn for_target(options: &Options) -> Keep {
        if options.get(Options::TARGET_FORMAT) == Some(crate::vertex::VX) {
            Keep::ForVertex
        } else if options.may_target(&[crate::ID, crate::vertex::VX]) {
            Keep::AsWritten
        } else {
            Keep::Nothing
        }
    }

    /// Whether the document's servers and security schemes are kept as written.
    pub(crate) fn keeps_document_parts(self) -> bool {
        self != Keep::Nothing
    }

    /// Whether `operation`, read as `tool` in a path item `item`, is kept as written. The
    /// Vertex writer writes an operation as the source did only under the name it has (a name
    /// outside Vertex's function names is always changed), only where the path item has no
    /// parameters of its own, only when the tool has no servers of its own (Vertex takes one
    /// for the whole API: they are left out, said, and the operation regenerated), and only
    /// when the operation and what its `$ref`s name in the source's `components` stay inside
    /// what Vertex accepts (`write::paths`' `Chooser`): regenerating the others to compare
    /// would be work for a record no writer reads (all 771 of GitHub's operations, 192 of
    /// Stripe's 417, all 197 of Twilio's REST 2010 spec, whose every path has its servers).
    pub(super) fn keeps_operation<'a>(
        self,
        tool: &Tool,
        item: &Map<String, Value>,
        operation: &'a Map<String, Value>,
        cleanliness: &mut VertexCleanliness<'a>,
    ) -> bool {
        match self {
            Keep::AsWritten => true,
            Keep::ForVertex => {
                NameRules::FUNCTION.is_valid(&tool.name)
                    && !item.contains_key("parameters")
                    && tool.http.as_ref().is_none_or(|http| http.servers.is_empty())
                    && cleanliness.operation_is_clean(operation)
            }
            Keep::Nothing => false,
        }
    }
}

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

/// Keeps the operation as written (`raw`) in the tool's extras when the model alone would not
/// give it back. The record's `raw` is left `null` for the caller to fill with
/// [`fill_kept_operation`], so an operation of the document is moved there, not copied.
/// Whether a record was made.
pub(super) fn keep_operation(tool: &mut Tool, raw: &Map<String, Value>, dialect: Dialect) -> bool {
    let (regenerated, _) = OpWriter::for_openapi(dialect).operation(tool, &tool.name, None);
    if regenerated == *raw {
        return false;
    }
    let ext = object_slot(tool.extras.entry(ID.to_owned()).or_insert_with(|| Value::Object(Map::new())));
    ext.extend(verbatim::record(Value::Null, &regenerated));
    true
}

/// Puts the operation as written into the record [`keep_operation`] made for it.
pub(super) fn fill_kept_operation(tool: &mut Tool, raw: Map<String, Value>) {
    if let Some(slot) = tool.extras.get_mut(ID).and_then(|ext| ext.get_mut("raw")) {
        *slot = Value::Object(raw);
    }
}

/// An operation kept as written whose record waits for it: the tool's index, and where the
/// operation sits in `paths`.
pub(super) struct KeptInPaths {
    pub tool: usize,
    pub path: String,
    pub method: String,
}

/// Moves each operation waited for out of the document's `paths` (read, and no longer needed)
/// into its tool's record.
pub(super) fn move_kept_operations(doc: &mut Value, tools: &mut [Tool], kept: Vec<KeptInPaths>) {
    let Some(Value::Object(paths)) = doc.get_mut("paths") else { return };
    for KeptInPaths { tool, path, method } in kept {
        let operation = paths.get_mut(&path).and_then(|item| item.get_mut(&method)).map(Value::take);
        if let (Some(Value::Object(operation)), Some(tool)) = (operation, tools.get_mut(tool)) {
            fill_kept_operation(tool, operation);
        }
    }
}
