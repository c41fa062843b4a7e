//! Canonical model → Gloodata document. Mirrors read.rs: each `write_*` here has a `read_*`
//! there. The canonical parts are written in a fixed key order, then the residue the reader
//! kept (see the crate docs) is merged back in.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::source::child;
use toolport_plugin::{
    Bundle, Diagnostic, Display, Expectation, Options, Outcome, Parameter, SchemaType, Tool, ToolSet, ValueSet, codes,
};

use crate::{ABSENT, FORMAT_ID, TOOLS_KEY, humanize, is_absent, residue};

/// The model fields Gloodata holds; everything else is reported by [`uncarried`].
const CARRIED: Carried<'static> = Carried {
    tool_set: &["id", "title", "description", "value_sets", "examples"],
    tool: &["title", "description", "display"],
    parameter: &["required"],
    schema: &[
        "type",
        "nullable",
        "title",
        "description",
        "default",
        "enum",
        "value_set",
        "examples",
        "format",
        "multiline",
    ],
    example: &["prompt", "expected"],
};

pub(crate) fn write(model: &ToolSet, options: &Options) -> Outcome<Bundle> {
    // Gloodata schemas cannot refer to others: references are inlined first, so only real
    // losses (a recursive definition cut short) are reported.
    let (resolved, mut cuts) = toolport_plugin::definitions::resolve(model);
    let model = &resolved;
    let mut diagnostics = uncarried(model, FORMAT_ID, &CARRIED);
    diagnostics.append(&mut cuts);
    let mut writer = Writer { diagnostics, fallback_name: options.output_name("").to_owned() };
    let document = writer.write_root(model);
    let mut text = serde_json::to_string_pretty(&Value::Object(document)).unwrap_or_default();
    text.push('\n');
    let name = safe_file_stem(options.output_name(model.id.as_deref().unwrap_or("extension")));
    Outcome::ok(Bundle::single(format!("{name}.json"), text), writer.diagnostics)
}

/// A file stem that is one relative path segment.
fn safe_file_stem(name: &str) -> String {
    let stem: String = name.chars().map(|c| if matches!(c, '/' | '\\') || c.is_control() { '-' } else { c }).collect();
    if stem.trim_matches('.').is_empty() { "extension".into() } else { stem }
}

struct Writer {
    diagnostics: Vec<Diagnostic>,
    /// The output's file name: the namespace when the source has neither id nor title.
    fallback_name: String,
}

impl Writer {
    fn write_root(&mut self, model: &ToolSet) -> Map<String, Value> {
        let residue = residue(&model.extras);
        let mut root = Map::new();
        match &model.id {
            Some(id) => put(&mut root, "ns", id),
            None if !is_absent(residue, "ns") => {
                let ns = slug(model.title.as_deref().unwrap_or(&self.fallback_name));
                self.diagnostics.push(Diagnostic::info(
                    codes::GENERATED,
                    "/id",
                    format!("Gloodata needs a namespace (`ns`); generated `{ns}`"),
                ));
                put(&mut root, "ns", &ns);
            }
            None => {}
        }
        put_opt(&mut root, "title", &model.title);
        put_opt(&mut root, "description", &model.description);

        let mut prompts = self.examples_by_tool(model);
        let set_ids: HashMap<&str, String> =
            model.value_sets.iter().map(|(key, set)| (key.as_str(), value_set_id(key, set))).collect();
        let mut tools = Map::new();
        let mut taken: HashSet<String> = HashSet::new();
        for (i, tool) in model.tools.iter().enumerate() {
            let path = child("/tools", i.to_string());
            let name = self.unique_name(&tool.name, &mut taken, &path);
            // Taken, not copied: with duplicate names the first tool (the one `model.tool` finds) gets them.
            let tool_prompts = prompts.remove(tool.name.as_str()).unwrap_or_default();
            tools.insert(name, Value::Object(self.write_tool(&path, tool, tool_prompts, &set_ids)));
        }
        let tools_key = residue.and_then(|r| r.get(TOOLS_KEY)).and_then(Value::as_str).unwrap_or("tools");
        root.insert(tools_key.to_owned(), Value::Object(tools));

        if !model.value_sets.is_empty() {
            let mut sets = Map::new();
            for (key, set) in &model.value_sets {
                sets.insert(key.clone(), Value::Object(self.write_value_set(key, set)));
            }
            root.insert("tagValues".into(), Value::Object(sets));
        }
        if let Some(residue) = residue {
            merge(&mut root, residue);
        }
        root
    }

