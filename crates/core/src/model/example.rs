//! Example prompts and evals: what a user says and what should happen.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Extras, is_false};

/// An example prompt or eval: what a user says and what should happen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Example {
    /// Short name (Vertex `displayName`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The user's prompt (Raycast `input`, Vertex `query`, a Gloodata tool example).
    pub prompt: String,
    /// Pretend results of tool calls: tool name → value (Raycast `mocks`).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub mocks: IndexMap<String, Value>,
    /// What must hold, all of it. Expected tool calls are [`Expectation::CallsTool`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<Expectation>,
    /// The tool's response in this example (Vertex `responseParams`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<Value>,
    /// Summary of the response given to the user (Vertex `responseSummary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_summary: Option<String>,
    /// Whether a UI may suggest this prompt (Raycast `usedAsExample`; absent = format default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_as_example: Option<bool>,
    #[serde(default, skip_serializing_if = "Extras::is_empty")]
    pub extras: Extras,
}

impl Example {
    /// The tools this example expects to be called, in order (top-level `callsTool` only).
    pub fn called_tools(&self) -> impl Iterator<Item = &ToolCall> {
        self.expected.iter().filter_map(|e| match e {
            Expectation::CallsTool(call) => Some(call),
            _ => None,
        })
    }
}

/// A check on the model's response or behaviour (Raycast eval expectations).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expectation {
    /// The response contains the text (case-insensitive).
    Includes(String),
    /// The response matches the regular expression.
    Matches(String),
    /// The response meets a criterion judged by a model.
    MeetsCriteria(String),
    CallsTool(ToolCall),
    Not(Box<Expectation>),
    Or(Vec<Expectation>),
    And(Vec<Expectation>),
}

/// An expected tool call. `arguments: None` means any arguments.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub tool: String,
    /// Argument name (dotted for nested: `user.name`) → what its value must satisfy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<IndexMap<String, Matcher>>,
    /// Written in the long form even without arguments (`{"name": …}` rather than a bare name).
    #[serde(default, skip_serializing_if = "is_false")]
    pub long_form: bool,
}

/// A matcher for one argument value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Matcher {
    /// Equal to the value. `explicit` records that the source wrote `{"eq": …}` rather than a
    /// bare value, so a same-format round trip is exact.
    Eq {
        value: Value,
        #[serde(default, skip_serializing_if = "is_false")]
        explicit: bool,
    },
    Includes(Value),
    Matches(String),
    /// All must hold. `explicit`: written `{"and": […]}` rather than as a bare array.
    And {
        all: Vec<Matcher>,
        #[serde(default, skip_serializing_if = "is_false")]
        explicit: bool,
    },
    Or(Vec<Matcher>),
    Not(Box<Matcher>),
}

impl Matcher {
    /// The plain value this matcher pins, if it is a simple equality.
    pub fn as_eq(&self) -> Option<&Value> {
        match self {
            Matcher::Eq { value, .. } => Some(value),
            _ => None,
        }
    }

    pub fn eq(value: impl Into<Value>) -> Self {
        Matcher::Eq { value: value.into(), explicit: false }
    }
}
