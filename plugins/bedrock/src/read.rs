//! Reading Bedrock Converse tools into the model, mirrored by [`crate::write`]: the request and
//! tool configuration around the tools, `cachePoint` and `systemTool` items
//! (`function_tools::other_tools`), each `toolSpec`'s `strict` and unknown keys, and schemas the
//! model cannot reproduce are kept under `extras["bedrock"]`.

use serde_json::Value;
use toolport_plugin::function_tools::common::{Shape, Source};
use toolport_plugin::function_tools::read::{
    Kept, Reading, ToolKeys, check_name, keep_unknown, optional_string, read_strict, tool_name, tool_object, without,
};
use toolport_plugin::function_tools::{carry, other_tools, schema};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Outcome, Tool, ToolSet, codes};

use crate::{DIALECT, ID, NAME_RULES, SCHEMA_KEY};

const EXPECTED: &str = "expected Bedrock Converse tools: a request with `toolConfig`, a tool configuration \
    {\"tools\": [{\"toolSpec\": {...}}]}, an array of tools, or one tool";

/// Whether `value` is a Bedrock `Tool` union holding a tool specification.
pub fn is_tool(value: &Value) -> bool {
    value.get("toolSpec").is_some_and(|spec| spec.get("name").is_some_and(Value::is_string))
}

/// The tools of a Bedrock document: a Converse request (`toolConfig`), a tool configuration
/// (`{"tools": [...]}`), an array of tools, or one tool.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    let mut reading = Reading::new(source);
    let (config, root) = match source.value.as_object() {
        Some(request) if request.contains_key("toolConfig") => {
            let mut request = request.clone();
            // Filled again with the written tool configuration.
            request.insert("toolConfig".into(), Value::Null);
            reading.set_extras.insert("request".into(), Value::Object(request));
            (&source.value["toolConfig"], "/toolConfig")
        }
        _ => (&source.value, ""),
    };
    let (shape, items): (Shape, Vec<&Value>) = match config {
        Value::Object(map) if map.get("tools").is_some_and(Value::is_array) => {
            let others = without(map, "tools");
            if !others.is_empty() {
                reading.set_extras.insert("document".into(), Value::Object(others));
            }
            (Shape::Wrapped, map["tools"].as_array().into_iter().flatten().collect())
        }
        Value::Array(items) if root.is_empty() => (Shape::Array, items.iter().collect()),
        Value::Object(map) if root.is_empty() && map.contains_key("toolSpec") => (Shape::Single, vec![config]),
        _ => return Outcome::fail(source.at(Diagnostic::error(codes::INPUT_INVALID, root, EXPECTED))),
    };
    reading.set_extras.insert("shape".into(), shape.as_str().into());
    for (i, item) in items.into_iter().enumerate() {
        let path = match shape {
            Shape::Single => root.to_owned(),
            Shape::Array => child(root, i.to_string()),
            Shape::Wrapped => child(&child(root, "tools"), i.to_string()),
        };
        read_item(&mut reading, item, i, path);
    }
    reading.finish(ID)
}

/// One item of `tools`: a union of exactly one member. A `toolSpec` is a tool; a `cachePoint`
/// or `systemTool` is kept in place for a Bedrock output.
fn read_item(reading: &mut Reading, item: &Value, at: usize, path: String) {
    let source = reading.source;
    let Some(union) = item.as_object() else {
        let message =
            "not a Bedrock tool: a Bedrock tool is an object holding one of `toolSpec`, `cachePoint`, `systemTool`";
        reading.diagnostics.push(source.at(Diagnostic::error(codes::INPUT_INVALID, path, message)));
        return;
    };
    let Some(spec) = union.get("toolSpec") else {
        if union.len() == 1 && union.keys().all(|k| OTHER_MEMBERS.contains(&k.as_str())) {
            let what = format!("Bedrock tool {}", other_tools::describe(item));
            other_tools::keep(reading, item, at, &path, &what, "Bedrock");
        } else {
            // Another format's tool (`{"name", "inputSchema"}` is MCP's): reading it as nothing
            // would write an empty tool set without a word.
            let keys: Vec<String> = union.keys().map(|k| format!("`{k}`")).collect();
            let message = format!(
                "not a Bedrock tool: it holds {}, where a Bedrock tool holds one of `toolSpec`, `cachePoint`, `systemTool`",
                if keys.is_empty() { "nothing".to_owned() } else { keys.join(", ") }
            );
            reading.diagnostics.push(source.at(Diagnostic::error(codes::INPUT_INVALID, path, message)));
        }
        return;
    };
    if union.len() > 1 {
        let others: Vec<String> = union.keys().filter(|k| *k != "toolSpec").map(|k| format!("`{k}`")).collect();
        let message = format!(
            "a Bedrock tool holds one member (Bedrock refuses more); {} beside `toolSpec` left out",
            others.join(", ")
        );
        reading.diagnostics.push(source.at(Diagnostic::warning(codes::INPUT_INVALID, path.clone(), message)));
    }
    let spec_path = child(&path, "toolSpec");
    if let Some(tool) = read_tool(source, spec, &spec_path, &mut reading.diagnostics) {
        reading.add(tool, "tool name", child(&spec_path, "name"));
    }
}

