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
use toolport_plugin::{
    AdditionalProperties, Bundle, Diagnostic, Icon, Options, Outcome, ParamLocation, Schema, SchemaType, Tool, ToolSet,
    Version, codes,
};

use crate::read::{TOOL_KEYS, is_safe_name};
use crate::{FORMAT_ID, evals};

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
                toolport_yaml::to_string(&document).unwrap_or_default()
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
    if let Some(package) = package {
        bundle.insert("package.json", pretty(&package));
    }
    bundle.insert("tsconfig.json", pretty(&tsconfig()));
    for (index, tool) in model.tools.iter().enumerate() {
        let path = format!("src/tools/{}.ts", file_names[index]);
        let text = tool_source(model, index, tool, &mut diagnostics);
        bundle.insert(path, text);
    }
    Outcome::ok(bundle, diagnostics)
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
        match &tool.title {
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
        match &tool.description {
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
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            "/icon",
            "icon `extension-icon.png` is named; add the image to assets/",
        ));
        Value::from("extension-icon.png")
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
    out.insert("commands".into(), json!([]));
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

// ----- TypeScript -----

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn property_key(name: &str) -> String {
    if is_identifier(name) { name.to_owned() } else { json_string(name) }
}

fn accessor(name: &str) -> String {
    if is_identifier(name) { format!("input.{name}") } else { format!("input[{}]", json_string(name)) }
}

