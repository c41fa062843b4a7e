//! package.json: the extension's own keys and one entry per tool. A Raycast source's manifest is
//! given back with its own keys in its own order; any other source gets a fresh one shaped like
//! a real extension's (icon, author, categories, the command Raycast requires, dependencies),
//! each generated value said in a diagnostic.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Icon, ToolSet, Version, codes};

use crate::FORMAT_ID;
use crate::extension::TOOL_KEYS;

/// Versions a freshly written extension depends on (those of real extensions at the time).
const RAYCAST_API_VERSION: &str = "^1.104.0";

/// The icon a fresh extension names, and the 512x512 placeholder written for it.
pub(super) const DEFAULT_ICON: &str = "extension-icon.png";
pub(super) const DEFAULT_ICON_PNG: &[u8] = include_bytes!("extension-icon.png");

/// The name of the command a fresh extension gets (Raycast requires at least one).
pub(super) const AI_COMMAND: &str = "ai-tools";

/// package.json: the source's own manifest given back when it is Raycast's, else a fresh one.
pub(super) fn manifest(
    model: &ToolSet,
    id: &str,
    tools: Vec<Value>,
    ai: Option<Value>,
    set_extras: &Map<String, Value>,
    from_raycast: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let mapped = mapped_keys(model, id, tools, ai, set_extras, diagnostics);
    if from_raycast { as_read(mapped, set_extras) } else { fresh(mapped, id, diagnostics) }
}

/// The keys the model maps, in the manifest's usual order.
fn mapped_keys(
    model: &ToolSet,
    id: &str,
    tools: Vec<Value>,
    ai: Option<Value>,
    set_extras: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> IndexMap<&'static str, Value> {
    let mut mapped: IndexMap<&str, Value> = IndexMap::new();
    mapped.insert("name", Value::from(id));
    if let Some(title) = &model.title {
        mapped.insert("title", Value::from(title.as_str()));
    }
    if let Some(description) = &model.description {
        mapped.insert("description", Value::from(description.as_str()));
    }
    if let Some(icon) = &model.icon
        && let Some(value) = icon_value(icon, "/icon", diagnostics)
    {
        mapped.insert("icon", value);
    }
    if let Some(creator) = &model.creator {
        let author_object = set_extras.get("author_object") == Some(&Value::Bool(true));
        if author_object {
            let mut author = Map::new();
            for (key, value) in [("name", &creator.name), ("email", &creator.email), ("url", &creator.url)] {
                if let Some(value) = value {
                    author.insert(key.into(), Value::from(value.as_str()));
                }
            }
            mapped.insert("author", Value::Object(author));
        } else if let Some(name) = &creator.name {
            mapped.insert("author", Value::from(name.as_str()));
            for (key, value) in
                [("email", &creator.email), ("organization", &creator.organization), ("url", &creator.url)]
            {
                if value.is_some() {
                    diagnostics.push(Diagnostic::loss(
                        codes::LOSS_FIELD,
                        child("/creator", key),
                        format!("a Raycast author is a Raycast user name; the creator's {key} is left out"),
                    ));
                }
            }
        }
    }
    if let Some(version) = &model.version {
        mapped.insert(
            "version",
            match version {
                Version::Text(s) => Value::from(s.as_str()),
                Version::Integer(n) => Value::from(n.to_string()),
            },
        );
    }
    mapped.insert("tools", Value::Array(tools));
    if let Some(ai) = ai {
        mapped.insert("ai", ai);
    }
    mapped
}

/// A Raycast source's manifest: its keys in its order, the kept ones as they were.
fn as_read(mut mapped: IndexMap<&str, Value>, set_extras: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    let kept = set_extras.get("manifest").and_then(Value::as_object).cloned().unwrap_or_default();
    let order = set_extras.get("key_order").and_then(Value::as_array).cloned().unwrap_or_default();
    for key in order.iter().filter_map(Value::as_str) {
        if let Some(value) = mapped.shift_remove(key) {
            out.insert(key.to_owned(), value);
        } else if let Some(value) = kept.get(key) {
            out.insert(key.to_owned(), value.clone());
        }
    }
    for (key, value) in kept {
        if !out.contains_key(&key) {
            out.insert(key, value);
        }
    }
    for (key, value) in mapped {
        // An empty `tools` the source did not have stays absent.
        if key != "tools" || value.as_array().is_some_and(|t| !t.is_empty()) {
            out.insert(key.to_owned(), value);
        }
    }
    Value::Object(out)
}

