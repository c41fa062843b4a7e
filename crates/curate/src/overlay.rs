//! toolport's own overlay file (`--overlay FILE`, YAML or JSON; docs/overlay.schema.json):
//! per tool of the source, by its source name, a new name, title or description, hints, a
//! confirmation, and per parameter a new description, `hidden: true` (the model never sees
//! it, calls leave it out) or `value: V` (pinned: the model never sees it, every call gets V,
//! kept in the model's `Tool::pinned` and the names map). A file with a top-level `overlay:
//! 1.0.x` key is an OpenAPI Overlay instead ([`crate::openapi_overlay`]).
//!
//! ```yaml
//! tools:
//!   listPets:
//!     name: list_all_pets
//!     description: Lists every pet in the store, newest first.
//!     hints: {read_only: true}
//!     confirmation: true
//!     parameters:
//!       limit: {value: 20}
//!       trace_id: {hidden: true}
//! ```

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::source::child;
use toolport_core::{Confirmation, Diagnostic, PinnedArgument, ToolSet};

use crate::openapi_overlay::OpenApiOverlay;
use crate::text::{Document, did_you_mean};

/// What an `--overlay` file is.
#[derive(Clone, Debug)]
pub enum OverlayFile {
    Toolport(Overlay),
    OpenApi(OpenApiOverlay),
}

impl OverlayFile {
    /// Parses an overlay file's text: an OpenAPI Overlay when it has a top-level `overlay`
    /// key, else toolport's shape. Every error is located in `file`.
    pub fn parse(file: &str, text: &str) -> Result<OverlayFile, Vec<Diagnostic>> {
        let document = Document::parse(file, text).map_err(|d| vec![d])?;
        if document.value.get("overlay").is_some() {
            return OpenApiOverlay::from_document(&document).map(OverlayFile::OpenApi);
        }
        Overlay::from_document(&document).map(OverlayFile::Toolport)
    }
}

/// toolport's overlay: changes per tool, keyed by the tool's source name.
#[derive(Clone, Debug)]
pub struct Overlay {
    file: String,
    /// The file's text, for locating errors found when applying (an unknown tool).
    text: String,
    tools: IndexMap<String, ToolChanges>,
}

#[derive(Clone, Debug, Default)]
struct ToolChanges {
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    hints: Map<String, Value>,
    confirmation: Option<Option<Confirmation>>,
    parameters: IndexMap<String, ParameterChanges>,
}

#[derive(Clone, Debug, Default)]
struct ParameterChanges {
    description: Option<String>,
    hidden: bool,
    value: Option<Value>,
}

const TOOL_KEYS: &[&str] = &["name", "title", "description", "hints", "confirmation", "parameters"];
const HINT_KEYS: &[&str] = &["read_only", "destructive", "idempotent", "open_world"];
const PARAMETER_KEYS: &[&str] = &["description", "hidden", "value"];
const CONFIRMATION_KEYS: &[&str] = &["message", "style"];

/// Reads values out of the overlay document, collecting located errors.
struct Fields<'d, 't> {
    document: &'d Document<'t>,
    errors: Vec<Diagnostic>,
}

impl Fields<'_, '_> {
    fn object<'v>(&mut self, value: &'v Value, at: &str, keys: &[&str], what: &str) -> Option<&'v Map<String, Value>> {
        let Some(object) = value.as_object() else {
            self.errors.push(self.document.error(at, format!("{what} must be an object")));
            return None;
        };
        for key in object.keys().filter(|k| !keys.contains(&k.as_str())) {
            let hint = did_you_mean(key, keys.iter().copied());
            let message = format!("{what} has no key `{key}`{hint}; it takes {}", keys.join(", "));
            self.errors.push(self.document.error(&child(at, key), message));
        }
        Some(object)
    }

    fn text(&mut self, object: &Map<String, Value>, key: &str, at: &str) -> Option<String> {
        match object.get(key)? {
            Value::String(text) => Some(text.clone()),
            _ => {
                self.errors.push(self.document.error(&child(at, key), format!("`{key}` must be text")));
                None
            }
        }
    }

    fn flag(&mut self, object: &Map<String, Value>, key: &str, at: &str) -> Option<bool> {
        match object.get(key)? {
            Value::Bool(flag) => Some(*flag),
            _ => {
                self.errors.push(self.document.error(&child(at, key), format!("`{key}` must be true or false")));
                None
            }
        }
    }
}