fn json_string(text: &str) -> String {
    // JSON string escapes are valid in TypeScript string literals, except U+2028/2029 in old engines.
    serde_json::to_string(text).unwrap_or_default().replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// A JSDoc block at `indent` from a description, a default and examples; `None` when all are empty.
fn jsdoc(description: Option<&str>, default: Option<&Value>, examples: &[Value], indent: &str) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    if let Some(description) = description.filter(|d| !d.trim().is_empty()) {
        lines.extend(description.replace("*/", "*\\/").lines().map(str::to_owned));
    }
    let mut tags = Vec::new();
    if let Some(default) = default {
        tags.push(format!("@default {}", serde_json::to_string(default).unwrap_or_default()));
    }
    for example in examples {
        let text = match example {
            Value::String(s) => s.clone(),
            other => serde_json::to_string(other).unwrap_or_default(),
        };
        tags.push(format!("@example {}", text.replace("*/", "*\\/")));
    }
    if !tags.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        for tag in tags {
            lines.extend(tag.lines().map(str::to_owned));
        }
    }
    if lines.is_empty() {
        return None;
    }
    if lines.len() == 1 {
        return Some(format!("{indent}/** {} */\n", lines[0]));
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{indent} *\n"));
        } else {
            out.push_str(&format!("{indent} * {line}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
    Some(out)
}

struct TypeWriter<'m> {
    model: &'m ToolSet,
    diagnostics: &'m mut Vec<Diagnostic>,
}

impl TypeWriter<'_> {
    fn members(&mut self, properties: &[(String, bool, &Schema, String)], indent: &str) -> String {
        let mut out = String::new();
        for (name, required, schema, path) in properties {
            if let Some(doc) = jsdoc(schema.description.as_deref(), schema.default.as_ref(), &schema.examples, indent) {
                out.push_str(&doc);
            }
            let optional = if *required { "" } else { "?" };
            let ty = self.type_of(schema, indent, path);
            out.push_str(&format!("{indent}{}{optional}: {ty};\n", property_key(name)));
        }
        out
    }

    fn type_of(&mut self, schema: &Schema, indent: &str, path: &str) -> String {
        let mut ty = self.base_type(schema, indent, path);
        if schema.nullable && ty != "null" && ty != "unknown" {
            ty.push_str(" | null");
        }
        ty
    }

    fn base_type(&mut self, schema: &Schema, indent: &str, path: &str) -> String {
        let values: Option<Vec<Value>> =
            schema.enumeration.as_ref().map(|e| e.iter().map(|v| v.value.clone())).map(Iterator::collect).or_else(
                || {
                    let set = self.model.value_sets.get(schema.value_set.as_ref()?)?;
                    Some(set.entries.iter().map(|e| e.value.clone()).collect())
                },
            );
        let labels = schema.enumeration.iter().flatten().any(|v| v.label.is_some())
            || schema
                .value_set
                .as_ref()
                .and_then(|id| self.model.value_sets.get(id))
                .is_some_and(|s| s.entries.iter().any(|e| e.label.is_some()));
        if labels {
            self.diagnostics.push(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                child(path, "enum"),
                "TypeScript literal unions have no labels; the enum labels are left out",
            ));
        }
        if let Some(values) = values.filter(|v| !v.is_empty()) {
            let literals: Vec<String> = values
                .iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(json_string(s)),
                    Value::Number(_) | Value::Bool(_) | Value::Null => Some(v.to_string()),
                    _ => None,
                })
                .collect();
            if literals.len() < values.len() {
                self.diagnostics.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(path, "enum"),
                    "object and array enum values have no TypeScript literal type; they are left out",
                ));
            }
            if !literals.is_empty() {
                return literals.join(" | ");
            }
        }
        if !schema.any_of.is_empty() {
            let parts: Vec<String> = schema
                .any_of
                .iter()
                .enumerate()
                .map(|(i, s)| self.type_of(s, indent, &child(&child(path, "any_of"), i.to_string())))
                .collect();
            return parts.join(" | ");
        }
        match schema.kind {
            Some(SchemaType::String) => "string".into(),
            Some(SchemaType::Number) => "number".into(),
            Some(SchemaType::Integer) => {
                self.diagnostics.push(Diagnostic::info(
                    codes::CHANGED_SCHEMA,
                    child(path, "type"),
                    "TypeScript has no integer type; written as `number`",
                ));
                "number".into()
            }
            Some(SchemaType::Boolean) => "boolean".into(),
            Some(SchemaType::Null) => "null".into(),
            Some(SchemaType::Array) => {
                let item = match &schema.items {
                    Some(items) => self.type_of(items, indent, &child(path, "items")),
                    None => "unknown".into(),
                };
                if is_identifier(&item) { format!("{item}[]") } else { format!("Array<{item}>") }
            }
            Some(SchemaType::Object) => {
                if !schema.properties.is_empty() {
                    if matches!(schema.additional_properties, Some(AdditionalProperties::Schema(_))) {
                        self.diagnostics.push(Diagnostic::loss(codes::LOSS_SCHEMA, child(path, "additional_properties"), "an object with both properties and additional properties is written with its properties only"));
                    }
                    let inner = format!("{indent}  ");
                    let properties: Vec<(String, bool, &Schema, String)> = schema
                        .properties
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            (
                                p.name.clone(),
                                p.required,
                                &p.schema,
                                child(&child(&child(path, "properties"), i.to_string()), "schema"),
                            )
                        })
                        .collect();
                    let members = self.members(&properties, &inner);
                    return format!("{{\n{members}{indent}}}");
                }
                match &schema.additional_properties {
                    Some(AdditionalProperties::Schema(values)) => {
                        format!(
                            "Record<string, {}>",
                            self.type_of(values, indent, &child(path, "additional_properties"))
                        )
                    }
                    Some(AdditionalProperties::Allowed(false)) => {
                        self.diagnostics.push(Diagnostic::loss(
                            codes::LOSS_SCHEMA,
                            child(path, "additional_properties"),
                            "a closed empty object is written as `Record<string, unknown>`",
                        ));
                        "Record<string, unknown>".into()
                    }
                    _ => "Record<string, unknown>".into(),
                }
            }
            None => "unknown".into(),
        }
    }
}

