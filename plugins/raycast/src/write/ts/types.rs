//! TypeScript types for a tool's `Input`, limited to what Raycast's tool-schema generator
//! (`ray build`'s extract-tools-info) reads: `string`, `number`, `boolean`, unions of two or
//! more string literals, arrays of those and object literals. It reads no `null`, `unknown`,
//! `Record`, index signature, empty object literal, number literal or mixed union; each such
//! schema is written as the nearest type it reads, with a diagnostic saying so.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::hash::Hash;

use serde_json::Value;
use toolport_plugin::source::child;
use toolport_plugin::{AdditionalProperties, Diagnostic, Schema, SchemaType, Severity, ToolSet, codes};

use super::jsdoc::jsdoc;
use super::syntax::{is_identifier, json_string, property_key};

/// One property of an object type: name, required, schema and its path in the model.
pub(super) type Member<'s> = (String, bool, &'s Schema, String);

pub(super) struct TypeWriter<'m> {
    pub model: &'m ToolSet,
    /// The tool whose `Input` is written: every diagnostic names it and the property.
    pub tool: &'m str,
    pub diagnostics: &'m mut Vec<Diagnostic>,
    /// Where the input holds JSON text for a map (a free-form object): property names from
    /// the input down, `*` for the items of an array. The generated code parses these.
    pub json_paths: Vec<Vec<String>>,
    /// The property being written, from the input down (`*` for an array's items): one stack
    /// for the whole type, where a copy per member cost the square of the nesting.
    pub at: Vec<String>,
}

