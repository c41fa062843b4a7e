//! One tool's file: `version`, `model_prompt`, `metadata`, then the top-level keys kept as
//! written.

use serde_json::{Map, Value};
use toolport_plugin::Tool;

use super::{Writer, kept_map, own_extras};
use crate::kept;

impl Writer<'_> {
    /// `prompt_name`: the one [`Writer::prompt_names`] chose for the tool.
    pub(super) fn tool_document(&mut self, tool: &Tool, prompt_name: Option<&str>, path: &str) -> Map<String, Value> {
        let model = self.model;
        let own = own_extras(tool);
        let empty: Vec<&str> =
            own.get(kept::EMPTY).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let kept_top = kept_map(&own, kept::TOP);

        let mut top = Map::new();
        if let Some(version) = &model.version {
            top.insert("version".into(), serde_json::to_value(version).unwrap_or_default());
        }
        if let Some(prompt) = self.model_prompt(tool, &own, &kept_top, path) {
            top.insert("model_prompt".into(), prompt.into());
        }
        let metadata = self.metadata(tool, prompt_name, &own, &empty, path);
        if !metadata.is_empty() || empty.contains(&"metadata") {
            top.insert("metadata".into(), Value::Object(metadata));
        }
        top.extend(kept_top);
        top
    }
}
