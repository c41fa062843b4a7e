//! The TypeScript files of a written extension: one `src/tools/<name>.ts` per tool with a typed
//! `Input`, JSDoc for every description, a `confirmation` export and a body (a request when the
//! tool has an HTTP binding, else a stub that says so), the request helpers, and the commands.
//!
//! A tool read from a Raycast extension keeps its own file instead: `rewrite` rewrites in it only
//! the parts whose model changed.
//!
//! The parts: `types` writes the `Input` type, `jsdoc` the doc comments, `confirmation` the
//! confirmation export, `request` the `fetch` body (and `src/lib/http.ts`), `commands` the
//! command sources, `rewrite` a carried file's changed parts, and `syntax` the identifiers and
//! string literals all of them write.

mod commands;
mod confirmation;
mod jsdoc;
mod request;
mod rewrite;
mod syntax;
mod types;

use serde::Deserialize;
use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Diagnostic, Parameter, Schema, SchemaType, Tool, ToolSet, codes};

use super::http::{self, Request};
use crate::FORMAT_ID;
use crate::extension::{TOOL_SOURCE, ToolSource};
use jsdoc::jsdoc;
use syntax::json_string;
use types::{Member, TypeWriter};

pub(super) use commands::command_sources;
pub use request::{HELPER, HELPER_PATH};

/// A tool whose source says nothing of what it does: its body throws "not implemented".
pub const GENERATED_STUB: &str = "generated/stub";

/// The tool files written, and the source's files they were carried from.
#[derive(Debug, Default)]
pub(in crate::write) struct ToolFiles {
    pub(in crate::write) paths: Vec<String>,
    pub(in crate::write) carried_from: Vec<String>,
}

/// Writes `src/tools/<name>.ts` for every tool, and the request helpers when a tool uses them.
/// A tool read from a file of the source extension (`source`) keeps that file's text, with only
/// the parts whose model changed rewritten; any other tool's file is written whole.
pub(super) fn tool_files(
    model: &ToolSet,
    file_names: &[String],
    source: Option<&Bundle>,
    bundle: &mut Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) -> ToolFiles {
    let mut requests = false;
    let mut written = ToolFiles::default();
    for (index, tool) in model.tools.iter().enumerate() {
        if let Some((origin, text)) = carried_source(tool, source) {
            let extension = if origin.file.ends_with(".tsx") { "tsx" } else { "ts" };
            let path = format!("src/tools/{}.{extension}", file_names[index]);
            if path != origin.file {
                diagnostics.push(Diagnostic::warning(
                    codes::CHANGED_NAME,
                    child(&child("/tools", index.to_string()), "name"),
                    format!("the tool's file {} is written as {path}, under the tool's name", origin.file),
                ));
            }
            bundle.insert(path.clone(), rewrite::tool_text(model, index, tool, &origin, text, diagnostics));
            written.paths.push(path);
            written.carried_from.push(origin.file);
            continue;
        }
        let path = format!("src/tools/{}.ts", file_names[index]);
        let (text, request) = tool_source(model, index, tool, diagnostics);
        requests |= request;
        bundle.insert(path.clone(), text);
        written.paths.push(path);
    }
    if requests {
        bundle.insert(HELPER_PATH, HELPER);
    }
    written
}

/// The tool's file in the source extension and its text, when the tool was read from one.
fn carried_source<'s>(tool: &Tool, source: Option<&'s Bundle>) -> Option<(ToolSource, &'s str)> {
    let origin = tool.extras.get(FORMAT_ID)?.get(TOOL_SOURCE)?;
    let origin = ToolSource::deserialize(origin).ok()?;
    let text = source?.get(&origin.file)?;
    Some((origin, text))
}

/// The text of `src/tools/<name>.ts`, and whether it imports the request helpers.
fn tool_source(model: &ToolSet, index: usize, tool: &Tool, diagnostics: &mut Vec<Diagnostic>) -> (String, bool) {
    let path = child("/tools", index.to_string());
    let confirmation = confirmation::decide(tool, &path, diagnostics);
    // The request, when the tool has one: it decides which parameters the input holds.
    let request = http::plan(model, tool, &path, diagnostics);
    // `type Input = { … };`, and the paths in it that hold JSON text (maps).
    let input = input_members(model, tool, &path, request.as_ref(), diagnostics)
        .map(|(members, json_paths)| (format!("type Input = {{\n{members}}};\n\n"), json_paths));
    let has_input = input.is_some();
    let (input_type, json_paths) = input.unwrap_or_default();

    let mut out = String::new();
    let imports = confirmation.as_ref().map(confirmation::Export::raycast_names).unwrap_or_default();
    if !imports.is_empty() {
        out.push_str(&format!("import {{ {} }} from \"@raycast/api\";\n", imports.join(", ")));
    }
    let body = match &request {
        Some(request) => request::body(request, &json_paths, has_input),
        None => {
            diagnostics.push(Diagnostic::warning(
                GENERATED_STUB,
                &path,
                format!(
                    "tool `{}` has no implementation in the source (no HTTP binding): its body throws \"not implemented\"",
                    tool.name
                ),
            ));
            format!("  throw new Error({});\n", json_string(&format!("not implemented: {}", tool.name)))
        }
    };
    if let Some(request) = &request {
        out.push_str(&format!(
            "import {{ {} }} from \"../lib/http\";\n",
            request::imports(request, &json_paths).join(", ")
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&input_type);
    if let Some(confirmation) = &confirmation {
        out.push_str(&confirmation::export_code(confirmation, if has_input { "Input" } else { "void" }));
    }
    if let Some(doc) = jsdoc(tool.description.as_deref(), None, &[], "") {
        out.push_str(&doc);
    }
    let parameter = if has_input { "input: Input" } else { "" };
    out.push_str(&format!("export default async function tool({parameter}) {{\n"));
    out.push_str(&body);
    out.push_str("}\n");
    (out, request.is_some())
}

/// The members of the input type, one per line, and the paths in it that hold JSON text (maps);
/// `None` when the tool takes no input. The request's plan decides which parameters it holds.
fn input_members(
    model: &ToolSet,
    tool: &Tool,
    path: &str,
    request: Option<&Request>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(String, Vec<Vec<String>>)> {
    let added: Vec<Parameter> = request
        .map(|r| {
            r.undeclared
                .iter()
                .map(|name| Parameter {
                    required: true,
                    ..Parameter::new(name.clone(), Schema::of(SchemaType::String))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut members: Vec<Member<'_>> = Vec::new();
    for (i, p) in tool.parameters.iter().enumerate() {
        if request.is_some_and(|r| r.dropped.contains(&i)) {
            continue;
        }
        let at = child(&child(&child(path, "parameters"), i.to_string()), "schema");
        members.push((p.name.clone(), p.required, &p.schema, at));
    }
    for p in &added {
        members.push((p.name.clone(), true, &p.schema, child(path, "http")));
    }
    if members.is_empty() {
        return None;
    }
    let mut writer = TypeWriter { model, tool: &tool.name, diagnostics, json_paths: Vec::new(), at: Vec::new() };
    let mut text = String::new();
    writer.members(&mut text, &members, "  ");
    Some((text, writer.json_paths))
}
