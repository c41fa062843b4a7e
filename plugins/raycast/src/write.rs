//! Writing an extension directory a developer can build: package.json, the AI file when the
//! source had one, tsconfig.json and one `src/tools/<name>.ts` per tool with a typed `Input`,
//! JSDoc for every description, a `confirmation` export and a body (a `fetch` call when the
//! tool has an HTTP binding, else an explicit "not implemented" error).

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::{NameMap, NameRules, sanitize};
use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Diagnostic, Icon, Options, Outcome, ToolSet, Version, codes};

use crate::FORMAT_ID;
use crate::extension::{TOOL_KEYS, is_safe_name};

mod code;
pub mod evals;
mod http;
mod types;

pub use code::GENERATED_STUB;
pub use http::{HELPER, HELPER_PATH};

const CARRIED: Carried = Carried {
    tool_set: &[
        "id",
        "title",
        "description",
        "instructions",
        "version",
        "creator",
        "icon",
        "servers",
        "examples",
        "value_sets",
        "extras",
    ],
    tool: &["title", "description", "usage_notes", "icon", "confirmation", "hints", "http"],
    parameter: &["required", "location"],
    schema: &[
        "type",
        "nullable",
        "description",
        "default",
        "enum",
        "value_set",
        "examples",
        "items",
        "properties",
        "additional_properties",
        "any_of",
    ],
    example: &["prompt", "mocks", "expected", "used_as_example", "extras"],
};

/// Versions a freshly written extension depends on (those of real extensions at the time).
const RAYCAST_API_VERSION: &str = "^1.104.0";

pub fn write(model: &ToolSet, options: &Options) -> Outcome<Bundle> {
    // Raycast's TypeScript types are written inline: references are inlined first, so only
    // real losses (a recursive definition cut short) are reported.
    let (resolved, cuts) = toolport_plugin::definitions::resolve(model);
    let model = &resolved;
    let mut diagnostics = uncarried(model, FORMAT_ID, &CARRIED);
    diagnostics.extend(cuts);
    let set_extras = model.extras.get(FORMAT_ID).and_then(Value::as_object).cloned().unwrap_or_default();
    let from_raycast = set_extras.contains_key("manifest") || set_extras.contains_key("no_package_json");

    // Tool file names: names that are already safe stay; others are slugged, never colliding.
    let file_names = tool_file_names(model, from_raycast, &mut diagnostics);
    let rename = |name: &str| -> String {
        model.tools.iter().position(|t| t.name == name).map_or_else(|| name.to_owned(), |i| file_names[i].clone())
    };

    let id = extension_id(model, options, from_raycast, &mut diagnostics);
    let mut bundle = Bundle::default();

    // ai: instructions and evals, plus whatever the source's ai object had besides.
    let ai = ai_object(model, &set_extras, &id, from_raycast, &rename, &mut diagnostics);
    let ai_source = set_extras.get("ai_source").and_then(Value::as_str);
    let ai_in_package = match ai_source {
        Some(file) if file != "package.json" => {
            let mut document = ai.unwrap_or_else(|| json!({}));
            if set_extras.get("ai_wrapped").is_some_and(|w| w == &Value::Bool(true)) {
                let mut wrapped = Map::new();
                wrapped.insert("ai".into(), document);
                if let Some(Value::Object(other)) = set_extras.get("ai_file_other") {
                    wrapped.extend(other.clone());
                }
                document = Value::Object(wrapped);
            }
            let text = if file.ends_with(".yaml") {
                toolport_plugin::yaml::to_string(&document).unwrap_or_default()
            } else {
                pretty(&document)
            };
            bundle.insert(file, text);
            set_extras.get("package_ai").cloned()
        }
        _ => ai,
    };

    let tools = tool_entries(model, &file_names, &set_extras, from_raycast, &mut diagnostics);
    let package = if from_raycast && set_extras.contains_key("no_package_json") {
        None
    } else {
        Some(manifest(model, &id, tools, ai_in_package, &set_extras, from_raycast, &mut diagnostics))
    };
    if let Some(package) = &package {
        bundle.insert("package.json", pretty(package));
        // The manifest names an icon Raycast must find in assets/: the placeholder when it is
        // the one the writer chose (a source's own icon file is not part of its model).
        if package.get("icon").and_then(Value::as_str) == Some(DEFAULT_ICON) && !from_raycast {
            bundle.binary_files.insert(format!("assets/{DEFAULT_ICON}"), DEFAULT_ICON_PNG.to_vec());
        }
    }
    bundle.insert("tsconfig.json", pretty(&tsconfig()));
    let mut requests = false;
    for (index, tool) in model.tools.iter().enumerate() {
        let path = format!("src/tools/{}.ts", file_names[index]);
        let (text, request) = code::tool_source(model, index, tool, &mut diagnostics);
        requests |= request;
        bundle.insert(path, text);
    }
    if requests {
        bundle.insert(http::HELPER_PATH, http::HELPER);
    }
    if let Some(package) = &package {
        command_sources(package, from_raycast, &id, &file_names, &mut bundle, &mut diagnostics);
    }
    Outcome::ok(bundle, diagnostics)
}

