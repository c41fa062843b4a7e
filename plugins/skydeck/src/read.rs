//! SkyDeck file → model. One file is one tool; the file's version, creator, avatar and
//! timestamp describe the tool set of that one tool.
//!
//! Whatever the model has no place for (unknown keys, values of the wrong type, which form an
//! optional spelling took) is kept in `extras["skydeck"]` so that [`crate::write`] gives back
//! the same document. The keys used there are listed in [`crate::kept`].

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::names::{NameRules, sanitize};
use toolport_plugin::source::{Locator, child};
use toolport_plugin::{
    Bundle, Creator, Diagnostic, EnumValue, Icon, ModelSettings, Outcome, Output, Parameter, Schema, SchemaType,
    Severity, ToolSet, Version, codes,
};

use crate::lenient;
use crate::placeholder::placeholders;
use crate::write::{VariableKind, variable_shape};
use crate::{FORMAT_ID, kept};

pub(crate) fn read(input: &Bundle) -> Outcome<ToolSet> {
    let Some((file, text)) = input.entry_file() else {
        return Outcome::fail(Diagnostic::error(
            codes::INPUT_MISSING_FILE,
            "",
            "a SkyDeck input is one JSON file (one tool); the input names no single file",
        ));
    };
    let parsed = match lenient::parse(file, text) {
        Ok(parsed) => parsed,
        Err(error) => return Outcome::fail(error),
    };
    // Positions count from after a byte order mark, as editors show them.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader { file, at: Locator::new(text), diagnostics: parsed.diagnostics };
    let Value::Object(root) = &parsed.value else {
        let error = reader.located(Diagnostic::error(
            codes::INPUT_INVALID,
            "",
            "a SkyDeck file is a JSON object with `model_prompt` and `metadata`",
        ));
        reader.diagnostics.push(error);
        return Outcome::failed(reader.diagnostics);
    };
    let set = reader.document(root);
    Outcome::ok(set, reader.diagnostics)
}

struct Reader<'a> {
    file: &'a str,
    /// The text, indexed once for every diagnostic's position.
    at: Locator<'a>,
    diagnostics: Vec<Diagnostic>,
}

/// What one object level of the document left over, kept for the writer.
type Kept = Map<String, Value>;

