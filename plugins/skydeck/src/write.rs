//! Model → SkyDeck files: one `{slug}.json` per tool. The tool set's version, creator, icon
//! and timestamp go into every file. Output is always strict JSON (never the spec's defects),
//! 2-space indented with a trailing newline, keys in the spec's order.
//!
//! What SkyDeck cannot say is reported: model fields through [`uncarried`], and here the
//! partial losses (a creator's URL, an icon path, output schemas, enum labels), the changes
//! SkyDeck forces (every parameter becomes text, a single-select or a multi-select) and the
//! prompts made up for tools that had none (`generated/content`).

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::{NameMap, NameRules, sanitize};
use toolport_plugin::source::child;
use toolport_plugin::{
    Bundle, Diagnostic, EnumValue, Icon, Options, Outcome, Parameter, Schema, SchemaType, Severity, Tool, ToolSet,
    ValueSet, codes,
};

use crate::placeholder::generated_prompt;
use crate::{FORMAT_ID, kept};

/// What [`uncarried`] should not report: everything below is written (partial losses inside
/// these are reported here).
const CARRIED: Carried = Carried {
    tool_set: &["version", "creator", "icon", "timestamps"],
    tool: &["title", "description", "usage_notes", "icon", "output", "prompt", "model_settings"],
    parameter: &["required"],
    schema: &["type", "description", "default", "enum", "items", "value_set"],
    example: &[],
};

pub(crate) fn write(model: &ToolSet, options: &Options) -> Outcome<Bundle> {
    if model.tools.is_empty() {
        return Outcome::fail(Diagnostic::error(
            codes::INPUT_INVALID,
            "/tools",
            "the tool set has no tools; SkyDeck writes one file per tool, so there is nothing to write",
        ));
    }
    // SkyDeck schemas cannot refer to others: references are inlined first, so only real
    // losses (a recursive definition cut short) are reported.
    let (resolved, cuts) = toolport_plugin::definitions::resolve(model);
    let model = &resolved;
    let mut diagnostics: Vec<Diagnostic> = uncarried(model, FORMAT_ID, &CARRIED)
        .into_iter()
        .chain(cuts)
        // An output schema is reported whole below; its keywords need no report each.
        .filter(|d| !is_output_schema_detail(&d.path))
        .collect();
    let mut writer = Writer { model, diagnostics: Vec::new(), noted: HashSet::new(), set_icon_used: false };
    let mut bundle = Bundle::default();
    let mut names = NameMap::new(NameRules::FILE_SLUG);
    let single = model.tools.len() == 1;
    for (index, tool) in model.tools.iter().enumerate() {
        let tool_path = child("/tools", index.to_string());
        let mut slug = names.assign(&tool.name);
        if bundle.files.contains_key(&format!("{slug}.json")) {
            // Two tools with the same name still get two files.
            slug = names.assign(&format!("{}#{index}", tool.name));
        }
        let base = if single { safe_base(options.output_name(&slug)).unwrap_or(&slug) } else { &slug };
        let file = format!("{base}.json");
        let document = writer.tool_document(tool, &tool_path);
        let read_back = sanitize(
            tool.title.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(&tool.name),
            &NameRules::FILE_SLUG,
        );
        if read_back != tool.name {
            writer.note(
                Severity::Info,
                codes::CHANGED_NAME,
                child(&tool_path, "name"),
                format!(
                    "SkyDeck has no tool name: tool `{}` is written to `{file}`, and reading it back names it `{read_back}`",
                    tool.name
                ),
            );
        }
        let mut text = serde_json::to_string_pretty(&Value::Object(document)).unwrap_or_default();
        text.push('\n');
        bundle.insert(file, text);
    }
    writer.set_level();
    diagnostics.extend(writer.diagnostics);
    Outcome::ok(bundle, diagnostics)
}

fn is_output_schema_detail(path: &str) -> bool {
    let mut segments = path.split('/').skip(1);
    segments.next() == Some("tools")
        && segments.next().is_some()
        && segments.next() == Some("output")
        && segments.next() == Some("schema")
        && segments.next().is_some()
}

/// The host's suggested base name, when it is a plain file name.
fn safe_base(name: &str) -> Option<&str> {
    let plain = !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\', '\0']);
    plain.then_some(name)
}

