//! `metadata`: prompt name, description, usage notes, model version and parameters, creator,
//! timestamp; variables, expected output and avatar are read by their own parts.

use serde_json::{Map, Value};
use toolport_plugin::{Creator, Severity, Tool, ToolSet};

use super::{Kept, Reader};
use crate::kept;

impl Reader<'_> {
    pub(super) fn metadata(
        &mut self,
        metadata: &Map<String, Value>,
        set: &mut ToolSet,
        tool: &mut Tool,
        own: &mut Kept,
        empty: &mut Vec<Value>,
    ) {
        if metadata.is_empty() {
            empty.push("metadata".into());
        }
        if !metadata.contains_key("prompt_name") {
            own.insert(kept::NO_PROMPT_NAME.into(), Value::Bool(true));
        }
        let mut kept_metadata = Kept::new();
        let path = "/metadata";
        for (key, value) in metadata {
            match (key.as_str(), value) {
                ("prompt_name", Value::String(text)) => {
                    if text.trim().is_empty() {
                        own.insert(kept::BLANK_PROMPT_NAME.into(), Value::Bool(true));
                    }
                    tool.title = Some(text.clone());
                }
                ("description", Value::String(text)) => tool.description = Some(text.clone()),
                ("usage_notes", Value::String(text)) => tool.usage_notes = Some(text.clone()),
                ("prompt_name" | "description" | "usage_notes", _) => {
                    self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "a string")
                }
                ("model_version", _) => {
                    self.model_version(value, tool, own, &mut kept_metadata);
                }
                ("creator", Value::Object(creator)) => {
                    set.creator = Some(self.creator(creator, own));
                }
                ("creator", _) => self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an object"),
                ("parameters", Value::Object(parameters)) => {
                    if parameters.is_empty() {
                        empty.push("parameters".into());
                    }
                    self.model_parameters(parameters, tool, own);
                }
                ("parameters", _) => self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an object"),
                ("variables", Value::Array(variables)) => {
                    if variables.is_empty() {
                        empty.push("variables".into());
                    }
                    self.variables(variables, path, tool);
                }
                ("variables", _) => self.invalid(Severity::Error, &mut kept_metadata, path, key, value, "an array"),
                ("expected_output", Value::Object(output)) => {
                    tool.output = Some(Box::new(self.expected_output(output, own)));
                }
                ("expected_output", _) => {
                    self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an object")
                }
                ("avatar" | "avatar_type", _) => {}
                ("timestamp", Value::String(text)) => set.timestamps.updated = Some(text.clone()),
                ("timestamp", _) => {
                    self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an ISO 8601 string")
                }
                _ => self.unknown_key(&mut kept_metadata, path, key, value),
            }
        }
        set.icon = self.avatar(metadata, own, &mut kept_metadata);
        if !kept_metadata.is_empty() {
            own.insert(kept::METADATA.into(), Value::Object(kept_metadata));
        }
    }

    fn model_version(&mut self, value: &Value, tool: &mut Tool, own: &mut Kept, kept: &mut Kept) {
        let models: Option<Vec<String>> = match value {
            Value::String(model) => {
                own.insert(kept::MODEL_VERSION_FORM.into(), "string".into());
                Some(vec![model.clone()])
            }
            Value::Array(items) => {
                if items.is_empty() {
                    own.insert(kept::MODEL_VERSION_FORM.into(), "array".into());
                }
                items.iter().map(|m| m.as_str().map(str::to_owned)).collect()
            }
            _ => None,
        };
        match models {
            Some(models) => tool.model_settings.get_or_insert_default().models = models,
            None => self.invalid(
                Severity::Warning,
                kept,
                "/metadata",
                "model_version",
                value,
                "a model name or an array of model names",
            ),
        }
    }

    fn creator(&mut self, creator: &Map<String, Value>, own: &mut Kept) -> Creator {
        let path = "/metadata/creator";
        let mut out = Creator::default();
        let mut kept_creator = Kept::new();
        for (key, value) in creator {
            let slot = match key.as_str() {
                "name" => &mut out.name,
                "email" => &mut out.email,
                "organization" => &mut out.organization,
                _ => {
                    self.unknown_key(&mut kept_creator, path, key, value);
                    continue;
                }
            };
            match value {
                Value::String(text) => *slot = Some(text.clone()),
                _ => self.invalid(Severity::Warning, &mut kept_creator, path, key, value, "a string"),
            }
        }
        if !kept_creator.is_empty() {
            own.insert(kept::CREATOR.into(), Value::Object(kept_creator));
        }
        out
    }

    fn model_parameters(&mut self, parameters: &Map<String, Value>, tool: &mut Tool, own: &mut Kept) {
        let path = "/metadata/parameters";
        let settings = tool.model_settings.get_or_insert_default();
        let mut kept_parameters = Kept::new();
        for (key, value) in parameters {
            let number = value.as_number().cloned();
            match key.as_str() {
                "temperature" | "top_p" | "frequency_penalty" | "presence_penalty" => {
                    let slot = match key.as_str() {
                        "temperature" => &mut settings.temperature,
                        "top_p" => &mut settings.top_p,
                        "frequency_penalty" => &mut settings.frequency_penalty,
                        _ => &mut settings.presence_penalty,
                    };
                    match number {
                        Some(number) => *slot = Some(number),
                        None => self.invalid(Severity::Warning, &mut kept_parameters, path, key, value, "a number"),
                    }
                }
                "max_tokens" => match value.as_u64() {
                    Some(n) => settings.max_tokens = Some(n),
                    None => self.invalid(
                        Severity::Warning,
                        &mut kept_parameters,
                        path,
                        key,
                        value,
                        "a non-negative integer",
                    ),
                },
                _ => self.unknown_key(&mut kept_parameters, path, key, value),
            }
        }
        if !kept_parameters.is_empty() {
            own.insert(kept::PARAMETERS.into(), Value::Object(kept_parameters));
        }
    }
}