impl Overlay {
    fn from_document(document: &Document) -> Result<Overlay, Vec<Diagnostic>> {
        let mut fields = Fields { document, errors: Vec::new() };
        let mut tools = IndexMap::new();
        if let Some(root) = fields.object(&document.value, "", &["$schema", "tools"], "an overlay") {
            match root.get("tools") {
                None => fields.errors.push(document.error("", "an overlay needs `tools`: the changes per tool")),
                Some(Value::Object(all)) => {
                    for (name, changes) in all {
                        let at = child("/tools", name);
                        tools.insert(name.clone(), tool_changes(&mut fields, changes, &at));
                    }
                }
                Some(_) => fields.errors.push(document.error("/tools", "`tools` must be an object")),
            }
        }
        if !fields.errors.is_empty() {
            return Err(fields.errors);
        }
        Ok(Overlay { file: document.file.clone(), text: document.text().to_owned(), tools })
    }

    /// Applies the overlay to `model`; errors (a tool or parameter the model lacks, a new
    /// name another tool has, a required parameter hidden without a value) are located in
    /// the overlay file, and nothing is changed when there is one.
    pub fn apply(&self, model: &mut ToolSet) -> Vec<Diagnostic> {
        let mut errors = Vec::new();
        let mut changed = model.clone();
        for (source_name, changes) in &self.tools {
            let at = child("/tools", source_name);
            let Some(index) = model.tools.iter().position(|t| &t.name == source_name) else {
                let hint = did_you_mean(source_name, model.tools.iter().map(|t| t.name.as_str()));
                errors.push((at, format!("the source has no tool `{source_name}`{hint}")));
                continue;
            };
            if let Some(new) = &changes.name
                && new != source_name
                && model.tools.iter().any(|t| &t.name == new)
            {
                let message = format!("`{source_name}` cannot be renamed `{new}`: the source has a tool of that name");
                errors.push((child(&at, "name"), message));
            }
            errors.extend(apply_to_tool(&mut changed, index, changes, &at));
        }
        if errors.is_empty() {
            *model = changed;
            return Vec::new();
        }
        // Parsed again only to place the errors: this text parsed when the overlay was read.
        match Document::parse(&self.file, &self.text) {
            Ok(document) => errors.iter().map(|(at, message)| document.error(at, message.as_str())).collect(),
            Err(error) => vec![error],
        }
    }
}

fn tool_changes(fields: &mut Fields, value: &Value, at: &str) -> ToolChanges {
    let mut changes = ToolChanges::default();
    let Some(object) = fields.object(value, at, TOOL_KEYS, "a tool's changes") else { return changes };
    changes.name = fields.text(object, "name", at).filter(|n| !n.is_empty());
    if object.get("name").is_some_and(|n| n.as_str() == Some("")) {
        fields.errors.push(fields.document.error(&child(at, "name"), "a tool's new name cannot be empty"));
    }
    changes.title = fields.text(object, "title", at);
    changes.description = fields.text(object, "description", at);
    if let Some(hints) = object.get("hints") {
        let hints_at = child(at, "hints");
        if let Some(hints) = fields.object(hints, &hints_at, HINT_KEYS, "`hints`") {
            for key in HINT_KEYS {
                if let Some(flag) = fields.flag(hints, key, &hints_at) {
                    changes.hints.insert((*key).to_owned(), Value::Bool(flag));
                }
            }
        }
    }
    if let Some(confirmation) = object.get("confirmation") {
        let confirmation_at = child(at, "confirmation");
        changes.confirmation = match confirmation {
            Value::Bool(ask) => Some(ask.then(Confirmation::default)),
            other => fields
                .object(other, &confirmation_at, CONFIRMATION_KEYS, "`confirmation` (true, false or an object)")
                .map(|c| {
                    let style = fields.text(c, "style", &confirmation_at);
                    if style.as_deref().is_some_and(|s| s != "destructive" && s != "regular") {
                        let message = "`style` is destructive or regular";
                        fields.errors.push(fields.document.error(&child(&confirmation_at, "style"), message));
                    }
                    let message = fields.text(c, "message", &confirmation_at);
                    Some(Confirmation { message, style, ..Confirmation::default() })
                }),
        };
    }
    if let Some(parameters) = object.get("parameters") {
        let parameters_at = child(at, "parameters");
        match parameters.as_object() {
            Some(all) => {
                for (name, value) in all {
                    let at = child(&parameters_at, name);
                    let mut p = ParameterChanges::default();
                    if let Some(object) = fields.object(value, &at, PARAMETER_KEYS, "a parameter's changes") {
                        p.description = fields.text(object, "description", &at);
                        p.hidden = fields.flag(object, "hidden", &at).unwrap_or(false);
                        p.value = object.get("value").cloned();
                    }
                    changes.parameters.insert(name.clone(), p);
                }
            }
            None => fields.errors.push(fields.document.error(&parameters_at, "`parameters` must be an object")),
        }
    }
    changes
}