fn tool_source(model: &ToolSet, index: usize, tool: &Tool, diagnostics: &mut Vec<Diagnostic>) -> String {
    let path = child("/tools", index.to_string());
    let mut out = String::new();
    let style = tool.confirmation.as_ref().and_then(|c| c.style.as_deref());
    let wants_destructive = tool.hints.destructive == Some(true);
    let confirmation = tool.confirmation.clone().or_else(|| {
        wants_destructive.then(|| {
            diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                child(&path, "confirmation"),
                "the tool is destructive: a confirmation with the destructive style is written",
            ));
            toolport_plugin::Confirmation { style: Some("destructive".into()), ..Default::default() }
        })
    });
    let style_code = match style.or(confirmation.as_ref().and_then(|c| c.style.as_deref())) {
        Some("destructive") => Some("Action.Style.Destructive"),
        Some("regular") => Some("Action.Style.Regular"),
        Some(other) => {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_CONFIRMATION,
                child(&child(&path, "confirmation"), "style"),
                format!("Raycast confirmation styles are destructive and regular; `{other}` is left out"),
            ));
            None
        }
        None => None,
    };
    let hints = &tool.hints;
    for (key, value) in
        [("read_only", hints.read_only), ("idempotent", hints.idempotent), ("open_world", hints.open_world)]
    {
        if value.is_some() {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_CONFIRMATION,
                child(&child(&path, "hints"), key),
                format!("Raycast has no `{key}` hint; it is left out"),
            ));
        }
    }
    if hints.destructive == Some(false) {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_CONFIRMATION,
            child(&child(&path, "hints"), "destructive"),
            "Raycast cannot say a tool is not destructive; the hint is left out",
        ));
    }
    if let Some(confirmation) = &confirmation {
        let mut imports = vec!["Tool"];
        if style_code.is_some() {
            imports.insert(0, "Action");
        }
        out.push_str(&format!("import {{ {} }} from \"@raycast/api\";\n\n", imports.join(", ")));
        let _ = confirmation;
    }
    let has_input = !tool.parameters.is_empty();
    if has_input {
        let properties: Vec<(String, bool, &Schema, String)> = tool
            .parameters
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    p.name.clone(),
                    p.required,
                    &p.schema,
                    child(&child(&child(&path, "parameters"), i.to_string()), "schema"),
                )
            })
            .collect();
        let mut writer = TypeWriter { model, diagnostics };
        let members = writer.members(&properties, "  ");
        out.push_str(&format!("type Input = {{\n{members}}};\n\n"));
    }
    if let Some(confirmation) = &confirmation {
        let input_type = if has_input { "Input" } else { "void" };
        out.push_str(&format!("export const confirmation: Tool.Confirmation<{input_type}> = async () => {{\n"));
        let mut fields = Vec::new();
        if let Some(style) = style_code {
            fields.push(format!("    style: {style},\n"));
        }
        if let Some(message) = &confirmation.message {
            fields.push(format!("    message: {},\n", json_string(message)));
        }
        if !confirmation.info.is_empty() {
            let mut rows = String::from("    info: [\n");
            for row in &confirmation.info {
                match &row.value {
                    Some(value) => rows.push_str(&format!(
                        "      {{ name: {}, value: {} }},\n",
                        json_string(&row.name),
                        json_string(value)
                    )),
                    None => rows.push_str(&format!("      {{ name: {} }},\n", json_string(&row.name))),
                }
            }
            rows.push_str("    ],\n");
            fields.push(rows);
        }
        if fields.is_empty() {
            // An empty object still asks; the source's message was computed, not a literal.
            out.push_str("  return {};\n};\n\n");
        } else {
            out.push_str(&format!("  return {{\n{}  }};\n}};\n\n", fields.concat()));
        }
    }
    if let Some(doc) = jsdoc(tool.description.as_deref(), None, &[], "") {
        out.push_str(&doc);
    }
    let parameter = if has_input { "input: Input" } else { "" };
    out.push_str(&format!("export default async function tool({parameter}) {{\n"));
    out.push_str(&tool_body(model, tool, &path, diagnostics));
    out.push_str("}\n");
    out
}

