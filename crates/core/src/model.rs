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

use indexmap::IndexMap;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

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
pub const MODEL_SCHEMA_MINOR: u32 = 1;

/// The [`ToolSet::extras`] key under which a reader keeps model fields it does not know (sent by
/// a peer built for a newer minor): an object mapping each field's JSON pointer in the tool
/// set, as received (`/tools/0/deprecated`), to its value.
pub const UNKNOWN_FIELDS: &str = "toolport-unknown";

/// Format-specific data that has no canonical home, keyed by format id
/// (`"gloodata"`, `"vertex"`, …). A writer reads only its own key; other writers report the
/// presence of foreign keys as loss (see [`crate::diagnostic::codes::LOSS_EXTRAS`]).
pub type Extras = IndexMap<String, Value>;

fn is_false(b: &bool) -> bool {
    !*b
}

/// Deserialize a present JSON `null` as `Some(Value::Null)` (serde's default maps it to
/// `None`), so an explicit `"default": null` survives a trip through the model's JSON form.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
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
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub extras: Extras,
}

/// A version as the source wrote it: SkyDeck allows a string or an integer and we keep which.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Version {
    Integer(i64),
    Text(String),
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Version::Integer(n) => write!(f, "{n}"),
            Version::Text(s) => f.write_str(s),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Creator {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An icon or avatar. Raycast uses relative paths, SkyDeck a URL or base64 data.
///
/// Decoded by hand rather than as serde's internally tagged enum, which buffers the object and
/// would hide unknown fields inside it from the SDK's decoder.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Icon {
    Url {
        url: String,
    },
    /// Inline image data; `media_type` is known only when the source said it.
    Base64 {
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        media_type: Option<String>,
    },
    /// A path relative to the source (Raycast `assets/icon.png`).
    Path {
        path: String,
    },
}

impl<'de> Deserialize<'de> for Icon {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(IconVisitor)
    }
}

struct IconVisitor;

impl<'de> Visitor<'de> for IconVisitor {
    type Value = Icon;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an icon: {\"kind\": \"url\" | \"base64\" | \"path\", …}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Icon, A::Error> {
        const KINDS: &[&str] = &["url", "base64", "path"];
        let mut kind: Option<String> = None;
        // url, data, media_type, path: each belongs to one kind.
        let mut fields: [Option<String>; 4] = Default::default();
        const NAMES: [&str; 4] = ["url", "data", "media_type", "path"];
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "kind" => &mut kind,
                name => match NAMES.iter().position(|n| *n == name) {
                    Some(i) => &mut fields[i],
                    None => {
                        // A field of a newer minor: skipped here, kept by the SDK's decoder.
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    }
                },
            };
            if slot.is_some() {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            *slot = Some(map.next_value()?);
        }
        let kind = kind.ok_or_else(|| de::Error::missing_field("kind"))?;
        let own: &[&str] = match kind.as_str() {
            "url" => &["url"],
            "base64" => &["data", "media_type"],
            "path" => &["path"],
            other => return Err(de::Error::unknown_variant(other, KINDS)),
        };
        if let Some(i) = (0..4).find(|&i| fields[i].is_some() && !own.contains(&NAMES[i])) {
            return Err(de::Error::unknown_field(NAMES[i], own));
        }
        let [url, data, media_type, path] = fields;
        Ok(match kind.as_str() {
            "url" => Icon::Url { url: url.ok_or_else(|| de::Error::missing_field("url"))? },
            "base64" => Icon::Base64 { data: data.ok_or_else(|| de::Error::missing_field("data"))?, media_type },
            _ => Icon::Path { path: path.ok_or_else(|| de::Error::missing_field("path"))? },
        })
    }
}

/// Timestamps as the source wrote them (ISO 8601 / RFC 3339 text, kept verbatim).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timestamps {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
}

impl Timestamps {
    pub fn is_empty(&self) -> bool {
        self.created.is_none() && self.updated.is_none()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Server {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// OpenAPI server variables, kept as written.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub variables: IndexMap<String, Value>,
}

/// One way to authenticate. Secrets are references (e.g. Secret Manager names) that a
/// converter carries and never invents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Auth {
    pub kind: AuthKind,
    /// The scheme's name where the source names it (OpenAPI `securitySchemes` key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// API key: the header/query/cookie parameter name that carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_name: Option<String>,
    /// API key: where it goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<ParamLocation>,
    /// A reference to a stored secret (API key, basic credentials, token).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// A literal credential the source itself contained (Vertex `apiKeyString`, `accessToken`, `idToken`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account: Option<String>,
    /// HTTP auth: `bearer_format`, OAuth flows, OpenID Connect URL and the like, as written.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub settings: IndexMap<String, Value>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthKind {
    #[default]
    None,
    ApiKey,
    HttpBasic,
    HttpBearer,
    OAuth,
    Oidc,
    GoogleServiceAccount,
}

/// A named set of values (Gloodata `tagValues`): an enum whose entries have labels, possibly
/// loaded or matched at run time by handlers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ValueSet {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<EnumValue>,
    /// Run-time handlers by role (`match`, `loadEntries`, `search`) → handler id.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub handlers: IndexMap<String, String>,
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub extras: Extras,
}

