//! The request body: one parameter as the whole body, or the body parameters as the
//! properties of an object (every parameter of a tool without an HTTP binding).

use serde_json::{Map, Value};
use toolport_plugin::{Diagnostic, Parameter, Property, Schema, SchemaType, Tool, codes};

use super::operation::OpWriter;
use super::parameter::{ParameterNames, in_body};
use super::root_keywords::BodyShape;
use super::{Mode, object_with};

impl OpWriter<'_> {
    /// The `requestBody`, or `None` when the tool has no body parameter and its source
    /// operation had no request body. `ext` is the tool's `extras["openapi"]`.
    pub(super) fn request_body(
        &self,
        tool: &Tool,
        ext: &Map<String, Value>,
        names: &mut ParameterNames,
        index: usize,
        base: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Map<String, Value>> {
        let synthesized = tool.http.is_none();
        let body_ext = ext.get("body").and_then(Value::as_object);
        let body_params: Vec<(usize, &Parameter)> =
            tool.parameters.iter().enumerate().filter(|(_, p)| in_body(tool, p)).collect();
        let no_schema =
            body_ext.is_some_and(|b| b.get("noSchema") == Some(&Value::Bool(true))) && body_params.is_empty();
        if (body_params.is_empty() && body_ext.is_none()) || no_schema {
            self.root_keywords(tool, index, BodyShape::None, out);
        }
        if body_params.is_empty() && body_ext.is_none() {
            return None;
        }
        let mut request =
            body_ext.and_then(|b| b.get("request")).and_then(Value::as_object).cloned().unwrap_or_default();
        let other_content = request.remove("content");
        let body_parameter = tool.http.as_ref().and_then(|h| h.body_parameter.as_deref());
        let whole = body_parameter.and_then(|n| body_params.iter().find(|(_, p)| p.name == n));
        let schema = match whole {
            Some(&(i, p)) => {
                self.root_keywords(tool, index, BodyShape::OneParameter(&p.name), out);
                self.whole_body_schema(i, p, &mut request, base, out)
            }
            None => {
                if synthesized && body_params.iter().any(|(_, p)| p.required) {
                    request.insert("required".into(), Value::Bool(true));
                }
                let source_schema = body_ext.and_then(|b| b.get("schema"));
                let shape = if body_params.len() == tool.parameters.len() {
                    BodyShape::WholeInput
                } else {
                    BodyShape::SomeParameters
                };
                let root = if no_schema { Map::new() } else { self.root_keywords(tool, index, shape, out) };
                self.properties_body_schema(source_schema, root, &body_params, names, base, out)
            }
        };
        let content_type = tool.http.as_ref().and_then(|h| h.body_content_type.clone());
        if content_type.is_some() || !body_params.is_empty() || synthesized {
            let media = object_with(
                (!no_schema).then(|| ("schema".into(), Value::Object(schema))),
                body_ext.and_then(|b| b.get("media")).and_then(Value::as_object).cloned(),
            );
            let others = match other_content {
                Some(Value::Object(others)) => Some(others),
                _ => None,
            };
            let content_type = content_type.unwrap_or_else(|| "application/json".into());
            let content = object_with(Some((content_type, Value::Object(media))), others);
            let mut ordered = Map::with_capacity(request.len() + 1);
            if let Some(description) = request.remove("description") {
                ordered.insert("description".into(), description);
            }
            ordered.insert("content".into(), Value::Object(content));
            ordered.extend(request);
            request = ordered;
        } else if let Some(others) = other_content {
            request.insert("content".into(), others);
        }
        Some(request)
    }

    /// The schema of a body that is one parameter (the `i`th); for Vertex, which reads a body
    /// as the function's parameters, an object with that parameter as its only property.
    fn whole_body_schema(
        &self,
        i: usize,
        p: &Parameter,
        request: &mut Map<String, Value>,
        base: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Map<String, Value> {
        if p.required || request.contains_key("required") {
            request.insert("required".into(), Value::Bool(p.required));
        }
        let path = format!("{base}/parameters/{i}/schema");
        if self.mode == Mode::Vertex && p.schema.kind != Some(SchemaType::Object) {
            out.push(Diagnostic::warning(
                codes::CHANGED_SCHEMA,
                format!("{base}/parameters/{i}"),
                format!("Vertex needs an object request body: `{}` is wrapped as its only property", p.name),
            ));
            let property = Property { name: p.name.clone(), required: p.required, schema: p.schema.clone() };
            let wrapped = Schema { properties: vec![property], ..Schema::of(SchemaType::Object) };
            return self.parameter_schema(&p.name, &wrapped, &path, out);
        }
        self.parameter_schema(&p.name, &p.schema, &path, out)
    }

    /// The object schema of a body whose properties are the body parameters: the source's body
    /// schema (`source_schema`, its other keywords) with each parameter a property, and the
    /// input schema's `root` keywords it carries.
    fn properties_body_schema(
        &self,
        source_schema: Option<&Value>,
        root: Map<String, Value>,
        body_params: &[(usize, &Parameter)],
        names: &mut ParameterNames,
        base: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Map<String, Value> {
        let mut schema = source_schema
            .and_then(|s| <Schema as serde::Deserialize>::deserialize(s).ok())
            .unwrap_or_else(|| Schema::of(SchemaType::Object));
        // The parameters' schemas are written where they are, not copied into `schema` (a
        // large form body's are most of a spec).
        let own_properties = std::mem::take(&mut schema.properties);
        let mut params = Vec::with_capacity(body_params.len());
        for (i, p) in body_params {
            params.push((names.written(p, *i, out), *p, format!("{base}/parameters/{i}/schema")));
        }
        // Diagnostics of each property point at its parameter.
        let mut map = self.schema(&schema, &format!("{base}/http"), out);
        // The input schema's root keywords another format kept; the body's own win.
        for (key, value) in root {
            map.entry(key).or_insert(value);
        }
        if own_properties.is_empty() && params.is_empty() {
            return map;
        }
        let properties_listed = own_properties
            .iter()
            .map(|p| (&p.name, &p.schema, p.required))
            .chain(params.iter().map(|(name, p, _)| (name, &p.schema, p.required)));
        // Each written property is paired with a parameter's path: as many as there are
        // parameters.
        let written: Vec<_> = properties_listed.zip(params.iter().map(|(_, _, path)| path)).collect();
        let mut properties = Map::with_capacity(written.len());
        // Sized: a pushed-to list keeps room for four, and most bodies require one or two.
        let mut required = Vec::with_capacity(written.iter().filter(|((_, _, required), _)| *required).count());
        for ((name, property_schema, is_required), path) in written {
            let schema = self.parameter_schema(name, property_schema, path, out);
            properties.insert(name.clone(), Value::Object(schema));
            if is_required {
                required.push(Value::String(name.clone()));
            }
        }
        with_properties(map, properties, required)
    }
}

/// `map`, an object schema, with `properties` and `required` (before the names `map` requires)
/// placed in the canonical key order: properties after the scalar keywords, `required` after
/// them.
fn with_properties(
    map: Map<String, Value>,
    mut properties: Map<String, Value>,
    mut required: Vec<Value>,
) -> Map<String, Value> {
    let mut ordered = Map::with_capacity(map.len() + 1);
    let mut inserted = false;
    for (k, v) in map {
        if !inserted && matches!(k.as_str(), "required" | "additionalProperties" | "anyOf" | "oneOf") {
            ordered.insert("properties".into(), Value::Object(std::mem::take(&mut properties)));
            inserted = true;
        }
        if k == "required" {
            if let Value::Array(more) = v {
                required.extend(more);
            }
            continue;
        }
        ordered.insert(k, v);
    }
    if !inserted {
        ordered.insert("properties".into(), Value::Object(properties));
    }
    if required.is_empty() {
        return ordered;
    }
    let mut with_required = Map::with_capacity(ordered.len() + 1);
    for (k, v) in ordered {
        let is_properties = k == "properties";
        with_required.insert(k, v);
        if is_properties {
            with_required.insert("required".into(), Value::Array(std::mem::take(&mut required)));
        }
    }
    with_required
}
