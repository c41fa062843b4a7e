//! How a parameter maps to a SkyDeck variable, for both sides: the three variable kinds, the
//! shape the writer gives a schema (with what the mapping changes or loses) and the allowed
//! values it finds. The reader uses the same mapping to tell whether a variable would be
//! written back as it was read.

use indexmap::IndexMap;
use serde_json::Value;
use toolport_plugin::definitions::{Budget, value_set_weight};
use toolport_plugin::{EnumValue, Schema, SchemaType, Severity, ValueSet, codes};

/// The three kinds of SkyDeck variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VariableKind {
    Text,
    SingleSelect,
    MultiSelect,
}

impl VariableKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            VariableKind::Text => "text",
            VariableKind::SingleSelect => "single-select",
            VariableKind::MultiSelect => "multi-select",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<VariableKind> {
        Some(match text {
            "text" => VariableKind::Text,
            "single-select" => VariableKind::SingleSelect,
            "multi-select" => VariableKind::MultiSelect,
            _ => return None,
        })
    }

    /// Spellings seen in the wild: other case, `_` or a space for `-`, and the Spanish page's
    /// translated names (`texto`, `selección-única`, `selección-múltiple`).
    pub(crate) fn parse_loosely(text: &str) -> Option<VariableKind> {
        let folded: String =
            text.trim().to_lowercase().chars().map(|c| if c == '_' || c == ' ' { '-' } else { c }).collect();
        Self::parse(&folded).or(match folded.as_str() {
            "texto" => Some(VariableKind::Text),
            "selección-única" | "seleccion-unica" => Some(VariableKind::SingleSelect),
            "selección-múltiple" | "seleccion-multiple" => Some(VariableKind::MultiSelect),
            _ => None,
        })
    }
}

/// A parameter as a SkyDeck variable, with what the mapping changed or lost.
#[derive(Debug)]
pub(crate) struct Shape {
    pub kind: VariableKind,
    pub allowed: Option<Vec<Value>>,
    pub default: Option<Value>,
    pub notes: Vec<Note>,
}

/// A change or loss of one parameter's mapping; `path` is relative to its schema.
#[derive(Debug)]
pub(crate) struct Note {
    pub(crate) severity: Severity,
    pub(crate) code: &'static str,
    pub(crate) path: &'static str,
    pub(crate) message: String,
}

impl Note {
    fn loss(path: &'static str, message: String) -> Note {
        Note { severity: Severity::Warning, code: codes::LOSS_SCHEMA, path, message }
    }

    fn changed(path: &'static str, message: String) -> Note {
        Note { severity: Severity::Warning, code: codes::CHANGED_SCHEMA, path, message }
    }
}

