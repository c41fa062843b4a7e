//! The OpenAPI Overlay Specification 1.0 (<https://spec.openapis.org/overlay/v1.0.0.html>),
//! accepted by `--overlay` for OpenAPI sources and applied to the source document before it is
//! read. Each action's `target` is an RFC 9535 JSONPath (serde_json_path); in order, an action
//! with `remove: true` removes every node its target selects, else its `update` is merged into
//! each: into an object, key by key (objects merged recursively, arrays appended to, anything
//! else replaced); into an array, appended (an array's items one by one). A target that selects
//! nothing is a `curate/unmatched` warning, as other tools report unused actions.

use serde_json::{Map, Value};
use serde_json_path::JsonPath;
use toolport_core::source::child;
use toolport_core::{Diagnostic, codes};

use crate::text::Document;

/// A parsed OpenAPI Overlay document.
#[derive(Clone, Debug)]
pub struct OpenApiOverlay {
    file: String,
    actions: Vec<Action>,
}

#[derive(Clone, Debug)]
struct Action {
    target: JsonPath,
    target_text: String,
    change: Change,
}

#[derive(Clone, Debug)]
enum Change {
    Remove,
    Update(Value),
}

const ACTION_KEYS: &[&str] = &["target", "description", "update", "remove"];

impl OpenApiOverlay {
    pub(crate) fn from_document(document: &Document) -> Result<OpenApiOverlay, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let root = &document.value;
        match root.get("overlay").and_then(Value::as_str) {
            Some(version) if is_version_1_0(version) => {}
            Some(version) => errors.push(document.error(
                "/overlay",
                format!("OpenAPI Overlay version `{version}` is not supported: this convert reads 1.0.x"),
            )),
            None => errors
                .push(document.error("/overlay", "`overlay` must be the specification's version, text such as 1.0.0")),
        }
        let mut actions = Vec::new();
        match root.get("actions").and_then(Value::as_array) {
            None => errors.push(document.error("/actions", "an OpenAPI Overlay needs `actions`, a list of actions")),
            Some(list) => {
                for (i, raw) in list.iter().enumerate() {
                    let at = child("/actions", i.to_string());
                    match action(raw, &at, document) {
                        Ok(action) => actions.push(action),
                        Err(error) => errors.push(error),
                    }
                }
            }
        }
        if errors.is_empty() { Ok(OpenApiOverlay { file: document.file.clone(), actions }) } else { Err(errors) }
    }

    /// Applies the actions in order to `document` (the OpenAPI source, parsed). A target that
    /// selects nothing is a warning; removing the whole document is an error.
    pub fn apply(&self, document: &mut Value) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        for (i, action) in self.actions.iter().enumerate() {
            let mut pointers: Vec<String> =
                action.target.query_located(document).dedup().locations().map(|l| l.to_json_pointer()).collect();
            let at = format!("{} /actions/{i}", self.file);
            if pointers.is_empty() {
                diagnostics.push(Diagnostic::warning(
                    codes::CURATE_UNMATCHED,
                    format!("/actions/{i}"),
                    format!("{at}: target `{}` selects nothing in the source", action.target_text),
                ));
                continue;
            }
            match &action.change {
                Change::Update(update) => {
                    for pointer in &pointers {
                        if let Some(node) = document.pointer_mut(pointer) {
                            merge(node, update);
                        }
                    }
                }
                Change::Remove => {
                    if pointers.iter().any(String::is_empty) {
                        diagnostics.push(Diagnostic::error(
                            codes::CURATE_OVERLAY,
                            format!("/actions/{i}"),
                            format!(
                                "{at}: target `{}` is the whole document, which cannot be removed",
                                action.target_text
                            ),
                        ));
                        continue;
                    }
                    // Later array elements first, so the indices of the others stay right.
                    pointers.sort_by(|a, b| pointer_order(b, a));
                    for pointer in &pointers {
                        remove(document, pointer);
                    }
                }
            }
        }
        diagnostics
    }
}

fn is_version_1_0(version: &str) -> bool {
    version.strip_prefix("1.0.").is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
}

fn action(raw: &Value, at: &str, document: &Document) -> Result<Action, Diagnostic> {
    let Some(object) = raw.as_object() else { return Err(document.error(at, "an action must be an object")) };
    if let Some(key) = object.keys().find(|k| !ACTION_KEYS.contains(&k.as_str()) && !k.starts_with("x-")) {
        return Err(document
            .error(&child(at, key), format!("an action has no key `{key}`; it takes {}", ACTION_KEYS.join(", "))));
    }
    let Some(target_text) = object.get("target").and_then(Value::as_str) else {
        return Err(document.error(at, "an action needs `target`, a JSONPath such as $.paths['/pets'].get"));
    };
    let target = JsonPath::parse(target_text)
        .map_err(|e| document.error(&child(at, "target"), format!("`{target_text}` is not a JSONPath: {e}")))?;
    let change = match (object.get("remove"), object.get("update")) {
        (Some(Value::Bool(true)), _) => Change::Remove,
        (Some(Value::Bool(false)) | None, Some(update)) => Change::Update(update.clone()),
        (Some(Value::Bool(false)) | None, None) => {
            return Err(document.error(at, "an action needs `update` or `remove: true`"));
        }
        (Some(_), _) => return Err(document.error(&child(at, "remove"), "`remove` must be true or false")),
    };
    Ok(Action { target, target_text: target_text.to_owned(), change })
}

