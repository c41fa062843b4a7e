//! Reading MCP tools into the model, mirrored by [`crate::write`]: what the model has no place
//! for (the document's shape, `_meta`, rich `icons`, unknown keys, schemas it cannot reproduce)
//! is kept under `extras["mcp"]`, and a name a writer changed comes back from `_meta`.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::read::{
    Kept, ToolKeys, check_name, keep_unknown, optional_string, read_tool_list, tool_name, tool_object,
};
use toolport_plugin::function_tools::schema;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Outcome, Output, Tool, ToolSet, codes};

use crate::icons::first_icon;
use crate::{DIALECT, HINT_KEYS, ID, MCP_NAME, ORIGINAL_NAME_META};

/// The tools of an MCP document: `{"tools": [...]}` (alone or as a JSON-RPC response's
/// `result`), an array of tools, or one tool.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    read_tool_list(
        source,
        ID,
        |map| map.contains_key("name") || map.contains_key("inputSchema"),
        "expected MCP tools: {\"tools\": [...]}, a JSON-RPC tools/list response, an array of tools, or one tool",
        |reading, value, _, path| {
            if let Some(tool) = read_tool(source, value, &path, &mut reading.diagnostics) {
                reading.add(tool, "tool name", child(&path, "name"));
            }
        },
    )
}

const TOOL_KEYS: ToolKeys = ToolKeys {
    format: ID,
    what: "tool",
    known: &["name", "title", "icons", "description", "inputSchema", "outputSchema", "annotations", "_meta"],
    quiet: &[],
};

fn read_tool(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let map = tool_object(source, value, path, "tool", diagnostics)?;
    let mut tool = Tool::new(tool_name(source, map, path, "tool", diagnostics)?);
    let mut kept = Kept::default();
    tool.title = optional_string(source, map, "title", path, &mut kept.keep, diagnostics);
    tool.description = optional_string(source, map, "description", path, &mut kept.keep, diagnostics);

    if let Some(icons) = map.get("icons") {
        tool.icon = first_icon(icons).map(Box::new);
        let plain =
            icons.as_array().is_some_and(|a| a.len() == 1) && icons[0].as_object().is_some_and(|o| o.len() == 1);
        if !plain || tool.icon.is_none() {
            kept.extras.insert("icons".into(), icons.clone());
        }
    }

    let extras = &mut kept.extras;
    match map.get("inputSchema") {
        Some(input) => {
            let path = child(path, "inputSchema");
            tool.parameters = schema::read_input(source, input, DIALECT, &path, "inputSchema", extras, diagnostics);
        }
        None => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                path,
                format!("tool `{}` has no `inputSchema` (MCP requires one)", tool.name),
            )));
            extras.insert("noInputSchema".into(), true.into());
        }
    }
    if let Some(output) = map.get("outputSchema") {
        let path = child(path, "outputSchema");
        let schema = schema::read_single(source, output, DIALECT, &path, "outputSchema", extras, diagnostics);
        tool.output = Some(Box::new(Output { schema: Some(schema), ..Output::default() }));
    }

    match map.get("annotations") {
        Some(Value::Object(annotations)) => read_annotations(annotations, &mut tool, &mut kept.extras),
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "annotations"),
                "`annotations` should be an object; kept as written",
            )));
            kept.keep.insert("annotations".into(), other.clone());
        }
        None => {}
    }
    if let Some(meta) = map.get("_meta") {
        read_meta(meta, &mut tool, &mut kept.extras);
    }
    if !kept.extras.contains_key("renamedFrom") {
        check_name(source, &tool.name, MCP_NAME, "tool", "MCP", path, diagnostics);
    }
    keep_unknown(source, map, &TOOL_KEYS, path, kept, &mut tool, diagnostics);
    Some(tool)
}

/// The hints and a title of `annotations`; a title beside the tool's own and other keys are
/// kept in `extras`.
fn read_annotations(annotations: &Map<String, Value>, tool: &mut Tool, extras: &mut Map<String, Value>) {
    let mut unknown = Map::new();
    for (key, value) in annotations {
        if let Some((_, field)) = HINT_KEYS.iter().find(|(k, _)| k == key)
            && let Some(flag) = value.as_bool()
        {
            *field(&mut tool.hints) = Some(flag);
        } else if key == "title" && value.is_string() {
            if tool.title.is_none() {
                tool.title = value.as_str().map(str::to_owned);
                extras.insert("titleIn".into(), "annotations".into());
            } else {
                extras.insert("annotationsTitle".into(), value.clone());
            }
        } else {
            unknown.insert(key.clone(), value.clone());
        }
    }
    if !unknown.is_empty() {
        extras.insert("annotations".into(), Value::Object(unknown));
    }
}

/// Keeps `_meta` in `extras`, less the original name a writer recorded after a rename, which
/// becomes the tool's name again.
fn read_meta(meta: &Value, tool: &mut Tool, extras: &mut Map<String, Value>) {
    let mut meta = meta.clone();
    let mut restored = false;
    if let Some(original) = meta.as_object_mut().and_then(|m| m.shift_remove(ORIGINAL_NAME_META))
        && let Some(original) = original.as_str()
    {
        extras.insert("renamedFrom".into(), Value::String(std::mem::take(&mut tool.name)));
        tool.name = original.to_owned();
        restored = true;
    }
    if !(restored && meta.as_object().is_some_and(Map::is_empty)) {
        extras.insert("_meta".into(), meta);
    }
}