/// One tool's changes, applied to `model.tools[index]`; the errors, as (overlay pointer, message).
fn apply_to_tool(model: &mut ToolSet, index: usize, changes: &ToolChanges, at: &str) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    let tool = &mut model.tools[index];
    for (name, p) in &changes.parameters {
        let p_at = child(&child(at, "parameters"), name);
        let Some(position) = tool.parameters.iter().position(|q| &q.name == name) else {
            let hint = did_you_mean(name, tool.parameters.iter().map(|q| q.name.as_str()));
            errors.push((p_at, format!("tool `{}` has no parameter `{name}`{hint}", tool.name)));
            continue;
        };
        if let Some(description) = &p.description {
            tool.parameters[position].schema.description = Some(description.clone());
        }
        if p.value.is_none() && !p.hidden {
            continue;
        }
        if p.value.is_none() && tool.parameters[position].required {
            let message = format!(
                "parameter `{name}` of `{}` is required: a call without it fails, so pin it to a value (`value:`) rather than hide it",
                tool.name
            );
            errors.push((child(&p_at, "hidden"), message));
            continue;
        }
        let parameter = tool.parameters.remove(position);
        if let Some(value) = &p.value {
            tool.pinned.push(PinnedArgument {
                name: parameter.name.clone(),
                location: parameter.location,
                value: value.clone(),
            });
        }
        if let Some(display) = &mut tool.display {
            display.args.shift_remove(name);
        }
    }
    if let Some(title) = &changes.title {
        tool.title = Some(title.clone());
    }
    if let Some(description) = &changes.description {
        tool.description = Some(description.clone());
    }
    for (key, flag) in &changes.hints {
        let flag = flag.as_bool();
        match key.as_str() {
            "read_only" => tool.hints.read_only = flag,
            "destructive" => tool.hints.destructive = flag,
            "idempotent" => tool.hints.idempotent = flag,
            _ => tool.hints.open_world = flag,
        }
    }
    if let Some(confirmation) = &changes.confirmation {
        tool.confirmation = confirmation.clone().map(Box::new);
    }
    let hidden: Vec<&str> =
        changes.parameters.iter().filter(|(_, p)| p.hidden || p.value.is_some()).map(|(n, _)| n.as_str()).collect();
    let old = tool.name.clone();
    if let Some(new) = &changes.name {
        tool.name = new.clone();
        // The source's operation id would otherwise still be written where the name goes.
        if let Some(http) = &mut tool.http {
            http.operation_id = None;
        }
    }
    follow_in_examples(model, &old, changes.name.as_deref(), &hidden);
    errors
}

