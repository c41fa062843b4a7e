//! Writing Anthropic tools from the model, mirroring [`crate::read`]: examples become
//! `input_examples` ([`crate::examples`]), and a tool is strict where asked for or read
//! ([`crate::strict`]), its schemas then inlined.

use std::borrow::Cow;

use serde_json::Value;
use toolport_plugin::definitions;
use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::{Shape, extras_object};
use toolport_plugin::function_tools::descriptions::{Need, borrowed_descriptions};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::function_tools::schema::{self, Expansion, SchemaWriter};
use toolport_plugin::function_tools::write::{self, Made, ToolsPrinter, WrittenObject, give_back_kept};
use toolport_plugin::loss::{Carried, uncarried_as_asked};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Options, Tool, ToolSet};

use crate::examples::{InputExample, accepted, input_examples};
use crate::{DIALECT, ID, NAME_RULES, strict};

const CARRIED: Carried = Carried {
    tool_set: &["examples", "definitions"],
    tool: &["description"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &["prompt", "expected"],
};

/// The Anthropic document of `model`, in the shape its source had (else an array of tools).
pub fn document<'m>(model: &'m ToolSet, options: &Options) -> Made<write::Written<'m>> {
    let (mut diagnostics, counted) = uncarried_as_asked(model, ID, &CARRIED, options);
    carry::name_foreign_losses(model, ID, Holds { strict: true, closed: true }, &mut diagnostics);
    let expansion = Expansion::for_model(model);
    let writer = SchemaWriter::for_model(DIALECT, model, &expansion);
    let names = tool_names(model, NAME_RULES, ID, &mut diagnostics);
    let mut descriptions = borrowed_descriptions(model, ID, Need::Optional, &mut diagnostics).into_iter();
    let mut input_examples = input_examples(model, &mut diagnostics);
    let set_extras = extras_object(&model.extras, ID);
    // One check for every tool: tools sharing definitions walk each of them once.
    let mut recursion = definitions::Recursion::new(&model.definitions);
    let mut printer = ToolsPrinter::new(model.tools.len(), &set_extras, Shape::Array, "tools");
    for (i, (tool, name)) in model.tools.iter().zip(&names).enumerate() {
        let examples = input_examples.shift_remove(&i).unwrap_or_default();
        let written = Written { description: descriptions.next().flatten(), examples };
        let path = child("/tools", i.to_string());
        printer.push(&write_tool(tool, name, written, &path, (writer, &mut recursion), options, &mut diagnostics));
    }
    (printer.finish(), diagnostics, counted)
}

/// What a tool is written with besides itself: its description (its own or the best
/// available, [`borrowed_descriptions`], serialized from the model) and its input examples,
/// before they are checked against the written schema ([`accepted`]).
struct Written<'m> {
    description: Option<Cow<'m, str>>,
    examples: Vec<InputExample>,
}

fn write_tool<'m>(
    tool: &Tool,
    name: &str,
    written: Written<'m>,
    path: &str,
    (writer, recursion): (SchemaWriter, &mut definitions::Recursion),
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> write::Written<'m> {
    let extras = extras_object(&tool.extras, ID);
    let mut out = WrittenObject::new();
    let put = |out: &mut WrittenObject<'m>, key: &str, value: Value| out.insert(key.into(), value.into());
    put(&mut out, "name", name.into());
    let Written { description, examples } = written;
    if let Some(description) = description {
        out.insert("description".into(), description.into());
    }
    let mut input_schema = None;
    // Strictness another function format gave the tool (OpenAI's `strict`, a closed input).
    let carried = carry::strictness(tool, ID);
    let strict = carry::strict_wanted(options, &extras, carried);
    let mut strict_written = strict;
    if !(extras.get("noInputSchema") == Some(&Value::Bool(true)) && tool.parameters.is_empty()) {
        let at = child(path, "parameters");
        // Strict schemas are written without `$ref`s, inlined; a recursive definition cannot be
        // inlined, so it stays a `$ref` and strict mode is refused below (`make_strict`).
        let inlined = strict && tool.parameters.iter().all(|p| recursion.first_in(&p.schema).is_none());
        let writer = if inlined { writer.inlined() } else { writer };
        let mut input = schema::write_input(writer, &tool.parameters, &extras, "input_schema", &at, diagnostics);
        if carried.closed {
            carry::close_root(&mut input);
        }
        strict_written =
            strict && carry::strict_made(strict::make_strict(&mut input, &at), &tool.name, path, diagnostics);
        input_schema = Some(input);
    }
    let examples = accepted(tool, examples, input_schema.as_ref(), writer.definitions, diagnostics);
    if let Some(input) = input_schema {
        put(&mut out, "input_schema", input);
    }
    if !examples.is_empty() || extras.get("emptyInputExamples") == Some(&Value::Bool(true)) {
        put(&mut out, "input_examples", Value::Array(examples));
    }
    match extras.get("strict") {
        Some(written) if written.as_bool() == Some(strict_written) => {
            put(&mut out, "strict", written.clone());
        }
        _ if strict_written || extras.contains_key("strict") || options.get("strict").is_some() => {
            put(&mut out, "strict", strict_written.into());
        }
        _ => {}
    }
    give_back_kept(&mut out, &extras);
    write::Written::Object(out)
}
