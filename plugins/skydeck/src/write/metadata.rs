//! `metadata`: prompt name, description, usage notes, model version, creator, model
//! parameters, variables, expected output, avatar and timestamp, then the keys kept as written.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Creator, ModelSettings, Output, Tool};

use super::{Writer, flag, kept_map};
use crate::kept;

impl Writer<'_> {
    pub(super) fn metadata(
        &mut self,
        tool: &Tool,
        prompt_name: Option<&str>,
        own: &Map<String, Value>,
        empty: &[&str],
        path: &str,
    ) -> Map<String, Value> {
        let model = self.model;
        let mut metadata = Map::new();
        if let Some(prompt_name) = prompt_name {
            metadata.insert("prompt_name".into(), prompt_name.into());
        }
        if let Some(description) = &tool.description {
            metadata.insert("description".into(), description.clone().into());
        }
        if let Some(notes) = &tool.usage_notes {
            metadata.insert("usage_notes".into(), notes.clone().into());
        }
        let settings = tool.model_settings.clone().unwrap_or_default();
        model_version(&settings, own, &mut metadata);
        creator(model.creator.as_ref(), own, &mut metadata);
        model_parameters(&settings, own, empty, &mut metadata);
        let variables = self.variables(tool, path);
        if !variables.is_empty() || empty.contains(&"variables") {
            metadata.insert("variables".into(), Value::Array(variables));
        }
        if let Some(output) = &tool.output {
            let written = self.output(output, own, path);
            // `{}` only when the source itself had an empty expected_output.
            if !written.is_empty() || **output == Output::default() {
                metadata.insert("expected_output".into(), Value::Object(written));
            }
        }
        let icon = match &tool.icon {
            Some(icon) => Some(&**icon),
            None => {
                self.set_icon_used |= model.icon.is_some();
                model.icon.as_ref()
            }
        };
        if let Some(icon) = icon {
            let icon_path = if tool.icon.is_some() { child(path, "icon") } else { "/icon".to_owned() };
            self.avatar(icon, own, &icon_path, &mut metadata);
        }
        if let Some(timestamp) = model.timestamps.updated.as_ref().or(model.timestamps.created.as_ref()) {
            metadata.insert("timestamp".into(), timestamp.clone().into());
        }
        metadata.extend(kept_map(own, kept::METADATA));
        metadata
    }
}

/// The `prompt_name` a tool asks for: its title, else its name (SkyDeck names a tool after
/// its title). A blank title is no title, as SkyDeck's reader takes it (it names the tool
/// after the file), unless the SkyDeck file the tool came from had it blank; none only when that
/// file had no `prompt_name`.
pub(super) fn prompt_name<'t>(tool: &'t Tool, own: &Map<String, Value>) -> Option<&'t str> {
    let title = tool.title.as_deref().filter(|t| !t.trim().is_empty() || flag(own, kept::BLANK_PROMPT_NAME));
    match title {
        Some(title) => Some(title),
        None if flag(own, kept::NO_PROMPT_NAME) => None,
        None => Some(&tool.name),
    }
}

/// `model_version`: an array of model names, or one string when the source wrote one.
fn model_version(settings: &ModelSettings, own: &Map<String, Value>, metadata: &mut Map<String, Value>) {
    let form = own.get(kept::MODEL_VERSION_FORM).and_then(Value::as_str);
    match (settings.models.as_slice(), form) {
        ([model_name], Some("string")) => {
            metadata.insert("model_version".into(), model_name.clone().into());
        }
        ([], Some("array")) => {
            metadata.insert("model_version".into(), Value::Array(Vec::new()));
        }
        ([], _) => {}
        (models, _) => {
            metadata.insert("model_version".into(), models.iter().cloned().map(Value::from).collect());
        }
    }
}

fn creator(creator: Option<&Creator>, own: &Map<String, Value>, metadata: &mut Map<String, Value>) {
    let kept_creator = kept_map(own, kept::CREATOR);
    if creator.is_some() || !kept_creator.is_empty() {
        let creator = creator.cloned().unwrap_or_default();
        let mut out = Map::new();
        for (key, value) in [("name", creator.name), ("email", creator.email), ("organization", creator.organization)] {
            if let Some(value) = value {
                out.insert(key.into(), value.into());
            }
        }
        out.extend(kept_creator);
        metadata.insert("creator".into(), Value::Object(out));
    }
}

/// `parameters`: the model settings SkyDeck has (temperature, max_tokens, top_p, penalties).
fn model_parameters(
    settings: &ModelSettings,
    own: &Map<String, Value>,
    empty: &[&str],
    metadata: &mut Map<String, Value>,
) {
    let mut parameters = Map::new();
    for (key, value) in [
        ("temperature", settings.temperature.clone()),
        ("max_tokens", settings.max_tokens.map(Into::into)),
        ("top_p", settings.top_p.clone()),
        ("frequency_penalty", settings.frequency_penalty.clone()),
        ("presence_penalty", settings.presence_penalty.clone()),
    ] {
        if let Some(value) = value {
            parameters.insert(key.into(), Value::Number(value));
        }
    }
    parameters.extend(kept_map(own, kept::PARAMETERS));
    if !parameters.is_empty() || empty.contains(&"parameters") {
        metadata.insert("parameters".into(), Value::Object(parameters));
    }
}