/// How a parameter's schema becomes a SkyDeck variable:
/// string → text; an enum (or a value set) → single-select of strings; an array of an enum →
/// multi-select; boolean → single-select of `"true"`/`"false"`; anything else (integer,
/// number, object, an array of non-enums, any type) → text, reported as a loss. A value set's
/// values are listed within the document's expansion `budget`: every file holds its own list,
/// so a large set used by many tools would multiply the output; past it the variable is text.
pub(crate) fn variable_shape(schema: &Schema, value_sets: &IndexMap<String, ValueSet>, budget: &Budget) -> Shape {
    let mut notes = Vec::new();
    let kind_name = schema.kind.map_or("any-type", SchemaType::as_str);
    let enum_of = |s: &Schema, path: &'static str, notes: &mut Vec<Note>| -> Option<Vec<Value>> {
        let entries: Vec<EnumValue> = match (&s.enumeration, &s.value_set) {
            (Some(values), _) => values.clone(),
            (None, Some(id)) => {
                let set = value_sets.get(id)?;
                if !budget.take(value_set_weight(set)) {
                    let at = if path == "enum" { "value_set" } else { "items/value_set" };
                    let message = format!(
                        "{}; the {} values of value set `{id}` were left out (any text is accepted)",
                        budget.describe(),
                        set.entries.len()
                    );
                    notes.push(Note::loss(at, message));
                    return None;
                }
                let entries = set.entries.clone();
                notes.push(Note::changed(
                    path,
                    format!("the values of value set `{id}` are written as its allowed values"),
                ));
                entries
            }
            (None, None) => return None,
        };
        if entries.iter().any(|e| e.label.is_some()) {
            notes.push(Note::loss(path, "SkyDeck allowed values have no labels; the labels were left out".into()));
        }
        if entries.iter().any(|e| !e.value.is_string()) {
            notes.push(Note::changed(
                path,
                "SkyDeck allowed values are strings; the values were written as text".into(),
            ));
        }
        Some(entries.iter().map(|e| stringify(&e.value)).collect())
    };

    let (kind, allowed) = match schema.kind {
        Some(SchemaType::Array) => {
            match schema.items.as_deref().and_then(|items| enum_of(items, "items/enum", &mut notes)) {
                Some(allowed) => (VariableKind::MultiSelect, Some(allowed)),
                None => {
                    notes.push(Note::loss(
                        "type",
                        "SkyDeck variables are text or selections; an array of free values becomes text".into(),
                    ));
                    (VariableKind::Text, None)
                }
            }
        }
        _ => match enum_of(schema, "enum", &mut notes) {
            Some(allowed) => {
                if !matches!(schema.kind, Some(SchemaType::String)) {
                    notes.push(Note::changed("type", format!("a {kind_name} enum becomes a single-select of strings")));
                }
                (VariableKind::SingleSelect, Some(allowed))
            }
            None => match schema.kind {
                Some(SchemaType::String) => (VariableKind::Text, None),
                Some(SchemaType::Boolean) => {
                    notes.push(Note::changed(
                        "type",
                        "a boolean becomes a single-select of \"true\" and \"false\"".into(),
                    ));
                    (VariableKind::SingleSelect, Some(vec!["true".into(), "false".into()]))
                }
                _ => {
                    notes.push(Note::loss(
                        "type",
                        format!("SkyDeck variables are text or selections; the {kind_name} parameter becomes text"),
                    ));
                    (VariableKind::Text, None)
                }
            },
        },
    };

    let default = match (schema.default.as_deref(), kind) {
        (None, _) => None,
        (Some(Value::Null), _) => {
            notes.push(Note::loss("default", "a null default has no SkyDeck form; it was left out".into()));
            None
        }
        (Some(Value::String(text)), VariableKind::MultiSelect) => {
            notes.push(Note::changed("default", "a multi-select default is an array; the value was wrapped".into()));
            Some(Value::Array(vec![Value::String(text.clone())]))
        }
        (Some(Value::String(text)), _) => Some(Value::String(text.clone())),
        (Some(Value::Array(items)), VariableKind::MultiSelect) => {
            if items.iter().any(|i| !i.is_string()) {
                notes.push(Note::changed("default", "the default's values were written as text".into()));
            }
            Some(Value::Array(items.iter().map(stringify).collect()))
        }
        (Some(other), VariableKind::MultiSelect) => {
            notes.push(Note::changed(
                "default",
                "a multi-select default is an array of strings; the value was wrapped".into(),
            ));
            Some(Value::Array(vec![stringify(other)]))
        }
        (Some(other), _) => {
            notes.push(Note::changed("default", format!("SkyDeck defaults are text; `{other}` was written as text")));
            Some(stringify(other))
        }
    };
    Shape { kind, allowed, default, notes }
}

/// A value as SkyDeck text: strings as they are, anything else as its JSON.
fn stringify(value: &Value) -> Value {
    match value {
        Value::String(_) => value.clone(),
        other => Value::String(other.to_string()),
    }
}

/// The allowed values of a variable's schema, as the writer finds them.
pub(crate) fn allowed_values(schema: &Schema) -> Option<Vec<Value>> {
    let values = match schema.kind {
        Some(SchemaType::Array) => schema.items.as_ref()?.enumeration.as_ref()?,
        _ => schema.enumeration.as_ref()?,
    };
    Some(values.iter().map(|v| v.value.clone()).collect())
}
