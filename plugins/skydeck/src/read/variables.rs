//! `metadata.variables`: each variable as a parameter (its kind, description, default and
//! allowed values), and what must be kept for it to be written back as it was.

use std::collections::HashSet;

use serde_json::{Map, Value};
use toolport_plugin::definitions::Budget;
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::child;
use toolport_plugin::{EnumValue, Parameter, Schema, SchemaType, Severity, Tool, codes};

use super::{Kept, Reader};
use crate::shape::{VariableKind, allowed_values, variable_shape};
use crate::{FORMAT_ID, kept};

impl Reader<'_> {
    /// Each variable as a parameter of the tool; a name declared twice is reported.
    pub(super) fn variables(&mut self, variables: &[Value], path: &str, tool: &mut Tool) {
        let mut declared = HashSet::new();
        for (index, variable) in variables.iter().enumerate() {
            let vpath = child(&child(path, "variables"), index.to_string());
            if let Some(parameter) = self.variable(variable, &vpath) {
                if !declared.insert(parameter.name.clone()) {
                    self.report(
                        Severity::Warning,
                        codes::INPUT_INVALID,
                        &child(&vpath, "name"),
                        format!("variable `{}` is declared twice", parameter.name),
                    );
                }
                tool.parameters.push(parameter);
            }
        }
    }

    fn variable(&mut self, variable: &Value, path: &str) -> Option<Parameter> {
        let Value::Object(fields) = variable else {
            self.report(
                Severity::Error,
                codes::INPUT_INVALID,
                path,
                format!("a variable should be an object, not {}; it was skipped", kind_of(variable)),
            );
            return None;
        };
        let Some(name) = fields.get("name").and_then(Value::as_str) else {
            self.report(
                Severity::Error,
                codes::INPUT_INVALID,
                path,
                "a variable needs a string `name`; it was skipped",
            );
            return None;
        };
        let raw_type = fields.get("type");
        let kind = self.variable_kind(name, raw_type, path);

        let mut value_schema = Schema::of(SchemaType::String);
        let mut description = None;
        let mut default = None;
        let mut kept_variable = Kept::new();
        for (key, value) in fields {
            match (key.as_str(), value) {
                ("name" | "type", _) => {}
                ("description", Value::String(text)) => description = Some(text.clone()),
                ("description", _) => self.invalid(Severity::Warning, &mut kept_variable, path, key, value, "a string"),
                // An empty text is no default (the variable must still be filled in): kept
                // as written, so it comes back.
                ("default", Value::String(text)) if text.is_empty() => {
                    kept_variable.insert(key.clone(), value.clone());
                }
                ("default", _) => default = Some(value.clone()),
                ("allowed_values", Value::Array(values)) => {
                    for (index, item) in values.iter().enumerate() {
                        if !item.is_string() {
                            self.report(
                                Severity::Warning,
                                codes::INPUT_INVALID,
                                &child(&child(path, key), index.to_string()),
                                format!("allowed values are strings, not {}", kind_of(item)),
                            );
                        }
                    }
                    value_schema.enumeration = Some(values.iter().cloned().map(EnumValue::new).collect());
                }
                ("allowed_values", _) => {
                    self.invalid(Severity::Warning, &mut kept_variable, path, key, value, "an array of strings")
                }
                _ => self.unknown_key(&mut kept_variable, path, key, value),
            }
        }
        self.check_default(name, kind, default.as_ref(), value_schema.enumeration.as_deref(), path);

        let mut schema = match kind {
            VariableKind::MultiSelect => {
                Schema { items: Some(Box::new(value_schema)), ..Schema::of(SchemaType::Array) }
            }
            VariableKind::Text | VariableKind::SingleSelect => value_schema,
        };
        schema.description = description;
        // SkyDeck has no required flag: a variable without a default must be filled in.
        let required = default.is_none();
        schema.default = default.map(Box::new);

        let mut own = Map::new();
        // When the writer would not write this variable back as it is (an unknown or
        // translated type, a select without allowed values, a default of another shape),
        // remember the type as written; the writer then writes the variable verbatim.
        let shape = variable_shape(&schema, &Default::default(), &Budget::unlimited());
        let written_type = raw_type.cloned().unwrap_or(Value::Null);
        if Value::String(shape.kind.as_str().into()) != written_type
            || shape.allowed != allowed_values(&schema)
            || shape.default.as_ref() != schema.default.as_deref()
        {
            own.insert(kept::VARIABLE_TYPE.into(), written_type);
        }
        if !kept_variable.is_empty() {
            own.insert(kept::VARIABLE.into(), Value::Object(kept_variable));
        }
        let mut parameter = Parameter::new(name, schema);
        parameter.required = required;
        if !own.is_empty() {
            parameter.extras.insert(FORMAT_ID.into(), Value::Object(own));
        }
        Some(parameter)
    }

    /// A variable's `type`: one of SkyDeck's three, a known misspelling of one, or text.
    fn variable_kind(&mut self, name: &str, raw_type: Option<&Value>, path: &str) -> VariableKind {
        match raw_type {
            None => {
                self.report(
                    Severity::Info,
                    codes::INPUT_TOLERATED,
                    path,
                    format!("variable `{name}` has no `type`; read as `text`, the spec's default"),
                );
                VariableKind::Text
            }
            Some(Value::String(text)) => match VariableKind::parse(text) {
                Some(kind) => kind,
                None => match VariableKind::parse_loosely(text) {
                    Some(kind) => {
                        self.report(
                            Severity::Warning,
                            codes::INPUT_TOLERATED,
                            &child(path, "type"),
                            format!("variable type `{text}` read as `{}`", kind.as_str()),
                        );
                        kind
                    }
                    None => {
                        self.report(
                            Severity::Warning,
                            codes::INPUT_INVALID,
                            &child(path, "type"),
                            format!(
                                "unknown variable type `{text}` (SkyDeck has text, single-select, multi-select); read as text"
                            ),
                        );
                        VariableKind::Text
                    }
                },
            },
            Some(other) => {
                self.report(
                    Severity::Warning,
                    codes::INPUT_INVALID,
                    &child(path, "type"),
                    format!("a variable type should be a string, not {}; read as text", kind_of(other)),
                );
                VariableKind::Text
            }
        }
    }

    fn check_default(
        &mut self,
        name: &str,
        kind: VariableKind,
        default: Option<&Value>,
        allowed: Option<&[EnumValue]>,
        path: &str,
    ) {
        let Some(default) = default else { return };
        let allows = |v: &Value| allowed.is_none_or(|a| a.iter().any(|e| &e.value == v));
        let problem = match (kind, default) {
            (VariableKind::Text, Value::String(_)) => None,
            (VariableKind::SingleSelect, Value::String(_)) if allows(default) => None,
            (VariableKind::SingleSelect, Value::String(_)) => Some("is not one of its allowed values".to_owned()),
            (VariableKind::MultiSelect, Value::Array(items)) if items.iter().all(|i| i.is_string() && allows(i)) => {
                None
            }
            (VariableKind::MultiSelect, Value::Array(_)) => {
                Some("holds values that are not among its allowed values".to_owned())
            }
            (VariableKind::MultiSelect, other) => {
                Some(format!("should be an array of strings, not {}", kind_of(other)))
            }
            (_, other) => Some(format!("should be a string, not {}", kind_of(other))),
        };
        if let Some(problem) = problem {
            self.report(
                Severity::Warning,
                codes::INPUT_INVALID,
                &child(path, "default"),
                format!("the default of {} variable `{name}` {problem}; it is kept as written", kind.as_str()),
            );
        }
    }
}