struct Writer<'a> {
    model: &'a ToolSet,
    diagnostics: Vec<Diagnostic>,
    /// Code and path of every diagnostic in `diagnostics`.
    noted: HashSet<(&'static str, String)>,
    set_icon_used: bool,
}

impl Writer<'_> {
    /// Adds a diagnostic, once: the set's fields go into every file but are reported once.
    fn note(&mut self, severity: Severity, code: &'static str, path: String, message: String) {
        if self.noted.insert((code, path.clone())) {
            self.diagnostics.push(Diagnostic::new(severity, code, path, message));
        }
    }

    fn tool_document(&mut self, tool: &Tool, path: &str) -> Map<String, Value> {
        let model = self.model;
        let own = tool.extras.get(FORMAT_ID).and_then(Value::as_object).cloned().unwrap_or_default();
        let kept_map = |key: &str| own.get(key).and_then(Value::as_object).cloned().unwrap_or_default();
        let flag = |key: &str| own.get(key).and_then(Value::as_bool).unwrap_or(false);
        let empty: Vec<&str> =
            own.get(kept::EMPTY).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let kept_top = kept_map(kept::TOP);

        let mut top = Map::new();
        if let Some(version) = &model.version {
            top.insert("version".into(), serde_json::to_value(version).unwrap_or_default());
        }
        match &tool.prompt {
            Some(prompt) => {
                top.insert("model_prompt".into(), prompt.clone().into());
            }
            None if flag(kept::NO_MODEL_PROMPT) || kept_top.contains_key("model_prompt") => {}
            None => {
                let lead = tool.description.as_deref().or(tool.title.as_deref()).unwrap_or(&tool.name);
                let names: Vec<&str> = tool.parameters.iter().map(|p| p.name.as_str()).collect();
                top.insert("model_prompt".into(), generated_prompt(lead, &names).into());
                self.note(
                    Severity::Info,
                    codes::GENERATED,
                    child(path, "prompt"),
                    format!(
                        "tool `{}` has no prompt template; SkyDeck needs one, so model_prompt was built from its {} and a {{{{placeholder}}}} per parameter",
                        tool.name,
                        if tool.description.is_some() { "description" } else { "name" }
                    ),
                );
            }
        }

        let mut metadata = Map::new();
        match &tool.title {
            Some(title) => {
                metadata.insert("prompt_name".into(), title.clone().into());
            }
            None if flag(kept::NO_PROMPT_NAME) => {}
            None => {
                metadata.insert("prompt_name".into(), tool.name.clone().into());
            }
        }
        if let Some(description) = &tool.description {
            metadata.insert("description".into(), description.clone().into());
        }
        if let Some(notes) = &tool.usage_notes {
            metadata.insert("usage_notes".into(), notes.clone().into());
        }
        let settings = tool.model_settings.clone().unwrap_or_default();
        let form = own.get(kept::MODEL_VERSION_FORM).and_then(Value::as_str);
        match (settings.models.as_slice(), form) {
            ([model_name], Some("string")) => {
                metadata.insert("model_version".into(), model_name.clone().into());
            }
            ([], Some("array")) => {
                metadata.insert("model_version".into(), Value::Array(Vec::new()));
            }
            ([], _) => {}
            (models, _) => {
                metadata.insert("model_version".into(), models.iter().cloned().map(Value::from).collect());
            }
        }
        let kept_creator = kept_map(kept::CREATOR);
        if model.creator.is_some() || !kept_creator.is_empty() {
            let creator = model.creator.clone().unwrap_or_default();
            let mut out = Map::new();
            for (key, value) in
                [("name", creator.name), ("email", creator.email), ("organization", creator.organization)]
            {
                if let Some(value) = value {
                    out.insert(key.into(), value.into());
                }
            }
            out.extend(kept_creator);
            metadata.insert("creator".into(), Value::Object(out));
        }
        let mut parameters = Map::new();
        for (key, value) in [
            ("temperature", settings.temperature.clone()),
            ("max_tokens", settings.max_tokens.map(Into::into)),
            ("top_p", settings.top_p.clone()),
            ("frequency_penalty", settings.frequency_penalty.clone()),
            ("presence_penalty", settings.presence_penalty.clone()),
        ] {
            if let Some(value) = value {
                parameters.insert(key.into(), Value::Number(value));
            }
        }
        parameters.extend(kept_map(kept::PARAMETERS));
        if !parameters.is_empty() || empty.contains(&"parameters") {
            metadata.insert("parameters".into(), Value::Object(parameters));
        }
        let variables: Vec<Value> = tool
            .parameters
            .iter()
            .enumerate()
            .map(|(i, p)| Value::Object(self.variable(tool, p, &child(&child(path, "parameters"), i.to_string()))))
            .collect();
        if !variables.is_empty() || empty.contains(&"variables") {
            metadata.insert("variables".into(), Value::Array(variables));
        }
        if let Some(output) = &tool.output {
            let written = self.output(output, &own, path);
            // `{}` only when the source itself had an empty expected_output.
            if !written.is_empty() || *output == toolport_plugin::Output::default() {
                metadata.insert("expected_output".into(), Value::Object(written));
            }
        }
        let icon = match &tool.icon {
            Some(icon) => Some(icon),
            None => {
                self.set_icon_used |= model.icon.is_some();
                model.icon.as_ref()
            }
        };
        if let Some(icon) = icon {
            let icon_path = if tool.icon.is_some() { child(path, "icon") } else { "/icon".to_owned() };
            self.avatar(icon, &own, &icon_path, &mut metadata);
        }
        if let Some(timestamp) = model.timestamps.updated.as_ref().or(model.timestamps.created.as_ref()) {
            metadata.insert("timestamp".into(), timestamp.clone().into());
        }
        metadata.extend(kept_map(kept::METADATA));
        if !metadata.is_empty() || empty.contains(&"metadata") {
            top.insert("metadata".into(), Value::Object(metadata));
        }
        top.extend(kept_top);
        top
    }

    fn variable(&mut self, tool: &Tool, parameter: &Parameter, path: &str) -> Map<String, Value> {
        let schema = &parameter.schema;
        let own = parameter.extras.get(FORMAT_ID).and_then(Value::as_object);
        let mut out = Map::new();
        out.insert("name".into(), parameter.name.clone().into());
        let (default, allowed) = match own.and_then(|o| o.get(kept::VARIABLE_TYPE)) {
            // Read from SkyDeck in a shape the mapping below would not give back: as written.
            Some(written_type) => {
                if !written_type.is_null() {
                    out.insert("type".into(), written_type.clone());
                }
                let allowed = match schema.kind {
                    Some(SchemaType::Array) => schema.items.as_ref().and_then(|i| i.enumeration.as_ref()),
                    _ => schema.enumeration.as_ref(),
                };
                (schema.default.clone(), allowed.map(|values| values.iter().map(|v| v.value.clone()).collect()))
            }
            None => {
                let shape = variable_shape(schema, &self.model.value_sets);
                for note in shape.notes {
                    let message = format!("parameter `{}` of tool `{}`: {}", parameter.name, tool.name, note.message);
                    self.note(note.severity, note.code, format!("{path}/schema/{}", note.path), message);
                }
                out.insert("type".into(), shape.kind.as_str().into());
                (shape.default, shape.allowed)
            }
        };
        if let Some(description) = &schema.description {
            out.insert("description".into(), description.clone().into());
        }
        if parameter.required == default.is_some() {
            self.note(
                Severity::Info,
                codes::CHANGED_SCHEMA,
                child(path, "required"),
                format!(
                    "SkyDeck has no required flag (a variable without a default must be filled in): parameter `{}` of tool `{}` is {}",
                    parameter.name,
                    tool.name,
                    if parameter.required { "required but has a default" } else { "optional without a default" }
                ),
            );
        }
        if let Some(default) = default {
            out.insert("default".into(), default);
        }
        if let Some(allowed) = allowed {
            out.insert("allowed_values".into(), Value::Array(allowed));
        }
        if let Some(kept_variable) = own.and_then(|o| o.get(kept::VARIABLE)).and_then(Value::as_object) {
            out.extend(kept_variable.clone());
        }
        out
    }

    fn output(&mut self, output: &toolport_plugin::Output, own: &Map<String, Value>, path: &str) -> Map<String, Value> {
        let mut out = Map::new();
        for (key, value) in [("type", &output.kind), ("format", &output.format), ("language", &output.language)] {
            if let Some(value) = value {
                out.insert(key.into(), value.clone().into());
            }
        }
        if let Some(values) = &output.allowed_values {
            out.insert("allowed_values".into(), values.iter().cloned().map(Value::from).collect());
        }
        if let Some(kept_output) = own.get(kept::OUTPUT).and_then(Value::as_object) {
            out.extend(kept_output.clone());
        }
        let output_path = child(path, "output");
        if output.description.is_some() {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                child(&output_path, "description"),
                "SkyDeck's expected_output has no description; it was left out".into(),
            );
        }
        if output.content_type.is_some() {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                child(&output_path, "content_type"),
                "SkyDeck's expected_output has no media type; it was left out".into(),
            );
        }
        if output.schema.is_some() {
            self.note(
                Severity::Warning,
                codes::LOSS_SCHEMA,
                child(&output_path, "schema"),
                "SkyDeck's expected_output has no schema; the output schema was left out".into(),
            );
        }
        out
    }

    fn avatar(&mut self, icon: &Icon, own: &Map<String, Value>, path: &str, metadata: &mut Map<String, Value>) {
        let (avatar_type, data) = match icon {
            Icon::Url { url } => ("url", url.clone()),
            Icon::Base64 { data, media_type: None } => ("base64", data.clone()),
            Icon::Base64 { data, media_type: Some(media_type) } => {
                self.note(
                    Severity::Info,
                    codes::CHANGED_VALUE,
                    child(path, "media_type"),
                    format!(
                        "SkyDeck avatars have no media type; `{media_type}` is kept by writing the avatar as a data URL"
                    ),
                );
                ("base64", format!("data:{media_type};base64,{data}"))
            }
            Icon::Path { path: icon_path } => {
                self.note(
                    Severity::Warning,
                    codes::LOSS_FIELD,
                    path.to_owned(),
                    format!("a SkyDeck avatar is a URL or base64 data; the relative path `{icon_path}` was left out"),
                );
                return;
            }
        };
        let type_missing = own.get(kept::AVATAR_TYPE_MISSING).and_then(Value::as_bool).unwrap_or(false);
        match own.get(kept::AVATAR_FORM).and_then(Value::as_object) {
            // Read as an object: written back as one, with the keys it used.
            Some(form) => {
                let mut object = Map::new();
                if let Some(type_key) = form.get("type_key").and_then(Value::as_str) {
                    object.insert(type_key.into(), avatar_type.into());
                }
                let data_key = form.get("data_key").and_then(Value::as_str).unwrap_or("avatar");
                object.insert(data_key.into(), data.into());
                if let Some(keys) = form.get("keys").and_then(Value::as_object) {
                    object.extend(keys.clone());
                }
                metadata.insert("avatar".into(), Value::Object(object));
            }
            None => {
                if !type_missing {
                    metadata.insert("avatar_type".into(), avatar_type.into());
                }
                metadata.insert("avatar".into(), data.into());
            }
        }
    }

    /// Partial losses of the tool set's own fields, reported once.
    fn set_level(&mut self) {
        let model = self.model;
        if model.creator.as_ref().is_some_and(|c| c.url.is_some()) {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                "/creator/url".into(),
                "a SkyDeck creator has a name, an email and an organization, no URL; the URL was left out".into(),
            );
        }
        if model.icon.is_some() && !self.set_icon_used {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                "/icon".into(),
                "every tool has its own icon, so the tool set's icon was left out".into(),
            );
        }
        if let (Some(created), Some(updated)) = (&model.timestamps.created, &model.timestamps.updated)
            && created != updated
        {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                "/timestamps/created".into(),
                format!(
                    "SkyDeck has one timestamp: the last update `{updated}` is written, the creation time `{created}` was left out"
                ),
            );
        }
    }
}

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
    severity: Severity,
    code: &'static str,
    path: &'static str,
    message: String,
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
/// number, object, an array of non-enums, any type) → text, reported as a loss.
pub(crate) fn variable_shape(schema: &Schema, value_sets: &IndexMap<String, ValueSet>) -> Shape {
    let mut notes = Vec::new();
    let kind_name = schema.kind.map_or("any-type", SchemaType::as_str);
    let enum_of = |s: &Schema, path: &'static str, notes: &mut Vec<Note>| -> Option<Vec<Value>> {
        let entries: Vec<EnumValue> = match (&s.enumeration, &s.value_set) {
            (Some(values), _) => values.clone(),
            (None, Some(id)) => {
                let entries = value_sets.get(id)?.entries.clone();
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

    let default = match (&schema.default, kind) {
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
