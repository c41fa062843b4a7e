//! Writing Bedrock Converse tools from the model, mirroring [`crate::read`]: each tool a
//! `{"toolSpec": {name, description?, inputSchema: {json}, strict?}}`, in the tool configuration
//! (or the request) the source had, `cachePoint` and `systemTool` items back in place.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::{Shape, extras_object};
use toolport_plugin::function_tools::descriptions::{Need, descriptions};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::function_tools::other_tools;
use toolport_plugin::function_tools::schema::{self, Expansion, SchemaWriter};
use toolport_plugin::function_tools::write::{Made, by_shape, give_back_kept};
use toolport_plugin::loss::{Carried, uncarried_as_asked};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Options, Tool, ToolSet, codes};

use crate::{DIALECT, ID, NAME_RULES, SCHEMA_KEY};

const CARRIED: Carried = Carried {
    tool_set: &["definitions"],
    tool: &["description"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &[],
};

/// The Bedrock document of `model`: in the shape its source had, else a tool configuration
/// `{"tools": [...]}` (what boto3's `converse(toolConfig=...)` takes).
pub fn document(model: &ToolSet, options: &Options) -> Made<Value> {
    let (mut diagnostics, counted) = uncarried_as_asked(model, ID, &CARRIED, options);
    carry::name_foreign_losses(model, ID, Holds { strict: true, closed: true }, &mut diagnostics);
    let expansion = Expansion::for_model(model);
    let writer = SchemaWriter::for_model(DIALECT, model, &expansion);
    let names = tool_names(model, NAME_RULES, ID, &mut diagnostics);
    let descriptions = descriptions(model, ID, Need::Optional, &mut diagnostics);
    let set_extras = extras_object(&model.extras, ID);
    let tools: Vec<Value> = model
        .tools
        .iter()
        .zip(names.iter().zip(descriptions))
        .enumerate()
        .map(|(i, (tool, (name, description)))| {
            // Bedrock refuses an empty description (at least one character): none is written.
            let description = description.filter(|text| !text.is_empty());
            let spec = write_tool(tool, name, description, &child("/tools", i.to_string()), writer, &mut diagnostics);
            let mut union = Map::new();
            union.insert("toolSpec".into(), spec);
            Value::Object(union)
        })
        .collect();
    let tools = other_tools::put_back(tools, &set_extras);
    let config = by_shape(tools, &set_extras, Shape::Wrapped, "tools");
    (in_request(config, &set_extras), diagnostics, counted)
}

/// Why `model` cannot be written at all: Bedrock refuses a tool configuration without tools
/// (`tools` has at least one item), so a tool set with none (and no `cachePoint` or
/// `systemTool` kept from a Bedrock source) is an error rather than a document Bedrock refuses.
pub fn refusal(model: &ToolSet) -> Option<Diagnostic> {
    let kept =
        extras_object(&model.extras, ID).get("otherTools").and_then(Value::as_array).is_some_and(|o| !o.is_empty());
    (model.tools.is_empty() && !kept).then(|| {
        Diagnostic::error(
            codes::INPUT_INVALID,
            "/tools",
            "the tool set has no tools, and Bedrock refuses a tool configuration without one (`tools` needs at least one item): nothing to write",
        )
    })
}

/// `config` as the `toolConfig` of the Converse request the source was (`request` in the tool
/// set's extras, its other keys in their order); else `config` itself.
fn in_request(config: Value, set_extras: &Map<String, Value>) -> Value {
    match set_extras.get("request") {
        Some(Value::Object(request)) => {
            let mut request = request.clone();
            request.insert("toolConfig".into(), config);
            Value::Object(request)
        }
        _ => config,
    }
}

fn write_tool(
    tool: &Tool,
    name: &str,
    description: Option<String>,
    path: &str,
    writer: SchemaWriter,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let extras = extras_object(&tool.extras, ID);
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    if let Some(description) = description {
        out.insert("description".into(), description.into());
    }
    // Strictness another function format gave the tool (OpenAI's or Anthropic's `strict`, a
    // closed input): Bedrock's `strict` is the same promise.
    let carried = carry::strictness(tool, ID);
    if !(extras.get("noInputSchema") == Some(&Value::Bool(true)) && tool.parameters.is_empty()) {
        let at = child(path, "parameters");
        let mut input = schema::write_input(writer, &tool.parameters, &extras, SCHEMA_KEY, &at, diagnostics);
        if carried.closed {
            carry::close_root(&mut input);
        }
        let mut union = match extras.get("inputSchemaUnion") {
            Some(Value::Object(others)) => others.clone(),
            _ => Map::new(),
        };
        union.insert("json".into(), input);
        out.insert("inputSchema".into(), Value::Object(union));
    }
    match extras.get("strict") {
        Some(written) => {
            out.insert("strict".into(), written.clone());
        }
        None if carried.strict => {
            out.insert("strict".into(), true.into());
        }
        None => {}
    }
    give_back_kept(&mut out, &extras);
    Value::Object(out)
}