/// One tool (function, operation, prompt) the model can call.
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
    pub icon: Option<Icon>,
    /// Input parameters, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Output>,
    /// A prompt template with `{{variable}}` placeholders (SkyDeck `model_prompt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_settings: Option<ModelSettings>,
    /// How a user interface shows a call (Gloodata `ui`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<Display>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<Confirmation>,
    #[serde(default, skip_serializing_if = "Hints::is_empty")]
    pub hints: Hints,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpBinding>,
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub extras: Extras,
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
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub extras: Extras,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamLocation {
    Path,
    Query,
    Header,
    Cookie,
    Body,
}

impl ParamLocation {
    pub fn as_str(self) -> &'static str {
        match self {
            ParamLocation::Path => "path",
            ParamLocation::Query => "query",
            ParamLocation::Header => "header",
            ParamLocation::Cookie => "cookie",
            ParamLocation::Body => "body",
        }
    }
}

/// The JSON-Schema subset every format shares. Keywords outside it are kept in `extras`
/// under the key `"jsonschema"` as written, so a schema-rich source loses nothing on the way
/// to a schema-rich target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// The name of a definition in the tool set ([`ToolSet::definitions`]): the schema is that
    /// definition, refined by any fields set beside it, such as a description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// `None` means any type.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<SchemaType>,
    /// Also accepts `null` (OpenAPI `nullable`, a JSON-Schema `[T, "null"]` type).
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `Some(Value::Null)` is an explicit `default: null`, distinct from no default.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// Allowed values, each with an optional display label.
    #[serde(default, rename = "enum", skip_serializing_if = "Option::is_none")]
    pub enumeration: Option<Vec<EnumValue>>,
    /// The id of a [`ValueSet`] in the tool set that lists the allowed values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_set: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Value>,
    /// `date`, `date-time`, `email`, … as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// A string meant to be edited as several lines.
    #[serde(default, skip_serializing_if = "is_false")]
    pub multiline: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique_items: bool,
    /// Element schema of an array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Schema>>,
    /// Properties of an object, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<Property>,
    /// `Some(false)` closes the object; a schema describes extra values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<AdditionalProperties>,
    /// Alternatives (`anyOf`; `oneOf` is read as `anyOf`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<Schema>,
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub extras: Extras,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemaType {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
    Null,
}

impl SchemaType {
    pub fn as_str(self) -> &'static str {
        match self {
            SchemaType::String => "string",
            SchemaType::Integer => "integer",
            SchemaType::Number => "number",
            SchemaType::Boolean => "boolean",
            SchemaType::Array => "array",
            SchemaType::Object => "object",
            SchemaType::Null => "null",
        }
    }

    /// Parses a JSON-Schema type name.
    pub fn parse(name: &str) -> Option<SchemaType> {
        Some(match name {
            "string" => SchemaType::String,
            "integer" => SchemaType::Integer,
            "number" => SchemaType::Number,
            "boolean" => SchemaType::Boolean,
            "array" => SchemaType::Array,
            "object" => SchemaType::Object,
            "null" => SchemaType::Null,
            _ => return None,
        })
    }
}

/// `additional_properties`: `false`/`true`, or a schema. Decoded by hand rather than as serde's
/// untagged enum, which buffers the value and would hide unknown fields inside the schema from
/// the SDK's decoder.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AdditionalProperties {
    Allowed(bool),
    Schema(Box<Schema>),
}

impl<'de> Deserialize<'de> for AdditionalProperties {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AdditionalVisitor;
        impl<'de> Visitor<'de> for AdditionalVisitor {
            type Value = AdditionalProperties;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a boolean or a schema")
            }
            fn visit_bool<E: de::Error>(self, allowed: bool) -> Result<Self::Value, E> {
                Ok(AdditionalProperties::Allowed(allowed))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let schema = Schema::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(AdditionalProperties::Schema(Box::new(schema)))
            }
        }
        deserializer.deserialize_any(AdditionalVisitor)
    }
}

/// An object property.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Property {
    pub name: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    pub schema: Schema,
}

/// An allowed value with an optional human label (Gloodata `entries: [[key, label]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnumValue {
    pub value: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl EnumValue {
    pub fn new(value: impl Into<Value>) -> Self {
        EnumValue { value: value.into(), label: None }
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

/// How to call the tool over HTTP. Each parameter's place is its [`Parameter::location`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HttpBinding {
    /// Upper-case method: `GET`, `POST`, …
    pub method: String,
    /// Path template with `{param}` placeholders, relative to the server.
    pub path: String,
    /// The operation's id in the source, when it differs from the tool name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// Media type of the request body (`application/json`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_content_type: Option<String>,
    /// When the body is not an object, the name of the single parameter that is the whole body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_parameter: Option<String>,
    /// Servers for this operation only, overriding the set's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<Server>,
}

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
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
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

    /// A copy in the versioned form of this model's schema version.
    pub fn versioned(&self) -> VersionedToolSet {
        self.clone().into_versioned()
    }

    /// This model in the versioned form of this model's schema version, without a copy.
    pub fn into_versioned(self) -> VersionedToolSet {
        VersionedToolSet { schema_version: MODEL_SCHEMA_MAJOR, schema_minor: MODEL_SCHEMA_MINOR, tool_set: self }
    }
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

impl Schema {
    pub fn of(kind: SchemaType) -> Self {
        Schema { kind: Some(kind), ..Schema::default() }
    }

    /// Allowed values without labels, when the schema is an enum.
    pub fn enum_values(&self) -> Option<impl Iterator<Item = &Value>> {
        self.enumeration.as_ref().map(|e| e.iter().map(|v| &v.value))
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
