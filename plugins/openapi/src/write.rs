//! Canonical model → OpenAPI document, for the `openapi` writer and (in [`Mode::Vertex`]) the
//! spec inside a Vertex import body.
//!
//! Operations are regenerated from the model. A tool read from OpenAPI whose regenerated
//! operation has the digest recorded at read time is unchanged, and its operation as written
//! in the source (with its `$ref`s) is emitted instead, so a same-format round trip is exact.
//! Model fields OpenAPI has no place for go to `x-toolport-*` keys, which the reader restores;
//! the last step moves every one of them into the top-level section [`bookkeeping::SECTION`].

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use toolport_plugin::jsonschema::{Dialect, Writer};
use toolport_plugin::names::{NameMap, NameRules};
use toolport_plugin::source::child;
use toolport_plugin::{
    AdditionalProperties, Auth, AuthKind, Diagnostic, ParamLocation, Parameter, Schema, SchemaType, Server, Tool,
    ToolSet, ValueSet, codes,
};

use crate::ID;
use crate::bookkeeping::{self, AUTH_MARK};
use crate::http::method_hints;
use crate::verbatim;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    OpenApi,
    /// Vertex's rules: one server, Vertex function and parameter names, the Gemini schema
    /// subset, an operationId and a response on every operation, OpenAPI 3.0.
    Vertex,
}

pub(crate) const DEFAULT_BASE_URL: &str = "https://example.invalid";
const SUCCESS: &str = "Successful response";

