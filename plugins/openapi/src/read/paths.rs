//! `paths` → one tool per operation, with unique names; what a path item holds besides its
//! operations is kept as written.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::jsonschema::{Dialect, Reader};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Tool, codes};

use super::operation::{OperationContext, read_operation};
use super::{keep, servers};
use crate::http::METHODS;

/// Reads every operation of `paths` into `tools`. Returns the path items' other keys by path
/// (and the path items that have no operation, or a `$ref` that names nothing).
pub(super) fn read_paths(
    reader: &mut Reader,
    paths: Option<&Value>,
    dialect: Dialect,
    tools: &mut Vec<Tool>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Map<String, Value> {
    let mut path_items = Map::new();
    let paths = match paths {
        Some(Value::Object(paths)) => paths,
        Some(other) => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                "/paths",
                format!("`paths` must be an object, found {other}; no operations were read"),
            ));
            return path_items;
        }
        None => return path_items,
    };
    let mut names: IndexMap<String, usize> = IndexMap::new();
    for (path, item) in paths {
        let at = child("/paths", path);
        let Some((item, _)) = reader.follow(item, &at) else {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_UNRESOLVED,
                &at,
                "this path item's `$ref` names nothing; its operations were skipped",
            ));
            path_items.insert(path.clone(), item.clone());
            continue;
        };
        let Some(item) = item.as_object() else {
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
            let (mut tool, as_written) = read_operation(reader, &context, operation, diagnostics);
            let operation_at = child(&at, method);
            name_uniquely(&mut tool, &names, &operation_at, diagnostics);
            names.insert(tool.name.clone(), tools.len());
            keep::keep_operation(&mut tool, as_written, dialect);
            tools.push(tool);
        }
        if !leftovers.is_empty() || !item.keys().any(|k| METHODS.contains(&k.as_str())) {
            path_items.insert(path.clone(), Value::Object(leftovers));
        }
    }
    path_items
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
