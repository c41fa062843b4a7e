//! The JSON-Schema subset parameters are described in, and the named value sets a schema may
//! take its values from.

use indexmap::IndexMap;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use super::constraints::{ConstraintFields, Constraints};
use super::{Extras, is_false};

/// Deserialize a present JSON `null` as `Some(Value::Null)` (serde's default maps it to
/// `None`), so an explicit `"default": null` survives a trip through the model's JSON form.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Box<Value>>, D::Error> {
    Value::deserialize(d).map(|value| Some(Box::new(value)))
}

/// The JSON-Schema subset every format shares. Keywords outside it are kept in `extras`
/// under the key `"jsonschema"` as written, so a schema-rich source loses nothing on the way
/// to a schema-rich target.
/// Its JSON form is flat (`minimum`, `pattern`, … beside the other fields): read through
/// `wire::Schema`, written by hand, below.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "wire::Schema")]
pub struct Schema {
    /// The name of a definition in the tool set
    /// ([`ToolSet::definitions`](super::ToolSet::definitions)): the schema is that definition,
    /// refined by any fields set beside it, such as a description.
    pub reference: Option<String>,
    /// `None` means any type.
    pub kind: Option<SchemaType>,
    /// Also accepts `null` (OpenAPI `nullable`, a JSON-Schema `[T, "null"]` type).
    pub nullable: bool,
    pub title: Option<String>,
    pub description: Option<String>,
    /// `Some(Value::Null)` is an explicit `default: null`, distinct from no default. Boxed: a
    /// value inline is 72 bytes, and most schemas have none.
    pub default: Option<Box<Value>>,
    /// Allowed values, each with an optional display label.
    pub enumeration: Option<Vec<EnumValue>>,
    /// The id of a [`ValueSet`] in the tool set that lists the allowed values.
    pub value_set: Option<String>,
    pub examples: Vec<Value>,
    /// `date`, `date-time`, `email`, … as written.
    pub format: Option<String>,
    /// A string meant to be edited as several lines.
    pub multiline: bool,
    /// Bounds, lengths, pattern, item counts: boxed, most schemas have none.
    pub constraints: Constraints,
    /// Element schema of an array.
    pub items: Option<Box<Schema>>,
    /// Properties of an object, in order.
    pub properties: Vec<Property>,
    /// `Some(false)` closes the object; a schema describes extra values.
    pub additional_properties: Option<AdditionalProperties>,
    /// Alternatives (`anyOf`; `oneOf` is read as `anyOf`).
    pub any_of: Vec<Schema>,
    pub extras: Extras,
}

/// As a struct of the model's JSON names (what `loss.rs` reads field names from), the unset
/// fields skipped, the constraints among the others in their place. Every field is named below
/// (the patterns list them all), so a field added to `Schema` or its constraints does not
/// compile until it is written here too.
impl Serialize for Schema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Schema {
            reference,
            kind,
            nullable,
            title,
            description,
            default,
            enumeration,
            value_set,
            examples,
            format,
            multiline,
            constraints,
            items,
            properties,
            additional_properties,
            any_of,
            extras,
        } = self;
        let ConstraintFields {
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            min_length,
            max_length,
            pattern,
            min_items,
            max_items,
            unique_items,
        } = &**constraints;
        let mut out = serializer.serialize_struct("Schema", 26)?;
        macro_rules! fields {
            ($($name:literal: $value:expr),* $(,)?) => {$(
                if $value.unwritten() { out.skip_field($name)? } else { out.serialize_field($name, $value)? }
            )*};
        }
        fields!(
            "reference": reference, "type": kind, "nullable": nullable, "title": title,
            "description": description, "default": default, "enum": enumeration,
            "value_set": value_set, "examples": examples, "format": format, "multiline": multiline,
            "minimum": minimum, "maximum": maximum, "exclusive_minimum": exclusive_minimum,
            "exclusive_maximum": exclusive_maximum, "min_length": min_length,
            "max_length": max_length, "pattern": pattern, "min_items": min_items,
            "max_items": max_items, "unique_items": unique_items, "items": items,
            "properties": properties, "additional_properties": additional_properties,
            "any_of": any_of, "extras": extras,
        );
        out.end()
    }
}

/// A field the model's JSON leaves out: unset, empty or false.
trait Unwritten {
    fn unwritten(&self) -> bool;
}

impl<T> Unwritten for Option<T> {
    fn unwritten(&self) -> bool {
        self.is_none()
    }
}

impl<T> Unwritten for Vec<T> {
    fn unwritten(&self) -> bool {
        self.is_empty()
    }
}

impl Unwritten for bool {
    fn unwritten(&self) -> bool {
        !*self
    }
}

impl Unwritten for Extras {
    fn unwritten(&self) -> bool {
        self.is_empty()
    }
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

