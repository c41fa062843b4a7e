//! `metadata.variables`: each parameter as a variable, in the shape `crate::shape` gives it,
//! or as it was written when the reader kept its type.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Parameter, Severity, Tool, codes};

use super::Writer;
use crate::shape::{allowed_values, variable_shape};
use crate::{FORMAT_ID, kept};

impl Writer<'_> {
    pub(super) fn variables(&mut self, tool: &Tool, path: &str) -> Vec<Value> {
        tool.parameters
            .iter()
            .enumerate()
            .map(|(i, p)| Value::Object(self.variable(tool, p, &child(&child(path, "parameters"), i.to_string()))))
            .collect()
    }

    fn variable(&mut self, tool: &Tool, parameter: &Parameter, path: &str) -> Map<String, Value> {
        let schema = &parameter.schema;
        let own = parameter.extras.get(FORMAT_ID).and_then(Value::as_object);
        let mut out = Map::new();
        out.insert("name".into(), parameter.name.clone().into());
        let (default, allowed) = match own.and_then(|o| o.get(kept::VARIABLE_TYPE)) {
            // Read from SkyDeck in a shape the mapping below would not give back: as written.
            Some(written_type) => {
                if !written_type.is_null() {
                    out.insert("type".into(), written_type.clone());
                }
                (schema.default.as_deref().cloned(), allowed_values(schema))
            }
            None => {
                let shape = variable_shape(schema, &self.model.value_sets, &self.budget);
                for note in shape.notes {
                    let message = format!("parameter `{}` of tool `{}`: {}", parameter.name, tool.name, note.message);
                    self.note(note.severity, note.code, format!("{path}/schema/{}", note.path), message);
                }
                out.insert("type".into(), shape.kind.as_str().into());
                (shape.default, shape.allowed)
            }
        };
        if let Some(description) = &schema.description {
            out.insert("description".into(), description.clone().into());
        }
        if parameter.required == default.is_some() {
            self.note(
                Severity::Info,
                codes::CHANGED_SCHEMA,
                child(path, "required"),
                format!(
                    "SkyDeck has no required flag (a variable without a default must be filled in): parameter `{}` of tool `{}` is {}",
                    parameter.name,
                    tool.name,
                    if parameter.required { "required but has a default" } else { "optional without a default" }
                ),
            );
        }
        if let Some(default) = default {
            out.insert("default".into(), default);
        }
        if let Some(allowed) = allowed {
            out.insert("allowed_values".into(), Value::Array(allowed));
        }
        if let Some(kept_variable) = own.and_then(|o| o.get(kept::VARIABLE)).and_then(Value::as_object) {
            out.extend(kept_variable.clone());
        }
        out
    }
}