    /// A tool name not used before in this document; Gloodata tools are keyed by name.
    fn unique_name(&mut self, name: &str, taken: &mut HashSet<String>, path: &str) -> String {
        let mut unique = name.to_owned();
        let mut counter = 2;
        while !taken.insert(unique.clone()) {
            unique = format!("{name}_{counter}");
            counter += 1;
        }
        if unique != name {
            self.diagnostics.push(Diagnostic::info(
                codes::CHANGED_NAME,
                child(path, "name"),
                format!("a second tool named `{name}` is written as `{unique}`; Gloodata tool ids are unique"),
            ));
        }
        unique
    }

    /// Gloodata keeps example prompts per tool: an example that calls exactly one tool gives
    /// that tool a prompt; everything else about examples is reported.
    fn examples_by_tool<'m>(&mut self, model: &'m ToolSet) -> HashMap<&'m str, Vec<String>> {
        let mut prompts: HashMap<&str, Vec<String>> = HashMap::new();
        // Tool names, for a lookup per call (the first of a name wins, as `ToolSet::tool`).
        let mut tools: HashSet<&str> = HashSet::new();
        if !model.examples.is_empty() {
            tools.extend(model.tools.iter().map(|t| t.name.as_str()));
        }
        for (i, example) in model.examples.iter().enumerate() {
            let path = child("/examples", i.to_string());
            let mut calls = Vec::new();
            for (j, expectation) in example.expected.iter().enumerate() {
                let expectation_path = child(&child(&path, "expected"), j.to_string());
                match expectation {
                    Expectation::CallsTool(call) => calls.push((expectation_path, call)),
                    _ => self.diagnostics.push(Diagnostic::loss(
                        codes::LOSS_EXAMPLES,
                        expectation_path,
                        "Gloodata examples are plain prompts; this response check was left out",
                    )),
                }
            }
            match calls.as_slice() {
                [] => self.diagnostics.push(Diagnostic::loss(
                    codes::LOSS_EXAMPLES,
                    path,
                    "Gloodata keeps example prompts per tool, and this example calls no tool; it was left out",
                )),
                [(call_path, call)] => match tools.get(call.tool.as_str()) {
                    Some(&tool) => {
                        prompts.entry(tool).or_default().push(example.prompt.clone());
                        if call.arguments.is_some() {
                            self.diagnostics.push(Diagnostic::loss(
                                codes::LOSS_EXAMPLES,
                                child(call_path, "arguments"),
                                "Gloodata examples cannot say which arguments a prompt should produce",
                            ));
                        }
                    }
                    None => self.diagnostics.push(Diagnostic::loss(
                        codes::LOSS_EXAMPLES,
                        call_path.clone(),
                        format!("this example calls `{}`, which is not a tool of the set; it was left out", call.tool),
                    )),
                },
                _ => self.diagnostics.push(Diagnostic::loss(
                    codes::LOSS_EXAMPLES,
                    path,
                    "a Gloodata example selects one tool, and this example calls several; it was left out",
                )),
            }
        }
        prompts
    }

    fn write_tool(
        &mut self,
        path: &str,
        tool: &Tool,
        prompts: Vec<String>,
        set_ids: &HashMap<&str, String>,
    ) -> Map<String, Value> {
        let residue = residue(&tool.extras);
        let mut object = Map::new();
        let mut generated = Vec::new();
        match &tool.title {
            Some(title) => put(&mut object, "title", title),
            None if !is_absent(residue, "title") => {
                put(&mut object, "title", &humanize(&tool.name));
                generated.push("a title from its name");
            }
            None => {}
        }
        put_opt(&mut object, "description", &tool.description);

        let mut fields = Map::new();
        for (j, parameter) in tool.parameters.iter().enumerate() {
            let parameter_path = child(&child(path, "parameters"), j.to_string());
            fields.insert(parameter.name.clone(), Value::Object(self.write_field(&parameter_path, parameter)));
        }
        let mut schema = Map::new();
        schema.insert("fields".into(), Value::Object(fields));
        object.insert("schema".into(), Value::Object(schema));

        let ui = match &tool.display {
            Some(display) => Some(self.write_ui(path, tool, display, set_ids)),
            None if !is_absent(residue, "ui") => {
                generated.push("display hints (`ui`) from its title and parameter titles or names");
                Some(self.write_ui(path, tool, &generated_display(tool), set_ids))
            }
            None => None,
        };
        if let Some(ui) = ui {
            object.insert("ui".into(), Value::Object(ui));
        }
        object.insert("examples".into(), prompts.into_iter().map(Value::String).collect());
        if !generated.is_empty() {
            // Pointed at the display hints when they were generated, else at the title.
            let at = if generated.len() > 1 || tool.title.is_some() { "display" } else { "title" };
            self.diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                child(path, at),
                format!("tool `{}` had none, so the writer made {}", tool.name, generated.join(" and ")),
            ));
        }
        if let Some(residue) = residue {
            merge(&mut object, residue);
        }
        object
    }

    /// One parameter as `schema.fields.<name>`. Gloodata says "optional" with a `[T, "null"]`
    /// type, so optional and nullable are written the same way.
    fn write_field(&mut self, path: &str, parameter: &Parameter) -> Map<String, Value> {
        let schema = &parameter.schema;
        let schema_path = child(path, "schema");
        let mut field = Map::new();
        let optional = schema.nullable || !parameter.required;
        if let Some(kind) = schema.kind {
            let name = match kind {
                SchemaType::Array | SchemaType::Object => {
                    self.diagnostics.push(Diagnostic::loss(
                        codes::LOSS_SCHEMA,
                        child(&schema_path, "type"),
                        format!(
                            "Gloodata fields are string, integer, number or boolean; the {} parameter `{}` is written as a string",
                            kind.as_str(),
                            parameter.name
                        ),
                    ));
                    "string"
                }
                _ => kind.as_str(),
            };
            let type_value = if optional && kind != SchemaType::Null {
                Value::Array(vec![name.into(), "null".into()])
            } else {
                name.into()
            };
            field.insert("type".into(), type_value);
            if schema.nullable && parameter.required {
                self.diagnostics.push(Diagnostic::info(
                    codes::CHANGED_SCHEMA,
                    child(path, "required"),
                    format!(
                        "`{}` is required but nullable; Gloodata reads a [T, \"null\"] field as optional",
                        parameter.name
                    ),
                ));
            } else if !schema.nullable && !parameter.required {
                self.diagnostics.push(Diagnostic::info(
                    codes::CHANGED_SCHEMA,
                    child(&schema_path, "nullable"),
                    format!("optional `{}` is written as [T, \"null\"], Gloodata's optional field", parameter.name),
                ));
            }
        } else if !parameter.required && !schema.nullable {
            self.diagnostics.push(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                child(path, "required"),
                format!("Gloodata marks optional fields by a [T, \"null\"] type, and `{}` has no type", parameter.name),
            ));
        }
        put_opt(&mut field, "title", &schema.title);
        put_opt(&mut field, "description", &schema.description);
        if let Some(default) = &schema.default {
            field.insert("default".into(), default.clone());
        }
        if let Some(values) = &schema.enumeration {
            field.insert("enum".into(), values.iter().map(|v| v.value.clone()).collect());
            if schema.value_set.is_none() && values.iter().any(|v| v.label.is_some()) {
                self.diagnostics.push(Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&schema_path, "enum"),
                    format!(
                        "Gloodata holds enum labels only in `tagValues`; the labels of `{}` were left out",
                        parameter.name
                    ),
                ));
            }
        }
        if !schema.examples.is_empty() {
            field.insert("examples".into(), Value::Array(schema.examples.clone()));
        }
        put_opt(&mut field, "format", &schema.format);
        if schema.multiline {
            field.insert("multiline".into(), Value::Bool(true));
        }
        if let Some(residue) = residue(&parameter.extras) {
            merge(&mut field, residue);
        }
        field
    }

    /// `ui`: prefix, argument hints in display order, suffix. An argument with a value set
    /// names it by `dtypeName`, which is how Gloodata offers the set's values.
    fn write_ui(
        &mut self,
        path: &str,
        tool: &Tool,
        display: &Display,
        set_ids: &HashMap<&str, String>,
    ) -> Map<String, Value> {
        // By name, the first parameter of a name (as `Tool::parameter`), looked up per argument.
        let mut parameters: HashMap<&str, &Parameter> = HashMap::with_capacity(tool.parameters.len());
        for parameter in &tool.parameters {
            parameters.entry(parameter.name.as_str()).or_insert(parameter);
        }
        let value_set_of = |name: &str| {
            let key = parameters.get(name)?.schema.value_set.as_deref()?;
            Some(set_ids.get(key).cloned().unwrap_or_else(|| key.to_owned()))
        };
        let mut ui = Map::new();
        put_opt(&mut ui, "prefix", &display.prefix);
        put_opt(&mut ui, "suffix", &display.suffix);
        let mut args = Map::new();
        for (name, hints) in &display.args {
            let mut arg = Map::new();
            put_opt(&mut arg, "prefix", &hints.prefix);
            put_opt(&mut arg, "suffix", &hints.suffix);
            if let Some(id) = value_set_of(name) {
                arg.insert("dtypeName".into(), Value::String(id));
            }
            args.insert(name.clone(), Value::Object(arg));
        }
        for (j, parameter) in tool.parameters.iter().enumerate() {
            if display.args.contains_key(&parameter.name) {
                continue;
            }
            if let Some(id) = value_set_of(&parameter.name) {
                let mut arg = Map::new();
                arg.insert("dtypeName".into(), Value::String(id.clone()));
                args.insert(parameter.name.clone(), Value::Object(arg));
                self.diagnostics.push(Diagnostic::info(
                    codes::GENERATED,
                    child(&child(&child(path, "parameters"), j.to_string()), "schema"),
                    format!("added `ui.args.{}` to name its value set `{id}`", parameter.name),
                ));
            }
        }
        ui.insert("args".into(), Value::Object(args));
        ui
    }

    fn write_value_set(&mut self, key: &str, set: &ValueSet) -> Map<String, Value> {
        let mut object = Map::new();
        put_opt(&mut object, "name", &set.name);
        put_opt(&mut object, "description", &set.description);
        put_opt(&mut object, "icon", &set.icon);
        if !set.entries.is_empty() {
            let entries = set
                .entries
                .iter()
                .map(|entry| {
                    let label = entry.label.clone().unwrap_or_else(|| match &entry.value {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    });
                    Value::Array(vec![entry.value.clone(), Value::String(label)])
                })
                .collect();
            object.insert("entries".into(), Value::Array(entries));
        }
        for (role, handler) in &set.handlers {
            object.insert(format!("{role}HandlerId"), Value::String(handler.clone()));
        }
        for format in set.extras.keys().filter(|k| *k != FORMAT_ID) {
            self.diagnostics.push(Diagnostic::loss(
                codes::LOSS_EXTRAS,
                child(&child(&child("/value_sets", key), "extras"), format),
                format!("gloodata cannot hold data only {format} has"),
            ));
        }
        if let Some(residue) = residue(&set.extras) {
            merge(&mut object, residue);
        }
        object
    }
}

