//! Gloodata document → canonical model. Mirrors write.rs: each `read_*` here has a `write_*`
//! there. What the model cannot hold stays in a residue (see the crate docs) so that writing
//! gives the document back.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::{Locator, child, parse_json};
use toolport_plugin::{
    ArgDisplay, Bundle, Diagnostic, Display, EnumValue, Example, Expectation, Options, Outcome, Parameter, Schema,
    SchemaType, Severity, Tool, ToolCall, ToolSet, ValueSet, codes,
};

use crate::{ABSENT, FORMAT_ID, TOOLS_KEY};

pub(crate) fn read(input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
    let Some((file, text)) = input.entry_file() else {
        return Outcome::fail(Diagnostic::error(
            codes::INPUT_MISSING_FILE,
            "",
            "no Gloodata document in the input (expected one JSON file)",
        ));
    };
    let root = match parse_json(file, text) {
        Ok(root) => root,
        Err(error) => return Outcome::fail(error),
    };
    let mut reader = Reader { file, at: Locator::new(text), diagnostics: Vec::new() };
    let Value::Object(root) = root else {
        let error = reader.locate(
            Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                format!("a Gloodata extension info document is a JSON object, found {}", kind_of(&root)),
            ),
            "",
        );
        return Outcome::fail(error);
    };
    let model = reader.read_root(&root);
    Outcome::ok(model, reader.diagnostics)
}

/// What the model cannot hold at one level of the document: kept keys and absent keys.
#[derive(Default)]
struct Residue {
    kept: Map<String, Value>,
    absent: Vec<String>,
}

impl Residue {
    fn keep(&mut self, key: &str, value: &Value) {
        self.kept.insert(key.to_owned(), value.clone());
    }

    /// Keeps `value` under `key` inside the kept object `parent` (created when missing).
    fn keep_in(&mut self, parent: &str, key: &str, value: Value) {
        let entry = self.kept.entry(parent.to_owned()).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(map) = entry {
            map.insert(key.to_owned(), value);
        }
    }

    fn into_value(mut self) -> Option<Value> {
        if !self.absent.is_empty() {
            self.kept.insert(ABSENT.into(), self.absent.into_iter().map(Value::String).collect());
        }
        (!self.kept.is_empty()).then_some(Value::Object(self.kept))
    }

    fn store(self, extras: &mut toolport_plugin::Extras) {
        if let Some(value) = self.into_value() {
            extras.insert(FORMAT_ID.into(), value);
        }
    }
}

struct Reader<'a> {
    file: &'a str,
    at: Locator<'a>,
    diagnostics: Vec<Diagnostic>,
}

/// How a value set is referred to from `ui.args.<a>.dtypeName`.
struct ValueSetIndex {
    /// Reference (map key, and `id` where it differs) → map key.
    by_reference: IndexMap<String, String>,
    /// Map key → the set's entries.
    entries: IndexMap<String, Vec<EnumValue>>,
}

impl<'a> Reader<'a> {
    fn locate(&self, diagnostic: Diagnostic, path: &str) -> Diagnostic {
        match self.at.locate(path) {
            Some((line, column)) => diagnostic.at(self.file, line, column),
            None => diagnostic,
        }
    }

    fn report(&mut self, severity: Severity, code: &str, path: &str, message: String) {
        let diagnostic = self.locate(Diagnostic::new(severity, code, path, message), path);
        self.diagnostics.push(diagnostic);
    }

    fn unknown_key(&mut self, path: &str, key: &str, residue: &mut Residue, value: &Value) {
        self.report(Severity::Info, codes::INPUT_UNKNOWN_KEY, path, format!("unknown key `{key}`; kept as written"));
        residue.keep(key, value);
    }

    /// A known key with a value of the wrong JSON type: reported and kept as written.
    fn wrong_type(&mut self, path: &str, key: &str, expected: &str, value: &Value, residue: &mut Residue) {
        self.report(
            Severity::Error,
            codes::INPUT_INVALID,
            path,
            format!("`{key}` should be {expected}, found {}; kept as written", kind_of(value)),
        );
        residue.keep(key, value);
    }

