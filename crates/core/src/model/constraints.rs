//! [`Constraints`]: a schema's validation keywords (bounds, lengths, pattern, item counts),
//! boxed because most schemas have none.

use serde_json::Number;

use super::boxed::{BoxedUntilSet, Unset};

/// What a schema's values are held to besides their type: numeric bounds, string lengths and
/// pattern, array sizes and uniqueness.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConstraintFields {
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<String>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
}

impl ConstraintFields {
    /// None set.
    pub const NONE: ConstraintFields = ConstraintFields {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        min_length: None,
        max_length: None,
        pattern: None,
        min_items: None,
        max_items: None,
        unique_items: false,
    };
}

/// A schema's [`ConstraintFields`], boxed and absent until one is set
/// (`schema.constraints.minimum` reads and writes through it): 8 bytes where the fields inline
/// are 136.
pub type Constraints = BoxedUntilSet<ConstraintFields>;

impl Unset for ConstraintFields {
    fn unset() -> &'static Self {
        &ConstraintFields::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Schema, SchemaType};

    #[test]
    fn constraints_are_boxed_only_once_set_and_written_flat() {
        assert_eq!(std::mem::size_of::<Constraints>(), 8);
        let mut schema = Schema::of(SchemaType::Integer);
        assert!(!schema.constraints.is_boxed() && schema.constraints.minimum.is_none());
        schema.constraints.minimum = Some(1.into());
        schema.constraints.pattern = Some("^a".into());
        let text = serde_json::to_string(&schema).unwrap();
        assert_eq!(text, r#"{"type":"integer","minimum":1,"pattern":"^a"}"#);
        let read: Schema = serde_json::from_str(&text).unwrap();
        assert_eq!(read, schema);
        let plain: Schema = serde_json::from_str(r#"{"type":"integer","description":"n"}"#).unwrap();
        assert!(!plain.constraints.is_boxed(), "a schema without constraints boxes none");
        // Unset again: equal to never set.
        schema.constraints.minimum = None;
        schema.constraints.pattern = None;
        assert_eq!(schema, Schema::of(SchemaType::Integer));
    }
}