/// Examples follow the tool: calls to it under its new name, without the arguments the model
/// no longer sees; mocks under its new name.
fn follow_in_examples(model: &mut ToolSet, old: &str, new: Option<&str>, hidden: &[&str]) {
    for example in &mut model.examples {
        for expectation in &mut example.expected {
            crate::calls_mut(expectation, &mut |call| {
                if call.tool != old {
                    return;
                }
                if let Some(new) = new {
                    call.tool = new.to_owned();
                }
                if let Some(arguments) = &mut call.arguments {
                    arguments.retain(|name, _| !hidden.contains(&name.split('.').next().unwrap_or(name)));
                }
            });
        }
        if let Some(new) = new
            && let Some(index) = example.mocks.get_index_of(old)
        {
            let (_, value) = example.mocks.shift_remove_index(index).unwrap();
            example.mocks.shift_insert(index, new.to_owned(), value);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_core::{Example, Expectation, Matcher, ParamLocation, Parameter, Schema, Tool, ToolCall};

    use super::*;

    fn model() -> ToolSet {
        let mut list = Tool::new("listPets");
        let mut limit = Parameter::new("limit", Schema::default());
        limit.location = Some(ParamLocation::Query);
        let mut id = Parameter::new("id", Schema::default());
        id.required = true;
        list.parameters = vec![limit, Parameter::new("trace_id", Schema::default()), id];
        let call = ToolCall {
            tool: "listPets".into(),
            arguments: Some(
                [("limit".to_owned(), Matcher::eq(3)), ("id".to_owned(), Matcher::eq("a"))].into_iter().collect(),
            ),
            long_form: false,
        };
        let example = Example {
            prompt: "list".into(),
            expected: vec![Expectation::Not(Box::new(Expectation::CallsTool(call)))],
            mocks: [("listPets".to_owned(), json!([]))].into_iter().collect(),
            ..Example::default()
        };
        ToolSet { tools: vec![list, Tool::new("other")], examples: vec![example], ..ToolSet::default() }
    }

    /// (overlay, the model's JSON after it, or the errors as "line:column message")
    fn check(overlay: &str, expect: Result<serde_json::Value, &[&str]>) {
        let mut model = model();
        let applied = OverlayFile::parse("o.yaml", overlay).map(|file| match file {
            OverlayFile::Toolport(overlay) => overlay.apply(&mut model),
            OverlayFile::OpenApi(_) => panic!("not an OpenAPI overlay"),
        });
        let errors: Vec<String> = match applied {
            Ok(errors) | Err(errors) => errors
                .iter()
                .map(|d| {
                    let span = d.span.as_ref().unwrap();
                    format!("{}:{} {}", span.line, span.column, d.message)
                })
                .collect(),
        };
        match expect {
            Ok(want) => {
                assert!(errors.is_empty(), "{overlay}: {errors:?}");
                assert_eq!(serde_json::to_value(&model).unwrap(), want, "{overlay}");
            }
            Err(want) => {
                assert_eq!(errors, want, "{overlay}");
                assert_eq!(model, self::model(), "an overlay with errors changes nothing");
            }
        }
    }

    #[test]
    fn an_overlay_changes_tools_by_their_source_names() {
        check(
            "tools:\n  listPets:\n    name: list_all_pets\n    description: Every pet.\n    hints: {read_only: true}\n    confirmation: true\n    parameters:\n      limit: {value: 20}\n      trace_id: {hidden: true}\n      id: {description: The id.}\n",
            Ok(json!({
                "tools": [
                    {"name": "list_all_pets", "description": "Every pet.",
                     "parameters": [{"name": "id", "required": true, "schema": {"description": "The id."}}],
                     "confirmation": {}, "hints": {"read_only": true},
                     "pinned": [{"name": "limit", "location": "query", "value": 20}]},
                    {"name": "other"}
                ],
                "examples": [{"prompt": "list", "mocks": {"list_all_pets": []},
                    "expected": [{"not": {"calls_tool": {"tool": "list_all_pets", "arguments": {"id": {"eq": {"value": "a"}}}}}}]}]
            })),
        );
    }

    #[test]
    fn an_overlay_that_does_not_fit_the_source_is_refused_where_it_says_so() {
        check("tools:\n  listPet: {}\n", Err(&["2:3 the source has no tool `listPet` (did you mean `listPets`?)"]));
        check(
            "tools:\n  listPets:\n    name: other\n    parameters:\n      limt: {hidden: true}\n      id: {hidden: true}\n",
            Err(&[
                "3:5 `listPets` cannot be renamed `other`: the source has a tool of that name",
                "5:7 tool `listPets` has no parameter `limt` (did you mean `limit`?)",
                "6:12 parameter `id` of `listPets` is required: a call without it fails, so pin it to a value (`value:`) rather than hide it",
            ]),
        );
        check(
            r#"{"tools": {"listPets": {"hint": {}, "confirmation": {"style": "loud"}}}}"#,
            Err(&[
                "1:33 a tool's changes has no key `hint` (did you mean `hints`?); it takes name, title, description, hints, confirmation, parameters",
                "1:63 `style` is destructive or regular",
            ]),
        );
        check(
            "tool: {}\n",
            Err(&[
                "1:1 an overlay has no key `tool` (did you mean `tools`?); it takes $schema, tools",
                "1:1 an overlay needs `tools`: the changes per tool",
            ]),
        );
    }
}
