//! The TypeScript files of a written extension: one `src/tools/<name>.ts` per tool with a typed
//! `Input`, JSDoc for every description, a `confirmation` export and a body (a request when the
//! tool has an HTTP binding, else a stub that says so), the request helpers, and the commands.
//!
//! The parts: `types` writes the `Input` type, `jsdoc` the doc comments, `confirmation` the
//! confirmation export, `request` the `fetch` body (and `src/lib/http.ts`), `commands` the
//! command sources, and `syntax` the identifiers and string literals all of them write.

mod commands;
mod confirmation;
mod jsdoc;
mod request;
mod syntax;
mod types;

use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Diagnostic, Parameter, Schema, SchemaType, Tool, ToolSet};

use super::http::{self, Request};
use jsdoc::jsdoc;
use syntax::json_string;
use types::{Member, TypeWriter};

pub(super) use commands::command_sources;
pub use request::{HELPER, HELPER_PATH};

/// A tool whose source says nothing of what it does: its body throws "not implemented".
pub const GENERATED_STUB: &str = "generated/stub";

/// Writes `src/tools/<name>.ts` for every tool, and the request helpers when a tool uses them.
pub(super) fn tool_files(
    model: &ToolSet,
    file_names: &[String],
    bundle: &mut Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut requests = false;
    for (index, tool) in model.tools.iter().enumerate() {
        let path = format!("src/tools/{}.ts", file_names[index]);
        let (text, request) = tool_source(model, index, tool, diagnostics);
        requests |= request;
        bundle.insert(path, text);
    }
    if requests {
        bundle.insert(HELPER_PATH, HELPER);
    }
}

/// The text of `src/tools/<name>.ts`, and whether it imports the request helpers.
fn tool_source(model: &ToolSet, index: usize, tool: &Tool, diagnostics: &mut Vec<Diagnostic>) -> (String, bool) {
    let path = child("/tools", index.to_string());
    let confirmation = confirmation::decide(tool, &path, diagnostics);
    // The request, when the tool has one: it decides which parameters the input holds.
    let request = http::plan(model, tool, &path, diagnostics);
    let input = input_type(model, tool, &path, request.as_ref(), diagnostics);
    let has_input = input.is_some();
    let (input_type, json_paths) = input.unwrap_or_default();

    let mut out = String::new();
    let mut imports: Vec<&str> = Vec::new();
    if let Some(confirmation) = &confirmation {
        if confirmation.style.is_some() {
            imports.push("Action");
        }
        imports.push("Tool");
    }
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
        out.push_str(&confirmation::export_code(confirmation, has_input));
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

/// `type Input = { … };` and the paths in it that hold JSON text (maps); `None` when the tool
/// takes no input. The request's plan decides which parameters the input holds.
fn input_type(
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
    let mut writer = TypeWriter { model, diagnostics, json_paths: Vec::new() };
    let members = writer.members(&members, "  ", &[]);
    Some((format!("type Input = {{\n{members}}};\n\n"), writer.json_paths))
}