    fn string(&mut self, path: &str, key: &str, value: &Value, residue: &mut Residue) -> Option<String> {
        match value {
            Value::String(s) => Some(s.clone()),
            _ => {
                self.wrong_type(path, key, "a string", value, residue);
                None
            }
        }
    }

    /// A string that may be JSON null; null is kept in the residue so it is written back.
    fn nullable_string(&mut self, path: &str, key: &str, value: &Value, residue: &mut Residue) -> Option<String> {
        match value {
            Value::Null => {
                residue.keep(key, value);
                None
            }
            _ => self.string(path, key, value, residue),
        }
    }

    fn read_root(&mut self, root: &Map<String, Value>) -> ToolSet {
        let mut set = ToolSet::default();
        let mut residue = Residue::default();
        let index = match root.get("tagValues") {
            Some(value) => self.read_tag_values(value, &mut set, &mut residue),
            None => ValueSetIndex { by_reference: IndexMap::new(), entries: IndexMap::new() },
        };
        let tools_key = match (root.contains_key("tools"), root.contains_key("functions")) {
            (true, true) => {
                self.report(
                    Severity::Warning,
                    codes::INPUT_TOLERATED,
                    "/functions",
                    "both `tools` and the older `functions`; `tools` is read and `functions` kept as written".into(),
                );
                residue.keep("functions", &root["functions"]);
                Some("tools")
            }
            (true, false) => Some("tools"),
            (false, true) => {
                residue.keep(TOOLS_KEY, &Value::String("functions".into()));
                Some("functions")
            }
            (false, false) => {
                self.report(
                    Severity::Warning,
                    codes::INPUT_INVALID,
                    "",
                    "no `tools`: an extension should offer at least one tool".into(),
                );
                residue.absent.push("tools".into());
                None
            }
        };
        for (key, value) in root {
            let path = child("", key);
            match key.as_str() {
                "ns" => set.id = self.string(&path, key, value, &mut residue),
                "title" => set.title = self.string(&path, key, value, &mut residue),
                "description" => set.description = self.nullable_string(&path, key, value, &mut residue),
                "tagValues" => {}
                k if Some(k) == tools_key => {
                    let ns = root.get("ns").and_then(Value::as_str);
                    self.read_tools(key, value, ns, &index, &mut set, &mut residue);
                }
                "functions" => {}
                "handlers" => {
                    if !value.as_array().is_some_and(|items| items.iter().all(Value::is_string)) {
                        self.report(
                            Severity::Warning,
                            codes::INPUT_INVALID,
                            &path,
                            "`handlers` should be a list of handler ids; kept as written".into(),
                        );
                    }
                    residue.keep(key, value);
                }
                "dynEnums" => residue.keep(key, value),
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        if !root.contains_key("ns") {
            self.report(Severity::Warning, codes::INPUT_INVALID, "", "no `ns`: the extension has no namespace".into());
            residue.absent.push("ns".into());
        }
        residue.store(&mut set.extras);
        set
    }

    fn read_tag_values(&mut self, value: &Value, set: &mut ToolSet, residue: &mut Residue) -> ValueSetIndex {
        let mut index = ValueSetIndex { by_reference: IndexMap::new(), entries: IndexMap::new() };
        let Value::Object(sets) = value else {
            self.wrong_type("/tagValues", "tagValues", "an object keyed by value set id", value, residue);
            return index;
        };
        if sets.is_empty() {
            // The writer leaves out an empty `tagValues`; keep it so it comes back.
            residue.keep("tagValues", value);
        }
        for (key, entry) in sets {
            let path = child("/tagValues", key);
            let Value::Object(entry) = entry else {
                self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    &path,
                    format!("value set `{key}` should be an object, found {}; kept as written", kind_of(entry)),
                );
                residue.keep_in("tagValues", key, entry.clone());
                continue;
            };
            let value_set = self.read_value_set(&path, entry);
            index.by_reference.insert(key.clone(), key.clone());
            index.entries.insert(key.clone(), value_set.entries.clone());
            if let Some(id) = entry.get("id").and_then(Value::as_str) {
                index.by_reference.entry(id.to_owned()).or_insert_with(|| key.clone());
            }
            set.value_sets.insert(key.clone(), value_set);
        }
        index
    }

    fn read_value_set(&mut self, path: &str, entry: &Map<String, Value>) -> ValueSet {
        let mut value_set = ValueSet::default();
        let mut residue = Residue::default();
        for (key, value) in entry {
            let path = child(path, key);
            match key.as_str() {
                // The id is how fields refer to the set; it may differ from the map key.
                "id" => residue.keep(key, value),
                "name" => value_set.name = self.nullable_string(&path, key, value, &mut residue),
                "description" => value_set.description = self.nullable_string(&path, key, value, &mut residue),
                "icon" => value_set.icon = self.nullable_string(&path, key, value, &mut residue),
                "entries" => match entries(value) {
                    Some(entries) => value_set.entries = entries,
                    None => {
                        self.report(
                            Severity::Error,
                            codes::INPUT_INVALID,
                            &path,
                            "`entries` should be a list of [key, label] pairs with text labels; kept as written".into(),
                        );
                        residue.keep(key, value);
                    }
                },
                _ => match key.strip_suffix("HandlerId").filter(|role| !role.is_empty()) {
                    Some(role) => match value {
                        Value::String(id) => {
                            value_set.handlers.insert(role.to_owned(), id.clone());
                        }
                        Value::Null => residue.keep(key, value),
                        _ => self.wrong_type(&path, key, "a handler id", value, &mut residue),
                    },
                    None => self.unknown_key(&path, key, &mut residue, value),
                },
            }
        }
        residue.store(&mut value_set.extras);
        value_set
    }

    fn read_tools(
        &mut self,
        key: &str,
        value: &Value,
        ns: Option<&str>,
        index: &ValueSetIndex,
        set: &mut ToolSet,
        residue: &mut Residue,
    ) {
        let path = child("", key);
        let Value::Object(tools) = value else {
            self.wrong_type(&path, key, "an object keyed by tool id", value, residue);
            return;
        };
        for (name, tool) in tools {
            let tool_path = child(&path, name);
            let Value::Object(tool) = tool else {
                self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    &tool_path,
                    format!("tool `{name}` should be an object, found {}; kept as written", kind_of(tool)),
                );
                residue.keep_in(key, name, tool.clone());
                continue;
            };
            let (tool, prompts) = self.read_tool(&tool_path, name, tool, ns, index);
            set.examples.extend(prompts.into_iter().map(|prompt| Example {
                prompt,
                expected: vec![Expectation::CallsTool(ToolCall { tool: name.clone(), ..ToolCall::default() })],
                ..Example::default()
            }));
            set.tools.push(tool);
        }
    }

