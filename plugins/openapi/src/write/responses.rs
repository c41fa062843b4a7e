//! The responses: the modelled one (the tool's output) under its status, the source's others
//! as written, and a `200` where an operation needs one.

use std::borrow::Cow;

use serde_json::{Map, Value};
use toolport_plugin::function_tools::output;
use toolport_plugin::{Diagnostic, Options, Tool, ToolSet, codes};

use super::operation::OpWriter;
use super::{Mode, object_of, object_with};

/// The description of a response the model says nothing about.
const SUCCESS: &str = "Successful response";

/// `model` with its tools' output schemas as the `output_schema` option asks (`full` unless
/// told: response schemas refer to `components.schemas`, where each is written once), what was
/// shortened reported into `out`. A changed tool's response the source referred to
/// (`$ref: '#/components/responses/…'`, kept as written) is written from the model instead.
pub(crate) fn output_schemas<'m>(model: &'m ToolSet, options: &Options, out: &mut Vec<Diagnostic>) -> Cow<'m, ToolSet> {
    let mode = output::Mode::from_options(options, output::Mode::Full, out);
    let (mut changed, shortened) = output::apply_to_model(model, mode);
    shortened.report(out);
    if let Cow::Owned(set) = &mut changed {
        for tool in &mut set.tools {
            let responses = tool.extras.get_mut(crate::ID).and_then(|e| e.get_mut("responses"));
            if let Some(Value::Object(record)) = responses {
                record.remove("ref");
            }
        }
    }
    changed
}

impl OpWriter<'_> {
    /// The `responses`, or `None` when there are none to write. `ext` is the tool's
    /// `extras["openapi"]`; `from_openapi` says the tool was read from an OpenAPI operation.
    pub(super) fn responses(
        &self,
        tool: &Tool,
        ext: &Map<String, Value>,
        from_openapi: bool,
        base: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Value> {
        let vertex = self.mode == Mode::Vertex;
        let responses_ext = ext.get("responses").and_then(Value::as_object);
        if let Some(raw) = responses_ext.and_then(|r| r.get("raw")) {
            return Some(raw.clone());
        }
        let others = responses_ext.and_then(|r| r.get("others")).and_then(Value::as_object);
        let mut responses = Map::with_capacity(1 + others.map_or(0, Map::len));
        let status = responses_ext.and_then(|r| r.get("status")).and_then(Value::as_str).unwrap_or("200").to_owned();
        if let Some(reference) = responses_ext.and_then(|r| r.get("ref")) {
            responses.insert(status, reference.clone());
        } else if let Some(output) = &tool.output {
            let rest = responses_ext.and_then(|r| r.get("response")).and_then(Value::as_object);
            let mut response = Map::with_capacity(2 + rest.map_or(0, Map::len));
            let no_description = responses_ext.is_some_and(|r| r.get("noDescription") == Some(&Value::Bool(true)));
            match (&output.description, no_description && !vertex) {
                (Some(d), _) => drop(response.insert("description".into(), Value::from(d.as_str()))),
                (None, false) => drop(response.insert("description".into(), Value::from(SUCCESS))),
                (None, true) => {}
            }
            if output.content_type.is_some() || output.schema.is_some() {
                let kept = |key: &str| responses_ext.and_then(|r| r.get(key)).and_then(Value::as_object).cloned();
                let schema = output.schema.as_ref().map(|schema| {
                    ("schema".into(), Value::Object(self.schema(schema, &format!("{base}/output/schema"), out)))
                });
                let media = object_with(schema, kept("media"));
                let content_type = output.content_type.clone().unwrap_or_else(|| "application/json".into());
                let content = object_with(Some((content_type, Value::Object(media))), kept("content"));
                response.insert("content".into(), Value::Object(content));
            } else if let Some(content) = responses_ext.and_then(|r| r.get("emptyContent")) {
                response.insert("content".into(), content.clone());
            }
            if let Some(rest) = rest {
                response.extend(rest.clone());
            }
            responses.insert(status, Value::Object(response));
        }
        if let Some(others) = others {
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
            responses.insert("200".into(), object_of("description", Value::from(SUCCESS)));
        }
        (!responses.is_empty()).then_some(Value::Object(responses))
    }
}
