//! The names map: for every tool and parameter a conversion wrote, the name the source gave
//! it, and for tools bound to HTTP the method, path and where each argument goes, so a caller
//! that receives a tool call under the written names can execute it. Written names come from
//! the writer's `changed/name` diagnostics ([`toolport_core::Renamed`]), source names from
//! curation (an overlay's renames). Its JSON form is documented in docs/names-map.md.

use serde::Serialize;
use serde_json::Value;
use toolport_core::{Diagnostic, ParamLocation, PinnedArgument, ToolSet};

/// What a conversion's written names stand for.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct NamesMap {
    pub tools: Vec<ToolEntry>,
}

/// One written tool.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolEntry {
    /// The name the output gives the tool: what a tool call names.
    pub name: String,
    /// The tool's name in the source.
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpCall>,
    pub parameters: Vec<ParameterEntry>,
    /// Arguments every call must get that the model never sees (an overlay's `value:`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pinned: Vec<PinnedArgument>,
    /// Properties renamed inside an argument's schema (`within`: the JSON pointer of their
    /// object in the written input schema).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub renamed_properties: Vec<toolport_core::Renamed>,
}

/// How the source calls a tool over HTTP.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HttpCall {
    pub method: String,
    /// Path template, `{name}` placeholders by source parameter name, relative to a server.
    pub path: String,
    /// The servers this operation is served from (its own, else the API's), first the default.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_content_type: Option<String>,
    /// When the body is not an object: the parameter that is the whole body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_parameter: Option<String>,
}

/// One written parameter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParameterEntry {
    /// The name the output gives the argument.
    pub name: String,
    /// Its name in the source (and in the HTTP request).
    pub source: String,
    /// Where an HTTP call puts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<ParamLocation>,
}

impl NamesMap {
    /// The map of a conversion that wrote `model` (curated), whose tools the source named
    /// `source_names`, with the writer's `diagnostics`.
    pub fn build(model: &ToolSet, source_names: &[String], diagnostics: &[Diagnostic]) -> NamesMap {
        let mut tools: Vec<ToolEntry> = model
            .tools
            .iter()
            .enumerate()
            .map(|(i, tool)| ToolEntry {
                name: tool.name.clone(),
                source: source_names.get(i).unwrap_or(&tool.name).clone(),
                http: tool.http.as_ref().map(|h| HttpCall {
                    method: h.method.clone(),
                    path: h.path.clone(),
                    servers: if h.servers.is_empty() { &model.servers } else { &h.servers }
                        .iter()
                        .map(|s| s.url.clone())
                        .collect(),
                    body_content_type: h.body_content_type.clone(),
                    body_parameter: h.body_parameter.clone(),
                }),
                parameters: tool
                    .parameters
                    .iter()
                    .map(|p| ParameterEntry { name: p.name.clone(), source: p.name.clone(), location: p.location })
                    .collect(),
                pinned: tool.pinned.clone(),
                renamed_properties: Vec::new(),
            })
            .collect();
        for diagnostic in diagnostics {
            let Some(renamed) = &diagnostic.renamed else { continue };
            let segments: Vec<&str> = diagnostic.path.split('/').skip(1).collect();
            let Some(tool) = segments.get(1).and_then(|i| i.parse::<usize>().ok()).and_then(|i| tools.get_mut(i))
            else {
                continue;
            };
            match segments.as_slice() {
                ["tools", _, "name"] => tool.name = renamed.to.clone(),
                ["tools", _, "parameters", j, "name"] => {
                    if let Some(p) = j.parse::<usize>().ok().and_then(|j| tool.parameters.get_mut(j)) {
                        p.name = renamed.to.clone();
                    }
                }
                ["tools", _, "parameters"] if renamed.within.as_deref() == Some("#") => {
                    if let Some(p) = tool.parameters.iter_mut().find(|p| p.source == renamed.from) {
                        p.name = renamed.to.clone();
                    }
                }
                ["tools", _, "parameters"] => tool.renamed_properties.push((**renamed).clone()),
                _ => {}
            }
        }
        NamesMap { tools }
    }

    /// The map as JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_core::{HttpBinding, Parameter, Schema, Server, Tool, codes};

    use super::*;

    #[test]
    fn written_names_come_from_renames_and_sources_from_curation() {
        let mut tool = Tool::new("meta/root");
        tool.http =
            Some(Box::new(HttpBinding { method: "GET".into(), path: "/meta/{id}".into(), ..HttpBinding::default() }));
        let mut id = Parameter::new("id", Schema::default());
        id.location = Some(ParamLocation::Path);
        tool.parameters = vec![id, Parameter::new("include[]", Schema::default())];
        tool.pinned =
            vec![PinnedArgument { name: "limit".into(), location: Some(ParamLocation::Query), value: json!(20) }];
        let model = ToolSet {
            servers: vec![Server { url: "https://api.example.com".into(), ..Server::default() }],
            tools: vec![tool, Tool::new("plain")],
            ..ToolSet::default()
        };
        let rename = |path: &str, from: &str, to: &str, within: Option<&str>| {
            Diagnostic::warning(codes::CHANGED_NAME, path, "x").renaming(from, to, within.map(str::to_owned))
        };
        let diagnostics = [
            rename("/tools/0/name", "meta/root", "meta_root", None),
            rename("/tools/0/parameters", "include[]", "include_", Some("#")),
            rename("/tools/0/parameters", "a b", "a_b", Some("#/properties/id")),
            Diagnostic::warning(codes::CHANGED_NAME, "/tools/1/name", "a file name, no rename"),
            rename("/tools/7/name", "x", "y", None),
        ];
        let map = NamesMap::build(&model, &["getMetaRoot".into(), "plain".into()], &diagnostics);
        assert_eq!(
            map.to_value(),
            json!({"tools": [
                {"name": "meta_root", "source": "getMetaRoot",
                 "http": {"method": "GET", "path": "/meta/{id}", "servers": ["https://api.example.com"]},
                 "parameters": [{"name": "id", "source": "id", "location": "path"}, {"name": "include_", "source": "include[]"}],
                 "pinned": [{"name": "limit", "location": "query", "value": 20}],
                 "renamed_properties": [{"from": "a b", "to": "a_b", "within": "#/properties/id"}]},
                {"name": "plain", "source": "plain", "parameters": []}
            ]})
        );
    }
}
