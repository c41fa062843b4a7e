//! Reading Anthropic tools into the model, mirrored by [`crate::write`]: `input_examples`
//! become examples ([`crate::examples`]); the document's shape, `strict`, `cache_control`,
//! unknown keys and schemas the model cannot reproduce are kept under `extras["anthropic"]`.

use serde_json::Value;
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::read::{
    Kept, ToolKeys, check_name, keep_unknown, optional_string, read_strict, read_tool_list, tool_name, tool_object,
};
use toolport_plugin::function_tools::schema;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Example, Outcome, Tool, ToolSet, codes};

use crate::examples::example_of;
use crate::{DIALECT, ID, NAME_RULES};

/// The tools of an Anthropic document: an array of tools, `{"tools": [...]}`, or one tool.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    read_tool_list(
        source,
        ID,
        |map| map.contains_key("name"),
        "expected Anthropic tools: an array of tools, {\"tools\": [...]}, or one tool",
        |reading, item, _, path| {
            if let Some((tool, examples)) = read_tool(source, item, &path, &mut reading.diagnostics) {
                reading.add(tool, "tool name", child(&path, "name"));
                reading.model.examples.extend(examples);
            }
        },
    )
}

/// `cache_control` is Anthropic's own: kept for an Anthropic output, without a word.
const TOOL_KEYS: ToolKeys = ToolKeys {
    format: ID,
    what: "tool",
    known: &["name", "description", "input_schema", "input_examples", "strict", "cache_control"],
    quiet: &["cache_control"],
};

fn read_tool(
    source: &Source,
    value: &Value,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Tool, Vec<Example>)> {
    let map = tool_object(source, value, path, "tool", diagnostics)?;
    let name = tool_name(source, map, path, "tool", diagnostics)?;
    check_name(source, &name, NAME_RULES, "tool", "Anthropic", path, diagnostics);
    let mut kept = Kept::default();
    let mut tool = Tool::new(name);
    tool.description = optional_string(source, map, "description", path, &mut kept.keep, diagnostics);
    let extras = &mut kept.extras;
    match map.get("input_schema") {
        Some(input) => {
            let at = child(path, "input_schema");
            tool.parameters = schema::read_input(source, input, DIALECT, &at, "input_schema", extras, diagnostics);
        }
        None => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                path,
                format!("tool `{}` has no `input_schema` (Anthropic requires one)", tool.name),
            )));
            extras.insert("noInputSchema".into(), true.into());
        }
    }
    let mut examples = Vec::new();
    match map.get("input_examples") {
        Some(Value::Array(items)) if items.iter().all(Value::is_object) => {
            if items.is_empty() {
                extras.insert("emptyInputExamples".into(), true.into());
            }
            examples = items.iter().filter_map(Value::as_object).map(|args| example_of(&tool.name, args)).collect();
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "input_examples"),
                "`input_examples` should be an array of argument objects; kept as written",
            )));
            kept.keep.insert("input_examples".into(), other.clone());
        }
        None => {}
    }
    read_strict(source, map, path, false, &mut kept, diagnostics);
    keep_unknown(source, map, &TOOL_KEYS, path, kept, &mut tool, diagnostics);
    Some((tool, examples))
}
