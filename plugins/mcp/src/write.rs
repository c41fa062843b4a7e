//! Writing MCP tools from the model, mirroring [`crate::read`]: what a read kept under
//! `extras["mcp"]` is given back while it still says the same, output schemas are object
//! schemas ([`crate::output`]), and a renamed tool keeps its original name in `_meta`.

use std::borrow::Cow;

use serde_json::{Map, Value, json};
use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::{Shape, extras_object};
use toolport_plugin::function_tools::descriptions::{Need, borrowed_descriptions};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::function_tools::output::{self as outputs, SharedOutputs, Shortened};
use toolport_plugin::function_tools::schema::{self, Expansion, SchemaWriter};
use toolport_plugin::function_tools::write::{
    Made, ToolsPrinter, Written, WrittenObject, give_back_kept, report_output_fields,
};
use toolport_plugin::loss::{Carried, uncarried_as_asked};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Options, Output, Tool, ToolSet, codes};

use crate::icons::{first_icon, icon_src};
use crate::{DIALECT, HINT_KEYS, ID, MCP_NAME, ORIGINAL_NAME_META, output};

const CARRIED: Carried = Carried {
    tool_set: &["definitions"],
    tool: &["title", "description", "icon", "output", "hints"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &[],
};

/// What every tool of one document is written with.
struct Context<'a> {
    writer: SchemaWriter<'a>,
    /// What the `output_schema` option left out or shortened.
    outputs: Shortened,
    /// Output schemas wrapped as `{result}`.
    wrapped: usize,
    /// The nesting each tool is printed at ([`ToolsPrinter::depth`]).
    depth: usize,
    shared_outputs: SharedOutputs,
}

/// The MCP document of `model`, in the shape its source had (else `{"tools": [...]}`), its
/// descriptions borrowed from the model.
pub fn document<'m>(model: &'m ToolSet, options: &Options) -> Made<Written<'m>> {
    let (mut diagnostics, counted) = uncarried_as_asked(model, ID, &CARRIED, options);
    carry::name_foreign_losses(model, ID, Holds { strict: false, closed: true }, &mut diagnostics);
    let mode = outputs::Mode::from_options(options, outputs::Mode::by_source(model, ID), &mut diagnostics);
    let names = tool_names(model, MCP_NAME, ID, &mut diagnostics);
    let descriptions = borrowed_descriptions(model, ID, Need::Optional, &mut diagnostics);
    let set_extras = extras_object(&model.extras, ID);
    let expansion = Expansion::for_model(model);
    let writer = SchemaWriter::for_model(DIALECT, model, &expansion);
    let mut printer = ToolsPrinter::new(model.tools.len(), &set_extras, Shape::Wrapped, "tools");
    let depth = printer.depth();
    let mut context =
        Context { writer, outputs: Shortened::new(mode), wrapped: 0, depth, shared_outputs: SharedOutputs::default() };
    for (i, ((tool, name), description)) in model.tools.iter().zip(&names).zip(descriptions).enumerate() {
        let path = child("/tools", i.to_string());
        printer.push(&write_tool(tool, name, description, &path, &mut context, &mut diagnostics));
    }
    context.outputs.report(&mut diagnostics);
    report_wrapped(&context, &mut diagnostics);
    (printer.finish(), diagnostics, counted)
}

/// The results wrapped as `{result}`, said once for all of them.
fn report_wrapped(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    if context.wrapped > 0 {
        diagnostics.push(Diagnostic::warning(
            codes::CHANGED_SCHEMA,
            "",
            format!(
                "MCP output schemas are object schemas: {} results that are not objects (arrays, strings, unions, nullable objects) were wrapped as `{{\"result\": …}}` (a server returns them as `structuredContent.result`)",
                context.wrapped
            ),
        ));
    }
}

fn write_tool<'m>(
    tool: &Tool,
    name: &str,
    description: Option<Cow<'m, str>>,
    path: &str,
    context: &mut Context,
    diagnostics: &mut Vec<Diagnostic>,
) -> Written<'m> {
    let writer = context.writer;
    let extras = extras_object(&tool.extras, ID);
    // MCP clients show a title in place of the name: an empty one would show nothing.
    let title = tool.title.as_ref().filter(|t| !t.trim().is_empty());
    let mut out = WrittenObject::new();
    put(&mut out, "name", Value::from(name));
    let title_in_annotations = extras.get("titleIn").and_then(Value::as_str) == Some("annotations");
    if let Some(title) = title
        && !title_in_annotations
    {
        put(&mut out, "title", Value::from(title.as_str()));
    }
    if let Some(icons) = write_icons(tool, &extras, path, diagnostics) {
        put(&mut out, "icons", icons);
    }
    if let Some(description) = description {
        put(&mut out, "description", description);
    }
    if !(extras.get("noInputSchema") == Some(&Value::Bool(true)) && tool.parameters.is_empty()) {
        let at = child(path, "parameters");
        let mut input = schema::write_input(writer, &tool.parameters, &extras, "inputSchema", &at, diagnostics);
        let strictness = carry::strictness(tool, ID);
        if strictness.closed || strictness.strict {
            carry::close_root(&mut input);
        }
        put(&mut out, "inputSchema", input);
    }
    if let Some(output) = &tool.output
        && let Some(schema) = write_output(output, name, &extras, &child(path, "output"), context, diagnostics)
    {
        put(&mut out, "outputSchema", schema);
    }
    let annotations_title =
        if title_in_annotations { title.cloned().map(Value::from) } else { extras.get("annotationsTitle").cloned() };
    let annotations = write_annotations(tool, annotations_title, &extras);
    if !annotations.is_empty() {
        put(&mut out, "annotations", Value::Object(annotations));
    }
    if let Some(meta) = write_meta(tool, name, &extras) {
        put(&mut out, "_meta", meta);
    }
    give_back_kept(&mut out, &extras);
    Written::Object(out)
}