/// The icon a fresh extension names, and the 512x512 placeholder written for it.
const DEFAULT_ICON: &str = "extension-icon.png";
const DEFAULT_ICON_PNG: &[u8] = include_bytes!("write/extension-icon.png");

/// The name of the command a fresh extension gets (Raycast requires at least one).
const AI_COMMAND: &str = "ai-tools";

/// A source file for every command the manifest names: the generated command of a fresh
/// extension, or a stub for a command whose source the model does not carry.
fn command_sources(
    package: &Value,
    from_raycast: bool,
    id: &str,
    tool_names: &[String],
    bundle: &mut Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let commands = package.get("commands").and_then(Value::as_array).into_iter().flatten();
    for (index, command) in commands.enumerate() {
        let Some(name) = command.get("name").and_then(Value::as_str).filter(|n| is_safe_name(n)) else { continue };
        let path = format!("src/{name}.ts");
        if !from_raycast && name == AI_COMMAND {
            bundle.insert(path, code::ai_command(id, tool_names));
            continue;
        }
        diagnostics.push(Diagnostic::warning(
            code::GENERATED_STUB,
            format!("/extras/{FORMAT_ID}/manifest/commands/{index}"),
            format!("command `{name}` is written as a stub that throws \"not implemented\": its source is not part of the model"),
        ));
        bundle.insert(path, code::command_stub(name));
    }
}

pub fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// File names for the tools: a Raycast source's names stay when they are safe file names
/// (real extensions use camelCase too); others become kebab-case slugs.
fn tool_file_names(model: &ToolSet, from_raycast: bool, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let keeps = |name: &str| from_raycast && is_safe_name(name);
    // macOS file systems ignore case: compare names case-insensitively.
    let mut taken: HashSet<String> =
        model.tools.iter().filter(|t| keeps(&t.name)).map(|t| t.name.to_ascii_lowercase()).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut slugs = NameMap::new(NameRules::FILE_SLUG);
    let mut out = Vec::new();
    for (index, tool) in model.tools.iter().enumerate() {
        let keep = keeps(&tool.name) && seen.insert(tool.name.to_ascii_lowercase());
        let name = if keep {
            tool.name.clone()
        } else {
            let mut name = slugs.assign(&tool.name);
            let mut attempt = 2;
            while taken.contains(&name.to_ascii_lowercase()) {
                name = slugs.assign(&format!("{}#{attempt}", tool.name));
                attempt += 1;
            }
            taken.insert(name.to_ascii_lowercase());
            diagnostics.push(Diagnostic::warning(
                codes::CHANGED_NAME,
                child(&child("/tools", index.to_string()), "name"),
                format!(
                    "tool `{}` is written as `{name}`: Raycast tool names are file names (src/tools/{name}.ts)",
                    tool.name
                ),
            ));
            name
        };
        out.push(name);
    }
    out
}

