//! The places of an OpenAPI document that hold schemas (operations' parameters, bodies,
//! responses, headers, encodings, callbacks, and the components), walked once for every rewrite
//! of a written document between 3.0 and 3.1 (`downgrade`, `upgrade`): a rewrite says what it
//! does to one schema, this file where schemas are.

use serde_json::{Map, Value};
use toolport_plugin::source::child;

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// What a rewrite does where the walk meets a schema, a path item or security requirements.
pub(super) trait SchemaRewrite {
    /// One schema object; a rewrite goes into the schemas inside it with [`subschemas`].
    fn schema(&mut self, schema: &mut Value, at: &str);
    /// A path item, before it is walked (a downgrade inlines a reference to `pathItems`).
    fn path_item_before(&mut self, _item: &mut Value, _at: &str) {}
    /// An operation's security requirements.
    fn security(&mut self, _security: Option<&mut Value>) {}
}

/// Every path item of `doc.paths`.
pub(super) fn paths(rewrite: &mut impl SchemaRewrite, doc: &mut Map<String, Value>) {
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        for (path, item) in paths.iter_mut() {
            path_item(rewrite, item, &child("/paths", path));
        }
    }
}

/// Every component that holds schemas: schemas, parameters, headers, responses, request
/// bodies, callbacks.
pub(super) fn components(rewrite: &mut impl SchemaRewrite, doc: &mut Map<String, Value>) {
    let Some(Value::Object(components)) = doc.get_mut("components") else { return };
    for (kind, entries) in components.iter_mut() {
        let Value::Object(entries) = entries else { continue };
        for (name, entry) in entries.iter_mut() {
            let at = child(&child("/components", kind), name);
            match kind.as_str() {
                "schemas" => rewrite.schema(entry, &at),
                "parameters" | "headers" => parameter(rewrite, entry, &at),
                "responses" => response(rewrite, entry, &at),
                "requestBodies" => content(rewrite, entry, &at),
                "callbacks" => callback(rewrite, entry, &at),
                _ => {}
            }
        }
    }
}

/// The schemas directly inside a schema object: `items`, `not`, `additionalProperties` (when
/// schemas), each of `allOf`, `anyOf`, `oneOf`, and each property.
pub(super) fn subschemas(map: &mut Map<String, Value>, at: &str, mut visit: impl FnMut(&mut Value, &str)) {
    for key in ["items", "not", "additionalProperties"] {
        if let Some(inner) = map.get_mut(key).filter(|v| v.is_object()) {
            visit(inner, &child(at, key));
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = map.get_mut(key) {
            for (i, member) in members.iter_mut().enumerate() {
                visit(member, &child(&child(at, key), i.to_string()));
            }
        }
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            visit(property, &child(&child(at, "properties"), name));
        }
    }
}

fn path_item(rewrite: &mut impl SchemaRewrite, item: &mut Value, at: &str) {
    rewrite.path_item_before(item, at);
    let Value::Object(item) = item else { return };
    if item.contains_key("$ref") {
        return;
    }
    parameters(rewrite, item.get_mut("parameters"), at);
    for method in METHODS {
        if let Some(operation) = item.get_mut(method) {
            self::operation(rewrite, operation, &child(at, method));
        }
    }
}

fn operation(rewrite: &mut impl SchemaRewrite, operation: &mut Value, at: &str) {
    let Value::Object(operation) = operation else { return };
    parameters(rewrite, operation.get_mut("parameters"), at);
    if let Some(body) = operation.get_mut("requestBody") {
        content(rewrite, body, &child(at, "requestBody"));
    }
    if let Some(Value::Object(responses)) = operation.get_mut("responses") {
        for (status, each) in responses.iter_mut() {
            response(rewrite, each, &child(&child(at, "responses"), status));
        }
    }
    if let Some(callbacks) = operation.get_mut("callbacks").and_then(Value::as_object_mut) {
        for (name, each) in callbacks.iter_mut() {
            callback(rewrite, each, &child(&child(at, "callbacks"), name));
        }
    }
    rewrite.security(operation.get_mut("security"));
}

fn callback(rewrite: &mut impl SchemaRewrite, callback: &mut Value, at: &str) {
    let Value::Object(callback) = callback else { return };
    if callback.contains_key("$ref") {
        return;
    }
    for (expression, item) in callback.iter_mut() {
        path_item(rewrite, item, &child(at, expression));
    }
}

fn parameters(rewrite: &mut impl SchemaRewrite, parameters: Option<&mut Value>, at: &str) {
    let Some(Value::Array(parameters)) = parameters else { return };
    let at = child(at, "parameters");
    for (i, each) in parameters.iter_mut().enumerate() {
        parameter(rewrite, each, &child(&at, i.to_string()));
    }
}

/// A parameter or a header: a schema, or content.
fn parameter(rewrite: &mut impl SchemaRewrite, parameter: &mut Value, at: &str) {
    if let Some(schema) = parameter.get_mut("schema") {
        rewrite.schema(schema, &child(at, "schema"));
    }
    content(rewrite, parameter, at);
}

fn response(rewrite: &mut impl SchemaRewrite, response: &mut Value, at: &str) {
    if let Some(Value::Object(headers)) = response.get_mut("headers") {
        for (name, header) in headers.iter_mut() {
            parameter(rewrite, header, &child(&child(at, "headers"), name));
        }
    }
    content(rewrite, response, at);
}

/// The media types of `holder.content` (a request body, a response, a parameter).
fn content(rewrite: &mut impl SchemaRewrite, holder: &mut Value, at: &str) {
    let Some(Value::Object(content)) = holder.get_mut("content") else { return };
    let at = child(at, "content");
    for (media_type, media) in content.iter_mut() {
        let at = child(&at, media_type);
        if let Some(schema) = media.get_mut("schema") {
            rewrite.schema(schema, &child(&at, "schema"));
        }
        if let Some(Value::Object(encodings)) = media.get_mut("encoding") {
            for (property, encoding) in encodings.iter_mut() {
                // An encoding has headers, as a response has.
                response(rewrite, encoding, &child(&child(&at, "encoding"), property));
            }
        }
    }
}
