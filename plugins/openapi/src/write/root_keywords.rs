//! The keywords of a tool's input schema root that a function format kept besides the
//! parameters (`additionalProperties: false`, a description, `minProperties`, …): OpenAPI's
//! place for them is the request body's schema, where that schema is the whole input.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::carry::{InputRoot, input_root};
use toolport_plugin::jsonschema::EXTRAS_KEY;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Tool, codes};

use super::operation::OpWriter;

/// Where the tool's input goes in the operation, which decides what of its root the request
/// body can say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BodyShape<'a> {
    /// Every parameter is a property of the body: the body's schema is the input schema.
    WholeInput,
    /// Some parameters are path, query or header parameters: the body holds the others.
    SomeParameters,
    /// The body is the one parameter named here, not an object of the parameters.
    OneParameter(&'a str),
    /// No request body.
    None,
}

impl OpWriter<'_> {
    /// The `index`th tool's root keywords the body's schema carries for `shape`, written in the
    /// target's dialect (what it cannot hold reported there), or an empty map. Keywords the
    /// body cannot carry are reported as lost. `additionalProperties` describes the body
    /// whenever the body holds the parameters, and says nothing more where there is no body.
    pub(super) fn root_keywords(
        &self,
        tool: &Tool,
        index: usize,
        shape: BodyShape,
        out: &mut Vec<Diagnostic>,
    ) -> Map<String, Value> {
        let Some(InputRoot { at, dialect, keywords }) = input_root(tool, index) else { return Map::new() };
        let mut carried = Map::new();
        for (key, value) in keywords {
            if key == "$schema" {
                // It names the dialect the source wrote the schema in; the body's schema is
                // written in the document's.
                out.push(Diagnostic::info(
                    codes::CHANGED_SCHEMA,
                    child(&at, &key),
                    format!("the input schema's `$schema` ({value}) names the dialect it was written in; the request body is written in the document's own"),
                ));
                continue;
            }
            let placed = match shape {
                BodyShape::WholeInput => true,
                BodyShape::SomeParameters => key == "additionalProperties",
                BodyShape::None => key == "additionalProperties" && value == Value::Bool(false),
                BodyShape::OneParameter(_) => false,
            };
            let mut refs = Vec::new();
            toolport_plugin::definitions::refs_in_value(&value, &mut refs);
            let lost = if !refs.is_empty() {
                Some(format!(
                    "`{key}` of the input schema's root refers to that schema's own definitions, which the request body cannot: left out"
                ))
            } else if placed {
                None
            } else {
                Some(match shape {
                    BodyShape::OneParameter(name) => format!(
                        "the request body is the parameter `{name}`, not the object of the tool's arguments: `{key}` of the input schema's root was left out"
                    ),
                    BodyShape::None => {
                        format!(
                            "the operation has no request body to hold `{key}` of the input schema's root: left out"
                        )
                    }
                    _ => format!(
                        "`{key}` of the input schema's root is about all the tool's arguments, which OpenAPI sends partly outside the request body: left out"
                    ),
                })
            };
            match lost {
                Some(message) => out.push(Diagnostic::loss(codes::LOSS_SCHEMA, child(&at, &key), message)),
                None => drop(carried.insert(key, value)),
            }
        }
        if carried.is_empty() || shape == BodyShape::None {
            return Map::new();
        }
        let (schema, _) = toolport_plugin::jsonschema::read(&Value::Object(carried), dialect);
        // What the target's dialect cannot hold is reported by the writer, at the kept keyword
        // (which the schema read from them keeps under its extras).
        let mut written = Vec::new();
        let map = self.schema(&schema, &at, &mut written);
        let kept = child(&child(&at, "extras"), EXTRAS_KEY) + "/";
        out.extend(written.into_iter().map(|mut diagnostic| {
            if let Some(keyword) = diagnostic.path.strip_prefix(&kept) {
                diagnostic.path = format!("{at}/{keyword}");
            }
            diagnostic
        }));
        map
    }
}