    /// The object schema of a parameter list: each parameter a property, required as it is.
    /// A parameter's location is not a schema's (the loss walk reports it).
    pub fn of_parameters(parameters: &[super::Parameter]) -> Self {
        let properties = parameters
            .iter()
            .map(|p| Property { name: p.name.clone(), required: p.required, schema: p.schema.clone() })
            .collect();
        Schema { properties, ..Schema::of(SchemaType::Object) }
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

/// The model's JSON form of a [`Schema`], as read: every field flat, as `Schema` has them but
/// for its boxed [`Constraints`]. (Written, `Schema` flattens its constraints itself.)
mod wire {
    use serde::Deserialize;
    use serde_json::{Number, Value};

    use super::{AdditionalProperties, ConstraintFields, EnumValue, Extras, Property, SchemaType, present};

    #[derive(Deserialize)]
    pub(super) struct Schema {
        #[serde(default)]
        reference: Option<String>,
        #[serde(default, rename = "type")]
        kind: Option<SchemaType>,
        #[serde(default)]
        nullable: bool,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        description: Option<String>,
        #[serde(default, deserialize_with = "present")]
        default: Option<Box<Value>>,
        #[serde(default, rename = "enum")]
        enumeration: Option<Vec<EnumValue>>,
        #[serde(default)]
        value_set: Option<String>,
        #[serde(default)]
        examples: Vec<Value>,
        #[serde(default)]
        format: Option<String>,
        #[serde(default)]
        multiline: bool,
        #[serde(default)]
        minimum: Option<Number>,
        #[serde(default)]
        maximum: Option<Number>,
        #[serde(default)]
        exclusive_minimum: Option<Number>,
        #[serde(default)]
        exclusive_maximum: Option<Number>,
        #[serde(default)]
        min_length: Option<u64>,
        #[serde(default)]
        max_length: Option<u64>,
        #[serde(default)]
        pattern: Option<String>,
        #[serde(default)]
        min_items: Option<u64>,
        #[serde(default)]
        max_items: Option<u64>,
        #[serde(default)]
        unique_items: bool,
        #[serde(default)]
        items: Option<Box<super::Schema>>,
        #[serde(default)]
        properties: Vec<Property>,
        #[serde(default)]
        additional_properties: Option<AdditionalProperties>,
        #[serde(default)]
        any_of: Vec<super::Schema>,
        #[serde(default)]
        extras: Extras,
    }

    impl From<Schema> for super::Schema {
        fn from(s: Schema) -> Self {
            let constraints = ConstraintFields {
                minimum: s.minimum,
                maximum: s.maximum,
                exclusive_minimum: s.exclusive_minimum,
                exclusive_maximum: s.exclusive_maximum,
                min_length: s.min_length,
                max_length: s.max_length,
                pattern: s.pattern,
                min_items: s.min_items,
                max_items: s.max_items,
                unique_items: s.unique_items,
            };
            super::Schema {
                reference: s.reference,
                kind: s.kind,
                nullable: s.nullable,
                title: s.title,
                description: s.description,
                default: s.default,
                enumeration: s.enumeration,
                value_set: s.value_set,
                examples: s.examples,
                format: s.format,
                multiline: s.multiline,
                constraints: constraints.into(),
                items: s.items,
                properties: s.properties,
                additional_properties: s.additional_properties,
                any_of: s.any_of,
                extras: s.extras,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Every field, the constraints too, is written under its JSON name and read back (the
    /// hand-written writer and the wire struct agree).
    #[test]
    fn a_schema_with_every_field_set_round_trips_through_its_json() {
        let constraints = ConstraintFields {
            minimum: Some(1.into()),
            maximum: Some(9.into()),
            exclusive_minimum: Some(0.into()),
            exclusive_maximum: Some(10.into()),
            min_length: Some(1),
            max_length: Some(5),
            pattern: Some("^a".into()),
            min_items: Some(1),
            max_items: Some(3),
            unique_items: true,
        };
        let schema = Schema {
            reference: Some("Pet".into()),
            kind: Some(SchemaType::Array),
            nullable: true,
            title: Some("t".into()),
            description: Some("d".into()),
            default: Some(Box::new(Value::Null)),
            enumeration: Some(vec![EnumValue::new("a")]),
            value_set: Some("set".into()),
            examples: vec![json!(["a"])],
            format: Some("date".into()),
            multiline: true,
            constraints: constraints.into(),
            items: Some(Box::new(Schema::of(SchemaType::String))),
            properties: vec![Property { name: "p".into(), required: true, schema: Schema::default() }],
            additional_properties: Some(AdditionalProperties::Allowed(false)),
            any_of: vec![Schema::of(SchemaType::Null)],
            extras: [("jsonschema".to_owned(), json!({"x-k": 1}))].into_iter().collect(),
        };
        let written = serde_json::to_value(&schema).unwrap();
        assert_eq!(written.as_object().unwrap().len(), 26, "{written}");
        assert_eq!(written["type"], "array");
        assert_eq!(written["exclusive_maximum"], 10);
        assert_eq!(serde_json::from_value::<Schema>(written).unwrap(), schema);
    }
}
