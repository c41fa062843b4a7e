//! A parameter as a `schema.fields` entry: its type (`[T, "null"]` when optional) and the
//! JSON-Schema keywords Gloodata fields have.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Parameter, SchemaType, Severity, codes};

use super::residue::{merge, residue};
use super::{Writer, put_opt};

impl Writer {
    /// One parameter as `schema.fields.<name>`. Gloodata says "optional" with a `[T, "null"]`
    /// type, so optional and nullable are written the same way.
    pub(super) fn write_field(&mut self, path: &str, parameter: &Parameter) -> Map<String, Value> {
        let schema = &parameter.schema;
        let schema_path = child(path, "schema");
        let mut field = Map::new();
        let optional = schema.nullable || !parameter.required;
        if let Some(kind) = schema.kind {
            let name = match kind {
                SchemaType::Array | SchemaType::Object => {
                    self.say(Severity::Warning, codes::LOSS_SCHEMA, || Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&schema_path, "type"),
                        format!(
                            "Gloodata fields are string, integer, number or boolean; the {} parameter `{}` is written as a string",
                            kind.as_str(),
                            parameter.name
                        ),
                    ));
                    "string"
                }
                _ => kind.as_str(),
            };
            let type_value = if optional && kind != SchemaType::Null {
                Value::Array(vec![name.into(), "null".into()])
            } else {
                name.into()
            };
            field.insert("type".into(), type_value);
            if schema.nullable && parameter.required {
                self.say(Severity::Info, codes::CHANGED_SCHEMA, || {
                    Diagnostic::info(
                        codes::CHANGED_SCHEMA,
                        child(path, "required"),
                        format!(
                            "`{}` is required but nullable; Gloodata reads a [T, \"null\"] field as optional",
                            parameter.name
                        ),
                    )
                });
            } else if !schema.nullable && !parameter.required {
                // A warning: the field now accepts null, which the source's parameter did not.
                self.say(Severity::Warning, codes::CHANGED_SCHEMA, || Diagnostic::warning(
                    codes::CHANGED_SCHEMA,
                    child(&schema_path, "nullable"),
                    format!(
                        "optional `{}` is written as [T, \"null\"], Gloodata's optional field, so it also accepts null",
                        parameter.name
                    ),
                ));
            }
        } else if !parameter.required && !schema.nullable {
            self.say(Severity::Warning, codes::LOSS_SCHEMA, || {
                Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, "required"),
                    format!(
                        "Gloodata marks optional fields by a [T, \"null\"] type, and `{}` has no type",
                        parameter.name
                    ),
                )
            });
        }
        put_opt(&mut field, "title", &schema.title);
        put_opt(&mut field, "description", &schema.description);
        if let Some(default) = schema.default.as_deref() {
            field.insert("default".into(), default.clone());
        }
        if let Some(values) = &schema.enumeration {
            field.insert("enum".into(), values.iter().map(|v| v.value.clone()).collect());
            if schema.value_set.is_none() && values.iter().any(|v| v.label.is_some()) {
                self.say(Severity::Warning, codes::LOSS_SCHEMA, || {
                    Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&schema_path, "enum"),
                        format!(
                            "Gloodata holds enum labels only in `tagValues`; the labels of `{}` were left out",
                            parameter.name
                        ),
                    )
                });
            }
        }
        if !schema.examples.is_empty() {
            field.insert("examples".into(), Value::Array(schema.examples.clone()));
        }
        put_opt(&mut field, "format", &schema.format);
        if schema.multiline {
            field.insert("multiline".into(), Value::Bool(true));
        }
        if let Some(residue) = residue(&parameter.extras) {
            merge(&mut field, residue);
        }
        field
    }
}