/// One schema as an object in `dialect`, references pointing into `components.schemas`.
fn schema_map(
    dialect: Dialect,
    value_sets: Option<&IndexMap<String, ValueSet>>,
    schema: &Schema,
    path: &str,
    out: &mut Vec<Diagnostic>,
) -> Map<String, Value> {
    let mut writer = Writer::new(dialect).with_reference_prefix(Some(COMPONENT_SCHEMAS));
    if let Some(sets) = value_sets {
        writer = writer.with_value_sets(sets);
    }
    let fixed = without_empty_enums(schema, value_sets, path, out);
    let (value, diagnostics) = writer.write(fixed.as_ref().unwrap_or(schema), path);
    out.extend(diagnostics);
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `schema` without empty enums, or `None` when it has none. An empty `enum` (or a value set
/// that lists no values) allows no value at all: validators reject the document (OpenAPI's
/// schema says `minItems: 1`), and on a required parameter no valid call exists. It is left
/// out, so any value of the type is accepted, with a `changed/schema` warning.
fn without_empty_enums(
    schema: &Schema,
    value_sets: Option<&IndexMap<String, ValueSet>>,
    path: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Schema> {
    let empty_set = |s: &Schema| {
        s.enumeration.is_none()
            && s.value_set.as_ref().and_then(|id| value_sets?.get(id)).is_some_and(|set| set.entries.is_empty())
    };
    let needs = |s: &Schema| s.enumeration.as_ref().is_some_and(Vec::is_empty) || empty_set(s);
    if !schema_any(schema, &needs) {
        return None;
    }
    let mut fixed = schema.clone();
    fix_empty_enums(&mut fixed, &needs, path, out);
    Some(fixed)
}

/// Whether `test` holds for `schema` or any schema inside it.
fn schema_any(schema: &Schema, test: &dyn Fn(&Schema) -> bool) -> bool {
    test(schema)
        || schema.items.as_deref().is_some_and(|s| schema_any(s, test))
        || schema.properties.iter().any(|p| schema_any(&p.schema, test))
        || matches!(&schema.additional_properties, Some(AdditionalProperties::Schema(s)) if schema_any(s, test))
        || schema.any_of.iter().any(|s| schema_any(s, test))
}

fn fix_empty_enums(schema: &mut Schema, needs: &dyn Fn(&Schema) -> bool, path: &str, out: &mut Vec<Diagnostic>) {
    if needs(schema) {
        let what = match (&schema.enumeration, &schema.value_set) {
            (Some(_), _) | (None, None) => "an empty enum".to_owned(),
            (None, Some(id)) => format!("value set `{id}`, which lists no values,"),
        };
        out.push(Diagnostic::warning(
            codes::CHANGED_SCHEMA,
            child(path, "enum"),
            format!("{what} would allow no value at all: left out, so any value of the type is accepted"),
        ));
        schema.enumeration = None;
        schema.value_set = None;
    }
    if let Some(items) = schema.items.as_deref_mut() {
        fix_empty_enums(items, needs, &child(path, "items"), out);
    }
    let at = child(path, "properties");
    for (i, property) in schema.properties.iter_mut().enumerate() {
        fix_empty_enums(&mut property.schema, needs, &child(&child(&at, i.to_string()), "schema"), out);
    }
    if let Some(AdditionalProperties::Schema(inner)) = &mut schema.additional_properties {
        fix_empty_enums(inner, needs, &child(path, "additional_properties"), out);
    }
    let at = child(path, "any_of");
    for (i, member) in schema.any_of.iter_mut().enumerate() {
        fix_empty_enums(member, needs, &child(&at, i.to_string()), out);
    }
}

/// `components.schemas` for the set's definitions. OpenAPI keeps every definition, and a
/// source's schema as written where reading it back gives the same definition (so a same-format
/// round trip is exact); Vertex gets only those the written document refers to, in the Gemini
/// subset. Operations and other components written verbatim may refer to source schemas the
/// model has no definition for (error responses): those are copied as written.
fn component_schemas(
    set: &ToolSet,
    mode: Mode,
    dialect: Dialect,
    source: Option<Map<String, Value>>,
    referrers: &[&Value],
    out: &mut Vec<Diagnostic>,
) -> Map<String, Value> {
    use toolport_plugin::definitions::{name_in_reference, referenced_directly, refs_in_value};
    // The source's schemas, moved (not copied) under the root the schema reader resolves in.
    let mut holder = Map::new();
    holder.insert("schemas".into(), Value::Object(source.unwrap_or_default()));
    let mut root = Map::new();
    root.insert("components".into(), Value::Object(holder));
    let root = Value::Object(root);
    let source = root["components"]["schemas"].as_object();
    let mut schemas = Map::new();
    let names: Vec<String> = match mode {
        Mode::OpenApi => set.definitions.keys().cloned().collect(),
        Mode::Vertex => {
            let mut refs = Vec::new();
            for referrer in referrers {
                refs_in_value(referrer, &mut refs);
            }
            let mut pending: Vec<String> = refs.into_iter().filter_map(name_in_reference).collect();
            let mut names: IndexMap<String, ()> = IndexMap::new();
            while let Some(name) = pending.pop() {
                if names.contains_key(&name) {
                    continue;
                }
                if let Some(definition) = set.definitions.get(&name) {
                    // The worklist follows these further: the closure is the same.
                    pending.extend(referenced_directly(definition, &set.definitions));
                } else if let Some(raw) = source.and_then(|s| s.get(&name)) {
                    let mut refs = Vec::new();
                    refs_in_value(raw, &mut refs);
                    pending.extend(refs.into_iter().filter_map(name_in_reference));
                } else {
                    continue;
                }
                names.insert(name, ());
            }
            names.sort_keys();
            names.into_keys().collect()
        }
    };
    let mut reader = toolport_plugin::jsonschema::Reader::new(&root, dialect);
    for name in names {
        let Some(definition) = set.definitions.get(&name) else {
            if let Some(raw) = source.and_then(|s| s.get(&name)) {
                schemas.insert(name, raw.clone());
            }
            continue;
        };
        let path = child("/definitions", &name);
        if mode == Mode::OpenApi
            && let Some(raw) = source.and_then(|s| s.get(&name))
            && reader.read(raw, &child("/components/schemas", &name)) == *definition
        {
            schemas.insert(name, raw.clone());
            continue;
        }
        let written = schema_map(dialect, Some(&set.value_sets), definition, &path, out);
        schemas.insert(name, Value::Object(written));
    }
    // Schemas of the source no definition came from (unused ones) stay as written.
    if mode == Mode::OpenApi {
        for (name, raw) in source.into_iter().flatten() {
            if !schemas.contains_key(name) {
                schemas.insert(name.clone(), raw.clone());
            }
        }
    }
    schemas
}

/// Builds one operation object from a tool.
#[derive(Debug)]
pub(crate) struct OpWriter<'a> {
    mode: Mode,
    dialect: Dialect,
    value_sets: Option<&'a IndexMap<String, ValueSet>>,
    /// Whether a description the reader took from the summary is written as `description`
    /// too: for a target other than the source's format (a Vertex spec from an OpenAPI
    /// document), so the model reads it; never for the same format (the round trip is exact).
    describe_summaries: bool,
}

/// Where schema references point in both modes: the document's `components.schemas`
/// (Vertex accepts them in its spec even though its schema subset is Gemini's).
const COMPONENT_SCHEMAS: &str = "#/components/schemas/";

impl<'a> OpWriter<'a> {
    pub(crate) fn for_openapi(dialect: Dialect) -> Self {
        OpWriter { mode: Mode::OpenApi, dialect, value_sets: None, describe_summaries: false }
    }

    fn schema(&self, schema: &Schema, path: &str, out: &mut Vec<Diagnostic>) -> Map<String, Value> {
        schema_map(self.dialect, self.value_sets, schema, path, out)
    }

    /// The operation for `tool`, named `name`. `index` is the tool's place in the model (for
    /// diagnostic paths). Synthesized tools (no HTTP binding) send every parameter in a JSON body.
    pub(crate) fn operation(
        &self,
        tool: &Tool,
        name: &str,
        index: Option<usize>,
    ) -> (Map<String, Value>, Vec<Diagnostic>) {
        let mut out = Vec::new();
        let base = format!("/tools/{}", index.unwrap_or(0));
        let empty = Map::new();
        let ext = tool.extras.get(ID).and_then(Value::as_object).unwrap_or(&empty);
        let leftovers = ext.get("operation").and_then(Value::as_object).unwrap_or(&empty);
        let vertex = self.mode == Mode::Vertex;
        let mut op = Map::new();
        if let Some(tags) = leftovers.get("tags") {
            op.insert("tags".into(), tags.clone());
        }
        if let Some(title) = &tool.title {
            op.insert("summary".into(), Value::from(title.as_str()));
        }
        // A description the reader took from the summary is not written a second time: the
        // source's blank one (or none) is.
        let from_summary = ext
            .get("descriptionFromSummary")
            .filter(|_| !self.describe_summaries && tool.description.is_some() && tool.description == tool.title);
        match (from_summary, &tool.description) {
            (Some(Value::String(blank)), _) => drop(op.insert("description".into(), Value::from(blank.as_str()))),
            (Some(_), _) | (None, None) => {}
            (None, Some(description)) => drop(op.insert("description".into(), Value::from(description.as_str()))),
        }
        let operation_id = match (&tool.http, vertex) {
            (_, true) => Some(name.to_owned()),
            _ if ext.get("noOperationId") == Some(&Value::Bool(true)) => None,
            (Some(http), false) => Some(http.operation_id.clone().unwrap_or_else(|| name.to_owned())),
            (None, false) => Some(name.to_owned()),
        };
        if let Some(id) = operation_id {
            op.insert("operationId".into(), Value::String(id));
        }

        // Parameter names: Vertex's rules, changes recorded for the reader.
        let mut param_names = NameMap::new(NameRules::PARAMETER);
        let mut renamed = Map::new();
        let mut written_name = |p: &Parameter, i: usize, out: &mut Vec<Diagnostic>| -> String {
            let original = p.extras.get(ID).and_then(|e| e.get("name")).and_then(Value::as_str).unwrap_or(&p.name);
            if !vertex {
                return original.to_owned();
            }
            let assigned = param_names.assign(original);
            if assigned != original {
                out.push(Diagnostic::warning(
                    codes::CHANGED_NAME,
                    child(&format!("{base}/parameters/{i}"), "name"),
                    format!(
                        "Vertex parameter names must match {}: `{original}` is written `{assigned}`",
                        NameRules::PARAMETER.pattern
                    ),
                ));
                renamed.insert(assigned.clone(), Value::String(p.name.clone()));
            }
            assigned
        };

        let synthesized = tool.http.is_none();
        let is_body = |p: &Parameter| synthesized || p.location.is_none_or(|l| l == ParamLocation::Body);
        let mut parameters = Vec::new();
        for (i, p) in tool.parameters.iter().enumerate() {
            if is_body(p) {
                continue;
            }
            let written = written_name(p, i, &mut out);
            parameters.push(Value::Object(self.parameter(p, &written, &format!("{base}/parameters/{i}"), &mut out)));
        }
        if !parameters.is_empty() {
            op.insert("parameters".into(), Value::Array(parameters));
        }

        // Request body.
        let body_ext = ext.get("body").and_then(Value::as_object);
        let body_params: Vec<(usize, &Parameter)> =
            tool.parameters.iter().enumerate().filter(|(_, p)| is_body(p)).collect();
        if !body_params.is_empty() || body_ext.is_some() {
            let mut request =
                body_ext.and_then(|b| b.get("request")).and_then(Value::as_object).cloned().unwrap_or_default();
            let other_content = request.remove("content");
            let body_parameter = tool.http.as_ref().and_then(|h| h.body_parameter.as_deref());
            let whole = body_parameter.and_then(|n| body_params.iter().find(|(_, p)| p.name == n));
            let schema = match whole {
                Some((i, p)) => {
                    if p.required || request.contains_key("required") {
                        request.insert("required".into(), Value::Bool(p.required));
                    }
                    let mut schema = p.schema.clone();
                    if vertex && schema.kind != Some(SchemaType::Object) {
                        // Vertex reads a body as the function's parameters: it must be an object.
                        out.push(Diagnostic::warning(
                            codes::CHANGED_SCHEMA,
                            format!("{base}/parameters/{i}"),
                            format!(
                                "Vertex needs an object request body: `{}` is wrapped as its only property",
                                p.name
                            ),
                        ));
                        let property = toolport_plugin::Property { name: p.name.clone(), required: p.required, schema };
                        schema = Schema { properties: vec![property], ..Schema::of(SchemaType::Object) };
                    }
                    self.schema(&schema, &format!("{base}/parameters/{i}/schema"), &mut out)
                }
                None => {
                    let mut schema = body_ext
                        .and_then(|b| b.get("schema"))
                        .and_then(|s| <Schema as serde::Deserialize>::deserialize(s).ok())
                        .unwrap_or_else(|| Schema::of(SchemaType::Object));
                    let mut paths = Vec::new();
                    for (i, p) in &body_params {
                        let written = written_name(p, *i, &mut out);
                        schema.properties.push(toolport_plugin::Property {
                            name: written,
                            required: p.required,
                            schema: p.schema.clone(),
                        });
                        paths.push(format!("{base}/parameters/{i}/schema"));
                    }
                    if synthesized && body_params.iter().any(|(_, p)| p.required) {
                        request.insert("required".into(), Value::Bool(true));
                    }
                    // Diagnostics of each property point at its parameter.
                    let mut map = self.schema(
                        &Schema { properties: Vec::new(), ..schema.clone() },
                        &format!("{base}/http"),
                        &mut out,
                    );
                    if !schema.properties.is_empty() {
                        let mut properties = Map::new();
                        let mut required = Vec::new();
                        for (property, path) in schema.properties.iter().zip(&paths) {
                            properties.insert(
                                property.name.clone(),
                                Value::Object(self.schema(&property.schema, path, &mut out)),
                            );
                            if property.required {
                                required.push(Value::String(property.name.clone()));
                            }
                        }
                        let mut ordered = Map::new();
                        let mut inserted = false;
                        for (k, v) in map {
                            // Keep the canonical key order: properties after the scalar keywords.
                            if !inserted
                                && matches!(k.as_str(), "required" | "additionalProperties" | "anyOf" | "oneOf")
                            {
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
                        if !required.is_empty() {
                            let mut with_required = Map::new();
                            for (k, v) in ordered {
                                let is_properties = k == "properties";
                                with_required.insert(k, v);
                                if is_properties {
                                    with_required
                                        .insert("required".into(), Value::Array(std::mem::take(&mut required)));
                                }
                            }
                            ordered = with_required;
                        }
                        map = ordered;
                    }
                    map
                }
            };
            let no_schema =
                body_ext.is_some_and(|b| b.get("noSchema") == Some(&Value::Bool(true))) && body_params.is_empty();
            let content_type = tool.http.as_ref().and_then(|h| h.body_content_type.clone());
            if content_type.is_some() || !body_params.is_empty() || synthesized {
                let mut media = Map::new();
                if !no_schema {
                    media.insert("schema".into(), Value::Object(schema));
                }
                if let Some(Value::Object(rest)) = body_ext.and_then(|b| b.get("media")) {
                    media.extend(rest.clone());
                }
                let mut content = Map::new();
                content.insert(content_type.unwrap_or_else(|| "application/json".into()), Value::Object(media));
                if let Some(Value::Object(others)) = other_content {
                    content.extend(others);
                }
                let mut ordered = Map::new();
                if let Some(description) = request.remove("description") {
                    ordered.insert("description".into(), description);
                }
                ordered.insert("content".into(), Value::Object(content));
                ordered.extend(request);
                request = ordered;
            } else if let Some(others) = other_content {
                request.insert("content".into(), others);
            }
            op.insert("requestBody".into(), Value::Object(request));
        }

        // Responses.
        let responses_ext = ext.get("responses").and_then(Value::as_object);
        let from_openapi = !ext.is_empty() && tool.http.is_some();
        if let Some(raw) = responses_ext.and_then(|r| r.get("raw")) {
            op.insert("responses".into(), raw.clone());
        } else {
            let mut responses = Map::new();
            let status =
                responses_ext.and_then(|r| r.get("status")).and_then(Value::as_str).unwrap_or("200").to_owned();
            if let Some(reference) = responses_ext.and_then(|r| r.get("ref")) {
                responses.insert(status, reference.clone());
            } else if let Some(output) = &tool.output {
                let mut response = Map::new();
                let no_description = responses_ext.is_some_and(|r| r.get("noDescription") == Some(&Value::Bool(true)));
                match (&output.description, no_description && !vertex) {
                    (Some(d), _) => drop(response.insert("description".into(), Value::from(d.as_str()))),
                    (None, false) => drop(response.insert("description".into(), Value::from(SUCCESS))),
                    (None, true) => {}
                }
                if output.content_type.is_some() || output.schema.is_some() {
                    let mut media = Map::new();
                    if let Some(schema) = &output.schema {
                        media.insert(
                            "schema".into(),
                            Value::Object(self.schema(schema, &format!("{base}/output/schema"), &mut out)),
                        );
                    }
                    if let Some(Value::Object(rest)) = responses_ext.and_then(|r| r.get("media")) {
                        media.extend(rest.clone());
                    }
                    let mut content = Map::new();
                    let content_type = output.content_type.clone().unwrap_or_else(|| "application/json".into());
                    content.insert(content_type, Value::Object(media));
                    if let Some(Value::Object(others)) = responses_ext.and_then(|r| r.get("content")) {
                        content.extend(others.clone());
                    }
                    response.insert("content".into(), Value::Object(content));
                } else if let Some(content) = responses_ext.and_then(|r| r.get("emptyContent")) {
                    response.insert("content".into(), content.clone());
                }
                if let Some(Value::Object(rest)) = responses_ext.and_then(|r| r.get("response")) {
                    response.extend(rest.clone());
                }
                responses.insert(status, Value::Object(response));
            }
            if let Some(Value::Object(others)) = responses_ext.and_then(|r| r.get("others")) {
                for (k, v) in others {
                    responses.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            if responses.is_empty() && (vertex || !from_openapi || responses_ext.is_some()) {
                if vertex && from_openapi {
                    out.push(Diagnostic::warning(
                        codes::CHANGED_VALUE,
                        format!("{base}/output"),
                        "Vertex needs a response on every operation: a `200` response was added",
                    ));
                }
                responses.insert("200".into(), json!({"description": SUCCESS}));
            }
            if !responses.is_empty() {
                op.insert("responses".into(), Value::Object(responses));
            }
        }

        if let Some(http) = &tool.http
            && !http.servers.is_empty()
        {
            if vertex {
                out.push(Diagnostic::warning(
                    codes::CHANGED_VALUE,
                    format!("{base}/http/servers"),
                    "Vertex takes one server for the whole API: this operation's own servers were left out",
                ));
            } else if ext.get("ownServers") == Some(&Value::Bool(true)) || !from_openapi {
                op.insert("servers".into(), servers_value(&http.servers));
            }
        }
        for (key, value) in leftovers {
            if key != "tags" {
                op.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
        // Model fields OpenAPI has no place for.
        let derived = tool.http.as_ref().map(|h| method_hints(&h.method)).unwrap_or_default();
        let fields = [
            ("usage-notes", tool.usage_notes.as_ref().map(|v| json!(v))),
            ("icon", tool.icon.as_ref().map(|v| json!(v))),
            ("prompt", tool.prompt.as_ref().map(|v| json!(v))),
            ("model-settings", tool.model_settings.as_ref().map(|v| json!(v))),
            ("display", tool.display.as_ref().map(|v| json!(v))),
            ("confirmation", tool.confirmation.as_ref().map(|v| json!(v))),
            ("hints", (tool.hints != derived).then(|| json!(tool.hints))),
        ];
        for (key, value) in fields {
            if let Some(value) = value {
                op.insert(format!("x-toolport-{key}"), value);
            }
        }
        let foreign: Map<String, Value> = tool
            .extras
            .iter()
            .filter(|(k, _)| k.as_str() != ID && k.as_str() != "vertex")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !foreign.is_empty() {
            op.insert("x-toolport-extras".into(), Value::Object(foreign));
        }
        if vertex && name != tool.name {
            op.insert("x-toolport-original-name".into(), Value::String(tool.name.clone()));
        }
        if !renamed.is_empty() {
            op.insert("x-toolport-parameter-names".into(), Value::Object(renamed));
        }
        (op, out)
    }

    fn parameter(&self, p: &Parameter, name: &str, path: &str, out: &mut Vec<Diagnostic>) -> Map<String, Value> {
        let empty = Map::new();
        let ext = p.extras.get(ID).and_then(Value::as_object).unwrap_or(&empty);
        let place = p.location.unwrap_or(ParamLocation::Query);
        let mut schema = p.schema.clone();
        let on_schema = ext.get("descriptionOnSchema") == Some(&Value::Bool(true));
        let description = if on_schema { None } else { schema.description.take() };
        if let Some(Value::String(own)) = ext.get("schemaDescription") {
            schema.description = Some(own.clone());
        }
        let mut m = Map::new();
        m.insert("name".into(), Value::from(name));
        m.insert("in".into(), Value::from(place.as_str()));
        if let Some(description) = description {
            m.insert("description".into(), Value::String(description));
        }
        if p.required || place == ParamLocation::Path {
            if !p.required {
                out.push(Diagnostic::warning(
                    codes::CHANGED_VALUE,
                    child(path, "required"),
                    format!("path parameter `{name}` must be required in OpenAPI; written as required"),
                ));
            }
            m.insert("required".into(), Value::Bool(true));
        } else if ext.get("requiredFalse") == Some(&Value::Bool(true)) {
            m.insert("required".into(), Value::Bool(false));
        }
        let written = self.schema(&schema, &child(path, "schema"), out);
        match ext.get("content").and_then(Value::as_str) {
            Some(media_type) if self.mode == Mode::OpenApi => {
                let mut media = Map::new();
                media.insert("schema".into(), Value::Object(written));
                if let Some(Value::Object(rest)) = ext.get("media") {
                    media.extend(rest.clone());
                }
                m.insert("content".into(), json!({ media_type: media }));
            }
            _ => drop(m.insert("schema".into(), Value::Object(written))),
        }
        if let Some(Value::Object(rest)) = ext.get("param") {
            for (k, v) in rest {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let foreign: Map<String, Value> =
            p.extras.iter().filter(|(k, _)| k.as_str() != ID).map(|(k, v)| (k.clone(), v.clone())).collect();
        if !foreign.is_empty() && self.mode == Mode::OpenApi {
            m.insert("x-toolport-extras".into(), Value::Object(foreign));
        }
        m
    }
}

pub(crate) fn servers_value(servers: &[Server]) -> Value {
    Value::Array(
        servers
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("url".into(), Value::from(s.url.as_str()));
                if let Some(d) = &s.description {
                    m.insert("description".into(), Value::from(d.as_str()));
                }
                if !s.variables.is_empty() {
                    m.insert("variables".into(), Value::Object(s.variables.clone().into_iter().collect()));
                }
                Value::Object(m)
            })
            .collect(),
    )
}

/// `components.securitySchemes` for the auth entries that are OpenAPI schemes.
pub(crate) fn security_schemes(auth: &[Auth]) -> Map<String, Value> {
    let mut schemes = Map::new();
    for (i, a) in auth.iter().enumerate() {
        let mut m = Map::new();
        let (kind, scheme) = match a.kind {
            _ if bearer_stand_in(a) => {
                m.insert(AUTH_MARK.into(), json!(a.kind));
                ("http", Some("bearer"))
            }
            AuthKind::ApiKey => ("apiKey", None),
            AuthKind::HttpBasic => ("http", Some("basic")),
            AuthKind::HttpBearer => ("http", Some("bearer")),
            AuthKind::OAuth => ("oauth2", None),
            AuthKind::Oidc => ("openIdConnect", None),
            AuthKind::GoogleServiceAccount => ("oauth2", None),
            AuthKind::None if a.settings.contains_key("type") => ("", None),
            AuthKind::None => continue,
        };
        if !kind.is_empty() {
            m.insert("type".into(), Value::from(kind));
        }
        if let Some(d) = &a.description {
            m.insert("description".into(), Value::from(d.as_str()));
        }
        if let Some(name) = &a.parameter_name {
            m.insert("name".into(), Value::from(name.as_str()));
        }
        if let Some(place) = a.location {
            m.insert("in".into(), Value::from(place.as_str()));
        }
        if let Some(scheme) = scheme {
            m.insert("scheme".into(), Value::from(scheme));
        }
        for (k, v) in &a.settings {
            if k != "x-toolport-raw" && !k.starts_with("vertex:") {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let value = a.settings.get("x-toolport-raw").cloned().unwrap_or(Value::Object(m));
        let id = a.id.clone().unwrap_or_else(|| {
            format!("{}Auth{}", kind_name(a.kind), if i == 0 { String::new() } else { i.to_string() })
        });
        schemes.insert(id, value);
    }
    schemes
}

/// Whether `auth` is written as `http`/`bearer`: OAuth 2.0 (and a Google service account,
/// which calls with an OAuth 2.0 token) needs `flows`, OpenID Connect its
/// `openIdConnectUrl`; without them the scheme is invalid, and what the caller sends is a
/// bearer token.
fn bearer_stand_in(auth: &Auth) -> bool {
    match auth.kind {
        AuthKind::OAuth | AuthKind::GoogleServiceAccount => !auth.settings.contains_key("flows"),
        AuthKind::Oidc => !auth.settings.contains_key("openIdConnectUrl"),
        _ => false,
    }
}

/// A `changed/value` warning for each auth entry [`security_schemes`] writes as a bearer token.
fn report_bearer_stand_ins(auth: &[(usize, &Auth)], out: &mut Vec<Diagnostic>) {
    for (i, a) in auth.iter().filter(|(_, a)| bearer_stand_in(a) && !a.settings.contains_key("x-toolport-raw")) {
        let (kind, missing) = match a.kind {
            AuthKind::Oidc => ("OpenID Connect", "`openIdConnectUrl`"),
            AuthKind::GoogleServiceAccount => ("Google service account", "OAuth 2.0 `flows`"),
            _ => ("OAuth 2.0", "`flows`"),
        };
        out.push(Diagnostic::warning(
            codes::CHANGED_VALUE,
            format!("/auth/{i}/kind"),
            format!("{kind} auth without {missing} is not a valid OpenAPI scheme: written as an HTTP bearer token, which is what the caller sends"),
        ));
    }
}

fn kind_name(kind: AuthKind) -> &'static str {
    match kind {
        AuthKind::None => "no",
        AuthKind::ApiKey => "apiKey",
        AuthKind::HttpBasic => "basic",
        AuthKind::HttpBearer => "bearer",
        AuthKind::OAuth => "oauth",
        AuthKind::Oidc => "oidc",
        AuthKind::GoogleServiceAccount => "googleServiceAccount",
    }
}

/// What the Vertex writer tells the document builder.
#[derive(Debug, Default)]
pub(crate) struct VertexParts<'a> {
    /// Index of the auth entry that is the Vertex `authConfig` (not an OpenAPI scheme).
    pub auth_config: Option<usize>,
    /// Tool-set fields the import body carries (left out of the spec's `x-toolport-*` keys).
    pub carried_by_body: &'a [&'a str],
    pub base_url: Option<&'a str>,
    /// `info.title` when the tool set has neither title nor id: made from the output's name.
    pub fallback_title: Option<String>,
}

/// The document and, per tool, the name it was written under.
#[derive(Debug)]
pub(crate) struct Written {
    pub document: Value,
    pub names: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
}

pub(crate) fn document(set: &ToolSet, mode: Mode, vertex: &VertexParts) -> Written {
    let mut out = Vec::new();
    let empty = Map::new();
    let ext = set.extras.get(ID).and_then(Value::as_object).unwrap_or(&empty);
    let source_version = ext.get("openapi").and_then(Value::as_str);
    let version = match (mode, source_version) {
        (Mode::OpenApi, Some(v)) => v.to_owned(),
        (Mode::Vertex, Some(v)) if v.starts_with("3.0") => v.to_owned(),
        (Mode::Vertex, Some(v)) => {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                "/extras/openapi/openapi",
                format!("Vertex reads OpenAPI 3.0: the {v} document is written as 3.0.3"),
            ));
            "3.0.3".into()
        }
        (_, None) => "3.0.3".into(),
    };
    let dialect = match mode {
        Mode::Vertex => Dialect::Gemini,
        Mode::OpenApi if version.starts_with("3.0") => Dialect::OpenApi30,
        Mode::OpenApi => Dialect::OpenApi31,
    };
    let source_dialect = match source_version {
        Some(v) if !v.starts_with("3.0") => Dialect::OpenApi31,
        _ => Dialect::OpenApi30,
    };
    let mut doc = Map::new();
    doc.insert("openapi".into(), ext.get("openapiRaw").cloned().unwrap_or(Value::String(version.clone())));

    // info
    let mut info = Map::new();
    let info_ext = ext.get("info").and_then(Value::as_object).unwrap_or(&empty);
    let title = match (&set.title, &set.id) {
        (Some(title), _) => title.clone(),
        (None, source) => {
            let title = source.clone().or_else(|| vertex.fallback_title.clone()).unwrap_or_else(|| "API".into());
            out.push(Diagnostic::info(
                codes::GENERATED,
                "/title",
                format!("OpenAPI needs `info.title`: `{title}` was made from the tool set's id or the file name"),
            ));
            title
        }
    };
    info.insert("title".into(), Value::String(title));
    if let Some(d) = &set.description {
        info.insert("description".into(), Value::from(d.as_str()));
    }
    match &set.version {
        Some(v) => drop(info.insert("version".into(), Value::String(v.to_string()))),
        None => {
            out.push(Diagnostic::info(codes::GENERATED, "/version", "OpenAPI needs `info.version`: written as 1.0.0"));
            info.insert("version".into(), Value::from("1.0.0"));
        }
    }
    if let Some(creator) = &set.creator {
        let mut contact = Map::new();
        for (key, value) in [("name", &creator.name), ("url", &creator.url), ("email", &creator.email)] {
            if let Some(v) = value {
                contact.insert(key.into(), Value::from(v.as_str()));
            }
        }
        if let Some(org) = &creator.organization {
            contact.insert("x-toolport-organization".into(), Value::from(org.as_str()));
        }
        if let Some(Value::Object(rest)) = info_ext.get("x-toolport-contact") {
            contact.extend(rest.clone());
        }
        info.insert("contact".into(), Value::Object(contact));
    }
    for (k, v) in info_ext {
        if k != "x-toolport-contact" {
            info.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    // From a Vertex body, the set's description is the body's; the spec's own is in specInfo.
    let spec_info = set.extras.get("vertex").and_then(|v| v.get("specInfo"));
    if set.extras.contains_key("vertex") && spec_info.is_none_or(|i| i.get("description").is_none()) {
        info.shift_remove("description");
    }
    if let Some(Value::Object(overrides)) = spec_info {
        for (k, v) in overrides {
            info.insert(k.clone(), v.clone());
        }
    }
    doc.insert("info".into(), Value::Object(info));

    // servers
    let servers = servers_value(&set.servers);
    let preserved = |key: &str, regenerated: &Value| verbatim::unchanged(ext.get(key), || regenerated).cloned();
    // `url: [API_SERVICE_URL]` (a placeholder YAML reads as a list) was read as the text it
    // means, and the reader keeps no record of the list (no OpenAPI reader takes it).
    let mut servers_out = preserved("servers", &servers).unwrap_or_else(|| servers.clone());
    if mode == Mode::Vertex {
        let count = servers_out.as_array().map_or(0, Vec::len);
        if count == 0 {
            let from_tools = set.tools.iter().find_map(|t| t.http.as_ref().and_then(|h| h.servers.first()));
            // Advice only where it helps: a URL the user gave needs none.
            let (url, diagnostic) = match (vertex.base_url, from_tools) {
                (Some(url), _) => (
                    url.to_owned(),
                    Diagnostic::info(
                        codes::GENERATED,
                        "/servers",
                        format!("the server URL is `{url}`, from the base_url option"),
                    ),
                ),
                (None, Some(server)) => (
                    server.url.clone(),
                    Diagnostic::info(
                        codes::GENERATED,
                        "/servers",
                        format!(
                            "Vertex needs one server URL: the tools' `{}` was written (the base_url option sets another)",
                            server.url
                        ),
                    ),
                ),
                (None, None) => (
                    DEFAULT_BASE_URL.to_owned(),
                    Diagnostic::warning(
                        codes::GENERATED_PLACEHOLDER,
                        "/servers",
                        format!(
                            "Vertex needs one server URL: the placeholder `{DEFAULT_BASE_URL}` was written; set yours with the `base_url` option"
                        ),
                    ),
                ),
            };
            out.push(diagnostic);
            servers_out = json!([{ "url": url }]);
        } else if count > 1 {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                "/servers",
                format!("Vertex takes one server: the first of {count} was kept"),
            ));
            servers_out = Value::Array(servers_out.as_array().map(|a| a[..1].to_vec()).unwrap_or_default());
        }
    }
    if servers_out.as_array().is_some_and(|a| !a.is_empty()) || ext.contains_key("servers") {
        doc.insert("servers".into(), servers_out);
    }

    // paths
    let describe_summaries = mode == Mode::Vertex && !set.extras.contains_key("vertex");
    let writer = OpWriter { mode, dialect, value_sets: Some(&set.value_sets), describe_summaries };
    let source_writer = OpWriter {
        mode: Mode::OpenApi,
        dialect: source_dialect,
        value_sets: Some(&set.value_sets),
        describe_summaries: false,
    };
    let path_items = ext.get("pathItems").and_then(Value::as_object).unwrap_or(&empty);
    let mut function_names = NameMap::new(NameRules::FUNCTION);
    let mut path_names = NameMap::new(NameRules::FUNCTION);
    let mut names = Vec::with_capacity(set.tools.len());
    let mut paths: Map<String, Value> = Map::new();
    let mut taken: HashSet<(String, String)> = HashSet::new();
    let mut synthesized = 0usize;
    let clean_root = std::cell::OnceCell::new();
    for (i, tool) in set.tools.iter().enumerate() {
        let name = match mode {
            Mode::OpenApi => tool.name.clone(),
            Mode::Vertex => {
                let assigned = function_names.assign(&tool.name);
                if assigned != tool.name {
                    out.push(Diagnostic::warning(
                        codes::CHANGED_NAME,
                        format!("/tools/{i}/name"),
                        format!(
                            "Vertex function names must match {}: `{}` is written `{assigned}`",
                            NameRules::FUNCTION.pattern,
                            tool.name
                        ),
                    ));
                }
                assigned
            }
        };
        let (method, mut path) = match &tool.http {
            Some(http) => (http.method.to_ascii_lowercase(), http.path.clone()),
            None => {
                synthesized += 1;
                ("post".to_owned(), format!("/{}", path_names.assign(&name)))
            }
        };
        if !taken.insert((path.clone(), method.clone())) {
            let alternative = format!("/{}", path_names.assign(&name));
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                format!("/tools/{i}/http/path"),
                format!(
                    "another tool is already {} {path}: this one is written at {alternative}",
                    method.to_ascii_uppercase()
                ),
            ));
            path = alternative;
            taken.insert((path.clone(), method.clone()));
        }
        let (regenerated, diagnostics) = writer.operation(tool, &name, Some(i));
        // Vertex renamed parameters: the path's placeholders follow.
        if let Some(Value::Object(renamed)) = regenerated.get("x-toolport-parameter-names") {
            // By name, the first parameter of a name (as `Tool::parameter`), looked up per rename.
            let mut by_name: HashMap<&str, &Parameter> = HashMap::with_capacity(tool.parameters.len());
            for parameter in &tool.parameters {
                by_name.entry(parameter.name.as_str()).or_insert(parameter);
            }
            for (written, original) in renamed {
                let original = by_name.get(original.as_str().unwrap_or_default()).map_or("", |p| {
                    p.extras.get(ID).and_then(|e| e.get("name")).and_then(Value::as_str).unwrap_or(&p.name)
                });
                path = path.replace(&format!("{{{original}}}"), &format!("{{{written}}}"));
            }
        }
        let tool_ext = tool.extras.get(ID);
        let operation = match mode {
            Mode::OpenApi if let Some(raw) = verbatim::unchanged(tool_ext, || &regenerated) => raw.clone(),
            Mode::Vertex
                if name == tool.name
                    && dialect_is_30(source_version)
                    && !(describe_summaries && tool_ext.is_some_and(|e| e.get("descriptionFromSummary").is_some()))
                    && diagnostics.is_empty()
                    // Path-level parameters are left out of Vertex's path items (below), and an
                    // operation as written does not have them.
                    && tool.http.as_ref().and_then(|h| path_items.get(&h.path)).is_none_or(|item| item.get("parameters").is_none())
                    && let Some(raw) = verbatim::unchanged(tool_ext, || source_writer.operation(tool, &name, Some(i)).0)
                    && raw_is_vertex_clean(raw, clean_root.get_or_init(|| components_root(set))) =>
            {
                raw.clone()
            }
            _ => {
                out.extend(diagnostics);
                Value::Object(regenerated)
            }
        };
        let item = paths.entry(path.clone()).or_insert_with(|| {
            let source_path = tool.http.as_ref().map_or(path.as_str(), |h| h.path.as_str());
            let mut item = path_items.get(source_path).and_then(Value::as_object).cloned().unwrap_or_default();
            if mode == Mode::Vertex {
                // Path-level parameters are merged into every operation already.
                item.remove("parameters");
            }
            if mode == Mode::Vertex && item.remove("servers").is_some() {
                out.push(Diagnostic::warning(
                    codes::CHANGED_VALUE,
                    format!("/extras/openapi/pathItems/{}", path.replace('~', "~0").replace('/', "~1")),
                    "Vertex takes one server for the whole API: the path's own servers were left out",
                ));
            }
            Value::Object(item)
        });
        if let Some(item) = item.as_object_mut() {
            item.insert(method, operation);
        }
        names.push(name);
    }
    // The source paths tools use, gathered once (not a scan of the tools per path item).
    let used: HashSet<&str> = set.tools.iter().filter_map(|t| t.http.as_ref()).map(|h| h.path.as_str()).collect();
    for (path, item) in path_items {
        if !paths.contains_key(path) && !used.contains(path.as_str()) {
            paths.insert(path.clone(), item.clone());
        }
    }
    if synthesized > 0 {
        out.push(Diagnostic::info(
            codes::GENERATED,
            "/tools",
            format!(
                "{synthesized} tool(s) had no HTTP binding: each was written as POST /<name> with a JSON body of its parameters"
            ),
        ));
    }
    doc.insert("paths".into(), Value::Object(paths));

    // components and the rest of the document
    let document_ext = ext.get("document").and_then(Value::as_object).unwrap_or(&empty);
    let auth: Vec<(usize, &Auth)> =
        set.auth.iter().enumerate().filter(|(i, _)| Some(*i) != vertex.auth_config).collect();
    let schemes = Value::Object(security_schemes(&auth.iter().map(|(_, a)| (*a).clone()).collect::<Vec<_>>()));
    let schemes = match preserved("securitySchemes", &schemes) {
        Some(raw) => raw,
        None => {
            report_bearer_stand_ins(&auth, &mut out);
            schemes
        }
    };
    let mut components = document_ext.get("components").and_then(Value::as_object).cloned().unwrap_or_default();
    // Taken, leaving an empty map in its place (where the written schemas go, key order kept).
    let source_schemas = match components.get_mut("schemas") {
        Some(Value::Object(schemas)) => Some(std::mem::take(schemas)),
        _ => None,
    };
    let cleared = mode == Mode::Vertex && !dialect_is_30(source_version);
    if cleared && components.keys().any(|k| k != "schemas") {
        out.push(Diagnostic::info(
            codes::CHANGED_VALUE,
            "/extras/openapi/document/components",
            "the OpenAPI 3.1 components other than schemas were left out of the Vertex 3.0 spec; operations carry them inline",
        ));
    }
    if cleared {
        components.clear();
    }
    // What refers to schemas: the paths and the other components (responses, parameters, …).
    let referrers: Vec<&Value> = doc
        .get("paths")
        .into_iter()
        .chain(components.iter().filter(|(k, _)| *k != "schemas").map(|(_, v)| v))
        .collect();
    let schemas = component_schemas(set, mode, dialect, source_schemas, &referrers, &mut out);
    if !schemas.is_empty() {
        components.insert("schemas".into(), Value::Object(schemas));
    } else if mode == Mode::Vertex {
        components.remove("schemas");
    }
    if schemes.as_object().is_some_and(|s| !s.is_empty()) || ext.contains_key("hasSecuritySchemes") {
        components.insert("securitySchemes".into(), schemes);
    }
    for (k, v) in document_ext {
        if k != "components" {
            doc.insert(k.clone(), v.clone());
        }
    }
    if !components.is_empty() || (document_ext.contains_key("components") && !cleared) {
        let mut ordered = Map::new();
        let mut placed = false;
        for (k, v) in std::mem::take(&mut doc) {
            if !placed
                && !matches!(k.as_str(), "openapi" | "info" | "servers" | "paths" | "jsonSchemaDialect" | "webhooks")
            {
                ordered.insert("components".into(), Value::Object(std::mem::take(&mut components)));
                placed = true;
            }
            ordered.insert(k, v);
        }
        if !placed {
            ordered.insert("components".into(), Value::Object(components));
        }
        doc = ordered;
    }

    // Tool-set fields OpenAPI has no place for.
    let fields = [
        ("id", set.id.as_ref().map(|v| json!(v))),
        ("instructions", set.instructions.as_ref().map(|v| json!(v))),
        ("icon", set.icon.as_ref().map(|v| json!(v))),
        ("timestamps", (!set.timestamps.is_empty()).then(|| json!(set.timestamps))),
        ("runtime_defaults", (!set.runtime_defaults.is_empty()).then(|| json!(set.runtime_defaults))),
        ("value_sets", (!set.value_sets.is_empty()).then(|| json!(set.value_sets))),
        ("examples", (!set.examples.is_empty()).then(|| json!(set.examples))),
    ];
    for (key, value) in fields {
        if let Some(value) = value
            && !vertex.carried_by_body.contains(&key)
        {
            doc.insert(format!("x-toolport-{}", key.replace('_', "-")), value);
        }
    }
    let foreign: Map<String, Value> = set
        .extras
        .iter()
        .filter(|(k, _)| k.as_str() != ID && !(mode == Mode::Vertex && k.as_str() == "vertex"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if !foreign.is_empty() {
        doc.insert("x-toolport-extras".into(), Value::Object(foreign));
    }

    // Every model field is carried above (`x-toolport-*` keys where OpenAPI has no place);
    // the schema writer reports what schemas lose, and Vertex parameters drop other formats'
    // extras.
    if mode == Mode::Vertex {
        for (i, tool) in set.tools.iter().enumerate() {
            for (j, parameter) in tool.parameters.iter().enumerate() {
                for key in parameter.extras.keys().filter(|k| k.as_str() != ID) {
                    out.push(Diagnostic::loss(
                        codes::LOSS_EXTRAS,
                        format!("/tools/{i}/parameters/{j}/extras/{key}"),
                        format!("vertex cannot hold data only {key} has on a parameter"),
                    ));
                }
            }
        }
    }
    // `nullable: false` says what leaving it out says; it stays only in what the source format
    // itself wrote (the same-format round trip gives the document back).
    let from_vertex = set.extras.contains_key("vertex");
    let same_format = match mode {
        Mode::OpenApi => set.extras.contains_key(ID) && !from_vertex,
        Mode::Vertex => from_vertex,
    };
    bookkeeping::move_into_section(&mut doc, !same_format);
    Written { document: Value::Object(doc), names, diagnostics: out }
}

fn dialect_is_30(version: Option<&str>) -> bool {
    version.is_none_or(|v| v.starts_with("3.0"))
}

/// Whether an operation as written (with its `$ref`s, followed through the source's
/// components) stays inside what Vertex accepts, so it may be written verbatim.
/// `root` is [`components_root`], built once per document (the components can be most of it).
fn raw_is_vertex_clean(raw: &Value, root: &Value) -> bool {
    let mut visited = HashSet::new();
    clean(raw, root, &mut visited, "")
}

/// The source's components under `components`, the root the operations' `$ref`s point into.
fn components_root(set: &ToolSet) -> Value {
    let components = set.extras.get(ID).and_then(|e| e.get("document")).and_then(|d| d.get("components"));
    json!({ "components": components.cloned().unwrap_or(Value::Null) })
}

fn clean(value: &Value, root: &Value, visited: &mut HashSet<String>, key: &str) -> bool {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                if !visited.insert(reference.clone()) {
                    return true;
                }
                let Some(target) = reference.strip_prefix('#').and_then(|p| root.pointer(p)) else { return false };
                return clean(target, root, visited, "");
            }
            if key == "properties" {
                return map.iter().all(|(k, v)| NameRules::PARAMETER.is_valid(k) && clean(v, root, visited, ""));
            }
            if key != "example" && key != "examples" && key != "default" {
                if map.keys().any(|k| matches!(k.as_str(), "oneOf" | "allOf" | "not")) {
                    return false;
                }
                if let Some(Value::Array(values)) = map.get("enum")
                    && !values.iter().all(Value::is_string)
                {
                    return false;
                }
                if map.get("in").is_some()
                    && !map.get("name").and_then(Value::as_str).is_some_and(|n| NameRules::PARAMETER.is_valid(n))
                {
                    return false;
                }
                if map.get("type").is_some_and(Value::is_array) {
                    return false;
                }
            }
            map.iter()
                .all(|(k, v)| matches!(k.as_str(), "example" | "examples" | "default") || clean(v, root, visited, k))
        }
        Value::Array(items) => items.iter().all(|v| clean(v, root, visited, "")),
        _ => true,
    }
}
