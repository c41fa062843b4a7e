//! A tool's `schema.fields`: one parameter per field, its type (`[T, "null"]` for optional)
//! and the JSON-Schema keywords Gloodata fields have.

use serde_json::{Map, Value};
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::child;
use toolport_plugin::{EnumValue, Parameter, Schema, SchemaType, Severity, Tool, codes};

use super::Reader;
use super::residue::Residue;

impl Reader<'_> {
    pub(super) fn read_schema(&mut self, path: &str, value: &Value, tool: &mut Tool, tool_residue: &mut Residue) {
        let Value::Object(schema) = value else {
            self.wrong_type(path, "schema", "an object with `fields`", value, tool_residue);
            return;
        };
        let mut residue = Residue::default();
        for (key, value) in schema {
            let path = child(path, key);
            match key.as_str() {
                "fields" => {
                    let Value::Object(fields) = value else {
                        self.wrong_type(&path, key, "an object keyed by field name", value, &mut residue);
                        continue;
                    };
                    for (name, field) in fields {
                        let field_path = child(&path, name);
                        match field {
                            Value::Object(field) => tool.parameters.push(self.read_field(&field_path, name, field)),
                            _ => {
                                self.report(
                                    Severity::Error,
                                    codes::INPUT_INVALID,
                                    &field_path,
                                    format!(
                                        "field `{name}` should be an object, found {}; kept as written",
                                        kind_of(field)
                                    ),
                                );
                                residue.keep_in("fields", name, field.clone());
                            }
                        }
                    }
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        if !schema.contains_key("fields") {
            residue.absent.push("fields".into());
        }
        if let Some(kept) = residue.into_value() {
            tool_residue.keep("schema", &kept);
        }
    }

    /// One `schema.fields.<name>`: a JSON-Schema subset. Optional fields are `[T, "null"]`, so
    /// a parameter is required exactly when its field is not nullable.
    fn read_field(&mut self, path: &str, name: &str, field: &Map<String, Value>) -> Parameter {
        let mut schema = Schema::default();
        let mut residue = Residue::default();
        for (key, value) in field {
            let path = child(path, key);
            match key.as_str() {
                "type" => self.read_type(&path, value, &mut schema, &mut residue),
                "title" => schema.title = self.string(&path, key, value, &mut residue),
                "description" => schema.description = self.nullable_string(&path, key, value, &mut residue),
                // Gloodata writes a field with no default as `default: null` (Python's None,
                // also on required fields): no default, kept so it comes back as written.
                "default" if value.is_null() => residue.keep(key, value),
                "default" => schema.default = Some(Box::new(value.clone())),
                "enum" => match value {
                    Value::Array(values) => {
                        schema.enumeration = Some(values.iter().cloned().map(EnumValue::new).collect());
                    }
                    _ => self.wrong_type(&path, key, "a list of values", value, &mut residue),
                },
                "examples" => match value {
                    // The writer leaves out an empty list; keep it so it comes back.
                    Value::Array(values) if values.is_empty() => residue.keep(key, value),
                    Value::Array(values) => schema.examples = values.clone(),
                    _ => self.wrong_type(&path, key, "a list of values", value, &mut residue),
                },
                "format" => schema.format = self.string(&path, key, value, &mut residue),
                "multiline" => match value {
                    Value::Bool(true) => schema.multiline = true,
                    Value::Bool(false) => residue.keep(key, value),
                    _ => self.wrong_type(&path, key, "true or false", value, &mut residue),
                },
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        let mut parameter = Parameter::new(name, schema);
        parameter.required = !parameter.schema.nullable;
        residue.store(&mut parameter.extras);
        parameter
    }

    fn read_type(&mut self, path: &str, value: &Value, schema: &mut Schema, residue: &mut Residue) {
        let parse = |reader: &mut Self, name: &str| {
            let kind = SchemaType::parse(name);
            match kind {
                None => reader.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    path,
                    format!("`{name}` is not a JSON-Schema type name; kept as written"),
                ),
                Some(SchemaType::Array | SchemaType::Object) => reader.report(
                    Severity::Warning,
                    codes::INPUT_UNSUPPORTED,
                    path,
                    format!("Gloodata fields are string, integer, number or boolean, not {name}"),
                ),
                Some(_) => {}
            }
            kind
        };
        match value {
            Value::String(name) => match parse(self, name) {
                Some(kind) => schema.kind = Some(kind),
                None => residue.keep("type", value),
            },
            Value::Array(items) => {
                let Some(names) = items.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() else {
                    self.wrong_type(path, "type", "a type name or a list of type names", value, residue);
                    return;
                };
                residue.keep("type", value);
                schema.nullable = names.contains(&"null");
                if let Some(bad) = names.iter().find(|n| SchemaType::parse(n).is_none()) {
                    self.report(
                        Severity::Error,
                        codes::INPUT_INVALID,
                        path,
                        format!("`{bad}` is not a JSON-Schema type name; kept as written"),
                    );
                    return;
                }
                match names.as_slice() {
                    [one, "null"] | ["null", one] if *one != "null" => {
                        schema.kind = parse(self, one);
                        // The writer puts `null` last; any other order stays in the residue.
                        if names[1] == "null" {
                            residue.kept.shift_remove("type");
                        }
                    }
                    _ => self.report(
                        Severity::Warning,
                        codes::INPUT_UNSUPPORTED,
                        path,
                        "a Gloodata field type is one type name or [type, \"null\"]; kept as written".into(),
                    ),
                }
            }
            _ => self.wrong_type(path, "type", "a type name", value, residue),
        }
    }
}
