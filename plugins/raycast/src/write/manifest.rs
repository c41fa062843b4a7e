//! package.json: the extension's own keys and one entry per tool. A Raycast source's manifest is
//! given back with its own keys in its own order; any other source gets a fresh one shaped like
//! a real extension's (dependencies, scripts). Either way every key Raycast requires is there:
//! what the source lacks (title, icon, author, categories, license, a command, a tool's
//! description) is generated at its usual place and said in a diagnostic; what it has is kept.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Icon, ToolSet, Version, codes};

use crate::FORMAT_ID;
use crate::extension::TOOL_KEYS;

/// Versions a freshly written extension depends on (those of real extensions at the time).
const RAYCAST_API_VERSION: &str = "^1.104.0";

/// The icon a manifest without one names (`assets::placeholder_icons` writes its file).
const DEFAULT_ICON: &str = "extension-icon.png";

/// The name of the command a fresh extension gets (Raycast requires at least one).
pub(super) const AI_COMMAND: &str = "ai-tools";

/// A real extension's top-level keys in their usual order: a key the writer adds goes after the
/// last key before it here that the manifest has, so a source's own order is kept.
const KEY_ORDER: [&str; 17] = [
    "$schema",
    "name",
    "title",
    "description",
    "icon",
    "author",
    "contributors",
    "categories",
    "license",
    "version",
    "commands",
    "tools",
    "ai",
    "preferences",
    "dependencies",
    "devDependencies",
    "scripts",
];

/// package.json: the source's own manifest given back when it is Raycast's, else a fresh one;
/// either way with every key Raycast requires.
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
    let mut out = if from_raycast { as_read(mapped, set_extras) } else { fresh(mapped) };
    fill_required(&mut out, id, diagnostics);
    if !from_raycast {
        out.insert("dependencies".into(), json!({ "@raycast/api": RAYCAST_API_VERSION }));
        out.insert(
            "devDependencies".into(),
            json!({ "@types/node": "22.19.17", "@types/react": "19.0.10", "typescript": "^5.9.3" }),
        );
        out.insert("scripts".into(), json!({ "build": "ray build", "dev": "ray develop", "lint": "ray lint" }));
    }
    Value::Object(out)
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
fn as_read(mut mapped: IndexMap<&str, Value>, set_extras: &Map<String, Value>) -> Map<String, Value> {
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
    out
}

/// A fresh manifest's own keys; `fill_required` and `manifest` add the rest of a real
/// extension's.
fn fresh(mapped: IndexMap<&str, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("$schema".into(), Value::from("https://www.raycast.com/schemas/extension.json"));
    for key in ["name", "title", "description", "icon", "author", "version", "tools", "ai"] {
        if let Some(value) = mapped.get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    out
}

/// Whether the source's manifest lacks `commands`, so the manifest's command is the writer's own.
pub(super) fn commands_generated(set_extras: &Map<String, Value>) -> bool {
    lacking(set_extras.get("manifest").and_then(|m| m.get("commands")))
}

/// Whether a manifest value counts as missing for Raycast: absent, null, blank or empty.
fn lacking(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.trim().is_empty(),
        Some(Value::Array(items)) => items.is_empty(),
        Some(_) => false,
    }
}

/// Every top-level key Raycast requires that the manifest lacks, filled with a generated value at
/// its usual place, each said in a diagnostic (the icon's by `assets::placeholder_icons`, which
/// writes its file); a value the manifest has is never replaced. Commands the manifest has get the
/// keys Raycast requires of a command.
fn fill_required(out: &mut Map<String, Value>, id: &str, diagnostics: &mut Vec<Diagnostic>) {
    let mut fill = |out: &mut Map<String, Value>, key: &str, path: &str, value: Value, written: String| {
        if !lacking(out.get(key)) {
            return;
        }
        let why = if out.contains_key(key) { format!("`{key}` is empty") } else { format!("there is no `{key}`") };
        let message = format!("{why}, and Raycast requires one: {written}");
        diagnostics.push(if key == "author" {
            Diagnostic::warning(codes::GENERATED_PLACEHOLDER, path, message)
        } else if key == "description" {
            // What the model reads of the extension, made up: a warning like a tool's.
            Diagnostic::warning(codes::GENERATED, path, message)
        } else {
            Diagnostic::info(codes::GENERATED, path, message)
        });
        insert_in_order(out, key, value);
    };
    let title = title_case(id);
    fill(out, "title", "/title", Value::from(title.as_str()), format!("`{title}` is made from the name"));
    let title = out["title"].as_str().unwrap_or(id).to_owned();
    fill(out, "description", "/description", Value::from(title.as_str()), "the title is used".into());
    if lacking(out.get("icon")) {
        insert_in_order(out, "icon", Value::from(DEFAULT_ICON));
    }
    let author = "author `unknown` is a placeholder: set your Raycast user name".into();
    fill(out, "author", "/creator", Value::from("unknown"), author);
    let categories = "categories [\"Other\"] is written; choose the extension's own".into();
    fill(out, "categories", &kept_key_path("categories"), json!(["Other"]), categories);
    let license = "license `MIT` is written (its Store accepts MIT only)".into();
    fill(out, "license", &kept_key_path("license"), Value::from("MIT"), license);
    let command = json!([{
        "name": AI_COMMAND,
        "title": "AI Tools",
        "description": format!("How to use {title} from Raycast AI"),
        "mode": "no-view"
    }]);
    let said =
        format!("command `{AI_COMMAND}` (src/{AI_COMMAND}.ts) is written, saying to use the tools from Raycast AI");
    fill(out, "commands", &kept_key_path("commands"), command, said);
    if let Some(Value::Array(commands)) = out.get_mut("commands") {
        for (index, command) in commands.iter_mut().enumerate() {
            if let Value::Object(command) = command {
                fill_command(command, &child(&kept_key_path("commands"), index.to_string()), diagnostics);
            }
        }
    }
}

