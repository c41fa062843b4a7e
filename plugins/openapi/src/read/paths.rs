//! `paths` → one tool per operation, with unique names; what a path item holds besides its
//! operations is kept as written.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::jsonschema::{Dialect, Reader};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Tool, codes};

use super::OperationContext;
use super::keep::KeptInPaths;
use super::operation::read_operation;
use super::parameter::with_added_parameters;
use super::{keep, servers};
use crate::http::METHODS;
use crate::write::VertexCleanliness;

/// Reads every operation of `paths` into `tools`. Returns the path items' other keys by path
/// (and the path items that have no operation, or a `$ref` that names nothing), and the
/// operations kept as written that are to be moved out of `paths` once reading is done.
pub(super) fn read_paths(
    reader: &mut Reader,
    paths: Option<&Value>,
    dialect: Dialect,
    keep: keep::Keep,
    components: Option<&Value>,
    tools: &mut Vec<Tool>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Map<String, Value>, Vec<KeptInPaths>) {
    let mut path_items = Map::new();
    let mut kept_in_paths = Vec::new();
    let paths = match paths {
        Some(Value::Object(paths)) => paths,
        Some(other) => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                "/paths",
                format!("`paths` must be an object, found {other}; no operations were read"),
            ));
            return (path_items, kept_in_paths);
        }
        None => return (path_items, kept_in_paths),
    };
    let mut names: IndexMap<String, usize> = IndexMap::new();
    let mut cleanliness = VertexCleanliness::new(components);
    for (path, item) in paths {
        let at = child("/paths", path);
        let Some((resolved, _)) = reader.follow(item, &at) else {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_UNRESOLVED,
                &at,
                "this path item's `$ref` names nothing; its operations were skipped",
            ));
            path_items.insert(path.clone(), item.clone());
            continue;
        };
        // A path item of `paths` itself, not one a `$ref` names (which stays in the document).
        let in_paths = std::ptr::eq(resolved, item);
        let Some(item) = resolved.as_object() else {
            diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, &at, "a path item must be an object"));
            continue;
        };
        let mut leftovers = Map::new();
        for (key, value) in item {
            if !METHODS.contains(&key.as_str()) || !value.is_object() {
                leftovers.insert(key.clone(), value.clone());
            }
        }
        let item_servers = servers::read_servers(item.get("servers"), &child(&at, "servers"), diagnostics);
        for (method, operation) in item {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let Some(operation) = operation.as_object() else {
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_INVALID,
                    child(&at, method),
                    "an operation must be an object; kept as written",
                ));
                continue;
            };
            let context = OperationContext { path, method, item, item_servers: &item_servers, at: &at };
            let (mut tool, added) = read_operation(reader, &context, operation, diagnostics);
            let operation_at = child(&at, method);
            name_uniquely(&mut tool, &names, &operation_at, diagnostics);
            names.insert(tool.name.clone(), tools.len());
            // An operation with parameters added from its path item is never kept for Vertex,
            // so the operation as read is the one Vertex would have.
            if !keep.keeps_operation(&tool, item, operation, &mut cleanliness) {
                // No writer of the target uses a record of the operation as written.
            } else if in_paths && added.is_empty() {
                if keep::keep_operation(&mut tool, operation, dialect) {
                    kept_in_paths.push(KeptInPaths { tool: tools.len(), path: path.clone(), method: method.clone() });
                }
            } else {
                let as_written = with_added_parameters(operation.clone(), added);
                if keep::keep_operation(&mut tool, &as_written, dialect) {
                    keep::fill_kept_operation(&mut tool, as_written);
                }
            }
            tools.push(tool);
        }
        if !leftovers.is_empty() || !item.keys().any(|k| METHODS.contains(&k.as_str())) {
            path_items.insert(path.clone(), Value::Object(leftovers));
        }
    }
    (path_items, kept_in_paths)
}

/// Tool names are unique in the model: a repeated operationId gets a suffix. `names` are the
/// names taken, each with its tool's index.
fn name_uniquely(tool: &mut Tool, names: &IndexMap<String, usize>, at: &str, diagnostics: &mut Vec<Diagnostic>) {
    let Some(&first) = names.get(&tool.name) else { return };
    let original = tool.name.clone();
    let mut n = 2;
    while names.contains_key(&format!("{original}_{n}")) {
        n += 1;
    }
    tool.name = format!("{original}_{n}");
    if let Some(http) = tool.http.as_mut() {
        http.operation_id = Some(original.clone());
    }
    diagnostics.push(Diagnostic::warning(
        codes::INPUT_INVALID,
        child(at, "operationId"),
        format!("operationId `{original}` is used by operation {} too; this one is named `{}`", first + 1, tool.name),
    ));
}
