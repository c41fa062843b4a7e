//! Parameters other than the body's: the names they are written under (Vertex's rules), and
//! one model parameter → a parameter object.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::names::name_map;
use toolport_plugin::names::{NameMap, NameRules};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, ParamLocation, Parameter, Tool, codes};

use super::operation::OpWriter;
use super::{Mode, object_of, object_with, x_toolport};
use crate::ID;

/// The names parameters are written under: the name the source had (a body property renamed
/// in the model keeps its own), or under Vertex's rules a valid name, each change recorded
/// (`renamed`: written name → model name) for the reader.
pub(super) struct ParameterNames<'a> {
    /// Whether some name may change: under Vertex's rules, when a name breaks them.
    renames: bool,
    names: NameMap,
    /// The tool's diagnostic path.
    base: &'a str,
    pub(super) renamed: Map<String, Value>,
}

impl<'a> ParameterNames<'a> {
    /// Names for `tool`'s parameters. Under Vertex's rules the names that are already valid
    /// are kept first, so a colliding newcomer is the one renamed, never a valid name.
    /// When every name is valid already (most tools), each keeps itself and no name map is
    /// filled.
    pub(super) fn new(mode: Mode, base: &'a str, tool: &Tool) -> Self {
        let renames =
            mode == Mode::Vertex && !tool.parameters.iter().all(|p| NameRules::PARAMETER.is_valid(original_name(p)));
        let mut names = name_map(NameRules::PARAMETER);
        if renames {
            names.assign_all(tool.parameters.iter().map(original_name));
        }
        ParameterNames { renames, names, base, renamed: Map::new() }
    }

    /// The name the `i`th parameter of the tool, `p`, is written under.
    pub(super) fn written(&mut self, p: &Parameter, i: usize, out: &mut Vec<Diagnostic>) -> String {
        let original = original_name(p);
        if !self.renames {
            return original.to_owned();
        }
        let assigned = self.names.assign(original);
        if assigned != original {
            out.push(
                Diagnostic::warning(
                    codes::CHANGED_NAME,
                    child(&format!("{}/parameters/{i}", self.base), "name"),
                    format!(
                        "Vertex parameter names must match {}: `{original}` is written `{assigned}`",
                        NameRules::PARAMETER.pattern
                    ),
                )
                .renaming(&p.name, &assigned, None),
            );
            self.renamed.insert(assigned.clone(), Value::String(p.name.clone()));
        }
        assigned
    }
}

/// The name a parameter had in its source (a body property renamed in the model keeps its own).
fn original_name(p: &Parameter) -> &str {
    p.extras.get(ID).and_then(|e| e.get("name")).and_then(Value::as_str).unwrap_or(&p.name)
}

/// Whether `p` is sent in the body: a tool without an HTTP binding (synthesized as
/// `POST /<name>`) sends every parameter there.
pub(super) fn in_body(tool: &Tool, p: &Parameter) -> bool {
    tool.http.is_none() || p.location.is_none_or(|l| l == ParamLocation::Body)
}

/// An operation's inputs as written: its `parameters`, its `requestBody`, and the parameter
/// names changed under Vertex's rules (written name → model name) for `x-toolport`.
pub(super) struct Inputs {
    pub(super) parameters: Vec<Value>,
    pub(super) request_body: Option<Map<String, Value>>,
    pub(super) renamed: Map<String, Value>,
}

impl OpWriter<'_> {
    /// The tool's parameters and request body, named by one [`ParameterNames`] so that a name
    /// is never given twice across the two. `ext` is the tool's `extras["openapi"]`.
    pub(super) fn inputs(
        &self,
        tool: &Tool,
        ext: &Map<String, Value>,
        index: usize,
        base: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Inputs {
        let mut names = ParameterNames::new(self.mode, base, tool);
        let parameters = self.parameters(tool, &mut names, base, out);
        let request_body = self.request_body(tool, ext, &mut names, index, base, out);
        Inputs { parameters, request_body, renamed: names.renamed }
    }

    /// The operation's `parameters`: the tool's parameters that are not sent in the body.
    pub(super) fn parameters(
        &self,
        tool: &Tool,
        names: &mut ParameterNames,
        base: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Vec<Value> {
        let mut parameters = Vec::new();
        for (i, p) in tool.parameters.iter().enumerate() {
            if in_body(tool, p) {
                continue;
            }
            let written = names.written(p, i, out);
            parameters.push(Value::Object(self.parameter(p, &written, &format!("{base}/parameters/{i}"), out)));
        }
        parameters
    }

    /// The parameter object for `p`, written as `name`; `path` is its diagnostic path.
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
        let rest = ext.get("param").and_then(Value::as_object);
        // name, in, description, required and schema (or content), and the source's others.
        let mut m = Map::with_capacity(5 + rest.map_or(0, Map::len));
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
        let written = self.parameter_schema(name, &schema, &child(path, "schema"), out);
        match ext.get("content").and_then(Value::as_str) {
            Some(media_type) if self.mode == Mode::OpenApi => {
                let rest = ext.get("media").and_then(Value::as_object).cloned();
                let media = object_with(Some(("schema".into(), Value::Object(written))), rest);
                m.insert("content".into(), object_of(media_type, Value::Object(media)));
            }
            _ => drop(m.insert("schema".into(), Value::Object(written))),
        }
        if let Some(rest) = rest {
            for (k, v) in rest {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        if self.mode == Mode::OpenApi {
            x_toolport::insert_foreign(&mut m, &p.extras, false);
        }
        m
    }
}