/// Display hints for a tool that has none: the title (or name) as prefix, and each
/// parameter's title (or name) as its prefix, in parameter order.
fn generated_display(tool: &Tool) -> Display {
    let mut display =
        Display { prefix: Some(tool.title.clone().unwrap_or_else(|| humanize(&tool.name))), ..Display::default() };
    for parameter in &tool.parameters {
        let label = parameter.schema.title.clone().unwrap_or_else(|| humanize(&parameter.name));
        display.args.insert(parameter.name.clone(), toolport_plugin::ArgDisplay { prefix: Some(label), suffix: None });
    }
    display
}

/// The id fields use to name a value set: its `id` where the source had one, else its key.
fn value_set_id(key: &str, set: &ValueSet) -> String {
    residue(&set.extras).and_then(|r| r.get("id")).and_then(Value::as_str).unwrap_or(key).to_owned()
}

/// A namespace from a title: lower-case words joined by dashes (`extension` when empty).
fn slug(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() { "extension".into() } else { slug.to_owned() }
}

fn put(object: &mut Map<String, Value>, key: &str, value: &str) {
    object.insert(key.to_owned(), Value::String(value.to_owned()));
}

fn put_opt(object: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(value) = value {
        put(object, key, value);
    }
}

/// Merges a residue into what the writer built: kept keys are added (objects merged key by
/// key, anything else replacing what was built) and `$absent` keys removed.
pub(crate) fn merge(target: &mut Map<String, Value>, residue: &Map<String, Value>) {
    for (key, value) in residue {
        match key.as_str() {
            ABSENT => {
                // One pass over the object, not a removal (a shift of what follows) per name.
                let absent: HashSet<&str> = value.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                if !absent.is_empty() {
                    target.retain(|key, _| !absent.contains(key.as_str()));
                }
            }
            TOOLS_KEY => {}
            _ => match (target.get_mut(key), value) {
                (Some(Value::Object(built)), Value::Object(kept)) => merge(built, kept),
                (None, Value::Object(kept)) => {
                    // Markers inside must not leak into the document.
                    let mut fresh = Map::new();
                    merge(&mut fresh, kept);
                    target.insert(key.clone(), Value::Object(fresh));
                }
                _ => {
                    target.insert(key.clone(), value.clone());
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(built: Value, residue: Value, expect: Value) {
        let (Value::Object(mut built), Value::Object(residue)) = (built, residue) else { panic!("objects") };
        merge(&mut built, &residue);
        assert_eq!(Value::Object(built), expect);
    }

    #[test]
    fn merges_residues() {
        check(json!({"a": 1}), json!({"b": null}), json!({"a": 1, "b": null}));
        check(
            json!({"ui": {"args": {"x": {"prefix": "X"}}}}),
            json!({"ui": {"args": {"x": "X"}}}),
            json!({"ui": {"args": {"x": "X"}}}),
        );
        check(json!({"ui": {"args": {}}, "schema": {}}), json!({"$absent": ["ui", "schema"]}), json!({}));
        check(json!({}), json!({"s": {"k": 1, "$absent": ["fields"]}}), json!({"s": {"k": 1}}));
    }

    #[test]
    fn file_stems_stay_one_segment() {
        assert_eq!(safe_file_stem("a/b"), "a-b");
        assert_eq!(safe_file_stem(".."), "extension");
        assert_eq!(safe_file_stem("my-ext"), "my-ext");
        assert_eq!(slug("My Extension Title!"), "my-extension-title");
        assert_eq!(slug(""), "extension");
    }
}