/// A fresh manifest, shaped like a real extension's.
fn fresh(mut mapped: IndexMap<&str, Value>, id: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let mut out = Map::new();
    out.insert("$schema".into(), Value::from("https://www.raycast.com/schemas/extension.json"));
    let title = mapped.shift_remove("title").unwrap_or_else(|| {
        diagnostics.push(Diagnostic::info(codes::GENERATED, "/title", "the extension title is made from its name"));
        Value::from(title_case(id))
    });
    let description = mapped.shift_remove("description").unwrap_or_else(|| {
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            "/description",
            "the extension description is made from its title",
        ));
        title.clone()
    });
    out.insert("name".into(), mapped.shift_remove("name").unwrap_or_else(|| Value::from(id)));
    out.insert("title".into(), title);
    out.insert("description".into(), description);
    let icon = mapped.shift_remove("icon").unwrap_or_else(|| {
        diagnostics.push(Diagnostic::warning(
            codes::GENERATED_PLACEHOLDER,
            "/icon",
            format!("the source has no icon: a placeholder is written as assets/{DEFAULT_ICON}; replace it with your own 512x512 PNG before publishing"),
        ));
        Value::from(DEFAULT_ICON)
    });
    out.insert("icon".into(), icon);
    let author = mapped.shift_remove("author").unwrap_or_else(|| {
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            "/creator",
            "author `unknown` is a placeholder: set your Raycast user name",
        ));
        Value::from("unknown")
    });
    out.insert("author".into(), author);
    out.insert("categories".into(), json!(["Other"]));
    out.insert("license".into(), Value::from("MIT"));
    if let Some(version) = mapped.shift_remove("version") {
        out.insert("version".into(), version);
    }
    diagnostics.push(Diagnostic::info(
        codes::GENERATED,
        "/tools",
        format!("command `{AI_COMMAND}` (src/{AI_COMMAND}.ts) is written: Raycast requires a command; it says to use the tools from Raycast AI"),
    ));
    out.insert(
        "commands".into(),
        json!([{
            "name": AI_COMMAND,
            "title": "AI Tools",
            "description": format!("How to use {} from Raycast AI", out["title"].as_str().unwrap_or(id)),
            "mode": "no-view"
        }]),
    );
    out.insert("tools".into(), mapped.shift_remove("tools").unwrap_or_else(|| json!([])));
    if let Some(ai) = mapped.shift_remove("ai") {
        out.insert("ai".into(), ai);
    }
    out.insert("dependencies".into(), json!({ "@raycast/api": RAYCAST_API_VERSION }));
    out.insert(
        "devDependencies".into(),
        json!({ "@types/node": "22.19.17", "@types/react": "19.0.10", "typescript": "^5.9.3" }),
    );
    out.insert("scripts".into(), json!({ "build": "ray build", "dev": "ray develop", "lint": "ray lint" }));
    Value::Object(out)
}

/// One `tools` entry per tool; entries the reader could not read go back at their places.
pub(super) fn tool_entries(
    model: &ToolSet,
    file_names: &[String],
    set_extras: &Map<String, Value>,
    from_raycast: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Value> {
    let mut entries = Vec::new();
    for (index, tool) in model.tools.iter().enumerate() {
        let path = child("/tools", index.to_string());
        let tool_extras = tool.extras.get(FORMAT_ID).and_then(Value::as_object);
        let mut entry = Map::new();
        entry.insert("name".into(), Value::from(file_names[index].as_str()));
        // An empty title or description is none (Raycast requires both) unless the source is Raycast's.
        let given = |text: &Option<String>| text.clone().filter(|t| from_raycast || !t.trim().is_empty());
        match &given(&tool.title) {
            Some(title) => {
                entry.insert("title".into(), Value::from(title.as_str()));
            }
            None if !from_raycast => {
                let title = title_case(&file_names[index]);
                diagnostics.push(Diagnostic::info(
                    codes::GENERATED,
                    child(&path, "title"),
                    format!("tool title `{title}` made from its name (Raycast requires one)"),
                ));
                entry.insert("title".into(), Value::from(title));
            }
            None => {}
        }
        let description_in_code = tool_extras.is_some_and(|e| e.get("description_in_code") == Some(&Value::Bool(true)));
        match &given(&tool.description) {
            Some(description) if !description_in_code => {
                entry.insert("description".into(), Value::from(description.as_str()));
            }
            None if !from_raycast => {
                let title = entry["title"].as_str().unwrap_or(&tool.name).to_owned();
                diagnostics.push(Diagnostic::info(
                    codes::GENERATED,
                    child(&path, "description"),
                    "the tool had no description; its title is used (Raycast requires one)",
                ));
                entry.insert("description".into(), Value::from(title));
            }
            _ => {}
        }
        if let Some(icon) = &tool.icon
            && let Some(value) = icon_value(icon, &child(&path, "icon"), diagnostics)
        {
            entry.insert("icon".into(), value);
        }
        if let Some(notes) = &tool.usage_notes {
            entry.insert("instructions".into(), Value::from(notes.as_str()));
        }
        if let Some(Value::Object(kept)) = tool_extras.and_then(|e| e.get("manifest")) {
            for (key, value) in kept {
                if !TOOL_KEYS.contains(&key.as_str()) {
                    entry.insert(key.clone(), value.clone());
                }
            }
        }
        entries.push(Value::Object(entry));
    }
    for item in set_extras.get("invalid_tools").and_then(Value::as_array).into_iter().flatten() {
        if let (Some(i), Some(value)) = (item.get(0).and_then(Value::as_u64), item.get(1)) {
            let i = (i as usize).min(entries.len());
            entries.insert(i, value.clone());
        }
    }
    entries
}

fn icon_value(icon: &Icon, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Value> {
    match icon {
        Icon::Path { path } => Some(Value::from(path.as_str())),
        Icon::Url { .. } | Icon::Base64 { .. } => {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_FIELD,
                path,
                "raycast icons are files in assets/; an icon URL or inline data is left out",
            ));
            None
        }
    }
}

fn title_case(name: &str) -> String {
    name.split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