impl Reader<'_> {
    /// Adds the source position of the diagnostic's path, when it can be found.
    fn located(&self, diagnostic: Diagnostic) -> Diagnostic {
        match self.at.locate(&diagnostic.path) {
            Some((line, column)) if diagnostic.span.is_none() => diagnostic.at(self.file, line, column),
            _ => diagnostic,
        }
    }

    fn report(&mut self, severity: Severity, code: &str, path: &str, message: impl Into<String>) {
        let diagnostic = self.located(Diagnostic::new(severity, code, path, message));
        self.diagnostics.push(diagnostic);
    }

    fn unknown_key(&mut self, kept: &mut Kept, path: &str, key: &str, value: &Value) {
        self.report(
            Severity::Info,
            codes::INPUT_UNKNOWN_KEY,
            &child(path, key),
            format!("`{key}` is not a SkyDeck field; it is kept as written"),
        );
        kept.insert(key.to_owned(), value.clone());
    }

    /// A known key with a value of the wrong type: reported, and kept as written.
    fn invalid(&mut self, severity: Severity, kept: &mut Kept, path: &str, key: &str, value: &Value, want: &str) {
        self.report(
            severity,
            codes::INPUT_INVALID,
            &child(path, key),
            format!("`{key}` should be {want}, not {}; it is kept as written", kind_of(value)),
        );
        kept.insert(key.to_owned(), value.clone());
    }

    fn document(&mut self, root: &Map<String, Value>) -> ToolSet {
        let mut set = ToolSet::default();
        let mut tool = toolport_plugin::Tool::default();
        let mut own = Map::new();
        let mut kept_top = Kept::new();
        let mut empty: Vec<Value> = Vec::new();

        for (key, value) in root {
            match (key.as_str(), value) {
                ("version", Value::String(text)) => set.version = Some(Version::Text(text.clone())),
                ("version", Value::Number(n)) if n.is_i64() => {
                    set.version = Some(Version::Integer(n.as_i64().unwrap_or_default()))
                }
                ("version", _) => {
                    self.invalid(Severity::Warning, &mut kept_top, "", key, value, "a string or an integer")
                }
                ("model_prompt", Value::String(text)) => tool.prompt = Some(text.clone()),
                ("model_prompt", _) => self.invalid(Severity::Error, &mut kept_top, "", key, value, "a string"),
                ("metadata", Value::Object(_)) => {}
                ("metadata", _) => self.invalid(Severity::Error, &mut kept_top, "", key, value, "an object"),
                _ => self.unknown_key(&mut kept_top, "", key, value),
            }
        }
        if !root.contains_key("model_prompt") {
            self.report(Severity::Warning, codes::INPUT_INVALID, "", "the file has no `model_prompt`");
        }

        let metadata = root.get("metadata").and_then(Value::as_object);
        let title = metadata.and_then(|m| m.get("prompt_name")).and_then(Value::as_str);
        tool.name = tool_name(title, self.file);
        if let Some(metadata) = metadata {
            if metadata.is_empty() {
                empty.push("metadata".into());
            }
            if !metadata.contains_key("prompt_name") {
                own.insert(kept::NO_PROMPT_NAME.into(), Value::Bool(true));
            }
            let mut kept_metadata = Kept::new();
            let path = "/metadata";
            for (key, value) in metadata {
                match (key.as_str(), value) {
                    ("prompt_name", Value::String(text)) => tool.title = Some(text.clone()),
                    ("description", Value::String(text)) => tool.description = Some(text.clone()),
                    ("usage_notes", Value::String(text)) => tool.usage_notes = Some(text.clone()),
                    ("prompt_name" | "description" | "usage_notes", _) => {
                        self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "a string")
                    }
                    ("model_version", _) => {
                        self.model_version(value, &mut tool, &mut own, &mut kept_metadata);
                    }
                    ("creator", Value::Object(creator)) => {
                        set.creator = Some(self.creator(creator, &mut own));
                    }
                    ("creator", _) => {
                        self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an object")
                    }
                    ("parameters", Value::Object(parameters)) => {
                        if parameters.is_empty() {
                            empty.push("parameters".into());
                        }
                        self.model_parameters(parameters, &mut tool, &mut own);
                    }
                    ("parameters", _) => {
                        self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an object")
                    }
                    ("variables", Value::Array(variables)) => {
                        if variables.is_empty() {
                            empty.push("variables".into());
                        }
                        let mut declared = HashSet::new();
                        for (index, variable) in variables.iter().enumerate() {
                            let vpath = child(&child(path, "variables"), index.to_string());
                            if let Some(parameter) = self.variable(variable, &vpath) {
                                if !declared.insert(parameter.name.clone()) {
                                    self.report(
                                        Severity::Warning,
                                        codes::INPUT_INVALID,
                                        &child(&vpath, "name"),
                                        format!("variable `{}` is declared twice", parameter.name),
                                    );
                                }
                                tool.parameters.push(parameter);
                            }
                        }
                    }
                    ("variables", _) => self.invalid(Severity::Error, &mut kept_metadata, path, key, value, "an array"),
                    ("expected_output", Value::Object(output)) => {
                        tool.output = Some(self.expected_output(output, &mut own));
                    }
                    ("expected_output", _) => {
                        self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an object")
                    }
                    ("avatar" | "avatar_type", _) => {}
                    ("timestamp", Value::String(text)) => set.timestamps.updated = Some(text.clone()),
                    ("timestamp", _) => {
                        self.invalid(Severity::Warning, &mut kept_metadata, path, key, value, "an ISO 8601 string")
                    }
                    _ => self.unknown_key(&mut kept_metadata, path, key, value),
                }
            }
            set.icon = self.avatar(metadata, &mut own, &mut kept_metadata);
            if !kept_metadata.is_empty() {
                own.insert(kept::METADATA.into(), Value::Object(kept_metadata));
            }
        } else {
            own.insert(kept::NO_PROMPT_NAME.into(), Value::Bool(true));
        }
        if tool.model_settings.as_ref().is_some_and(|m| *m == ModelSettings::default()) {
            tool.model_settings = None;
        }
        self.check_placeholders(&tool);

        if !kept_top.is_empty() {
            own.insert(kept::TOP.into(), Value::Object(kept_top));
        }
        if !empty.is_empty() {
            own.insert(kept::EMPTY.into(), Value::Array(empty));
        }
        if !own.is_empty() {
            tool.extras.insert(FORMAT_ID.into(), Value::Object(own));
        }
        set.tools.push(tool);
        set
    }

    fn model_version(&mut self, value: &Value, tool: &mut toolport_plugin::Tool, own: &mut Kept, kept: &mut Kept) {
        let models: Option<Vec<String>> = match value {
            Value::String(model) => {
                own.insert(kept::MODEL_VERSION_FORM.into(), "string".into());
                Some(vec![model.clone()])
            }
            Value::Array(items) => {
                if items.is_empty() {
                    own.insert(kept::MODEL_VERSION_FORM.into(), "array".into());
                }
                items.iter().map(|m| m.as_str().map(str::to_owned)).collect()
            }
            _ => None,
        };
        match models {
            Some(models) => tool.model_settings.get_or_insert_with(ModelSettings::default).models = models,
            None => self.invalid(
                Severity::Warning,
                kept,
                "/metadata",
                "model_version",
                value,
                "a model name or an array of model names",
            ),
        }
    }

    fn creator(&mut self, creator: &Map<String, Value>, own: &mut Kept) -> Creator {
        let path = "/metadata/creator";
        let mut out = Creator::default();
        let mut kept_creator = Kept::new();
        for (key, value) in creator {
            let slot = match key.as_str() {
                "name" => &mut out.name,
                "email" => &mut out.email,
                "organization" => &mut out.organization,
                _ => {
                    self.unknown_key(&mut kept_creator, path, key, value);
                    continue;
                }
            };
            match value {
                Value::String(text) => *slot = Some(text.clone()),
                _ => self.invalid(Severity::Warning, &mut kept_creator, path, key, value, "a string"),
            }
        }
        if !kept_creator.is_empty() {
            own.insert(kept::CREATOR.into(), Value::Object(kept_creator));
        }
        out
    }

    fn model_parameters(&mut self, parameters: &Map<String, Value>, tool: &mut toolport_plugin::Tool, own: &mut Kept) {
        let path = "/metadata/parameters";
        let settings = tool.model_settings.get_or_insert_with(ModelSettings::default);
        let mut kept_parameters = Kept::new();
        for (key, value) in parameters {
            let number = value.as_number().cloned();
            match key.as_str() {
                "temperature" | "top_p" | "frequency_penalty" | "presence_penalty" => {
                    let slot = match key.as_str() {
                        "temperature" => &mut settings.temperature,
                        "top_p" => &mut settings.top_p,
                        "frequency_penalty" => &mut settings.frequency_penalty,
                        _ => &mut settings.presence_penalty,
                    };
                    match number {
                        Some(number) => *slot = Some(number),
                        None => self.invalid(Severity::Warning, &mut kept_parameters, path, key, value, "a number"),
                    }
                }
                "max_tokens" => match value.as_u64() {
                    Some(n) => settings.max_tokens = Some(n),
                    None => self.invalid(
                        Severity::Warning,
                        &mut kept_parameters,
                        path,
                        key,
                        value,
                        "a non-negative integer",
                    ),
                },
                _ => self.unknown_key(&mut kept_parameters, path, key, value),
            }
        }
        if !kept_parameters.is_empty() {
            own.insert(kept::PARAMETERS.into(), Value::Object(kept_parameters));
        }
    }

    fn variable(&mut self, variable: &Value, path: &str) -> Option<Parameter> {
        let Value::Object(fields) = variable else {
            self.report(
                Severity::Error,
                codes::INPUT_INVALID,
                path,
                format!("a variable should be an object, not {}; it was skipped", kind_of(variable)),
            );
            return None;
        };
        let Some(name) = fields.get("name").and_then(Value::as_str) else {
            self.report(
                Severity::Error,
                codes::INPUT_INVALID,
                path,
                "a variable needs a string `name`; it was skipped",
            );
            return None;
        };
        let raw_type = fields.get("type");
        let kind = match raw_type {
            None => {
                self.report(
                    Severity::Info,
                    codes::INPUT_TOLERATED,
                    path,
                    format!("variable `{name}` has no `type`; read as `text`, the spec's default"),
                );
                VariableKind::Text
            }
            Some(Value::String(text)) => match VariableKind::parse(text) {
                Some(kind) => kind,
                None => match VariableKind::parse_loosely(text) {
                    Some(kind) => {
                        self.report(
                            Severity::Warning,
                            codes::INPUT_TOLERATED,
                            &child(path, "type"),
                            format!("variable type `{text}` read as `{}`", kind.as_str()),
                        );
                        kind
                    }
                    None => {
                        self.report(
                            Severity::Warning,
                            codes::INPUT_INVALID,
                            &child(path, "type"),
                            format!(
                                "unknown variable type `{text}` (SkyDeck has text, single-select, multi-select); read as text"
                            ),
                        );
                        VariableKind::Text
                    }
                },
            },
            Some(other) => {
                self.report(
                    Severity::Warning,
                    codes::INPUT_INVALID,
                    &child(path, "type"),
                    format!("a variable type should be a string, not {}; read as text", kind_of(other)),
                );
                VariableKind::Text
            }
        };

        let mut value_schema = Schema::of(SchemaType::String);
        let mut description = None;
        let mut default = None;
        let mut kept_variable = Kept::new();
        for (key, value) in fields {
            match (key.as_str(), value) {
                ("name" | "type", _) => {}
                ("description", Value::String(text)) => description = Some(text.clone()),
                ("description", _) => self.invalid(Severity::Warning, &mut kept_variable, path, key, value, "a string"),
                ("default", _) => default = Some(value.clone()),
                ("allowed_values", Value::Array(values)) => {
                    for (index, item) in values.iter().enumerate() {
                        if !item.is_string() {
                            self.report(
                                Severity::Warning,
                                codes::INPUT_INVALID,
                                &child(&child(path, key), index.to_string()),
                                format!("allowed values are strings, not {}", kind_of(item)),
                            );
                        }
                    }
                    value_schema.enumeration = Some(values.iter().cloned().map(EnumValue::new).collect());
                }
                ("allowed_values", _) => {
                    self.invalid(Severity::Warning, &mut kept_variable, path, key, value, "an array of strings")
                }
                _ => self.unknown_key(&mut kept_variable, path, key, value),
            }
        }
        self.check_default(name, kind, default.as_ref(), value_schema.enumeration.as_deref(), path);

        let mut schema = match kind {
            VariableKind::MultiSelect => {
                Schema { items: Some(Box::new(value_schema)), ..Schema::of(SchemaType::Array) }
            }
            VariableKind::Text | VariableKind::SingleSelect => value_schema,
        };
        schema.description = description;
        // SkyDeck has no required flag: a variable without a default must be filled in.
        let required = default.is_none();
        schema.default = default;

        let mut own = Map::new();
        // When the writer would not write this variable back as it is (an unknown or
        // translated type, a select without allowed values, a default of another shape),
        // remember the type as written; the writer then writes the variable verbatim.
        let shape = variable_shape(&schema, &Default::default());
        let written_type = raw_type.cloned().unwrap_or(Value::Null);
        if Value::String(shape.kind.as_str().into()) != written_type
            || shape.allowed != allowed_values(&schema)
            || shape.default != schema.default
        {
            own.insert(kept::VARIABLE_TYPE.into(), written_type);
        }
        if !kept_variable.is_empty() {
            own.insert(kept::VARIABLE.into(), Value::Object(kept_variable));
        }
        let mut parameter = Parameter::new(name, schema);
        parameter.required = required;
        if !own.is_empty() {
            parameter.extras.insert(FORMAT_ID.into(), Value::Object(own));
        }
        Some(parameter)
    }

    fn check_default(
        &mut self,
        name: &str,
        kind: VariableKind,
        default: Option<&Value>,
        allowed: Option<&[EnumValue]>,
        path: &str,
    ) {
        let Some(default) = default else { return };
        let allows = |v: &Value| allowed.is_none_or(|a| a.iter().any(|e| &e.value == v));
        let problem = match (kind, default) {
            (VariableKind::Text, Value::String(_)) => None,
            (VariableKind::SingleSelect, Value::String(_)) if allows(default) => None,
            (VariableKind::SingleSelect, Value::String(_)) => Some("is not one of its allowed values".to_owned()),
            (VariableKind::MultiSelect, Value::Array(items)) if items.iter().all(|i| i.is_string() && allows(i)) => {
                None
            }
            (VariableKind::MultiSelect, Value::Array(_)) => {
                Some("holds values that are not among its allowed values".to_owned())
            }
            (VariableKind::MultiSelect, other) => {
                Some(format!("should be an array of strings, not {}", kind_of(other)))
            }
            (_, other) => Some(format!("should be a string, not {}", kind_of(other))),
        };
        if let Some(problem) = problem {
            self.report(
                Severity::Warning,
                codes::INPUT_INVALID,
                &child(path, "default"),
                format!("the default of {} variable `{name}` {problem}; it is kept as written", kind.as_str()),
            );
        }
    }

    fn expected_output(&mut self, output: &Map<String, Value>, own: &mut Kept) -> Output {
        let path = "/metadata/expected_output";
        let mut out = Output::default();
        let mut kept_output = Kept::new();
        for (key, value) in output {
            match (key.as_str(), value) {
                ("type", Value::String(text)) => out.kind = Some(text.clone()),
                ("format", Value::String(text)) => out.format = Some(text.clone()),
                ("language", Value::String(text)) => out.language = Some(text.clone()),
                ("type" | "format" | "language", _) => {
                    self.invalid(Severity::Warning, &mut kept_output, path, key, value, "a string")
                }
                ("allowed_values", Value::Array(items)) if items.iter().all(Value::is_string) => {
                    out.allowed_values = Some(items.iter().filter_map(Value::as_str).map(str::to_owned).collect());
                }
                ("allowed_values", _) => {
                    self.invalid(Severity::Warning, &mut kept_output, path, key, value, "an array of strings")
                }
                _ => self.unknown_key(&mut kept_output, path, key, value),
            }
        }
        if !kept_output.is_empty() {
            own.insert(kept::OUTPUT.into(), Value::Object(kept_output));
        }
        out
    }

    /// The avatar, flat (`avatar_type` + `avatar` in `metadata`, as the spec's sample shows) or
    /// an object (`avatar: {avatar_type, avatar}`, as its field list says; `type`/`image`
    /// are read as the same). An avatar that is no URL or base64 image is kept as written.
    fn avatar(&mut self, metadata: &Map<String, Value>, own: &mut Kept, kept: &mut Kept) -> Option<Icon> {
        let path = "/metadata";
        let flat_type = metadata.get("avatar_type");
        let avatar = metadata.get("avatar");
        let (avatar_type, data, data_path) = match avatar {
            Some(Value::Object(fields)) => {
                let opath = child(path, "avatar");
                if let Some(flat) = flat_type {
                    self.invalid(Severity::Warning, kept, path, "avatar_type", flat, "inside the avatar object");
                }
                let type_key = ["avatar_type", "type"].into_iter().find(|k| fields.contains_key(*k));
                let data_key = ["avatar", "image", "url", "data"].into_iter().find(|k| fields.contains_key(*k));
                let mut kept_avatar = Kept::new();
                for (key, value) in fields {
                    if Some(key.as_str()) != type_key && Some(key.as_str()) != data_key {
                        self.unknown_key(&mut kept_avatar, &opath, key, value);
                    }
                }
                let mut form = Map::new();
                form.insert("type_key".into(), type_key.map_or(Value::Null, Value::from));
                form.insert("data_key".into(), data_key.map_or(Value::Null, Value::from));
                if !kept_avatar.is_empty() {
                    form.insert("keys".into(), Value::Object(kept_avatar));
                }
                if type_key.is_some_and(|k| k != "avatar_type") || data_key.is_some_and(|k| k != "avatar") {
                    self.report(
                        Severity::Warning,
                        codes::INPUT_TOLERATED,
                        &opath,
                        format!(
                            "the avatar object uses `{}`/`{}`; read as `avatar_type`/`avatar`",
                            type_key.unwrap_or("-"),
                            data_key.unwrap_or("-")
                        ),
                    );
                }
                let data_path = child(&opath, data_key.unwrap_or("avatar"));
                (type_key.and_then(|k| fields.get(k)), data_key.and_then(|k| fields.get(k)), (data_path, Some(form)))
            }
            Some(_) => (flat_type, avatar, (child(path, "avatar"), None)),
            None => {
                if let Some(flat) = flat_type {
                    self.invalid(Severity::Warning, kept, path, "avatar_type", flat, "next to an `avatar`");
                }
                return None;
            }
        };
        let (data_path, form) = data_path;
        let icon = match (avatar_type.map(|t| t.as_str()), data.and_then(Value::as_str)) {
            (Some(Some("url")), Some(data)) => Some(Icon::Url { url: data.to_owned() }),
            (Some(Some("base64")), Some(data)) => Some(Icon::Base64 { data: data.to_owned(), media_type: None }),
            (None, Some(data)) => {
                own.insert(kept::AVATAR_TYPE_MISSING.into(), Value::Bool(true));
                let url = data.starts_with("http://") || data.starts_with("https://");
                self.report(
                    Severity::Info,
                    codes::INPUT_TOLERATED,
                    &data_path,
                    format!("the avatar has no `avatar_type`; read as {}", if url { "a URL" } else { "base64 data" }),
                );
                Some(if url {
                    Icon::Url { url: data.to_owned() }
                } else {
                    Icon::Base64 { data: data.to_owned(), media_type: None }
                })
            }
            _ => None,
        };
        if icon.is_none() {
            self.report(
                Severity::Warning,
                codes::INPUT_INVALID,
                &data_path,
                "the avatar is not a `url` or `base64` string; it is kept as written",
            );
            match form {
                Some(_) => {
                    kept.insert("avatar".into(), avatar.cloned().unwrap_or_default());
                }
                None => {
                    if let Some(flat) = flat_type {
                        kept.insert("avatar_type".into(), flat.clone());
                    }
                    kept.insert("avatar".into(), avatar.cloned().unwrap_or_default());
                }
            }
            return None;
        }
        if let Some(form) = form {
            own.insert(kept::AVATAR_FORM.into(), Value::Object(form));
        }
        icon
    }

    /// Where a placeholder is written in the file: its first occurrence after `from` (where
    /// the previous one was found, or the `model_prompt` value), which moves past it. A
    /// placeholder holds no JSON escapes in practice; once one is not found, later ones are
    /// not searched for either (each search could scan the rest of the file).
    fn placeholder_position(&self, placeholder: &str, from: &mut Option<usize>) -> Option<(u32, u32)> {
        let text = self.at.text();
        let start = (*from)?;
        let found = text.get(start..).and_then(|rest| rest.find(placeholder)).map(|i| start + i);
        *from = found.map(|at| at + placeholder.len());
        found.map(|at| self.at.line_column(at))
    }

    /// Every `{{placeholder}}` should name a variable and every variable should be used.
    fn check_placeholders(&mut self, tool: &toolport_plugin::Tool) {
        let Some(prompt) = &tool.prompt else { return };
        let used = placeholders(prompt);
        let declared: HashSet<&str> = tool.parameters.iter().map(|p| p.name.as_str()).collect();
        let mut by_lowercase: HashMap<String, &str> = HashMap::new();
        for parameter in &tool.parameters {
            by_lowercase.entry(parameter.name.to_lowercase()).or_insert(&parameter.name);
        }
        let mut reported: HashSet<&str> = HashSet::new();
        // Where the prompt is written is looked up only when a placeholder must be reported:
        // finding it indexes the whole file.
        let mut search_from: Option<Option<usize>> = None;
        for placeholder in &used {
            if !declared.contains(placeholder.name.as_str()) && reported.insert(&placeholder.name) {
                let near = by_lowercase
                    .get(&placeholder.name.to_lowercase())
                    .map(|name| format!(" (did you mean `{name}`?)"))
                    .unwrap_or_default();
                let message =
                    format!("placeholder `{{{{{}}}}}` names no variable in metadata.variables{near}", placeholder.name);
                let mut diagnostic = Diagnostic::warning(codes::INPUT_UNRESOLVED, "/model_prompt", message);
                let written = &prompt[placeholder.start..placeholder.end];
                let from = search_from.get_or_insert_with(|| self.at.offset("/model_prompt"));
                if let Some((line, column)) = self.placeholder_position(written, from) {
                    diagnostic = diagnostic.at(self.file, line, column);
                }
                let diagnostic = self.located(diagnostic);
                self.diagnostics.push(diagnostic);
            }
        }
        let variables_path = "/metadata/variables";
        let used: HashSet<&str> = used.iter().map(|p| p.name.as_str()).collect();
        for (index, parameter) in tool.parameters.iter().enumerate() {
            if !used.contains(parameter.name.as_str()) {
                self.report(
                    Severity::Warning,
                    crate::UNUSED_VARIABLE,
                    &child(variables_path, index.to_string()),
                    format!(
                        "variable `{}` has no `{{{{{}}}}}` placeholder in model_prompt",
                        parameter.name, parameter.name
                    ),
                );
            }
        }
    }
}

/// The tool's stable name: a slug of `prompt_name`, or of the file's stem without one.
fn tool_name(title: Option<&str>, file: &str) -> String {
    let stem = file.rsplit('/').next().unwrap_or(file);
    let stem = stem.rsplit_once('.').map_or(stem, |(base, _)| base);
    match title.filter(|t| !t.trim().is_empty()) {
        Some(title) => sanitize(title, &NameRules::FILE_SLUG),
        None => sanitize(stem, &NameRules::FILE_SLUG),
    }
}

/// The allowed values of a variable's schema, as the writer finds them.
fn allowed_values(schema: &Schema) -> Option<Vec<Value>> {
    let values = match schema.kind {
        Some(SchemaType::Array) => schema.items.as_ref()?.enumeration.as_ref()?,
        _ => schema.enumeration.as_ref()?,
    };
    Some(values.iter().map(|v| v.value.clone()).collect())
}
