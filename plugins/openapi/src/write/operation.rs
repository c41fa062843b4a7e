//! A tool → one operation object: its summary, description, operationId, servers and the
//! source's other keys; parameters, request body and responses are written by their own
//! modules.

use serde_json::{Map, Value};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::{Diagnostic, Schema, Tool, codes};

use super::{Mode, schema, servers_value, x_toolport};
use crate::ID;

/// Builds one operation object from a tool.
#[derive(Debug)]
pub(crate) struct OpWriter<'a> {
    pub(super) mode: Mode,
    pub(super) dialect: Dialect,
    pub(super) value_sets: Option<schema::ValueSets<'a>>,
    /// Whether a description the reader took from the summary is written as `description`
    /// too: for a target other than the source's format (a Vertex spec from an OpenAPI
    /// document), so the model reads it; never for the same format (the round trip is exact).
    pub(super) describe_summaries: bool,
}

impl<'a> OpWriter<'a> {
    pub(crate) fn for_openapi(dialect: Dialect) -> Self {
        OpWriter { mode: Mode::OpenApi, dialect, value_sets: None, describe_summaries: false }
    }

    pub(super) fn schema(&self, schema: &Schema, path: &str, out: &mut Vec<Diagnostic>) -> Map<String, Value> {
        schema::schema_map(self.dialect, self.value_sets, schema, path, out)
    }

    /// The schema of parameter `name`, its diagnostics naming it ([`Diagnostic::naming_parameter`]).
    pub(super) fn parameter_schema(
        &self,
        name: &str,
        schema: &Schema,
        path: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Map<String, Value> {
        let mut found = Vec::new();
        let map = self.schema(schema, path, &mut found);
        out.extend(found.into_iter().map(|d| d.naming_parameter(name)));
        map
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
        let mut op = self.texts_and_id(tool, name, ext, leftovers);

        let inputs = self.inputs(tool, ext, index.unwrap_or(0), &base, &mut out);
        if !inputs.parameters.is_empty() {
            op.insert("parameters".into(), Value::Array(inputs.parameters));
        }
        if let Some(request) = inputs.request_body {
            op.insert("requestBody".into(), Value::Object(request));
        }
        let from_openapi = !ext.is_empty() && tool.http.is_some();
        if let Some(responses) = self.responses(tool, ext, from_openapi, &base, &mut out) {
            op.insert("responses".into(), responses);
        }

        if let Some(http) = &tool.http
            && !http.servers.is_empty()
        {
            if self.mode == Mode::Vertex {
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
        x_toolport::tool_fields(tool, name, self.mode, inputs.renamed, &mut op);
        // Collected again, the size it holds: grown by inserting, an operation of 4 to 6 keys
        // keeps room for 7, and a document holds one per tool ([`super::object_with`]).
        (op.into_iter().collect(), out)
    }

    /// The operation's first keys: the source's `tags`, the summary, the description and the
    /// operationId.
    fn texts_and_id(
        &self,
        tool: &Tool,
        name: &str,
        ext: &Map<String, Value>,
        leftovers: &Map<String, Value>,
    ) -> Map<String, Value> {
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
        let operation_id = match (&tool.http, self.mode == Mode::Vertex) {
            (_, true) => Some(name.to_owned()),
            _ if ext.get("noOperationId") == Some(&Value::Bool(true)) => None,
            (Some(http), false) => Some(http.operation_id.clone().unwrap_or_else(|| name.to_owned())),
            (None, false) => Some(name.to_owned()),
        };
        if let Some(id) = operation_id {
            op.insert("operationId".into(), Value::String(id));
        }
        op
    }
}
