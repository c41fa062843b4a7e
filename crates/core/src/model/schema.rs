//! The JSON-Schema subset parameters are described in, and the named value sets a schema may
//! take its values from.

use indexmap::IndexMap;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use super::{Extras, is_false};

/// Deserialize a present JSON `null` as `Some(Value::Null)` (serde's default maps it to
/// `None`), so an explicit `"default": null` survives a trip through the model's JSON form.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Box<Value>>, D::Error> {
    Value::deserialize(d).map(|value| Some(Box::new(value)))
}

/// The JSON-Schema subset every format shares. Keywords outside it are kept in `extras`
/// under the key `"jsonschema"` as written, so a schema-rich source loses nothing on the way
/// to a schema-rich target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// The name of a definition in the tool set
    /// ([`ToolSet::definitions`](super::ToolSet::definitions)): the schema is that definition,
    /// refined by any fields set beside it, such as a description.
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
    /// `Some(Value::Null)` is an explicit `default: null`, distinct from no default. Boxed: a
    /// value inline is 72 bytes, and most schemas have none.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub default: Option<Box<Value>>,
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
    #[serde(default, skip_serializing_if = "Extras::is_empty")]
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

impl Schema {
    pub fn of(kind: SchemaType) -> Self {
        Schema { kind: Some(kind), ..Schema::default() }
    }

    /// Allowed values without labels, when the schema is an enum.
    pub fn enum_values(&self) -> Option<impl Iterator<Item = &Value>> {
        self.enumeration.as_ref().map(|e| e.iter().map(|v| &v.value))
    }
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
    #[serde(default, skip_serializing_if = "Extras::is_empty")]
    pub extras: Extras,
}