/// A command's title, description and mode when it lacks them (Raycast requires each).
fn fill_command(command: &mut Map<String, Value>, path: &str, diagnostics: &mut Vec<Diagnostic>) {
    let name = command.get("name").and_then(Value::as_str).unwrap_or("command").to_owned();
    if lacking(command.get("title")) {
        let title = title_case(&name);
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            child(path, "title"),
            format!("command title `{title}` made from its name (Raycast requires one)"),
        ));
        command.insert("title".into(), Value::from(title));
    }
    if lacking(command.get("description")) {
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            child(path, "description"),
            "the command had no description; its title is used (Raycast requires one)",
        ));
        let title = command["title"].clone();
        command.insert("description".into(), title);
    }
    if lacking(command.get("mode")) {
        // The command's source is not carried: the stub written for it is a no-view command.
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            child(path, "mode"),
            "the command had no mode; `no-view` is written (Raycast requires one)",
        ));
        command.insert("mode".into(), Value::from("no-view"));
    }
}

/// Where the model keeps a package.json key it has no field for.
fn kept_key_path(key: &str) -> String {
    child(&format!("/extras/{FORMAT_ID}/manifest"), key)
}

/// Sets `key` in place when the manifest has it, else after the last key before it in
/// `KEY_ORDER` that the manifest has (first when none is).
fn insert_in_order(out: &mut Map<String, Value>, key: &str, value: Value) {
    if let Some(slot) = out.get_mut(key) {
        *slot = value;
        return;
    }
    let before = &KEY_ORDER[..KEY_ORDER.iter().position(|k| *k == key).unwrap_or(KEY_ORDER.len())];
    let index = out.keys().rposition(|k| before.contains(&k.as_str())).map_or(0, |i| i + 1);
    out.shift_insert(index, key.to_owned(), value);
}

/// One `tools` entry per tool; entries the reader could not read go back at their places.
pub(super) fn tool_entries(
    model: &ToolSet,
    file_names: &[String],
    set_extras: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Value> {
    let mut entries = Vec::new();
    for (index, tool) in model.tools.iter().enumerate() {
        let path = child("/tools", index.to_string());
        let tool_extras = tool.extras.get(FORMAT_ID).and_then(Value::as_object);
        let mut entry = Map::new();
        entry.insert("name".into(), Value::from(file_names[index].as_str()));
        // An empty title or description is none: Raycast requires both.
        let given = |text: &Option<String>| text.clone().filter(|t| !t.trim().is_empty());
        let title = given(&tool.title).unwrap_or_else(|| {
            let title = title_case(&file_names[index]);
            // Made up where Raycast requires one: a warning, so it is seen and replaced.
            diagnostics.push(Diagnostic::warning(
                codes::GENERATED,
                child(&path, "title"),
                format!("tool title `{title}` made from its name (Raycast requires one)"),
            ));
            title
        });
        entry.insert("title".into(), Value::from(title.as_str()));
        let description_in_code = tool_extras.is_some_and(|e| e.get("description_in_code") == Some(&Value::Bool(true)));
        let description = match given(&tool.description) {
            Some(description) if description_in_code => {
                diagnostics.push(Diagnostic::info(
                    codes::GENERATED,
                    child(&path, "description"),
                    "package.json had no description for the tool (Raycast requires one): the one its TypeScript gives is written there too",
                ));
                description
            }
            Some(description) => description,
            None => {
                diagnostics.push(Diagnostic::warning(
                    codes::GENERATED,
                    child(&path, "description"),
                    "the tool had no description; its title is used (Raycast requires one)",
                ));
                title
            }
        };
        entry.insert("description".into(), Value::from(description));
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