fn tool_body(model: &ToolSet, tool: &Tool, path: &str, diagnostics: &mut Vec<Diagnostic>) -> String {
    let not_implemented = format!("  throw new Error({});\n", json_string(&format!("not implemented: {}", tool.name)));
    let Some(http) = &tool.http else { return not_implemented };
    let server = http.servers.first().or(model.servers.first());
    let Some(server) = server else {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_HTTP,
            child(path, "http"),
            "the tool has an HTTP binding but no server URL; its body throws \"not implemented\"",
        ));
        return not_implemented;
    };
    if !server.variables.is_empty() {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_HTTP,
            "/servers",
            "server variables are not substituted; the URL is used as written",
        ));
    }
    if http.servers.len() + model.servers.len() > 1 {
        diagnostics.push(Diagnostic::info(
            codes::CHANGED_VALUE,
            "/servers",
            format!("the generated fetch uses the first server, {}", server.url),
        ));
    }
    let method = http.method.to_ascii_uppercase();
    let has_body = matches!(method.as_str(), "POST" | "PUT" | "PATCH" | "DELETE");
    let placeholders: HashSet<String> =
        http.path.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name.to_owned())).collect();
    let location = |p: &toolport_plugin::Parameter| {
        p.location.unwrap_or(if placeholders.contains(&p.name) {
            ParamLocation::Path
        } else if has_body {
            ParamLocation::Body
        } else {
            ParamLocation::Query
        })
    };
    // The path, with each `{name}` replaced by the encoded argument.
    let mut url = String::new();
    let mut rest = http.path.as_str();
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else { break };
        url.push_str(&template_text(&rest[..open]));
        let name = &rest[open + 1..open + close];
        url.push_str(&format!("${{encodeURIComponent(String({}))}}", accessor(name)));
        rest = &rest[open + close + 1..];
    }
    url.push_str(&template_text(rest));
    let base = server.url.trim_end_matches('/');
    let mut out = format!("  const url = new URL(`${{{}}}{url}`);\n", "BASE_URL");
    out = format!("  const BASE_URL = {};\n{out}", json_string(base));
    out.push_str("  const headers: Record<string, string> = { Accept: \"application/json\" };\n");
    let mut cookies = Vec::new();
    let mut body = Vec::new();
    for parameter in &tool.parameters {
        let value = accessor(&parameter.name);
        let is_array = parameter.schema.kind == Some(SchemaType::Array);
        match location(parameter) {
            ParamLocation::Path => {}
            ParamLocation::Query if is_array => out.push_str(&format!(
                "  for (const item of {value} ?? []) url.searchParams.append({}, String(item));\n",
                json_string(&parameter.name)
            )),
            ParamLocation::Query => out.push_str(&format!(
                "  if ({value} !== undefined) url.searchParams.set({}, String({value}));\n",
                json_string(&parameter.name)
            )),
            ParamLocation::Header => out.push_str(&format!(
                "  if ({value} !== undefined) headers[{}] = String({value});\n",
                json_string(&parameter.name)
            )),
            ParamLocation::Cookie => cookies.push((parameter.name.clone(), value)),
            ParamLocation::Body => body.push((parameter.name.clone(), value)),
        }
    }
    if !cookies.is_empty() {
        out.push_str("  const cookies: string[] = [];\n");
        for (name, value) in &cookies {
            out.push_str(&format!(
                "  if ({value} !== undefined) cookies.push(`{}=${{encodeURIComponent(String({value}))}}`);\n",
                template_text(name)
            ));
        }
        out.push_str("  if (cookies.length > 0) headers.Cookie = cookies.join(\"; \");\n");
    }
    let mut init = format!("method: {}, headers", json_string(&method));
    if let Some(whole) = &http.body_parameter {
        out.push_str("  headers[\"Content-Type\"] = \"application/json\";\n");
        init.push_str(&format!(", body: JSON.stringify({})", accessor(whole)));
    } else if !body.is_empty() {
        if let Some(content_type) = &http.body_content_type
            && !content_type.contains("json")
        {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_HTTP,
                child(&child(path, "http"), "body_content_type"),
                format!("the generated fetch sends JSON, not {content_type}"),
            ));
        }
        out.push_str("  headers[\"Content-Type\"] = \"application/json\";\n");
        let fields: Vec<String> = body.iter().map(|(name, value)| format!("{}: {value}", property_key(name))).collect();
        init.push_str(&format!(", body: JSON.stringify({{ {} }})", fields.join(", ")));
    }
    if !model.auth.is_empty() {
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            child(path, "http"),
            "the generated fetch sends no credentials; add them (for example from a Raycast preference)",
        ));
    }
    out.push_str(&format!("  const response = await fetch(url, {{ {init} }});\n"));
    out.push_str(&format!(
        "  if (!response.ok) {{\n    throw new Error(`{} {} failed: ${{response.status}} ${{response.statusText}}`);\n  }}\n",
        method,
        template_text(&http.path)
    ));
    out.push_str("  const type = response.headers.get(\"content-type\") ?? \"\";\n");
    out.push_str("  return type.includes(\"json\") ? await response.json() : await response.text();\n");
    out
}

/// Text safe inside a template literal.
fn template_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace('`', "\\`").replace("${", "\\${")
}