/// Merges `update` into `node` as the specification says.
fn merge(node: &mut Value, update: &Value) {
    match (node, update) {
        (Value::Object(node), Value::Object(update)) => merge_objects(node, update),
        (Value::Array(node), Value::Array(items)) => node.extend(items.iter().cloned()),
        (Value::Array(node), item) => node.push(item.clone()),
        (node, update) => *node = update.clone(),
    }
}

fn merge_objects(node: &mut Map<String, Value>, update: &Map<String, Value>) {
    for (key, value) in update {
        match node.get_mut(key) {
            Some(existing @ (Value::Object(_) | Value::Array(_))) if value.is_object() || value.is_array() => {
                merge(existing, value);
            }
            _ => drop(node.insert(key.clone(), value.clone())),
        }
    }
}

/// Removes the node at `pointer` (not the root) from its parent, if it is still there.
fn remove(document: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else { return };
    let key = last.replace("~1", "/").replace("~0", "~");
    match document.pointer_mut(parent) {
        Some(Value::Object(map)) => drop(map.shift_remove(&key)),
        Some(Value::Array(items)) => {
            if let Ok(index) = key.parse::<usize>()
                && index < items.len()
            {
                items.remove(index);
            }
        }
        _ => {}
    }
}

/// Document order of two JSON pointers, array indices compared as numbers.
fn pointer_order(a: &str, b: &str) -> std::cmp::Ordering {
    let segments = |p: &'_ str| p.split('/').map(|s| (s.parse::<usize>().ok(), s.to_owned())).collect::<Vec<_>>();
    segments(a).cmp(&segments(b))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn overlay(text: &str) -> Result<OpenApiOverlay, Vec<Diagnostic>> {
        let document = Document::parse("o.yaml", text).map_err(|d| vec![d])?;
        OpenApiOverlay::from_document(&document)
    }

    #[test]
    fn actions_update_and_remove_in_order() {
        let mut spec = json!({
            "info": {"title": "Pets", "version": "1"},
            "tags": [{"name": "pets"}],
            "paths": {
                "/pets": {"get": {"operationId": "listPets", "tags": ["pets"], "description": "old"},
                          "post": {"operationId": "createPet", "x-internal": true}},
                "/admin": {"get": {"operationId": "admin", "x-internal": true}}
            }
        });
        let text = r#"
overlay: 1.0.0
info: {title: t, version: '1'}
actions:
  - target: $.paths['/pets'].get
    update: {description: Lists every pet., tags: [animals]}
  - target: $.tags
    update: {name: animals}
  - target: $.paths.*[?@['x-internal'] == true]
    remove: true
  - target: $.paths['/admin']
    remove: true
  - target: $.paths['/nothing']
    update: {x: 1}
"#;
        let diagnostics = overlay(text).unwrap().apply(&mut spec);
        // `/admin` lost its only operation to the filter, then was removed itself.
        let expect = json!({
            "info": {"title": "Pets", "version": "1"},
            "tags": [{"name": "pets"}, {"name": "animals"}],
            "paths": {"/pets": {"get": {"operationId": "listPets", "tags": ["pets", "animals"], "description": "Lists every pet."}}}
        });
        assert_eq!(spec, expect);
        let codes: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_str())).collect();
        assert_eq!(codes, [(codes::CURATE_UNMATCHED, "/actions/4")]);
    }

    #[test]
    fn a_bad_overlay_is_refused_with_its_place() {
        for (text, says, line) in [
            ("overlay: 2.0.0\nactions: []\n", "version `2.0.0` is not supported", 1),
            ("overlay: 1.0.0\nactions:\n  - target: $.paths[\n    remove: true\n", "is not a JSONPath", 3),
            ("overlay: 1.0.0\nactions:\n  - target: $.info\n", "needs `update` or `remove: true`", 3),
            ("overlay: 1.0.0\nactions:\n  - target: $.info\n    updates: {}\n", "no key `updates`", 4),
        ] {
            let errors = overlay(text).unwrap_err();
            let rendered = format!("{errors:?}");
            assert!(rendered.contains(says), "{text}: {rendered}");
            assert_eq!(errors[0].span.as_ref().unwrap().line, line, "{text}: {rendered}");
        }
        let mut spec = json!({"openapi": "3.1.0"});
        let removed = overlay("overlay: 1.0.0\nactions:\n  - {target: $, remove: true}\n").unwrap().apply(&mut spec);
        assert!(removed[0].is_error() && removed[0].message.contains("whole document"), "{removed:?}");
    }
}
