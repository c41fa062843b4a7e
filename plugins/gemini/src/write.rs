//! Writing Gemini function declarations from the model, mirroring [`crate::read`]: schemas in
//! Gemini's OpenAPI subset ([`crate::subset`], each forced change reported) or, with
//! `schema=json` or as read, in JSON Schema; declarations back in their `tools` groups.

use std::borrow::Cow;

use serde_json::{Map, Value, json};
use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::{Shape, extras_object};
use toolport_plugin::function_tools::descriptions::{Need, borrowed_descriptions};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::function_tools::output::{Mode, SharedOutputs, Shortened};
use toolport_plugin::function_tools::properties::sanitize_property_names;
use toolport_plugin::function_tools::schema::{self, Expansion, SchemaWriter};
use toolport_plugin::function_tools::write::{
    Made, ToolsPrinter, Written, WrittenObject, give_back_kept, report_output_fields, wrapped,
};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::loss::{Carried, uncarried_as_asked};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Options, Output, Tool, ToolSet};

use crate::spelling::{DECLARATIONS, SNAKE_CASE, written};
use crate::{ID, NAME_RULES, PARAMETER_RULES, subset};

const CARRIED: Carried = Carried {
    tool_set: &["definitions"],
    tool: &["description", "output"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &[],
};

/// The Gemini document of `model`, in the shape its source had (else
/// `{"functionDeclarations": [...]}`).
pub fn document<'m>(model: &'m ToolSet, options: &Options) -> Made<Written<'m>> {
    let (mut diagnostics, counted) = uncarried_as_asked(model, ID, &CARRIED, options);
    let json_form = options.get("schema") == Some("json");
    carry::name_foreign_losses(model, ID, Holds { strict: false, closed: json_form }, &mut diagnostics);
    let names = tool_names(model, NAME_RULES, ID, &mut diagnostics);
    let mut descriptions = borrowed_descriptions(model, ID, Need::Required, &mut diagnostics).into_iter();
    let set_extras = extras_object(&model.extras, ID);
    let snake = set_extras.get(SNAKE_CASE) == Some(&Value::Bool(true));
    let expansion = Expansion::for_model(model);
    let schemas = SchemaWriter::for_model(Dialect::Gemini, model, &expansion);
    let outputs = Mode::from_options(options, Mode::by_source(model, ID), &mut diagnostics);
    let grouped_shape = set_extras.get("shape").and_then(Value::as_str) == Some("tools");
    // Grouped, `{"tools": [{"functionDeclarations": [...]}, ...]}`, each declaration printed
    // apart and put in its group; else all printed into the document as they come.
    let mut printer = (!grouped_shape)
        .then(|| ToolsPrinter::new(model.tools.len(), &set_extras, Shape::Wrapped, written(DECLARATIONS, snake)));
    let depth = printer.as_ref().map_or(4, ToolsPrinter::depth);
    let shared_outputs = SharedOutputs::default();
    let mut context = Context { options, outputs: Shortened::new(outputs), depth, shared_outputs };
    let mut declarations: Vec<(usize, Written)> = Vec::new();
    for (i, (tool, name)) in model.tools.iter().zip(&names).enumerate() {
        let extras = extras_object(&tool.extras, ID);
        let group = extras.get("group").and_then(Value::as_u64).unwrap_or(0) as usize;
        let path = child("/tools", i.to_string());
        let named = Named { name, description: descriptions.next().flatten(), snake };
        let declaration = write_declaration(schemas, tool, named, &extras, &path, &mut context, &mut diagnostics);
        match &mut printer {
            Some(printer) => printer.push(&declaration),
            None => declarations.push((group, declaration.printed(depth))),
        }
    }
    context.outputs.report(&mut diagnostics);
    let document = match printer {
        Some(printer) => printer.finish(),
        None => wrapped("tools", grouped(declarations, &set_extras, snake), &set_extras),
    };
    (document, diagnostics, counted)
}

/// The `tools` entries of a document read in that shape: each group's declarations, in order,
/// with the group's other keys, and the other entries (`googleSearch`, …) where they were.
/// Declarations of groups that no longer exist join the first group.
fn grouped<'m>(
    declarations: Vec<(usize, Written<'m>)>,
    set_extras: &Map<String, Value>,
    snake: bool,
) -> Vec<Written<'m>> {
    let key = written(DECLARATIONS, snake);
    let groups = match set_extras.get("groups") {
        Some(Value::Array(groups)) => groups.clone(),
        _ => vec![json!({})],
    };
    // Each group's declarations, in order, sorted out in one pass.
    let known = groups.len();
    let mut members: Vec<Vec<Written>> = vec![Vec::new(); known];
    let mut strays: Vec<Written> = Vec::new();
    for (g, declaration) in declarations {
        match members.get_mut(g) {
            Some(group) => group.push(declaration),
            None => strays.push(declaration),
        }
    }
    let mut tools = Vec::with_capacity(groups.len());
    for (group, members) in groups.iter().zip(members) {
        if let Some(entry) = group.get("entry") {
            tools.push(entry.clone().into());
            continue;
        }
        let mut entry = WrittenObject::new();
        entry.insert(key.into(), Written::Array(members));
        entry.extend(group.as_object().into_iter().flatten().map(|(k, v)| (k.clone(), v.clone().into())));
        tools.push(Written::Object(entry));
    }
    // A kept entry holds no declarations (the reader keeps as entries only those without).
    if !strays.is_empty()
        && let Some(Written::Array(first)) = tools.iter_mut().find_map(|tool| match tool {
            Written::Object(entry) => entry.get_mut(key),
            _ => None,
        })
    {
        first.extend(strays);
    }
    tools
}

