//! `components`: the schemas of the set's definitions, the security schemes, and the source's
//! other components as written.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, ToolSet};

use super::Mode;
use super::schema::{ValueSets, schema_map};
use super::security::write_security_schemes;
use crate::ID;

/// The document's `components` (from the set's `extras["openapi"]` besides the model), or
/// `None` when it has none. The auth entry at `auth_config` is Vertex's `authConfig`; `paths` is
/// the written `paths`, whose references decide which schemas a Vertex spec needs.
pub(super) fn write_components(
    set: &ToolSet,
    mode: Mode,
    dialect: Dialect,
    auth_config: Option<usize>,
    paths: Option<&Value>,
    value_sets: ValueSets,
    out: &mut Vec<Diagnostic>,
) -> Option<Map<String, Value>> {
    let empty = Map::new();
    let ext = set.extras.get(ID).and_then(Value::as_object).unwrap_or(&empty);
    let document_ext = ext.get("document").and_then(Value::as_object).unwrap_or(&empty);
    let schemes = write_security_schemes(set, ext, auth_config, out);
    let source_components = document_ext.get("components").and_then(Value::as_object);
    let source_schemas = source_components.and_then(|c| c.get("schemas")).and_then(Value::as_object);
    // The other components as written, an empty map where the written schemas go (key order
    // kept): the source's schemas (most of a large spec) are read where they are, not copied.
    let mut components: Map<String, Value> = source_components
        .into_iter()
        .flatten()
        .map(|(key, value)| match (key.as_str(), value) {
            ("schemas", Value::Object(_)) => (key.clone(), Value::Object(Map::new())),
            _ => (key.clone(), value.clone()),
        })
        .collect();
    // What refers to schemas: the paths and the other components (responses, parameters, …).
    let referrers: Vec<&Value> =
        paths.into_iter().chain(components.iter().filter(|(k, _)| *k != "schemas").map(|(_, v)| v)).collect();
    let schemas = component_schemas(set, mode, dialect, source_schemas, &referrers, value_sets, out);
    if !schemas.is_empty() {
        components.insert("schemas".into(), Value::Object(schemas));
    } else if mode == Mode::Vertex {
        components.remove("schemas");
    }
    if schemes.as_object().is_some_and(|s| !s.is_empty()) || ext.contains_key("hasSecuritySchemes") {
        components.insert("securitySchemes".into(), schemes);
    }
    (!components.is_empty() || document_ext.contains_key("components")).then_some(components)
}

/// `components.schemas` for the set's definitions. OpenAPI keeps every definition, and a
/// source's schema as written where reading it back gives the same definition (so a same-format
/// round trip is exact); Vertex gets only those the written document refers to, in the Gemini
/// subset. Operations and other components written verbatim may refer to source schemas the
/// model has no definition for (error responses): those are copied as written.
fn component_schemas(
    set: &ToolSet,
    mode: Mode,
    dialect: Dialect,
    source: Option<&Map<String, Value>>,
    referrers: &[&Value],
    value_sets: ValueSets,
    out: &mut Vec<Diagnostic>,
) -> Map<String, Value> {
    use toolport_plugin::definitions::{name_in_reference, referenced_directly, refs_in_value};
    // The root the schema reader resolves the source's schemas in, to compare them with the
    // definitions: only OpenAPI keeps a source's schema as written.
    let root = match mode {
        Mode::OpenApi => serde_json::json!({"components": {"schemas": source.cloned().unwrap_or_default()}}),
        Mode::Vertex => Value::Null,
    };
    let mut schemas = Map::new();
    let names: Vec<String> = match mode {
        Mode::OpenApi => set.definitions.keys().cloned().collect(),
        Mode::Vertex => {
            let mut refs = Vec::new();
            for referrer in referrers {
                refs_in_value(referrer, &mut refs);
            }
            let mut pending: Vec<String> = refs.into_iter().filter_map(name_in_reference).collect();
            let mut names: IndexMap<String, ()> = IndexMap::new();
            while let Some(name) = pending.pop() {
                if names.contains_key(&name) {
                    continue;
                }
                if let Some(definition) = set.definitions.get(&name) {
                    // The worklist follows these further: the closure is the same.
                    pending.extend(referenced_directly(definition, &set.definitions));
                } else if let Some(raw) = source.and_then(|s| s.get(&name)) {
                    let mut refs = Vec::new();
                    refs_in_value(raw, &mut refs);
                    pending.extend(refs.into_iter().filter_map(name_in_reference));
                } else {
                    continue;
                }
                names.insert(name, ());
            }
            names.sort_keys();
            names.into_keys().collect()
        }
    };
    let mut reader = toolport_plugin::jsonschema::Reader::new(&root, dialect);
    for name in names {
        let Some(definition) = set.definitions.get(&name) else {
            if let Some(raw) = source.and_then(|s| s.get(&name)) {
                schemas.insert(name, raw.clone());
            }
            continue;
        };
        let path = child("/definitions", &name);
        if mode == Mode::OpenApi
            && let Some(raw) = source.and_then(|s| s.get(&name))
            && reader.read(raw, &child("/components/schemas", &name)) == *definition
        {
            schemas.insert(name, raw.clone());
            continue;
        }
        let written = schema_map(dialect, Some(value_sets), definition, &path, out);
        schemas.insert(name, Value::Object(written));
    }
    // Schemas of the source no definition came from (unused ones) stay as written.
    if mode == Mode::OpenApi {
        for (name, raw) in source.into_iter().flatten() {
            if !schemas.contains_key(name) {
                schemas.insert(name.clone(), raw.clone());
            }
        }
    }
    schemas
}
