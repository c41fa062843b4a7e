//! The document as a whole: its version, and the parts that are not paths (info, servers,
//! security schemes, components, other top-level keys).

use serde_json::{Map, Value};
use toolport_plugin::jsonschema::{Dialect, Reader};
use toolport_plugin::{Diagnostic, Options, ToolSet, codes};

use super::{info, keep, paths, security, servers, x_toolport};
use crate::ID;
use crate::bookkeeping::XT;

/// Reads a document prepared by [`super::read_document`]. The document is taken so that
/// what is kept as written (components, tags, …) is moved into the model, not copied.
/// What is kept as written only where `keep` says a writer may use it.
pub(super) fn read_prepared(
    doc: Value,
    keep: keep::Keep,
    options: &Options,
) -> Result<(ToolSet, Vec<Diagnostic>), Diagnostic> {
    let Some(root) = doc.as_object() else {
        return Err(Diagnostic::error(codes::INPUT_INVALID, "", "an OpenAPI document must be an object"));
    };
    let mut diagnostics = Vec::new();
    let (version, dialect) = version(root, &mut diagnostics)?;

    let mut reader = Reader::new(&doc, dialect);
    let mut set = ToolSet::default();
    let mut extras = Map::new();
    extras.insert("openapi".into(), Value::String(version));
    if !matches!(root.get("openapi"), Some(Value::String(_))) {
        extras.insert("openapiRaw".into(), root["openapi"].clone());
    }

    info::read_info(root.get("info"), &mut set, &mut extras, &mut diagnostics);
    set.servers = servers::read_servers(root.get("servers"), "/servers", &mut diagnostics);
    // A URL YAML read as a list is written as the text it was read as (no reader takes a
    // list there), so that form is not kept.
    let list_url = root.get("servers").and_then(Value::as_array).is_some_and(|s| s.iter().any(|s| s["url"].is_array()));
    if !list_url && keep.keeps_document_parts() {
        keep::keep_servers(&mut extras, root.get("servers"), &set.servers);
    }

    let schemes = root.get("components").and_then(|c| c.get("securitySchemes"));
    if let Some(Value::Object(schemes)) = schemes {
        security::read_security_schemes(&mut reader, schemes, &mut set.auth);
        if keep.keeps_document_parts() {
            keep::keep_security_schemes(&mut extras, schemes, &set.auth);
        }
    }

    if root.get("components").and_then(Value::as_object).is_some_and(|c| c.contains_key("securitySchemes")) {
        extras.insert("hasSecuritySchemes".into(), Value::Bool(true));
    }
    x_toolport::restore_set(root, &mut set, &mut diagnostics);

    let (path_items, kept_in_paths) = paths::read_paths(
        &mut reader,
        root.get("paths"),
        dialect,
        keep,
        root.get("components"),
        &mut set.tools,
        &mut diagnostics,
    );
    // Named schemas (`#/components/schemas/X`) were read once each, as definitions.
    set.definitions = reader.take_definitions();
    diagnostics.extend(reader.take_diagnostics());
    if !path_items.is_empty() {
        extras.insert("pathItems".into(), Value::Object(path_items));
    }
    let mut doc = doc;
    keep::move_kept_operations(&mut doc, &mut set.tools, kept_in_paths);
    let document = rest_of_document(doc, options);
    if !document.is_empty() {
        extras.insert("document".into(), Value::Object(document));
    }
    set.extras.insert(ID.into(), Value::Object(extras));
    Ok((set, diagnostics))
}

/// The OpenAPI version as written, and the schema dialect it implies. `Err` for Swagger 2.0, a
/// document without a version, and versions other than 3.
fn version(root: &Map<String, Value>, diagnostics: &mut Vec<Diagnostic>) -> Result<(String, Dialect), Diagnostic> {
    if root.contains_key("swagger") {
        return Err(Diagnostic::error(
            codes::INPUT_UNSUPPORTED,
            "/swagger",
            "Swagger 2.0 is not OpenAPI 3; convert it first (for example with `npx swagger2openapi in.json -o out.yaml`), then convert the result",
        ));
    }
    let version = match root.get("openapi") {
        Some(Value::String(v)) => v.clone(),
        Some(other) => other.to_string(),
        None => {
            return Err(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                "not an OpenAPI document: there is no `openapi` version key",
            ));
        }
    };
    let dialect = if version.starts_with("3.0") {
        Dialect::OpenApi30
    } else if version.starts_with("3.1") {
        Dialect::OpenApi31
    } else if version.starts_with('3') {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            "/openapi",
            format!("OpenAPI {version} is newer than 3.1; read as 3.1"),
        ));
        Dialect::OpenApi31
    } else {
        return Err(Diagnostic::error(
            codes::INPUT_UNSUPPORTED,
            "/openapi",
            format!("OpenAPI {version} is not supported; this reader reads OpenAPI 3.0 and 3.1"),
        ));
    };
    Ok((version, dialect))
}

/// The top-level keys the model has no place for (components but the security schemes,
/// tags, external docs, …), kept as written. `paths`, read and the largest part, is given to
/// [`Options::free`].
fn rest_of_document(doc: Value, options: &Options) -> Map<String, Value> {
    let mut document = Map::new();
    let Value::Object(root) = doc else { return document };
    for (key, value) in root {
        match key.as_str() {
            "openapi" | "info" | "servers" => {}
            // Left to the process's end when it ends after this conversion: freeing every
            // operation's values was a twelfth of Stripe to mcp.
            "paths" => options.free(value),
            "components" => {
                let is_object = value.is_object();
                let mut components = match value {
                    Value::Object(components) => components,
                    _ => Map::new(),
                };
                components.remove("securitySchemes");
                if !components.is_empty() || !is_object {
                    document.insert(key, Value::Object(components));
                }
            }
            _ if key.starts_with(XT) => {}
            _ => {
                document.insert(key, value);
            }
        }
    }
    document
}
