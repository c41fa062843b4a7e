//! `tools` (or `functions`): each tool's title, description, schema, display hints, example
//! prompts and context actions.

use serde_json::{Map, Value};
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::child;
use toolport_plugin::{Example, Expectation, Severity, Tool, ToolCall, ToolSet, codes};

use super::Reader;
use super::residue::Residue;
use super::value_sets::ValueSetIndex;

impl Reader<'_> {
    pub(super) fn read_tools(
        &mut self,
        key: &str,
        value: &Value,
        ns: Option<&str>,
        index: &ValueSetIndex,
        set: &mut ToolSet,
        residue: &mut Residue,
    ) {
        let path = child("", key);
        let Value::Object(tools) = value else {
            self.wrong_type(&path, key, "an object keyed by tool id", value, residue);
            return;
        };
        for (name, tool) in tools {
            let tool_path = child(&path, name);
            let Value::Object(tool) = tool else {
                self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    &tool_path,
                    format!("tool `{name}` should be an object, found {}; kept as written", kind_of(tool)),
                );
                residue.keep_in(key, name, tool.clone());
                continue;
            };
            let (tool, prompts) = self.read_tool(&tool_path, name, tool, ns, index);
            set.examples.extend(prompts.into_iter().map(|prompt| Example {
                prompt,
                expected: vec![Expectation::CallsTool(ToolCall { tool: name.clone(), ..ToolCall::default() })],
                ..Example::default()
            }));
            set.tools.push(tool);
        }
    }

    /// A tool and its example prompts.
    fn read_tool(
        &mut self,
        path: &str,
        name: &str,
        object: &Map<String, Value>,
        ns: Option<&str>,
        index: &ValueSetIndex,
    ) -> (Tool, Vec<String>) {
        let mut tool = Tool::new(name);
        let mut residue = Residue::default();
        let mut prompts = Vec::new();
        for (key, value) in object {
            let path = child(path, key);
            match key.as_str() {
                "title" => tool.title = self.string(&path, key, value, &mut residue),
                "description" => tool.description = self.nullable_string(&path, key, value, &mut residue),
                "examples" => prompts = self.read_examples(&path, value, &mut residue),
                "schema" => self.read_schema(&path, value, &mut tool, &mut residue),
                "ui" => {}
                "contextActions" => {
                    self.check_context_actions(&path, value);
                    residue.keep(key, value);
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        // After the schema, so `dtypeName` can reach the fields.
        if let Some(ui) = object.get("ui") {
            self.read_ui(&child(path, "ui"), ui, &mut tool, ns, index, &mut residue);
        }
        for key in ["title", "schema", "ui", "examples"] {
            if !object.contains_key(key) {
                residue.absent.push(key.into());
            }
        }
        residue.store(&mut tool.extras);
        (tool, prompts)
    }

    fn check_context_actions(&mut self, path: &str, value: &Value) {
        let Value::Array(actions) = value else {
            self.report(
                Severity::Warning,
                codes::INPUT_INVALID,
                path,
                format!("`contextActions` should be a list, found {}; kept as written", kind_of(value)),
            );
            return;
        };
        for (i, action) in actions.iter().enumerate() {
            // `{target: {name}, handler}` now, `{for: {name[, ns]}, handler[, info]}` before.
            let named = |key: &str| action.get(key).and_then(|t| t.get("name")).is_some_and(Value::is_string);
            let valid = action.get("handler").is_some_and(Value::is_string) && (named("target") || named("for"));
            if !valid {
                self.report(
                    Severity::Warning,
                    codes::INPUT_INVALID,
                    &child(path, i.to_string()),
                    "a context action should be {target: {name}, handler} or {for: {name}, handler}; kept as written"
                        .into(),
                );
            }
        }
    }
}