/// A declaration's name and description as written, and whether its keys are spelled in
/// snake_case ([`crate::spelling`]).
struct Named<'n, 'm> {
    name: &'n str,
    description: Option<Cow<'m, str>>,
    snake: bool,
}

/// What every declaration of one document is written with.
struct Context<'o> {
    options: &'o Options,
    /// What the `output_schema` option left out or shortened of the results.
    outputs: Shortened,
    /// The nesting each declaration is printed at.
    depth: usize,
    shared_outputs: SharedOutputs,
}

/// `schemas` is the document's writer; each schema is written in the dialect its key asks for.
fn write_declaration<'m>(
    schemas: SchemaWriter,
    tool: &Tool,
    named: Named<'_, 'm>,
    extras: &Map<String, Value>,
    path: &str,
    context: &mut Context,
    diagnostics: &mut Vec<Diagnostic>,
) -> Written<'m> {
    let json_schema = match context.options.get("schema") {
        Some("json") => true,
        Some(_) => false,
        None => extras.get("jsonSchema") == Some(&Value::Bool(true)),
    };
    let upper = extras.get("upperCaseTypes") == Some(&Value::Bool(true));
    let mut out = WrittenObject::new();
    let name = named.name;
    out.insert("name".into(), Value::from(name).into());
    if let Some(description) = named.description {
        out.insert("description".into(), description.into());
    }
    let (key, dialect) =
        if json_schema { ("parametersJsonSchema", Dialect::JsonSchema) } else { ("parameters", Dialect::Gemini) };
    let writer = SchemaWriter { dialect, ..schemas };
    let snake = named.snake;
    // Gemini rejects an object schema without properties: a function without parameters has none,
    // unless its source wrote an empty one.
    if !tool.parameters.is_empty() || extras.get("emptyParameters") == Some(&Value::Bool(true)) {
        let at = child(path, "parameters");
        let mut value = schema::write_input(writer, &tool.parameters, extras, key, &at, diagnostics);
        if !json_schema {
            subset::enforce(&mut value, &at, diagnostics);
        } else if carry::strictness(tool, ID).closed {
            carry::close_root(&mut value);
        }
        sanitize_property_names(&mut value, PARAMETER_RULES, "Gemini", &at, diagnostics);
        // Upper-case type names are the OpenAPI subset's spelling; JSON Schema's are lower-case.
        if upper && !json_schema {
            subset::upper_types(&mut value);
        }
        out.insert(written(key, snake).into(), value.into());
    }
    if let Some(output) = &tool.output
        && let Some((key, value)) =
            write_response(schemas, output, name, extras, &child(path, "output"), context, diagnostics)
    {
        out.insert(written(key, snake).into(), value);
    }
    give_back_kept(&mut out, extras);
    Written::Object(out)
}

/// The key and schema of the result of the declaration written as `tool` (`response`, or
/// `responseJsonSchema` when asked for or read), as much of it as the `output_schema` option
/// asks for; the output's other fields are reported lost. Printed where the declaration puts
/// it, shared with the declarations before that had the same result when it can be
/// ([`SharedOutputs`]).
fn write_response(
    schemas: SchemaWriter,
    output: &Output,
    tool: &str,
    extras: &Map<String, Value>,
    path: &str,
    context: &mut Context,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(&'static str, Written<'static>)> {
    report_output_fields(output, path, "Gemini describes a result only by its schema", diagnostics);
    let schema = output.schema.as_ref()?;
    let json_response = match context.options.get("schema") {
        Some("json") => true,
        Some(_) => false,
        None => extras.get("responseJsonSchema") == Some(&Value::Bool(true)),
    };
    let (key, dialect) =
        if json_response { ("responseJsonSchema", Dialect::JsonSchema) } else { ("response", Dialect::Gemini) };
    let upper = extras.get("upperCaseTypes") == Some(&Value::Bool(true)) && !json_response;
    let variant = format!("{key} {upper}");
    let shared = SharedOutputs::key(schema, context.outputs.mode, extras.contains_key(key), &variant);
    let depth = context.depth;
    let write = |outputs: &mut Shortened, diagnostics: &mut Vec<Diagnostic>| {
        let at = child(path, "schema");
        let schema =
            outputs.apply(tool, schema.clone(), schemas.definitions, false, &at, schemas.expansion.budget())?;
        let writer = SchemaWriter { dialect, ..schemas };
        let mut value = schema::write_single(writer, &schema, extras, key, &at, diagnostics);
        if !json_response {
            subset::enforce(&mut value, &at, diagnostics);
        }
        if upper {
            subset::upper_types(&mut value);
        }
        // A member of the declaration's object, one level deeper than the declaration.
        Some((Written::Value(value).printed(depth + 1), false))
    };
    let budget = schemas.expansion.budget();
    let (printed, _) =
        context.shared_outputs.print(shared, tool, path, &mut context.outputs, budget, diagnostics, write)?;
    Some((key, printed))
}
