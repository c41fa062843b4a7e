//! The canonical model: a union of what every format can say about a set of LLM tools.
//!
//! Its JSON form (what `convert inspect` prints and what crosses the plugin ABI) is versioned by
//! [`MODEL_SCHEMA_MAJOR`].[`MODEL_SCHEMA_MINOR`]. Empty and absent fields are omitted, so the
//! JSON stays readable. Anything only one format can say lives in an [`Extras`] map under that
//! format's id, so that reading and writing the same format gives back the same document.
//!
//! The types accept fields they do not know (a newer minor may add optional fields) and ignore
//! them when decoded with plain serde; decoded through the plugin SDK
//! (`toolport_plugin::abi::decode_model`), such fields are kept under
//! `extras["toolport-unknown"]` ([`UNKNOWN_FIELDS`]) and reported.
//!
//! The types, by level:
//!
//! - here: the [`ToolSet`], its [`VersionedToolSet`] envelope and the schema versions;
//! - `metadata`: what describes a set or a tool ([`Version`], [`Creator`], [`Icon`], [`Timestamps`]);
//! - `http`: how tools are reached over HTTP ([`Server`], [`Auth`], [`ParamLocation`], [`HttpBinding`]);
//! - `tool`: one [`Tool`], its [`Parameter`]s, [`Output`] and hints for callers and user interfaces;
//! - `schema`: the JSON-Schema subset parameters are described in ([`Schema`]), and [`ValueSet`]s;
//! - `example`: example prompts and evals ([`Example`], [`Expectation`], [`Matcher`]).

mod boxed;
mod constraints;
mod example;
mod extras;
mod http;
mod metadata;
mod schema;
mod schema_at;
mod tool;

pub use boxed::{BoxedUntilSet, Unset};
pub use constraints::{ConstraintFields, Constraints};
pub use example::{Example, Expectation, Matcher, ToolCall};
pub use extras::{Extras, ExtrasMap};
pub use http::{Auth, AuthKind, HttpBinding, ParamLocation, Server};
pub use metadata::{Creator, Icon, Timestamps, Version};
pub use schema::{AdditionalProperties, EnumValue, Property, Schema, SchemaType, ValueSet};
pub use schema_at::SchemaAt;
pub use tool::{
    ArgDisplay, Confirmation, ConfirmationInfo, Display, Hints, ModelSettings, Output, Parameter, PinnedArgument, Tool,
};

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Major version of the model's JSON form: changes only when a model written by one side
/// cannot be read by the other (a field removed, renamed or given another meaning, a new
/// variant of an enum such as [`SchemaType`] or [`Expectation`]). A host refuses a plugin built
/// for another major at load time, naming both versions.
pub const MODEL_SCHEMA_MAJOR: u32 = 1;

/// Minor version of the model's JSON form: bumped when optional fields are added (with a
/// default, left out when empty). Readers of an older minor keep the fields they do not know
/// under [`UNKNOWN_FIELDS`] and report them; readers of a newer minor find the fields absent.
///
/// - 1.0: the first released form (with `definitions` and `reference`); unknown fields refused.
/// - 1.1: `schema_minor` in [`VersionedToolSet`]; unknown fields kept, not refused.
/// - 1.2: [`Tool::pinned`], arguments a curation overlay pinned.
pub const MODEL_SCHEMA_MINOR: u32 = 2;

/// The [`ToolSet::extras`] key under which a reader keeps model fields it does not know (sent by
/// a peer built for a newer minor): an object mapping each field's JSON pointer in the tool
/// set, as received (`/tools/0/deprecated`), to its value.
pub const UNKNOWN_FIELDS: &str = "toolport-unknown";

fn is_false(b: &bool) -> bool {
    !*b
}

/// A set of tools: one extension, one API, one prompt file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolSet {
    /// Stable identifier: Gloodata `ns`, Raycast `name`, Vertex manifest `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Instructions for the model about the whole set (Raycast `ai.instructions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<Version>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator: Option<Creator>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<Icon>,
    #[serde(default, skip_serializing_if = "Timestamps::is_empty")]
    pub timestamps: Timestamps,
    /// Where the tools are served (OpenAPI `servers`). Order matters: the first is the default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<Server>,
    /// How callers authenticate (Vertex `authConfig`, OpenAPI security schemes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auth: Vec<Auth>,
    /// Parameter values applied to every call unless overridden (Vertex `runtimeConfig.defaultParams`).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub runtime_defaults: IndexMap<String, Value>,
    /// Named sets of values, referenced by [`Schema::value_set`] (Gloodata `tagValues`).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub value_sets: IndexMap<String, ValueSet>,
    /// Named schemas, referenced by [`Schema::reference`] (OpenAPI `components.schemas`,
    /// JSON Schema `$defs`). Helpers to follow and inline them: [`crate::definitions`].
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub definitions: IndexMap<String, Schema>,
    /// The tools, in the source's order.
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// Example prompts and evals (Raycast `ai.evals`, Vertex `toolUseExamples`, Gloodata tool examples).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    #[serde(default, skip_serializing_if = "Extras::is_empty")]
    pub extras: Extras,
}