    /// A tool and its example prompts.
    fn read_tool(
        &mut self,
        path: &str,
        name: &str,
        object: &Map<String, Value>,
        ns: Option<&str>,
        index: &ValueSetIndex,
    ) -> (Tool, Vec<String>) {
        let mut tool = Tool::new(name);
        let mut residue = Residue::default();
        let mut prompts = Vec::new();
        for (key, value) in object {
            let path = child(path, key);
            match key.as_str() {
                "title" => tool.title = self.string(&path, key, value, &mut residue),
                "description" => tool.description = self.nullable_string(&path, key, value, &mut residue),
                "examples" => prompts = self.read_examples(&path, value, &mut residue),
                "schema" => self.read_schema(&path, value, &mut tool, &mut residue),
                "ui" => {}
                "contextActions" => {
                    self.check_context_actions(&path, value);
                    residue.keep(key, value);
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        // After the schema, so `dtypeName` can reach the fields.
        if let Some(ui) = object.get("ui") {
            self.read_ui(&child(path, "ui"), ui, &mut tool, ns, index, &mut residue);
        }
        for key in ["title", "schema", "ui", "examples"] {
            if !object.contains_key(key) {
                residue.absent.push(key.into());
            }
        }
        residue.store(&mut tool.extras);
        (tool, prompts)
    }

    fn read_examples(&mut self, path: &str, value: &Value, residue: &mut Residue) -> Vec<String> {
        let Value::Array(items) = value else {
            self.wrong_type(path, "examples", "a list of prompts", value, residue);
            return Vec::new();
        };
        let mut prompts = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(prompt) => prompts.push(prompt.clone()),
                _ => self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    &child(path, i.to_string()),
                    format!("an example should be a prompt string, found {}; skipped", kind_of(item)),
                ),
            }
        }
        prompts
    }

