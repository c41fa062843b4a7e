//! `info` → the tool set's title, description, version and creator.

use serde_json::{Map, Value};
use toolport_plugin::{Creator, Diagnostic, ToolSet, Version, codes};

/// Reads `info` into `set`; keys the model has no place for go to `extras["info"]`.
pub(super) fn read_info(
    info: Option<&Value>,
    set: &mut ToolSet,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(info) = info.and_then(Value::as_object) else {
        diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, "/info", "the document has no `info` object"));
        return;
    };
    let mut leftovers = Map::new();
    for (key, value) in info {
        match (key.as_str(), value) {
            ("title", Value::String(s)) => set.title = Some(s.clone()),
            ("description", Value::String(s)) => set.description = Some(s.clone()),
            ("version", Value::String(s)) => set.version = Some(Version::Text(s.clone())),
            ("contact", Value::Object(contact)) => {
                let text = |k: &str| contact.get(k).and_then(Value::as_str).map(str::to_owned);
                let organization = text("x-toolport-organization");
                set.creator =
                    Some(Creator { name: text("name"), email: text("email"), url: text("url"), organization });
                let others: Map<String, Value> = contact
                    .iter()
                    .filter(|(k, v)| {
                        !matches!(k.as_str(), "name" | "email" | "url" | "x-toolport-organization") || !v.is_string()
                    })
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if !others.is_empty() {
                    leftovers.insert("x-toolport-contact".into(), Value::Object(others));
                }
            }
            _ => {
                leftovers.insert(key.clone(), value.clone());
            }
        }
    }
    if !leftovers.is_empty() {
        extras.insert("info".into(), Value::Object(leftovers));
    }
}
