//! One `src/tools/<name>.ts` per tool: the typed `Input`, JSDoc, a `confirmation` export and a
//! body (a request when the tool has an HTTP binding, else a stub that says so).

use serde_json::Value;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Parameter, Schema, SchemaType, Tool, ToolSet, codes};

use super::http;
use super::types::{Member, TypeWriter};

/// A tool whose source says nothing of what it does: its body throws "not implemented".
pub const GENERATED_STUB: &str = "generated/stub";

pub(super) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

pub(super) fn property_key(name: &str) -> String {
    if is_identifier(name) { name.to_owned() } else { json_string(name) }
}

pub(super) fn json_string(text: &str) -> String {
    // JSON string escapes are valid in TypeScript string literals, except U+2028/2029 in old engines.
    serde_json::to_string(text).unwrap_or_default().replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// Text safe inside a template literal.
pub(super) fn template_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace('`', "\\`").replace("${", "\\${")
}

/// A JSDoc block at `indent` from a description, a default and examples; `None` when all are empty.
pub(super) fn jsdoc(
    description: Option<&str>,
    default: Option<&Value>,
    examples: &[Value],
    indent: &str,
) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    if let Some(description) = description.filter(|d| !d.trim().is_empty()) {
        lines.extend(description.replace("*/", "*\\/").lines().map(str::to_owned));
    }
    let mut tags = Vec::new();
    if let Some(default) = default {
        tags.push(format!("@default {}", serde_json::to_string(default).unwrap_or_default()));
    }
    for example in examples {
        let text = match example {
            Value::String(s) => s.clone(),
            other => serde_json::to_string(other).unwrap_or_default(),
        };
        tags.push(format!("@example {}", text.replace("*/", "*\\/")));
    }
    if !tags.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        for tag in tags {
            lines.extend(tag.lines().map(str::to_owned));
        }
    }
    if lines.is_empty() {
        return None;
    }
    if lines.len() == 1 {
        return Some(format!("{indent}/** {} */\n", lines[0]));
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{indent} *\n"));
        } else {
            out.push_str(&format!("{indent} * {line}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
    Some(out)
}

/// The text of `src/tools/<name>.ts`, and whether it imports the request helpers.
pub(super) fn tool_source(
    model: &ToolSet,
    index: usize,
    tool: &Tool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (String, bool) {
    let path = child("/tools", index.to_string());
    let mut out = String::new();
    let style = tool.confirmation.as_ref().and_then(|c| c.style.as_deref());
    let wants_destructive = tool.hints.destructive == Some(true);
    let confirmation = tool.confirmation.clone().or_else(|| {
        wants_destructive.then(|| {
            diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                child(&path, "confirmation"),
                "the tool is destructive: a confirmation with the destructive style is written",
            ));
            toolport_plugin::Confirmation { style: Some("destructive".into()), ..Default::default() }
        })
    });
    let style_code = match style.or(confirmation.as_ref().and_then(|c| c.style.as_deref())) {
        Some("destructive") => Some("Action.Style.Destructive"),
        Some("regular") => Some("Action.Style.Regular"),
        Some(other) => {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_CONFIRMATION,
                child(&child(&path, "confirmation"), "style"),
                format!("Raycast confirmation styles are destructive and regular; `{other}` is left out"),
            ));
            None
        }
        None => None,
    };
    let hints = &tool.hints;
    for (key, value) in
        [("read_only", hints.read_only), ("idempotent", hints.idempotent), ("open_world", hints.open_world)]
    {
        if value.is_some() {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_CONFIRMATION,
                child(&child(&path, "hints"), key),
                format!("Raycast has no `{key}` hint; it is left out"),
            ));
        }
    }
    if hints.destructive == Some(false) {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_CONFIRMATION,
            child(&child(&path, "hints"), "destructive"),
            "Raycast cannot say a tool is not destructive; the hint is left out",
        ));
    }

    // The request, when the tool has one: it decides which parameters the input holds.
    let request = http::plan(model, tool, &path, diagnostics);
    let added: Vec<Parameter> = request
        .as_ref()
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
        if request.as_ref().is_some_and(|r| r.dropped.contains(&i)) {
            continue;
        }
        let at = child(&child(&child(&path, "parameters"), i.to_string()), "schema");
        members.push((p.name.clone(), p.required, &p.schema, at));
    }
    for p in &added {
        members.push((p.name.clone(), true, &p.schema, child(&path, "http")));
    }
    let has_input = !members.is_empty();

    let mut imports: Vec<&str> = Vec::new();
    if confirmation.is_some() {
        if style_code.is_some() {
            imports.push("Action");
        }
        imports.push("Tool");
    }
    if !imports.is_empty() {
        out.push_str(&format!("import {{ {} }} from \"@raycast/api\";\n", imports.join(", ")));
    }
    let mut json_paths = Vec::new();
    let mut input_type = String::new();
    if has_input {
        let mut writer = TypeWriter { model, diagnostics, json_paths: Vec::new() };
        let members = writer.members(&members, "  ", &[]);
        json_paths = writer.json_paths;
        input_type = format!("type Input = {{\n{members}}};\n\n");
    }
    let body = match &request {
        Some(request) => http::body(request, &json_paths, has_input),
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
            http::imports(request, &json_paths).join(", ")
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&input_type);
    if let Some(confirmation) = &confirmation {
        let input_type = if has_input { "Input" } else { "void" };
        out.push_str(&format!("export const confirmation: Tool.Confirmation<{input_type}> = async () => {{\n"));
        let mut fields = Vec::new();
        if let Some(style) = style_code {
            fields.push(format!("    style: {style},\n"));
        }
        if let Some(message) = &confirmation.message {
            fields.push(format!("    message: {},\n", json_string(message)));
        }
        if !confirmation.info.is_empty() {
            let mut rows = String::from("    info: [\n");
            for row in &confirmation.info {
                match &row.value {
                    Some(value) => rows.push_str(&format!(
                        "      {{ name: {}, value: {} }},\n",
                        json_string(&row.name),
                        json_string(value)
                    )),
                    None => rows.push_str(&format!("      {{ name: {} }},\n", json_string(&row.name))),
                }
            }
            rows.push_str("    ],\n");
            fields.push(rows);
        }
        if fields.is_empty() {
            // An empty object still asks; the source's message was computed, not a literal.
            out.push_str("  return {};\n};\n\n");
        } else {
            out.push_str(&format!("  return {{\n{}  }};\n}};\n\n", fields.concat()));
        }
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

/// A stub for a command the manifest names whose source the model does not carry.
pub(super) fn command_stub(name: &str) -> String {
    format!(
        "// The source of this command was not part of the conversion; write it here.\nexport default async function Command() {{\n  throw new Error({});\n}}\n",
        json_string(&format!("not implemented: {name}"))
    )
}

/// The command a fresh extension gets: Raycast requires one, and tools are used from Raycast AI.
pub(super) fn ai_command(id: &str, tools: &[String]) -> String {
    let message = format!("Ask Raycast AI with @{id} to use: {}", tools.join(", "));
    format!(
        "import {{ showHUD }} from \"@raycast/api\";\n\n/** Says how to use this extension: its tools are called by Raycast AI. */\nexport default async function Command() {{\n  await showHUD({});\n}}\n",
        json_string(&message)
    )
}
