//! The tool set's title, description, version and creator → `info`.

use serde_json::{Map, Value};
use toolport_plugin::{Diagnostic, ToolSet, codes};

/// The document's `info`, with the keys the source had that the model has no place for.
/// `ext` is the set's `extras["openapi"]`; `fallback_title` is the title when the set has
/// neither title nor id.
pub(super) fn write_info(
    set: &ToolSet,
    ext: &Map<String, Value>,
    fallback_title: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> Map<String, Value> {
    let mut info = Map::new();
    let empty = Map::new();
    let info_ext = ext.get("info").and_then(Value::as_object).unwrap_or(&empty);
    let title = match (&set.title, &set.id) {
        (Some(title), _) => title.clone(),
        (None, source) => {
            let title = source.clone().or_else(|| fallback_title.map(str::to_owned)).unwrap_or_else(|| "API".into());
            out.push(Diagnostic::info(
                codes::GENERATED,
                "/title",
                format!("OpenAPI needs `info.title`: `{title}` was made from the tool set's id or the file name"),
            ));
            title
        }
    };
    info.insert("title".into(), Value::String(title));
    if let Some(d) = &set.description {
        info.insert("description".into(), Value::from(d.as_str()));
    }
    match &set.version {
        Some(v) => drop(info.insert("version".into(), Value::String(v.to_string()))),
        None => {
            out.push(Diagnostic::info(codes::GENERATED, "/version", "OpenAPI needs `info.version`: written as 1.0.0"));
            info.insert("version".into(), Value::from("1.0.0"));
        }
    }
    if let Some(creator) = &set.creator {
        let mut contact = Map::new();
        for (key, value) in [("name", &creator.name), ("url", &creator.url), ("email", &creator.email)] {
            if let Some(v) = value {
                contact.insert(key.into(), Value::from(v.as_str()));
            }
        }
        if let Some(org) = &creator.organization {
            contact.insert("x-toolport-organization".into(), Value::from(org.as_str()));
        }
        if let Some(Value::Object(rest)) = info_ext.get("x-toolport-contact") {
            contact.extend(rest.clone());
        }
        info.insert("contact".into(), Value::Object(contact));
    }
    for (k, v) in info_ext {
        if k != "x-toolport-contact" {
            info.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    // From a Vertex body, the set's description is the body's; the spec's own is in specInfo.
    let spec_info = set.extras.get("vertex").and_then(|v| v.get("specInfo"));
    if set.extras.contains_key("vertex") && spec_info.is_none_or(|i| i.get("description").is_none()) {
        info.shift_remove("description");
    }
    if let Some(Value::Object(overrides)) = spec_info {
        for (k, v) in overrides {
            info.insert(k.clone(), v.clone());
        }
    }
    info
}