/// The model's JSON form with its schema version, as printed by `convert inspect` and sent
/// across the plugin ABI.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VersionedToolSet {
    /// The major version ([`MODEL_SCHEMA_MAJOR`] of the writer).
    pub schema_version: u32,
    /// The minor version ([`MODEL_SCHEMA_MINOR`] of the writer); absent (0) from 1.0 writers,
    /// and left out for 1.0 readers, which refuse fields they do not know.
    #[serde(default)]
    pub schema_minor: u32,
    pub tool_set: ToolSet,
}

impl ToolSet {
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// Each tool's index by name, the first of a name as [`ToolSet::tool`] finds it: for
    /// writers that look a tool up per example or call, which a search of the tools each
    /// time would make quadratic.
    pub fn tool_indices(&self) -> HashMap<&str, usize> {
        let mut indices = HashMap::with_capacity(self.tools.len());
        for (index, tool) in self.tools.iter().enumerate() {
            indices.entry(tool.name.as_str()).or_insert(index);
        }
        indices
    }

    /// A copy in the versioned form of this model's schema version.
    pub fn versioned(&self) -> VersionedToolSet {
        self.clone().into_versioned()
    }

    /// This model in the versioned form of this model's schema version, without a copy.
    pub fn into_versioned(self) -> VersionedToolSet {
        VersionedToolSet { schema_version: MODEL_SCHEMA_MAJOR, schema_minor: MODEL_SCHEMA_MINOR, tool_set: self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The hand-written decoders read what the derived encoders write, and refuse what the
    /// derived decoders refused.
    #[test]
    fn icons_and_additional_properties_round_trip() {
        let icons = [
            Icon::Url { url: "https://x/i.png".into() },
            Icon::Base64 { data: "AAA=".into(), media_type: Some("image/png".into()) },
            Icon::Base64 { data: "AAA=".into(), media_type: None },
            Icon::Path { path: "assets/icon.png".into() },
        ];
        for icon in icons {
            let json = serde_json::to_value(&icon).unwrap();
            assert_eq!(serde_json::from_value::<Icon>(json).unwrap(), icon);
        }
        let schemas = [
            AdditionalProperties::Allowed(false),
            AdditionalProperties::Allowed(true),
            AdditionalProperties::Schema(Box::new(Schema::of(SchemaType::String))),
        ];
        for extra in schemas {
            let json = serde_json::to_value(&extra).unwrap();
            assert_eq!(serde_json::from_value::<AdditionalProperties>(json).unwrap(), extra);
        }
        for (bad, says) in [
            (json!({"url": "x"}), "missing field `kind`"),
            (json!({"kind": "gif", "url": "x"}), "unknown variant `gif`"),
            (json!({"kind": "url", "url": "x", "path": "y"}), "unknown field `path`"),
            (json!({"kind": "url"}), "missing field `url`"),
        ] {
            let text = bad.to_string();
            let err = serde_json::from_str::<Icon>(&text).unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
        let twice = serde_json::from_str::<Icon>(r#"{"kind": "url", "url": "x", "kind": "url"}"#).unwrap_err();
        assert!(twice.to_string().contains("duplicate field `kind`"), "{twice}");
        assert!(serde_json::from_value::<AdditionalProperties>(json!(3)).is_err());
    }

    /// A model of many small tools is mostly these three: what most tools lack is boxed, and
    /// this keeps them from growing back (a field added inline costs every tool or schema).
    #[test]
    fn tools_parameters_and_schemas_stay_small() {
        use std::mem::size_of;
        let sizes = (size_of::<Tool>(), size_of::<Parameter>(), size_of::<Schema>());
        // Tool was 1,400 bytes before its rarely set parts were boxed, Parameter 648 and
        // Schema 544 before their extras, constraints and default were.
        assert!(sizes.0 <= 232, "Tool is {} bytes", sizes.0);
        assert!(sizes.1 <= 336, "Parameter is {} bytes", sizes.1);
        assert!(sizes.2 <= 296, "Schema is {} bytes", sizes.2);
    }

    #[test]
    fn the_envelope_of_a_1_0_writer_reads_as_minor_0() {
        let old: VersionedToolSet = serde_json::from_value(json!({"schema_version": 1, "tool_set": {}})).unwrap();
        assert_eq!((old.schema_version, old.schema_minor), (1, 0));
        let new = serde_json::to_value(ToolSet::default().into_versioned()).unwrap();
        assert_eq!(
            new,
            json!({"schema_version": MODEL_SCHEMA_MAJOR, "schema_minor": MODEL_SCHEMA_MINOR, "tool_set": {"tools": []}})
        );
    }
}