impl TypeWriter<'_> {
    /// Reports what a schema became, naming the property (`at`, from the input down) and the
    /// tool in words, since the model path (`/tools/N/parameters/I/...`) names neither.
    fn say(&mut self, severity: Severity, code: &str, path: impl Into<String>, message: &str) {
        let place = place(self.tool, &self.at);
        self.diagnostics.push(Diagnostic::new(severity, code, path, format!("{place}: {message}")));
    }

    /// Writes one line per property onto `out` (each type written in place: a nested object's
    /// text is never copied into its parent's).
    pub fn members(&mut self, out: &mut String, properties: &[Member<'_>], indent: &str) {
        for (name, required, schema, path) in properties {
            self.member(out, name, *required, schema, indent, &mut path.clone());
        }
    }

    /// One property's line (and its doc comment). `path` is the schema's model path: one
    /// buffer for the whole type, each level's part added and cut off again, since most
    /// schemas never need theirs.
    fn member(
        &mut self,
        out: &mut String,
        name: &str,
        required: bool,
        schema: &Schema,
        indent: &str,
        path: &mut String,
    ) {
        if let Some(doc) = jsdoc(schema.description.as_deref(), schema.default.as_deref(), &schema.examples, indent) {
            out.push_str(&doc);
        }
        out.push_str(indent);
        out.push_str(&property_key(name));
        out.push_str(if required { ": " } else { "?: " });
        self.at.push(name.to_owned());
        self.write_type(out, schema, indent, path);
        self.at.pop();
        out.push_str(";\n");
    }

    /// The TypeScript type of `schema` (at model path `path`), one Raycast's schema generator
    /// reads, written onto `out`.
    pub fn write_type(&mut self, out: &mut String, schema: &Schema, indent: &str, path: &mut String) {
        if schema.nullable {
            self.null_dropped(path);
        }
        if let Some(values) = self.enum_values(schema, path) {
            out.push_str(&self.enum_type(&values, schema, path));
            return;
        }
        if !schema.any_of.is_empty() {
            return self.any_of_type(out, schema, indent, path);
        }
        let simple = match schema.kind {
            Some(SchemaType::String) => "string",
            Some(SchemaType::Number) => "number",
            Some(SchemaType::Integer) => {
                // A warning: the model may now send a fraction where only whole numbers do.
                self.say(
                    Severity::Warning,
                    codes::CHANGED_SCHEMA,
                    child(path, "type"),
                    "TypeScript has no integer type; written as `number`",
                );
                "number"
            }
            Some(SchemaType::Boolean) => "boolean",
            Some(SchemaType::Null) => {
                self.say(
                    Severity::Warning,
                    codes::CHANGED_SCHEMA,
                    child(path, "type"),
                    "a value that can only be null is written as `string`: Raycast's schema generator reads no `null`",
                );
                "string"
            }
            Some(SchemaType::Array) => {
                let Some(items) = &schema.items else {
                    self.say(
                        Severity::Warning,
                        codes::CHANGED_SCHEMA,
                        child(path, "items"),
                        "the items of an array without an item type are written as `string` (JSON text; a generated request parses it back): Raycast's schema generator reads no `unknown[]`",
                    );
                    let mut here = self.at.clone();
                    here.push("*".into());
                    self.json_paths.push(here);
                    out.push_str("string[]");
                    return;
                };
                let (start, parent) = (out.len(), path.len());
                self.at.push("*".into());
                path.push_str("/items");
                self.write_type(out, items, indent, path);
                path.truncate(parent);
                self.at.pop();
                if is_identifier(&out[start..]) {
                    out.push_str("[]");
                } else {
                    out.insert_str(start, "Array<");
                    out.push('>');
                }
                return;
            }
            Some(SchemaType::Object) if !schema.properties.is_empty() => {
                if matches!(schema.additional_properties, Some(AdditionalProperties::Schema(_))) {
                    self.say(
                        Severity::Warning,
                        codes::LOSS_SCHEMA,
                        child(path, "additional_properties"),
                        "an object with both properties and additional properties is written with its properties only",
                    );
                }
                let inner = format!("{indent}  ");
                out.push_str("{\n");
                let parent = path.len();
                for (i, property) in schema.properties.iter().enumerate() {
                    let _ = write!(path, "/properties/{i}/schema");
                    self.member(out, &property.name, property.required, &property.schema, &inner, path);
                    path.truncate(parent);
                }
                out.push_str(indent);
                out.push('}');
                return;
            }
            Some(SchemaType::Object) => {
                self.say(
                    Severity::Warning,
                    codes::CHANGED_SCHEMA,
                    path.as_str(),
                    "an object without declared properties (a map) is written as `string` holding JSON (a generated request parses it back): Raycast's schema generator reads no `Record` or index signature",
                );
                self.json_paths.push(self.at.clone());
                "string"
            }
            None => {
                self.say(
                    Severity::Warning,
                    codes::CHANGED_SCHEMA,
                    path.as_str(),
                    "a value of any type is written as `string`: Raycast's schema generator reads no `unknown`",
                );
                "string"
            }
        };
        out.push_str(simple);
    }

    fn null_dropped(&mut self, path: &str) {
        self.say(
            Severity::Info,
            codes::CHANGED_SCHEMA,
            child(path, "nullable"),
            "`null` is left out of the type: Raycast's schema generator reads no `T | null` (leave the value out instead)",
        );
    }

    /// The enum's values (its own or its value set's), without null; `None` when it has none.
    fn enum_values(&mut self, schema: &Schema, path: &str) -> Option<Vec<Value>> {
        let values: Vec<Value> = match &schema.enumeration {
            Some(values) => values.iter().map(|v| v.value.clone()).collect(),
            None => {
                let set = self.model.value_sets.get(schema.value_set.as_ref()?)?;
                set.entries.iter().map(|e| e.value.clone()).collect()
            }
        };
        let labels = schema.enumeration.iter().flatten().any(|v| v.label.is_some())
            || schema
                .value_set
                .as_ref()
                .and_then(|id| self.model.value_sets.get(id))
                .is_some_and(|s| s.entries.iter().any(|e| e.label.is_some()));
        if labels {
            self.say(
                Severity::Warning,
                codes::LOSS_SCHEMA,
                child(path, "enum"),
                "TypeScript literal unions have no labels; the enum labels are left out",
            );
        }
        if values.iter().any(Value::is_null) && !schema.nullable {
            self.null_dropped(path);
        }
        let mut kept: Vec<Value> = values.into_iter().filter(|v| !v.is_null()).collect();
        if kept.iter().any(|v| v.is_object() || v.is_array()) {
            self.say(
                Severity::Warning,
                codes::LOSS_SCHEMA,
                child(path, "enum"),
                "object and array enum values have no TypeScript literal type; they are left out",
            );
            kept.retain(|v| !v.is_object() && !v.is_array());
        }
        (!kept.is_empty()).then_some(kept)
    }

    fn enum_type(&mut self, values: &[Value], schema: &Schema, path: &str) -> String {
        let strings: Vec<&str> = distinct(values.iter().filter_map(Value::as_str));
        if strings.len() == values.len() && strings.len() >= 2 {
            return strings.iter().map(|s| json_string(s)).collect::<Vec<_>>().join(" | ");
        }
        let (ty, why) = if values.iter().all(Value::is_boolean) {
            ("boolean", "a boolean enum is written as `boolean`")
        } else if values.iter().all(Value::is_number) {
            (
                "number",
                "a number enum is written as `number`: Raycast's schema generator reads no number literal unions",
            )
        } else if strings.len() == values.len() {
            (
                "string",
                "a one-value enum is written as `string`: Raycast's schema generator reads string unions of two or more values only",
            )
        } else if schema.kind == Some(SchemaType::Number) || schema.kind == Some(SchemaType::Integer) {
            ("number", "an enum of mixed types is written as `number`")
        } else {
            (
                "string",
                "an enum of mixed types is written as `string`: Raycast's schema generator reads string unions only",
            )
        };
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        let message = format!("{why}; the allowed values were {}", listed.join(", "));
        self.say(Severity::Warning, codes::CHANGED_SCHEMA, child(path, "enum"), &message);
        ty.into()
    }

    fn any_of_type(&mut self, out: &mut String, schema: &Schema, indent: &str, path: &mut String) {
        let is_null = |s: &Schema| {
            s.kind == Some(SchemaType::Null)
                || s.enumeration.as_ref().is_some_and(|e| !e.is_empty() && e.iter().all(|v| v.value.is_null()))
        };
        let branches: Vec<(usize, &Schema)> = schema.any_of.iter().enumerate().filter(|(_, s)| !is_null(s)).collect();
        if branches.len() < schema.any_of.len() && !schema.nullable {
            self.null_dropped(path);
        }
        let parent = path.len();
        let branch = |writer: &mut Self, out: &mut String, i: usize, schema: &Schema, path: &mut String| {
            let _ = write!(path, "/any_of/{i}");
            writer.write_type(out, schema, indent, path);
            path.truncate(parent);
        };
        match branches.as_slice() {
            [] => out.push_str("string"),
            [(i, only)] => branch(self, out, *i, only, path),
            _ => {
                // Strings and string literals only: one string union, or `string`.
                let stringish = |s: &Schema| {
                    s.any_of.is_empty()
                        && match &s.enumeration {
                            Some(values) => values.iter().all(|v| v.value.is_string() || v.value.is_null()),
                            None => s.kind == Some(SchemaType::String) && s.value_set.is_none(),
                        }
                };
                if branches.iter().all(|(_, s)| stringish(s)) {
                    let open = branches.iter().any(|(_, s)| s.enumeration.is_none());
                    let literals: Vec<String> = distinct(
                        branches
                            .iter()
                            .flat_map(|(_, s)| s.enumeration.iter().flatten())
                            .filter_map(|v| v.value.as_str())
                            .map(json_string),
                    );
                    if !open && literals.len() >= 2 {
                        return out.push_str(&literals.join(" | "));
                    }
                    if !literals.is_empty() {
                        let message = format!(
                            "a string or one of {} is written as `string`: Raycast's schema generator reads no mixed unions",
                            literals.join(", ")
                        );
                        self.say(Severity::Info, codes::CHANGED_SCHEMA, child(path, "any_of"), &message);
                    }
                    return out.push_str("string");
                }
                let (first, schema) = branches[0];
                branch(self, out, first, schema, path);
                let others = branches.len() - 1;
                let message = format!(
                    "`anyOf` is written as its first alternative; the other {others} {} left out: Raycast's schema generator reads string unions only",
                    if others == 1 { "is" } else { "are" }
                );
                self.say(Severity::Warning, codes::CHANGED_SCHEMA, child(path, "any_of"), &message);
            }
        }
    }
}

