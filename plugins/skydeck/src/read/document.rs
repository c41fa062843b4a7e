//! The file as a tool set of one tool: `version` and `model_prompt`, the tool's name, then
//! what was kept of the top level.

use serde_json::{Map, Value};
use toolport_plugin::{ModelSettings, Severity, Tool, ToolSet, Version, codes};

use super::{Kept, Reader};
use crate::{FORMAT_ID, kept, tool_name};

impl Reader<'_> {
    /// The whole document; `metadata` is read by its own part.
    pub(super) fn document(&mut self, root: &Map<String, Value>) -> ToolSet {
        let mut set = ToolSet::default();
        let mut tool = Tool::default();
        let mut own = Map::new();
        let mut kept_top = Kept::new();
        let mut empty: Vec<Value> = Vec::new();

        for (key, value) in root {
            match (key.as_str(), value) {
                ("version", Value::String(text)) => set.version = Some(Version::Text(text.clone())),
                ("version", Value::Number(n)) if n.is_i64() => {
                    set.version = Some(Version::Integer(n.as_i64().unwrap_or_default()))
                }
                ("version", _) => {
                    self.invalid(Severity::Warning, &mut kept_top, "", key, value, "a string or an integer")
                }
                ("model_prompt", Value::String(text)) => tool.prompt = Some(text.clone()),
                ("model_prompt", _) => self.invalid(Severity::Error, &mut kept_top, "", key, value, "a string"),
                ("metadata", Value::Object(_)) => {}
                ("metadata", _) => self.invalid(Severity::Error, &mut kept_top, "", key, value, "an object"),
                _ => self.unknown_key(&mut kept_top, "", key, value),
            }
        }
        if !root.contains_key("model_prompt") {
            self.report(Severity::Warning, codes::INPUT_INVALID, "", "the file has no `model_prompt`");
        }

        let metadata = root.get("metadata").and_then(Value::as_object);
        let title = metadata.and_then(|m| m.get("prompt_name")).and_then(Value::as_str);
        tool.name = tool_name(title, self.file);
        if let Some(metadata) = metadata {
            self.metadata(metadata, &mut set, &mut tool, &mut own, &mut empty);
        } else {
            own.insert(kept::NO_PROMPT_NAME.into(), Value::Bool(true));
        }
        if tool.model_settings.as_ref().is_some_and(|m| **m == ModelSettings::default()) {
            tool.model_settings = None;
        }
        self.check_placeholders(&tool);

        if !kept_top.is_empty() {
            own.insert(kept::TOP.into(), Value::Object(kept_top));
        }
        if !empty.is_empty() {
            own.insert(kept::EMPTY.into(), Value::Array(empty));
        }
        if !own.is_empty() {
            tool.extras.insert(FORMAT_ID.into(), Value::Object(own));
        }
        set.tools.push(tool);
        set
    }
}