fn extension_id(model: &ToolSet, options: &Options, from_raycast: bool, diagnostics: &mut Vec<Diagnostic>) -> String {
    if from_raycast && let Some(id) = &model.id {
        return id.clone();
    }
    let source =
        model.id.clone().or_else(|| model.title.clone()).unwrap_or_else(|| options.output_name("extension").to_owned());
    let id = sanitize(&source, &NameRules::FILE_SLUG);
    if model.id.as_deref() != Some(id.as_str()) {
        let message = match &model.id {
            Some(original) => {
                format!("extension name `{original}` is written as `{id}` (Raycast names are kebab-case)")
            }
            None => format!("the source has no id; the extension is named `{id}`"),
        };
        let code = if model.id.is_some() { codes::CHANGED_NAME } else { codes::GENERATED };
        diagnostics.push(Diagnostic::new(toolport_plugin::Severity::Info, code, "/id", message));
    }
    id
}

fn ai_object(
    model: &ToolSet,
    set_extras: &Map<String, Value>,
    id: &str,
    from_raycast: bool,
    rename: &dyn Fn(&str) -> String,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Value> {
    if let Some(verbatim) = set_extras.get("ai_verbatim") {
        return Some(verbatim.clone());
    }
    let had_ai = set_extras.contains_key("ai_source");
    if !had_ai && model.instructions.is_none() && model.examples.is_empty() {
        return None;
    }
    let mut ai = Map::new();
    let mut evals_value = None;
    if !model.examples.is_empty() {
        let mut examples = model.examples.clone();
        if !from_raycast {
            // Raycast evals address the extension as `@name`.
            let mention = format!("@{id}");
            for (i, example) in examples.iter_mut().enumerate() {
                if !example.prompt.contains(&mention) {
                    example.prompt = format!("{mention} {}", example.prompt);
                    diagnostics.push(Diagnostic::info(
                        codes::CHANGED_VALUE,
                        child(&child("/examples", i.to_string()), "prompt"),
                        format!("the prompt now starts with `{mention}`: Raycast evals mention the extension"),
                    ));
                }
            }
        }
        for (i, example) in examples.iter().enumerate() {
            let path = child("/examples", i.to_string());
            for call in example.called_tools() {
                if model.tool(&call.tool).is_none() {
                    diagnostics.push(Diagnostic::warning(
                        codes::INPUT_UNRESOLVED,
                        child(&path, "expected"),
                        format!("the eval expects a call to `{}`, which is not one of the tools", call.tool),
                    ));
                }
            }
        }
        evals_value = Some(evals::write_evals(&examples, rename));
    }
    let evals_first = set_extras.get("ai_evals_first").is_some_and(|v| v == &Value::Bool(true));
    if evals_first && let Some(evals) = evals_value.take() {
        ai.insert("evals".into(), evals);
    }
    if let Some(instructions) = &model.instructions {
        ai.insert("instructions".into(), Value::from(instructions.as_str()));
    }
    if let Some(evals) = evals_value {
        ai.insert("evals".into(), evals);
    }
    if let Some(Value::Object(other)) = set_extras.get("ai_other") {
        ai.extend(other.clone());
    }
    Some(Value::Object(ai))
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

fn tool_entries(
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

fn manifest(
    model: &ToolSet,
    id: &str,
    tools: Vec<Value>,
    ai: Option<Value>,
    set_extras: &Map<String, Value>,
    from_raycast: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    // Mapped keys from the model, in the manifest's usual order.
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

    let mut out = Map::new();
    if from_raycast {
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
        return Value::Object(out);
    }

    // A fresh manifest, shaped like a real extension's.
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

fn tsconfig() -> Value {
    json!({
        "$schema": "https://json.schemastore.org/tsconfig",
        "include": ["src/**/*"],
        "compilerOptions": {
            "lib": ["ES2023"],
            "module": "commonjs",
            "target": "ES2022",
            "strict": true,
            "isolatedModules": true,
            "esModuleInterop": true,
            "skipLibCheck": true,
            "forceConsistentCasingInFileNames": true,
            "jsx": "react-jsx",
            "resolveJsonModule": true,
            "types": ["node"]
        }
    })
}
