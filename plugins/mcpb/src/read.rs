//! Reading an MCPB manifest into the model, mirrored by [`crate::write`]: `name` is the tool
//! set's id, `display_name` its title, `version`, `description`, `author` (its creator) and
//! `icon` map, and each of `tools` is a tool with a name and a description and no parameters
//! (the manifest has none). Every other key (`server`, `user_config`, `prompts`, …) is kept
//! as written under `extras["mcpb"]["manifest"]`, in the manifest's order, for a same-format
//! write.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::read::{
    Kept, Reading, ToolKeys, check_name, keep_unknown, optional_string, tool_name, tool_object,
};
use toolport_plugin::source::child;
use toolport_plugin::{Creator, Diagnostic, Icon, Outcome, Tool, ToolSet, Version, codes};

use crate::write::NAME_RULES;
use crate::{MCPB, not_a_manifest};

/// Whether `value` is an MCPB (or DXT) manifest: an object with its manifest version and a
/// server or a tool list.
pub fn is_manifest(value: &Value) -> bool {
    let Some(map) = value.as_object() else { return false };
    let versioned = ["manifest_version", "dxt_version"].iter().any(|k| map.get(*k).is_some_and(Value::is_string));
    versioned && (map.get("server").is_some_and(Value::is_object) || map.get("tools").is_some_and(Value::is_array))
}

/// The keys the model maps: kept as `null` in the kept manifest, marking their place.
const MAPPED: [&str; 7] = ["name", "display_name", "version", "description", "author", "icon", "tools"];

const TOOL_KEYS: ToolKeys = ToolKeys { format: MCPB, what: "tool", known: &["name", "description"], quiet: &[] };

/// The manifest at the root of `source`.
pub fn document(source: &Source) -> Outcome<ToolSet> {
    if !is_manifest(&source.value) {
        return Outcome::fail(source.at(not_a_manifest("", "an MCPB manifest")));
    }
    manifest(source)
}

/// The manifest at the root of `source`, known to be one.
pub fn manifest(source: &Source) -> Outcome<ToolSet> {
    let mut reading = Reading::new(source);
    let map = source.value.as_object().cloned().unwrap_or_default();
    let mut kept = Map::new();
    for (key, value) in &map {
        let read = MAPPED.contains(&key.as_str()) && read_key(&mut reading, key, value);
        kept.insert(key.clone(), if read { Value::Null } else { value.clone() });
    }
    reading.set_extras.insert("manifest".into(), Value::Object(kept));
    reading.finish(MCPB)
}

/// Reads one mapped key into the model; `false` (with a warning) when its value is not of the
/// kind the manifest's schema gives it, so it is kept as written.
fn read_key(reading: &mut Reading, key: &str, value: &Value) -> bool {
    let path = child("", key);
    let text = value.as_str().map(str::to_owned);
    let read = if key == "tools" {
        read_tools(reading, value, &path)
    } else {
        let model = &mut reading.model;
        match key {
            "name" => text.map(|t| model.id = Some(t)).is_some(),
            "display_name" => text.map(|t| model.title = Some(t)).is_some(),
            "description" => text.map(|t| model.description = Some(t)).is_some(),
            "version" => text.map(|t| model.version = Some(Version::Text(t))).is_some(),
            "icon" => text
                .map(|t| {
                    let web = t.starts_with("https://") || t.starts_with("http://");
                    model.icon = Some(if web { Icon::Url { url: t } } else { Icon::Path { path: t } });
                })
                .is_some(),
            "author" => author(value).map(|creator| model.creator = Some(creator)).is_some(),
            _ => false,
        }
    };
    if !read {
        let shape = if key == "tools" {
            "a list"
        } else if key == "author" {
            "an object of name, email and url"
        } else {
            "a string"
        };
        reading.diagnostics.push(reading.source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            path,
            format!("`{key}` should be {shape}; kept as written"),
        )));
    }
    read
}

/// `tools` as a list of tools; `false` when it is not a list.
fn read_tools(reading: &mut Reading, value: &Value, path: &str) -> bool {
    let Some(items) = value.as_array() else { return false };
    for (i, item) in items.iter().enumerate() {
        let at = child(path, i.to_string());
        if let Some(tool) = read_tool(reading.source, item, &at, &mut reading.diagnostics) {
            reading.add(tool, "tool name", child(&at, "name"));
        }
    }
    true
}

/// An author of string `name`, `email` and `url` only; anything else is kept as written.
fn author(value: &Value) -> Option<Creator> {
    let map = value.as_object()?;
    let mut creator = Creator::default();
    for (key, value) in map {
        let text = Some(value.as_str()?.to_owned());
        match key.as_str() {
            "name" => creator.name = text,
            "email" => creator.email = text,
            "url" => creator.url = text,
            _ => return None,
        }
    }
    Some(creator)
}

fn read_tool(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let map = tool_object(source, value, path, "tool", diagnostics)?;
    let name = tool_name(source, map, path, "tool", diagnostics)?;
    check_name(source, &name, NAME_RULES, "tool", "MCP", path, diagnostics);
    let mut kept = Kept::default();
    let mut tool = Tool::new(name);
    tool.description = optional_string(source, map, "description", path, &mut kept.keep, diagnostics);
    keep_unknown(source, map, &TOOL_KEYS, path, kept, &mut tool, diagnostics);
    Some(tool)
}
