//! Whether an input example satisfies its tool's schema, as Anthropic checks every
//! `input_examples` entry against the tool's `input_schema` (a request with one that does not
//! is refused). Checked against the canonical schema the `input_schema` is written from: types,
//! `enum`, `anyOf`, bounds, lengths, item counts and uniqueness, required and closed objects.
//! A required property the example leaves out is completed from its schema's `default`.
//! Not checked: `pattern` and `format`, which need a regular-expression engine and a format
//! registry; an example breaking only those still reaches Anthropic.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::{AdditionalProperties, Schema, SchemaType};

/// References followed before a check gives up (a definition that refers to itself without the
/// value getting any deeper).
const MAX_DEPTH: usize = 64;

/// What checking one example found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Why the example does not satisfy the schema, one entry per problem.
    pub problems: Vec<String>,
    /// The required properties completed from their defaults, by path (`unit.system`).
    pub completed: Vec<String>,
}

/// Checks `value` against `schema` (its references resolved in `definitions`), completing
/// required properties from their defaults in place.
pub fn check(value: &mut Value, schema: &Schema, definitions: &IndexMap<String, Schema>) -> Checked {
    let mut checker = Checker { definitions, found: Checked::default() };
    checker.value(value, schema, "", 0);
    checker.found
}

struct Checker<'d> {
    definitions: &'d IndexMap<String, Schema>,
    found: Checked,
}

/// `name` under the property path `at` (`unit` + `system` -> `unit.system`).
fn under(at: &str, name: &str) -> String {
    if at.is_empty() { name.to_owned() } else { format!("{at}.{name}") }
}

/// The value's place as messages say it: the whole example, or one of its keys.
fn place(at: &str) -> String {
    if at.is_empty() { "the arguments".to_owned() } else { format!("`{at}`") }
}

impl Checker<'_> {
    fn problem(&mut self, at: &str, what: String) {
        self.found.problems.push(format!("{} {what}", place(at)));
    }

    fn value(&mut self, value: &mut Value, schema: &Schema, at: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        // A reference is its definition, refined by what is set beside it (checked below).
        if let Some(definition) = schema.reference.as_ref().and_then(|name| self.definitions.get(name)) {
            self.value(value, definition, at, depth + 1);
        }
        if value.is_null() && schema.nullable {
            return;
        }
        if let Some(kind) = schema.kind
            && !is_of(value, kind)
        {
            return self.problem(at, format!("should be {}, not {}", kind.as_str(), kind_of(value)));
        }
        if let Some(mut allowed) = schema.enum_values()
            && !allowed.any(|v| v == value)
        {
            return self.problem(at, format!("is {value}, not one of the schema's `enum` values"));
        }
        if !schema.any_of.is_empty() && !self.any_member_accepts(value, &schema.any_of, depth) {
            return self.problem(at, "matches none of the schema's `anyOf` alternatives".to_owned());
        }
        match value {
            Value::Number(_) => self.bounds(value, schema, at),
            Value::String(text) => {
                let length = text.chars().count() as u64;
                if schema.constraints.min_length.is_some_and(|min| length < min)
                    || schema.constraints.max_length.is_some_and(|max| length > max)
                {
                    self.problem(at, format!("has {length} characters, outside the schema's length bounds"));
                }
            }
            Value::Array(items) => self.items(items, schema, at, depth),
            Value::Object(map) => self.object(map, schema, at, depth),
            _ => {}
        }
    }

    fn any_member_accepts(&self, value: &Value, members: &[Schema], depth: usize) -> bool {
        members.iter().any(|member| {
            // Each alternative on its own copy: completing defaults is for the one that fits.
            let mut trial = Checker { definitions: self.definitions, found: Checked::default() };
            trial.value(&mut value.clone(), member, "", depth + 1);
            trial.found.problems.is_empty()
        })
    }

    fn bounds(&mut self, value: &Value, schema: &Schema, at: &str) {
        let Some(n) = value.as_f64() else { return };
        let bound = |b: &Option<serde_json::Number>| b.as_ref().and_then(serde_json::Number::as_f64);
        let outside = bound(&schema.constraints.minimum).is_some_and(|min| n < min)
            || bound(&schema.constraints.maximum).is_some_and(|max| n > max)
            || bound(&schema.constraints.exclusive_minimum).is_some_and(|min| n <= min)
            || bound(&schema.constraints.exclusive_maximum).is_some_and(|max| n >= max);
        if outside {
            self.problem(at, format!("is {n}, outside the schema's bounds"));
        }
    }

    fn items(&mut self, items: &mut [Value], schema: &Schema, at: &str, depth: usize) {
        let count = items.len() as u64;
        if schema.constraints.min_items.is_some_and(|min| count < min)
            || schema.constraints.max_items.is_some_and(|max| count > max)
        {
            self.problem(at, format!("has {count} items, outside the schema's item counts"));
        }
        if schema.constraints.unique_items && items.iter().enumerate().any(|(i, item)| items[..i].contains(item)) {
            self.problem(at, "repeats an item the schema says must be unique".to_owned());
        }
        if let Some(item_schema) = &schema.items {
            for (i, item) in items.iter_mut().enumerate() {
                self.value(item, item_schema, &under(at, &i.to_string()), depth + 1);
            }
        }
    }

    fn object(&mut self, map: &mut Map<String, Value>, schema: &Schema, at: &str, depth: usize) {
        for property in &schema.properties {
            let path = under(at, &property.name);
            match map.get_mut(&property.name) {
                Some(value) => self.value(value, &property.schema, &path, depth + 1),
                None if property.required => match self.default_of(&property.schema) {
                    Some(default) => {
                        map.insert(property.name.clone(), default);
                        self.found.completed.push(path);
                    }
                    None => {
                        self.found.problems.push(format!("`{path}` is required and has no default to complete it from"))
                    }
                },
                None => {}
            }
        }
        let extra = map.keys().filter(|key| !schema.properties.iter().any(|p| &p.name == *key)).cloned();
        match &schema.additional_properties {
            Some(AdditionalProperties::Allowed(false)) => {
                for key in extra.collect::<Vec<_>>() {
                    self.found.problems.push(format!("`{}` is not a property of the closed schema", under(at, &key)));
                }
            }
            Some(AdditionalProperties::Schema(extra_schema)) => {
                for key in extra.collect::<Vec<_>>() {
                    if let Some(value) = map.get_mut(&key) {
                        self.value(value, extra_schema, &under(at, &key), depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// A schema's `default`, through its references.
    fn default_of(&self, schema: &Schema) -> Option<Value> {
        let mut schema = schema;
        for _ in 0..MAX_DEPTH {
            if let Some(default) = schema.default.as_deref() {
                return Some(default.clone());
            }
            schema = self.definitions.get(schema.reference.as_ref()?)?;
        }
        None
    }
}

/// Whether `value` is of JSON Schema type `kind` (an integer is a number without a fraction).
fn is_of(value: &Value, kind: SchemaType) -> bool {
    match kind {
        SchemaType::String => value.is_string(),
        SchemaType::Integer => value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|n| n.fract() == 0.0),
        SchemaType::Number => value.is_number(),
        SchemaType::Boolean => value.is_boolean(),
        SchemaType::Array => value.is_array(),
        SchemaType::Object => value.is_object(),
        SchemaType::Null => value.is_null(),
    }
}