/// A property in words: `parameter `dob` of tool `add-person``, or for one inside it
/// `` `dob.day` (parameter `dob` of tool `add-person`) ``, array items written `[]`.
fn place(tool: &str, at: &[String]) -> String {
    let Some((top, inside)) = at.split_first() else {
        return format!("the input of tool `{tool}`");
    };
    let mut nested = top.clone();
    for part in inside {
        if part == "*" {
            nested.push_str("[]");
        } else {
            nested.push('.');
            nested.push_str(part);
        }
    }
    let parameter = format!("parameter `{top}` of tool `{tool}`");
    if inside.is_empty() { parameter } else { format!("`{nested}` ({parameter})") }
}

/// `items` without repeats, each where it first appears, in linear time: an enum can hold
/// many thousands of values.
fn distinct<T: Eq + Hash>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let items: Vec<T> = items.into_iter().collect();
    let mut seen = HashSet::with_capacity(items.len());
    let first: Vec<bool> = items.iter().map(|item| seen.insert(item)).collect();
    items.into_iter().zip(first).filter_map(|(item, first)| first.then_some(item)).collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::hash::Hasher;

    use super::distinct;

    /// A value that counts how often it is hashed or compared.
    struct Counted<'c>(u32, &'c Cell<usize>);

    impl PartialEq for Counted<'_> {
        fn eq(&self, other: &Self) -> bool {
            self.1.set(self.1.get() + 1);
            self.0 == other.0
        }
    }

    impl Eq for Counted<'_> {}

    impl std::hash::Hash for Counted<'_> {
        fn hash<H: Hasher>(&self, state: &mut H) {
            self.1.set(self.1.get() + 1);
            self.0.hash(state);
        }
    }

    #[test]
    fn distinct_keeps_first_occurrences_in_linear_work() {
        assert_eq!(distinct(["b", "a", "b", "c", "a"]), ["b", "a", "c"]);
        // 20,000 values, every other one a repeat: a few hashes and comparisons each, where a
        // search of the values kept so far makes about 10^8 comparisons.
        let operations = Cell::new(0);
        let values = (0..20_000).map(|i| Counted(i % 10_000, &operations));
        let kept = distinct(values);
        assert_eq!(kept.len(), 10_000);
        assert!(kept.iter().enumerate().all(|(i, v)| v.0 as usize == i));
        assert!(operations.get() <= 4 * 20_000, "{} hashes and comparisons", operations.get());
    }
}
