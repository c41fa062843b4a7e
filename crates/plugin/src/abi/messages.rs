//! The JSON side: what `describe` says, the requests, the responses, and the model's envelope.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolport_core::{
    Bundle, Detection, MODEL_SCHEMA_MAJOR, MODEL_SCHEMA_MINOR, Options, Outcome, ToolSet, VersionedToolSet,
};

use super::{MajorMinor, decode_message};

/// What `describe` returns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PluginDescription {
    /// The plugin crate's name.
    pub name: String,
    pub version: String,
    /// The formats, indexed by the `format` argument of the calls.
    pub formats: Vec<toolport_core::FormatInfo>,
    /// What the plugin can do ([`features`](super::features)); empty for plugins built with SDK 1.0.
    #[serde(default)]
    pub features: Vec<String>,
    /// Since 1.3, with [`features::NATIVE_MODEL`](super::features::NATIVE_MODEL): the
    /// plugin's build fingerprint ([`native::fingerprint`](super::native::fingerprint)).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub build_fingerprint: String,
}

impl PluginDescription {
    pub fn has_feature(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }
}

// Requests. Each is one type for both sides: the host serializes it from borrowed data
// (`Cow::Borrowed`, `ModelJson::Decoded`/`Raw`), so no bundle or model is copied per call; the
// plugin deserializes it into owned data (`Cow::Owned`) or, for the model, JSON borrowed from
// the request that it decodes with `decode_model`. Fields a newer minor adds are optional and
// ignored by older plugins.

/// `detect`'s request.
#[derive(Debug, Serialize, Deserialize)]
pub struct DetectRequest<'a> {
    pub bundle: Cow<'a, Bundle>,
}

/// `read`'s request.
#[derive(Debug, Serialize, Deserialize)]
pub struct ReadRequest<'a> {
    pub bundle: Cow<'a, Bundle>,
    #[serde(default)]
    pub options: Cow<'a, Options>,
}

/// `write`'s request.
#[derive(Debug, Serialize, Deserialize)]
pub struct WriteRequest<'a> {
    #[serde(borrow)]
    pub model: ModelJson<'a>,
    #[serde(default)]
    pub options: Cow<'a, Options>,
}

/// The model in a request: the versioned envelope `{schema_version, schema_minor, tool_set}`.
#[derive(Debug, Clone, Copy)]
pub enum ModelJson<'a> {
    /// A model the host holds decoded, serialized as its envelope ([`VersionedRef`]).
    Decoded(VersionedRef<'a>),
    /// The envelope as JSON: a reader's response passed on undecoded by the host, or the model
    /// as a plugin received it (always this form when deserialized), to decode with
    /// [`decode_model`](super::decode_model).
    Raw(&'a RawValue),
}

impl ModelJson<'_> {
    /// The envelope's JSON, when it is held as JSON.
    pub fn raw(&self) -> Option<&RawValue> {
        match self {
            ModelJson::Raw(raw) => Some(raw),
            ModelJson::Decoded(_) => None,
        }
    }
}

impl Serialize for ModelJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ModelJson::Decoded(model) => model.serialize(serializer),
            ModelJson::Raw(raw) => raw.serialize(serializer),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ModelJson<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&'a RawValue>::deserialize(deserializer).map(ModelJson::Raw)
    }
}

/// The borrowed form of [`VersionedToolSet`] (its owned form, which [`decode_model`](super::decode_model) returns):
/// the same JSON, written from a model the host holds without copying it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct VersionedRef<'a> {
    pub schema_version: u32,
    /// Left out for plugins without
    /// [`features::MODEL_UNKNOWN_FIELDS`](super::features::MODEL_UNKNOWN_FIELDS), which refuse it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_minor: Option<u32>,
    pub tool_set: &'a ToolSet,
}

impl<'a> VersionedRef<'a> {
    /// `tool_set` in this SDK's model schema version; `with_minor: false` for SDK 1.0 readers.
    pub fn new(tool_set: &'a ToolSet, with_minor: bool) -> Self {
        VersionedRef {
            schema_version: MODEL_SCHEMA_MAJOR,
            schema_minor: with_minor.then_some(MODEL_SCHEMA_MINOR),
            tool_set,
        }
    }
}

// Responses: `describe` → `Outcome<PluginDescription>`, `detect` → `Outcome<Detection>`,
// `read` → `Outcome<VersionedToolSet>` (the host may keep the model as JSON,
// `Outcome<Box<RawValue>>`, and read only its [`ModelVersion`]), `write` → `Outcome<Bundle>`.

pub type DescribeResponse = Outcome<PluginDescription>;
pub type DetectResponse = Outcome<Detection>;
pub type ReadResponse = Outcome<VersionedToolSet>;
pub type WriteResponse = Outcome<Bundle>;

/// The version fields of a model's envelope, read without decoding the model.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct ModelVersion {
    pub schema_version: u32,
    #[serde(default)]
    pub schema_minor: u32,
}

impl ModelVersion {
    pub fn version(self) -> MajorMinor {
        MajorMinor { major: self.schema_version, minor: self.schema_minor }
    }

    /// The versions of a model's JSON, from its leading keys when it starts the way this SDK
    /// writes it (`{"schema_version":1,"schema_minor":1,`): a model is megabytes, and its
    /// version is all the host needs to look at. Anything else is decoded in full.
    pub fn of(model_json: &str) -> Result<ModelVersion, serde_json::Error> {
        fn number(text: &str) -> Option<(u32, &str)> {
            let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
            Some((text[..end].parse().ok()?, &text[end..]))
        }
        let leading = model_json.strip_prefix("{\"schema_version\":").and_then(number).and_then(|(major, rest)| {
            let (minor, rest) = match rest.strip_prefix(",\"schema_minor\":") {
                Some(rest) => number(rest)?,
                None => (0, rest),
            };
            rest.starts_with(',').then_some(ModelVersion { schema_version: major, schema_minor: minor })
        });
        match leading {
            Some(version) => Ok(version),
            None => decode_message(model_json.as_bytes()),
        }
    }
}