    fn check_context_actions(&mut self, path: &str, value: &Value) {
        let Value::Array(actions) = value else {
            self.report(
                Severity::Warning,
                codes::INPUT_INVALID,
                path,
                format!("`contextActions` should be a list, found {}; kept as written", kind_of(value)),
            );
            return;
        };
        for (i, action) in actions.iter().enumerate() {
            // `{target: {name}, handler}` now, `{for: {name[, ns]}, handler[, info]}` before.
            let named = |key: &str| action.get(key).and_then(|t| t.get("name")).is_some_and(Value::is_string);
            let valid = action.get("handler").is_some_and(Value::is_string) && (named("target") || named("for"));
            if !valid {
                self.report(
                    Severity::Warning,
                    codes::INPUT_INVALID,
                    &child(path, i.to_string()),
                    "a context action should be {target: {name}, handler} or {for: {name}, handler}; kept as written"
                        .into(),
                );
            }
        }
    }

    fn read_schema(&mut self, path: &str, value: &Value, tool: &mut Tool, tool_residue: &mut Residue) {
        let Value::Object(schema) = value else {
            self.wrong_type(path, "schema", "an object with `fields`", value, tool_residue);
            return;
        };
        let mut residue = Residue::default();
        for (key, value) in schema {
            let path = child(path, key);
            match key.as_str() {
                "fields" => {
                    let Value::Object(fields) = value else {
                        self.wrong_type(&path, key, "an object keyed by field name", value, &mut residue);
                        continue;
                    };
                    for (name, field) in fields {
                        let field_path = child(&path, name);
                        match field {
                            Value::Object(field) => tool.parameters.push(self.read_field(&field_path, name, field)),
                            _ => {
                                self.report(
                                    Severity::Error,
                                    codes::INPUT_INVALID,
                                    &field_path,
                                    format!(
                                        "field `{name}` should be an object, found {}; kept as written",
                                        kind_of(field)
                                    ),
                                );
                                residue.keep_in("fields", name, field.clone());
                            }
                        }
                    }
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        if !schema.contains_key("fields") {
            residue.absent.push("fields".into());
        }
        if let Some(kept) = residue.into_value() {
            tool_residue.keep("schema", &kept);
        }
    }

    /// One `schema.fields.<name>`: a JSON-Schema subset. Optional fields are `[T, "null"]`, so
    /// a parameter is required exactly when its field is not nullable.
    fn read_field(&mut self, path: &str, name: &str, field: &Map<String, Value>) -> Parameter {
        let mut schema = Schema::default();
        let mut residue = Residue::default();
        for (key, value) in field {
            let path = child(path, key);
            match key.as_str() {
                "type" => self.read_type(&path, value, &mut schema, &mut residue),
                "title" => schema.title = self.string(&path, key, value, &mut residue),
                "description" => schema.description = self.nullable_string(&path, key, value, &mut residue),
                "default" => schema.default = Some(value.clone()),
                "enum" => match value {
                    Value::Array(values) => {
                        schema.enumeration = Some(values.iter().cloned().map(EnumValue::new).collect());
                    }
                    _ => self.wrong_type(&path, key, "a list of values", value, &mut residue),
                },
                "examples" => match value {
                    // The writer leaves out an empty list; keep it so it comes back.
                    Value::Array(values) if values.is_empty() => residue.keep(key, value),
                    Value::Array(values) => schema.examples = values.clone(),
                    _ => self.wrong_type(&path, key, "a list of values", value, &mut residue),
                },
                "format" => schema.format = self.string(&path, key, value, &mut residue),
                "multiline" => match value {
                    Value::Bool(true) => schema.multiline = true,
                    Value::Bool(false) => residue.keep(key, value),
                    _ => self.wrong_type(&path, key, "true or false", value, &mut residue),
                },
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        let mut parameter = Parameter::new(name, schema);
        parameter.required = !parameter.schema.nullable;
        residue.store(&mut parameter.extras);
        parameter
    }

    fn read_type(&mut self, path: &str, value: &Value, schema: &mut Schema, residue: &mut Residue) {
        let parse = |reader: &mut Self, name: &str| {
            let kind = SchemaType::parse(name);
            match kind {
                None => reader.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    path,
                    format!("`{name}` is not a JSON-Schema type name; kept as written"),
                ),
                Some(SchemaType::Array | SchemaType::Object) => reader.report(
                    Severity::Warning,
                    codes::INPUT_UNSUPPORTED,
                    path,
                    format!("Gloodata fields are string, integer, number or boolean, not {name}"),
                ),
                Some(_) => {}
            }
            kind
        };
        match value {
            Value::String(name) => match parse(self, name) {
                Some(kind) => schema.kind = Some(kind),
                None => residue.keep("type", value),
            },
            Value::Array(items) => {
                let Some(names) = items.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() else {
                    self.wrong_type(path, "type", "a type name or a list of type names", value, residue);
                    return;
                };
                residue.keep("type", value);
                schema.nullable = names.contains(&"null");
                if let Some(bad) = names.iter().find(|n| SchemaType::parse(n).is_none()) {
                    self.report(
                        Severity::Error,
                        codes::INPUT_INVALID,
                        path,
                        format!("`{bad}` is not a JSON-Schema type name; kept as written"),
                    );
                    return;
                }
                match names.as_slice() {
                    [one, "null"] | ["null", one] if *one != "null" => {
                        schema.kind = parse(self, one);
                        // The writer puts `null` last; any other order stays in the residue.
                        if names[1] == "null" {
                            residue.kept.shift_remove("type");
                        }
                    }
                    _ => self.report(
                        Severity::Warning,
                        codes::INPUT_UNSUPPORTED,
                        path,
                        "a Gloodata field type is one type name or [type, \"null\"]; kept as written".into(),
                    ),
                }
            }
            _ => self.wrong_type(path, "type", "a type name", value, residue),
        }
    }

    fn read_ui(
        &mut self,
        path: &str,
        value: &Value,
        tool: &mut Tool,
        ns: Option<&str>,
        index: &ValueSetIndex,
        tool_residue: &mut Residue,
    ) {
        // Even a broken `ui` means the tool has one: the writer must not generate another.
        let mut display = Display::default();
        let Value::Object(ui) = value else {
            self.wrong_type(path, "ui", "an object", value, tool_residue);
            tool.display = Some(display);
            return;
        };
        let mut residue = Residue::default();
        for (key, value) in ui {
            let path = child(path, key);
            match key.as_str() {
                "prefix" => display.prefix = self.string(&path, key, value, &mut residue),
                "suffix" => display.suffix = self.string(&path, key, value, &mut residue),
                "manualUpdate" => {
                    if !value.is_boolean() {
                        self.wrong_type(&path, key, "true or false", value, &mut residue);
                    }
                    residue.keep(key, value);
                }
                "args" => {
                    let Value::Object(args) = value else {
                        self.wrong_type(&path, key, "an object keyed by argument name", value, &mut residue);
                        continue;
                    };
                    for (name, arg) in args {
                        let arg_path = child(&path, name);
                        let (hints, kept) = self.read_ui_arg(&arg_path, name, arg, tool, ns, index);
                        display.args.insert(name.clone(), hints);
                        if let Some(kept) = kept {
                            residue.keep_in("args", name, kept);
                        }
                    }
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        if !ui.contains_key("args") {
            residue.absent.push("args".into());
        }
        if let Some(kept) = residue.into_value() {
            tool_residue.keep("ui", &kept);
        }
        tool.display = Some(display);
    }

    /// One `ui.args.<name>`: display hints, and the residue of the argument's hints.
    fn read_ui_arg(
        &mut self,
        path: &str,
        name: &str,
        value: &Value,
        tool: &mut Tool,
        ns: Option<&str>,
        index: &ValueSetIndex,
    ) -> (ArgDisplay, Option<Value>) {
        let mut hints = ArgDisplay::default();
        let mut residue = Residue::default();
        let arg = match value {
            // A bare label, shown before the value like a prefix; the residue keeps the shape.
            Value::String(label) => {
                hints.prefix = Some(label.clone());
                return (hints, Some(value.clone()));
            }
            Value::Object(arg) => arg,
            _ => {
                self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    path,
                    format!("argument hints should be an object or a label, found {}; kept as written", kind_of(value)),
                );
                return (hints, Some(value.clone()));
            }
        };
        for (key, value) in arg {
            let path = child(path, key);
            match key.as_str() {
                "prefix" => hints.prefix = self.string(&path, key, value, &mut residue),
                "suffix" => hints.suffix = self.string(&path, key, value, &mut residue),
                "dtypeNs" | "from" => {
                    if !value.is_string() {
                        self.wrong_type(&path, key, "a string", value, &mut residue);
                    }
                    residue.keep(key, value);
                }
                "dtypeName" => {
                    let Some(reference) = self.string(&path, key, value, &mut residue) else { continue };
                    let foreign_ns = arg.get("dtypeNs").and_then(Value::as_str).is_some_and(|d| Some(d) != ns);
                    let parameter = tool.parameters.iter_mut().find(|p| p.name == name);
                    // A set without static entries (values found by its handlers at run time)
                    // lists no allowed values: `Schema::value_set` would read as an empty
                    // enum everywhere else, so the name stays in the residue for the writer.
                    let listed = |key: &String| index.entries.get(key).is_some_and(|e| !e.is_empty());
                    match (index.by_reference.get(&reference), parameter) {
                        (Some(set_key), Some(_)) if !foreign_ns && !listed(set_key) => residue.keep(key, value),
                        (Some(set_key), Some(parameter)) if !foreign_ns => {
                            parameter.schema.value_set = Some(set_key.clone());
                            link_value_set(parameter, set_key, index);
                        }
                        (None, _) if !foreign_ns => {
                            self.report(
                                Severity::Warning,
                                codes::INPUT_UNRESOLVED,
                                &path,
                                format!("`dtypeName` `{reference}` names no `tagValues` entry; kept as written"),
                            );
                            residue.keep(key, value);
                        }
                        // Another extension's set, or hints for an argument without a field.
                        _ => residue.keep(key, value),
                    }
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        (hints, residue.into_value())
    }
}

/// The values of a field's value set (one with entries) become its enum (with labels). A
/// field that lists no `enum` of its own gets the set's entries, marked so the writer leaves
/// `enum` out.
fn link_value_set(parameter: &mut Parameter, set_key: &str, index: &ValueSetIndex) {
    let Some(entries) = index.entries.get(set_key).cloned() else { return };
    match &mut parameter.schema.enumeration {
        Some(values) => {
            for value in values.iter_mut() {
                value.label = entries.iter().find(|e| e.value == value.value).and_then(|e| e.label.clone());
            }
        }
        None => {
            parameter.schema.enumeration = Some(entries);
            mark_absent(&mut parameter.extras, "enum");
        }
    }
}

/// Adds `key` to the `$absent` list of a residue stored in `extras`.
fn mark_absent(extras: &mut toolport_plugin::Extras, key: &str) {
    let residue = extras.entry(FORMAT_ID.to_owned()).or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(residue) = residue {
        let absent = residue.entry(ABSENT.to_owned()).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(keys) = absent {
            keys.push(Value::String(key.to_owned()));
        }
    }
}

/// `[[key, label], …]` as enum values, or `None` when any entry has another shape.
fn entries(value: &Value) -> Option<Vec<EnumValue>> {
    value
        .as_array()?
        .iter()
        .map(|entry| match entry.as_array()?.as_slice() {
            [key, Value::String(label)] if !key.is_array() && !key.is_object() => {
                Some(EnumValue { value: key.clone(), label: Some(label.clone()) })
            }
            _ => None,
        })
        .collect()
}
