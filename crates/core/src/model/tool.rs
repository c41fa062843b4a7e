//! One tool: its parameters, what it returns, and hints for whoever calls or shows it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Number;

use super::{Extras, HttpBinding, Icon, ParamLocation, Schema, is_false};

/// One tool (function, operation, prompt) the model can call. The parts most tools lack
/// (icon, output, model settings, display, confirmation, HTTP binding) are boxed, so a tool
/// without them stays small: a list of 100,000 tools holds 100,000 of these.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// Stable name, unique within the set.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Free-form notes about using the tool (SkyDeck `usage_notes`, Raycast tool `instructions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_notes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<Box<Icon>>,
    /// Input parameters, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Box<Output>>,
    /// A prompt template with `{{variable}}` placeholders (SkyDeck `model_prompt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_settings: Option<Box<ModelSettings>>,
    /// How a user interface shows a call (Gloodata `ui`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<Box<Display>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<Box<Confirmation>>,
    #[serde(default, skip_serializing_if = "Hints::is_empty")]
    pub hints: Hints,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<Box<HttpBinding>>,
    /// Arguments every call gets that the model never sees (an overlay's pinned parameters):
    /// the caller adds them; the names map says them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pinned: Vec<PinnedArgument>,
    #[serde(default, skip_serializing_if = "Extras::is_empty")]
    pub extras: Extras,
}

/// A parameter taken out of what the model sees, with the value every call gets.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PinnedArgument {
    pub name: String,
    /// Where an HTTP binding puts it, as the parameter it replaces said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<ParamLocation>,
    pub value: serde_json::Value,
}

/// One input parameter of a tool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    pub name: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// Where an HTTP binding puts it; `None` when the tool has no HTTP binding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<ParamLocation>,
    pub schema: Schema,
    #[serde(default, skip_serializing_if = "Extras::is_empty")]
    pub extras: Extras,
}
impl Tool {
    pub fn new(name: impl Into<String>) -> Self {
        Tool { name: name.into(), ..Tool::default() }
    }

    pub fn parameter(&self, name: &str) -> Option<&Parameter> {
        self.parameters.iter().find(|p| p.name == name)
    }
}

impl Parameter {
    pub fn new(name: impl Into<String>, schema: Schema) -> Self {
        Parameter { name: name.into(), schema, ..Parameter::default() }
    }
}

/// What a tool returns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Output {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// SkyDeck `expected_output.type`: `text`, `code`, `limited`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `JSON`, `XML`, `CSV`, … (SkyDeck `expected_output.format`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Programming language of code output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_values: Option<Vec<String>>,
    /// Media type of a structured result (OpenAPI response content type).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Schema>,
}

/// Settings for the model that runs a prompt template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelSettings {
    /// Model names the prompt was written for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frequency_penalty: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presence_penalty: Option<Number>,
}

/// Display hints: a tile shows `prefix arg1 arg2 … suffix`, each argument with its own
/// prefix and suffix, in the order of `args`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Display {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    /// Per-argument hints; the map's order is the display order.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub args: IndexMap<String, ArgDisplay>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ArgDisplay {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
}

/// Ask the user before running the tool (Raycast `confirmation`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Confirmation {
    /// The message shown, when it is a literal in the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Rows of extra information: name → value (a literal, or absent when computed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info: Vec<ConfirmationInfo>,
    /// `destructive` or `regular`, when the source said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfirmationInfo {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// Side-effect hints (MCP annotations, Raycast destructive confirmations, HTTP method semantics).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hints {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl Hints {
    pub fn is_empty(&self) -> bool {
        *self == Hints::default()
    }
}