/// The members of Bedrock's `Tool` union besides `toolSpec`: not functions, kept in place.
const OTHER_MEMBERS: [&str; 2] = ["cachePoint", "systemTool"];

const TOOL_KEYS: ToolKeys =
    ToolKeys { format: ID, what: "toolSpec", known: &["name", "description", "inputSchema", "strict"], quiet: &[] };

/// Whether `key` holds another function format's input schema: [`keep_unknown`] then names the
/// format the document looks like.
fn holds_foreign_schema(key: &str) -> bool {
    carry::INPUT_KEYS.iter().any(|(_, keys)| keys.contains(&key))
}

fn read_tool(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let map = tool_object(source, value, path, "toolSpec", diagnostics)?;
    let name = tool_name(source, map, path, "toolSpec", diagnostics)?;
    check_name(source, &name, NAME_RULES, "tool", "Bedrock", path, diagnostics);
    let mut kept = Kept::default();
    let mut tool = Tool::new(name);
    tool.description = optional_string(source, map, "description", path, &mut kept.keep, diagnostics);
    let at = child(path, "inputSchema");
    match map.get("inputSchema") {
        Some(Value::Object(union)) if union.get("json").is_some() => {
            let json_at = child(&at, "json");
            let extras = &mut kept.extras;
            tool.parameters =
                schema::read_input(source, &union["json"], DIALECT, &json_at, SCHEMA_KEY, extras, diagnostics);
            let others = without(union, "json");
            if !others.is_empty() {
                kept.extras.insert("inputSchemaUnion".into(), Value::Object(others));
            }
        }
        Some(other) => {
            // Bedrock refuses it; reading the tool without parameters would empty its schema.
            diagnostics.push(source.at(Diagnostic::error(
                codes::INPUT_INVALID,
                &at,
                "`inputSchema` must be `{\"json\": <JSON Schema>}` (a bare schema is MCP's `inputSchema`)",
            )));
            kept.keep.insert("inputSchema".into(), other.clone());
        }
        None => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                path,
                format!("tool `{}` has no `inputSchema` (Bedrock requires one)", tool.name),
            )));
            kept.extras.insert("noInputSchema".into(), true.into());
        }
    }
    read_strict(source, map, path, false, &mut kept, diagnostics);
    // Bedrock refuses a toolSpec with keys of its own (botocore checks them before sending):
    // kept, they would make every Bedrock output unusable, so they are left out, with a word.
    let unknown: Vec<&String> =
        map.keys().filter(|k| !TOOL_KEYS.known.contains(&k.as_str()) && !holds_foreign_schema(k)).collect();
    for key in &unknown {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_UNKNOWN_KEY,
            child(path, key),
            format!("unknown toolSpec key `{key}`: Bedrock refuses it; left out"),
        )));
    }
    let known;
    let map = if unknown.is_empty() {
        map
    } else {
        known = map.iter().filter(|(k, _)| !unknown.contains(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        &known
    };
    keep_unknown(source, map, &TOOL_KEYS, path, kept, &mut tool, diagnostics);
    Some(tool)
}