/// Sets `key` of a tool's object: a value built here, a text borrowed from the model, or a part
/// printed already.
fn put<'m>(out: &mut WrittenObject<'m>, key: &str, value: impl Into<Written<'m>>) {
    out.insert(key.into(), value.into());
}

/// The icons the source had while they still say the tool's icon, else the icon as a `src`.
fn write_icons(
    tool: &Tool,
    extras: &Map<String, Value>,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Value> {
    let kept_icons = extras.get("icons").filter(|icons| first_icon(icons).as_ref() == tool.icon.as_deref());
    if let Some(icons) = kept_icons {
        return Some(icons.clone());
    }
    let src = icon_src(tool.icon.as_ref()?);
    if src.is_none() {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_FIELD,
            child(path, "icon"),
            "MCP icons are URIs; a relative icon path cannot be carried",
        ));
    }
    Some(json!([{ "src": src? }]))
}

/// The `outputSchema` of `output` (at model path `path`) of the tool written as `tool`, an
/// object schema, unless the `output_schema` option leaves it out; the output's other fields
/// are reported lost. Printed where the tool puts it, shared with the tools before that had
/// the same result when it can be ([`SharedOutputs`]).
fn write_output(
    output: &Output,
    tool: &str,
    extras: &Map<String, Value>,
    path: &str,
    context: &mut Context,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Written<'static>> {
    report_output_fields(output, path, "MCP describes a tool's output only by `outputSchema`", diagnostics);
    let schema = output.schema.as_ref()?;
    let writer = context.writer;
    let key = SharedOutputs::key(schema, context.outputs.mode, extras.contains_key("outputSchema"), "");
    let depth = context.depth;
    let write = |outputs: &mut Shortened, diagnostics: &mut Vec<Diagnostic>| {
        let at = child(path, "schema");
        let (root, wrapped) = output::object_root(schema, writer.definitions);
        let root = outputs.apply(tool, root, writer.definitions, wrapped, &at, writer.expansion.budget())?;
        // The source's own schema comes back when it still says the same (an MCP round trip).
        let written = schema::write_single(writer, &root, extras, "outputSchema", &at, diagnostics);
        // A member of the tool's object, one level deeper than the tool.
        Some((Written::Value(written).printed(depth + 1), wrapped))
    };
    let budget = writer.expansion.budget();
    let (printed, wrapped) =
        context.shared_outputs.print(key, tool, path, &mut context.outputs, budget, diagnostics, write)?;
    context.wrapped += usize::from(wrapped);
    Some(printed)
}

/// `annotations`: the title when the source kept it there, the hints, and the source's other
/// annotation keys.
fn write_annotations(tool: &Tool, title: Option<Value>, extras: &Map<String, Value>) -> Map<String, Value> {
    let mut annotations = Map::new();
    if let Some(title) = title {
        annotations.insert("title".into(), title);
    }
    let mut hints = tool.hints.clone();
    for (key, field) in HINT_KEYS {
        if let Some(flag) = field(&mut hints) {
            annotations.insert((*key).into(), (*flag).into());
        }
    }
    if let Some(Value::Object(unknown)) = extras.get("annotations") {
        annotations.extend(unknown.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    annotations
}

/// The source's `_meta`, with the tool's original name when it was written as `name`.
fn write_meta(tool: &Tool, name: &str, extras: &Map<String, Value>) -> Option<Value> {
    let mut meta = extras.get("_meta").cloned();
    if name != tool.name {
        let map = match &mut meta {
            Some(Value::Object(map)) => map,
            _ => {
                meta = Some(Value::Object(Map::new()));
                meta.as_mut().and_then(Value::as_object_mut).expect("just made an object")
            }
        };
        map.insert(ORIGINAL_NAME_META.into(), tool.name.clone().into());
    }
    meta
}
