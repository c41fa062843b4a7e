//! Anthropic's `input_examples` and the model's examples, both ways: an input example is an
//! example with no prompt and one expected call whose arguments are plain equalities; any
//! example of that form is written back as an input example of its tool, the rest reported.
//! Anthropic refuses an input example its tool's schema does not accept ([`accepted`]): one
//! missing a required value is completed from the schema's default, else left out.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{
    AdditionalProperties, Diagnostic, Example, Expectation, Matcher, Schema, Tool, ToolCall, ToolSet, codes,
};

use crate::validate;

/// An input example as a canonical example: no prompt, one expected call with these arguments.
pub fn example_of(tool: &str, arguments: &Map<String, Value>) -> Example {
    let arguments: IndexMap<String, Matcher> =
        arguments.iter().map(|(k, v)| (k.clone(), Matcher::eq(v.clone()))).collect();
    Example {
        prompt: String::new(),
        expected: vec![Expectation::CallsTool(ToolCall {
            tool: tool.to_owned(),
            arguments: Some(arguments),
            long_form: false,
        })],
        ..Example::default()
    }
}

/// An input example to write, with the model path of the expectation it came from.
#[derive(Debug)]
pub struct InputExample {
    pub path: String,
    pub arguments: Value,
}

/// The input examples of each tool (by index) from the model's examples, reporting every part
/// of an example an input example cannot say.
pub fn input_examples(model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> IndexMap<usize, Vec<InputExample>> {
    let mut out: IndexMap<usize, Vec<InputExample>> = IndexMap::new();
    // Tool indices by name (the first of a name), looked up per call.
    let mut tools: HashMap<&str, usize> = HashMap::new();
    if !model.examples.is_empty() {
        for (index, tool) in model.tools.iter().enumerate() {
            tools.entry(tool.name.as_str()).or_insert(index);
        }
    }
    for (i, example) in model.examples.iter().enumerate() {
        let path = child("/examples", i.to_string());
        if !example.prompt.is_empty() {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_EXAMPLES,
                child(&path, "prompt"),
                "Anthropic input examples have no prompt; only the expected tool arguments were written",
            ));
        }
        for (j, expectation) in example.expected.iter().enumerate() {
            let at = child(&child(&path, "expected"), j.to_string());
            let written = match expectation {
                Expectation::CallsTool(call) => call_as_input_example(model, &tools, call),
                _ => None,
            };
            match written {
                Some((tool, arguments)) => out.entry(tool).or_default().push(InputExample { path: at, arguments }),
                None => diagnostics.push(Diagnostic::loss(
                    codes::LOSS_EXAMPLES,
                    at,
                    "Anthropic input examples hold only a known tool's exact arguments; this expectation was left out",
                )),
            }
        }
    }
    out
}

/// A call with exact arguments of a tool in the set: (tool index, arguments object).
/// Dotted argument names (`user.name`) that are not parameters become nested objects.
fn call_as_input_example(model: &ToolSet, tools: &HashMap<&str, usize>, call: &ToolCall) -> Option<(usize, Value)> {
    let index = *tools.get(call.tool.as_str())?;
    let tool = &model.tools[index];
    let mut arguments = Map::new();
    // The tool's parameter names, gathered once when a dotted argument name needs them.
    let mut parameters: Option<HashSet<&str>> = None;
    for (name, matcher) in call.arguments.as_ref()? {
        let value = matcher.as_eq()?.clone();
        if name.contains('.')
            && !parameters
                .get_or_insert_with(|| tool.parameters.iter().map(|p| p.name.as_str()).collect())
                .contains(name.as_str())
        {
            let mut parts: Vec<&str> = name.split('.').collect();
            let last = parts.pop()?;
            let mut target = &mut arguments;
            for part in parts {
                let entry = target.entry(part.to_owned()).or_insert_with(|| Value::Object(Map::new()));
                target = entry.as_object_mut()?;
            }
            target.insert(last.to_owned(), value);
        } else {
            arguments.insert(name.clone(), value);
        }
    }
    Some((index, Value::Object(arguments)))
}

/// The input examples of `tool` its written input schema accepts ([`crate::validate`]), each
/// missing required value completed from its default (reported as changed); the others are
/// left out with a `loss/examples` diagnostic naming the tool and what is wrong. The schema
/// checked is the tool's parameters, closed when the written `input_schema` is.
pub fn accepted(
    tool: &Tool,
    examples: Vec<InputExample>,
    input_schema: Option<&Value>,
    definitions: &IndexMap<String, Schema>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Value> {
    if examples.is_empty() {
        return Vec::new();
    }
    let mut schema = Schema::of_parameters(&tool.parameters);
    let closed = input_schema.and_then(|s| s.get("additionalProperties")) == Some(&Value::Bool(false));
    if closed {
        schema.additional_properties = Some(AdditionalProperties::Allowed(false));
    }
    let mut out = Vec::with_capacity(examples.len());
    for InputExample { path, mut arguments } in examples {
        let checked = validate::check(&mut arguments, &schema, definitions);
        if !checked.problems.is_empty() {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_EXAMPLES,
                path,
                format!(
                    "Anthropic refuses input examples that tool `{}`'s input_schema does not accept; this one was left out: {}",
                    tool.name,
                    checked.problems.join("; ")
                ),
            ));
            continue;
        }
        if !checked.completed.is_empty() {
            let names: Vec<String> = checked.completed.iter().map(|p| format!("`{p}`")).collect();
            diagnostics.push(Diagnostic::info(
                codes::CHANGED_VALUE,
                path,
                format!(
                    "an input example of tool `{}` lacked required {}: completed from the schema's defaults, as Anthropic accepts only complete examples",
                    tool.name,
                    names.join(", ")
                ),
            ));
        }
        out.push(arguments);
    }
    out
}
