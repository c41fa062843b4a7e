//! Writing OpenAI function tools from the model, mirroring [`crate::read`]: each tool in the
//! form asked for or read (Chat Completions or Responses), strict where asked for or read
//! ([`crate::strict`]), built-in tools put back in place ([`other_tools`]).

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

use crate::{DIALECT, ID, NAME_RULES, strict};

const CARRIED: Carried = Carried {
    tool_set: &["definitions"],
    tool: &["description"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &[],
};

/// The OpenAI document of `model`, in the shape its source had (else an array of tools).
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
        .zip(&names)
        .zip(descriptions)
        .enumerate()
        .map(|(i, ((tool, name), description))| {
            let path = child("/tools", i.to_string());
            write_tool(tool, name, description, &path, writer, options, &mut diagnostics)
        })
        .collect();
    let tools = other_tools::put_back(tools, &set_extras);
    (by_shape(tools, &set_extras, Shape::Array, "tools"), diagnostics, counted)
}

fn write_tool(
    tool: &Tool,
    name: &str,
    description: Option<String>,
    path: &str,
    writer: SchemaWriter,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let extras = extras_object(&tool.extras, ID);
    let form = Form::of(&extras, options);
    // A typed flat tool is a Responses tool; a flat one without `type` is the legacy
    // `functions` list's, which has no such requirement.
    let responses = form.flat && form.typed;
    let mut function = Map::new();
    function.insert("name".into(), name.into());
    if let Some(description) = description {
        function.insert("description".into(), description.into());
    }
    // Strictness another function format gave the tool (Anthropic's `strict`, a closed input).
    let carried = carry::strictness(tool, ID);
    let strict = carry::strict_wanted(options, &extras, carried);
    let omit_parameters = extras.get("noParameters") == Some(&Value::Bool(true)) && tool.parameters.is_empty();
    // The Responses form requires `parameters` and `strict` (the openai SDK's `FunctionToolParam`).
    if !omit_parameters || strict || responses {
        let at = child(path, "parameters");
        let mut parameters = schema::write_input(writer, &tool.parameters, &extras, "parameters", &at, diagnostics);
        if carried.closed {
            carry::close_root(&mut parameters);
        }
        let strict_written =
            strict && carry::strict_made(strict::make_strict(&mut parameters, &at), &tool.name, path, diagnostics);
        function.insert("parameters".into(), parameters);
        write_strict_flag(&mut function, &extras, options, strict_written, responses);
    } else {
        write_strict_flag(&mut function, &extras, options, false, responses);
    }
    if responses {
        report_responses_repairs(&extras, options, omit_parameters, &function, path, diagnostics);
    }
    give_back_kept(&mut function, &extras);
    in_form(function, &extras, form)
}

/// How a tool is written: flat (the Responses API's form) or wrapped in `function` (Chat
/// Completions'), and with `"type": "function"` or not.
#[derive(Clone, Copy, Debug)]
struct Form {
    flat: bool,
    typed: bool,
}

impl Form {
    /// The form asked for, else the source's. A tool whose source had no `type` is written
    /// without one, unless a form is asked for: both forms' SDK types require it.
    fn of(extras: &Map<String, Value>, options: &Options) -> Form {
        let flat = match options.get("form") {
            Some("responses") => true,
            Some("chat") => false,
            _ => extras.get("form").and_then(Value::as_str) == Some("responses"),
        };
        let typed = options.get("form").is_some() || extras.get("noType") != Some(&Value::Bool(true));
        Form { flat, typed }
    }
}

/// The tool of `function` in its [`Form`]: Chat Completions (`{"type": "function", "function":
/// {...}}`, with the outer keys the source had) or the Responses API's flat tool.
fn in_form(function: Map<String, Value>, extras: &Map<String, Value>, form: Form) -> Value {
    let mut out = Map::new();
    if form.typed {
        out.insert("type".into(), "function".into());
    }
    if form.flat {
        out.extend(function);
    } else {
        out.insert("function".into(), Value::Object(function));
        if let Some(Value::Object(keep)) = extras.get("keepOuter") {
            out.extend(keep.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    Value::Object(out)
}

/// `strict` as the source wrote it, unless strict mode was asked for or had to be turned off.
/// The Responses form always has it (`responses`): as the source wrote it, else `true` or
/// `false` as the tool is written.
fn write_strict_flag(
    function: &mut Map<String, Value>,
    extras: &Map<String, Value>,
    options: &Options,
    on: bool,
    responses: bool,
) {
    let asked = options.get("strict").is_some();
    match extras.get("strict") {
        Some(written) if !asked && (written == &Value::Bool(on) || !on && !written.as_bool().unwrap_or(false)) => {
            function.insert("strict".into(), written.clone());
        }
        Some(_) => {
            function.insert("strict".into(), on.into());
        }
        None if asked || on || responses => {
            function.insert("strict".into(), on.into());
        }
        None => {}
    }
}

/// What writing an OpenAI Responses tool back in its form added that its source lacked: the
/// form requires `parameters` and `strict` (unless the `strict` option said which), and the
/// API takes a missing `strict` as strict.
fn report_responses_repairs(
    extras: &Map<String, Value>,
    options: &Options,
    omit_parameters: bool,
    function: &Map<String, Value>,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let from_responses = extras.get("form").and_then(Value::as_str) == Some("responses");
    if !from_responses {
        return;
    }
    // The source's `strict` as read: a boolean or `null` (both of which the form takes).
    if !extras.contains_key("strict") && options.get("strict").is_none() {
        let written = function.get("strict").cloned().unwrap_or(Value::Null);
        diagnostics.push(Diagnostic::warning(
            codes::CHANGED_VALUE,
            child(path, "strict"),
            format!(
                "the Responses form requires `strict`; the source had no boolean one (a missing one the API takes as `true`): written `{written}`, as the tool's schema was written"
            ),
        ));
    }
    if omit_parameters {
        diagnostics.push(Diagnostic::warning(
            codes::CHANGED_VALUE,
            child(path, "parameters"),
            "the Responses form requires `parameters`; the source had none: written as an object without properties",
        ));
    }
}
