//! What travels between the function formats (MCP, OpenAI, Anthropic, Gemini, Bedrock) beyond the
//! canonical model, read from one another's extras here, the one place that knows them all:
//! a closed input schema (`additionalProperties: false` at its root) and strict mode, and the
//! names of what cannot travel, in place of a generic `loss/extras`.

use serde_json::{Map, Value};
use toolport_core::source::child;
use toolport_core::{Diagnostic, Options, Tool, ToolSet, codes};
use toolport_jsonschema::Dialect;

/// Each function format's id and the key its tool extras keep the input schema under
/// (`<key>` verbatim, `<key>Root` for the root's other keys).
pub const INPUT_KEYS: &[(&str, &[&str])] = &[
    ("openai", &["parameters"]),
    ("anthropic", &["input_schema"]),
    ("mcp", &["inputSchema"]),
    ("gemini", &["parametersJsonSchema", "parameters"]),
    // Bedrock's tools hold `toolSpec.inputSchema.json`: no bare key of a tool object, so this
    // extras key never names Bedrock as the owner of another document's key.
    ("bedrock", &["inputSchemaJson"]),
];

/// Formats with a per-tool `strict` flag.
const STRICT_FORMATS: &[&str] = &["openai", "anthropic", "bedrock"];

/// Extras keys that only say how the source spelled its document (shape, form, key choices):
/// no data is lost with them.
const SPELLING: &[&str] = &[
    "shape",
    "envelope",
    "form",
    "noType",
    "noParameters",
    "noInputSchema",
    "emptyParameters",
    "emptyInputExamples",
    "jsonSchema",
    "upperCaseTypes",
    "snakeCase",
    "responseJsonSchema",
    "group",
    "titleIn",
    "renamedFrom",
];

/// How strict another function format said a tool's input is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strictness {
    /// Its input schema's root had `additionalProperties: false`.
    pub closed: bool,
    /// It was marked `strict: true` (OpenAI, Anthropic).
    pub strict: bool,
}

/// What the tool's extras from function formats other than `target` say of its strictness.
pub fn strictness(tool: &Tool, target: &str) -> Strictness {
    let mut found = Strictness::default();
    for (format, keys) in INPUT_KEYS {
        if *format == target {
            continue;
        }
        let Some(Value::Object(extras)) = tool.extras.get(*format) else { continue };
        for key in *keys {
            for kept in [extras.get(&format!("{key}Root")), extras.get(*key)].into_iter().flatten() {
                found.closed |= kept.get("additionalProperties") == Some(&Value::Bool(false));
            }
        }
        found.strict |= STRICT_FORMATS.contains(format) && extras.get("strict") == Some(&Value::Bool(true));
    }
    found
}

/// The keywords of a tool's input schema root besides its parameters, as a function format
/// kept them (`additionalProperties`, a description, `minProperties`, `$schema`, …), for a
/// target with a place for them (an OpenAPI request body).
#[derive(Clone, Debug, PartialEq)]
pub struct InputRoot {
    /// Where they are kept in the model: `/tools/<i>/extras/<format>/<key>`.
    pub at: String,
    /// The dialect they are written in.
    pub dialect: Dialect,
    pub keywords: Map<String, Value>,
}

/// The root keywords of the `index`th tool's input schema that a function format kept (the
/// first, in [`INPUT_KEYS`] order, that kept any): its `<key>Root`, else the root of a schema
/// kept whole. What the parameters were made of (`type`, `properties`, `required`, `allOf`,
/// a `$ref` and the definitions) is not among them.
pub fn input_root(tool: &Tool, index: usize) -> Option<InputRoot> {
    for (format, keys) in INPUT_KEYS {
        let Some(Value::Object(extras)) = tool.extras.get(*format) else { continue };
        for key in *keys {
            let root_key = format!("{key}Root");
            let kept = match extras.get(&root_key) {
                Some(root) => (root_key, Some(root)),
                None => ((*key).to_owned(), extras.get(*key)),
            };
            let (kept_at, Some(Value::Object(root))) = kept else { continue };
            let keywords: Map<String, Value> = root
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "type" | "properties" | "required" | "allOf" | "$ref" | "$defs" | "definitions"
                    )
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if keywords.is_empty() {
                continue;
            }
            // Gemini's `parameters` is its OpenAPI subset; every other input schema is JSON Schema.
            let dialect =
                if *format == "gemini" && *key == "parameters" { Dialect::Gemini } else { Dialect::JsonSchema };
            let at = child(&child(&format!("/tools/{index}/extras"), format), &kept_at);
            return Some(InputRoot { at, dialect, keywords });
        }
    }
    None
}

/// Whether a tool is written in strict mode: as the `strict` option says, else as its own
/// source said (`strict: true` in `extras`, the target format's) or another function format
/// did (`carried`, [`strictness`]).
pub fn strict_wanted(options: &Options, extras: &Map<String, Value>, carried: Strictness) -> bool {
    match options.get("strict") {
        Some("true") => true,
        Some("false") => false,
        _ => extras.get("strict") == Some(&Value::Bool(true)) || carried.strict,
    }
}

/// Whether the tool named `tool` at `path` is written strict, given what making its input
/// schema strict gave (`made`: the changes, or why it cannot be): the changes are reported,
/// or a warning that the tool was written without strict mode.
pub fn strict_made(
    made: Result<Vec<Diagnostic>, String>,
    tool: &str,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    match made {
        Ok(changes) => {
            diagnostics.extend(changes);
            true
        }
        Err(reason) => {
            diagnostics.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                child(path, "strict"),
                format!("tool `{tool}` was written without strict mode: {reason}"),
            ));
            false
        }
    }
}

/// Closes a written input schema's root (`additionalProperties: false`) when it has no
/// `additionalProperties` of its own.
pub fn close_root(input: &mut Value) {
    if let Value::Object(map) = input {
        map.entry("additionalProperties").or_insert(Value::Bool(false));
    }
}

/// What `target` can hold of another format's strictness.
#[derive(Clone, Copy, Debug)]
pub struct Holds {
    /// A tool's `strict` flag.
    pub strict: bool,
    /// `additionalProperties: false` at the input schema's root.
    pub closed: bool,
}

/// Rewrites the `loss/extras` diagnostics `loss::uncarried` gave for the other function
/// formats' extras so that each names what is lost (`strict: true`, OpenAI's built-in tools
/// by type, unknown keys, …), leaving out what travelled (`holds`) and what only says how the
/// source spelled its document; a diagnostic with nothing left to name is removed.
pub fn name_foreign_losses(model: &ToolSet, target: &str, holds: Holds, diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.retain_mut(|d| {
        if d.code != toolport_core::codes::LOSS_EXTRAS {
            return true;
        }
        let Some((tool, format)) = foreign_place(&d.path) else { return true };
        let Some(&(format, keys)) = INPUT_KEYS.iter().find(|(f, _)| *f == format) else { return true };
        let extras = match tool {
            Some(i) => model.tools.get(i).and_then(|t| t.extras.get(format)),
            None => model.extras.get(format),
        };
        let Some(Value::Object(extras)) = extras else { return true };
        let lost = lost_parts(extras, format, keys, target, holds);
        if lost.is_empty() {
            return false;
        }
        d.message = format!("{target} cannot hold {}: left out", lost.join("; "));
        true
    });
}

/// `/tools/3/extras/openai` → (Some(3), "openai"); `/extras/openai` → (None, "openai").
fn foreign_place(path: &str) -> Option<(Option<usize>, &str)> {
    if let Some(format) = path.strip_prefix("/extras/") {
        return Some((None, format));
    }
    let rest = path.strip_prefix("/tools/")?;
    let (index, format) = rest.split_once("/extras/")?;
    Some((Some(index.parse().ok()?), format))
}

fn lost_parts(extras: &Map<String, Value>, format: &str, keys: &[&str], target: &str, holds: Holds) -> Vec<String> {
    let mut lost = Vec::new();
    for (key, value) in extras {
        if SPELLING.contains(&key.as_str()) {
            continue;
        }
        let root_of = keys.iter().find(|k| key.strip_suffix("Root") == Some(**k));
        match key.as_str() {
            "strict" if value == &Value::Bool(true) && holds.strict => {}
            "strict" if value == &Value::Bool(true) => {
                lost.push(format!("{format}'s `strict: true` ({target} has no strict mode)"))
            }
            "strict" => {}
            "otherTools" => {
                let tools: Vec<String> = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|other| crate::other_tools::describe(other.get("tool").unwrap_or(other)))
                    .collect();
                // OpenAI calls its entries built-in tools; Bedrock's are a cache marker and system tools.
                let kind = if format == "openai" { "built-in tools" } else { "tool-list entries" };
                lost.push(format!("{format}'s {kind} {}, which are not functions", tools.join(", ")));
            }
            "request" => {
                let names: Vec<String> = value
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.keys())
                    .filter(|k| *k != "toolConfig")
                    .map(|k| format!("`{k}`"))
                    .collect();
                lost.push(format!("{format}'s request keys {} around the tools", names.join(", ")));
            }
            "keep" | "keepOuter" | "document" => {
                let names: Vec<String> =
                    value.as_object().into_iter().flat_map(|m| m.keys()).map(|k| format!("`{k}`")).collect();
                let whose = if key == "document" { "document" } else { "tool" };
                lost.push(format!("{format}'s {whose} keys {}", names.join(", ")));
            }
            _ if root_of.is_some() => {
                let names: Vec<String> = value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(k, v)| {
                        !(k.as_str() == "additionalProperties" && **v == Value::Bool(false) && holds.closed)
                    })
                    .filter(|(k, _)| !matches!(k.as_str(), "$defs" | "definitions"))
                    .map(|(k, _)| format!("`{k}`"))
                    .collect();
                if !names.is_empty() {
                    lost.push(format!("{format}'s input schema root keys {}", names.join(", ")));
                }
            }
            // A schema kept verbatim for a same-format round trip: its meaning is in the model.
            _ if keys.contains(&key.as_str())
                || matches!(key.as_str(), "outputSchema" | "response" | "responseJsonSchema") => {}
            _ => lost.push(format!("{format}'s `{key}`")),
        }
    }
    lost
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_core::{Tool, codes, loss};

    use super::*;

    fn tool(format: &str, extras: Value) -> Tool {
        let mut tool = Tool::new("t");
        tool.extras.insert(format.into(), extras);
        tool
    }

    #[test]
    fn strictness_is_read_from_every_other_function_format() {
        // (source format, its tool extras, target, what the target learns)
        let cases = [
            ("openai", json!({"strict": true, "parametersRoot": {"additionalProperties": false}}), "mcp", (true, true)),
            (
                "openai",
                json!({"strict": true, "parametersRoot": {"additionalProperties": false}}),
                "openai",
                (false, false),
            ),
            (
                "anthropic",
                json!({"input_schema": {"type": "object", "additionalProperties": false}}),
                "openai",
                (true, false),
            ),
            ("mcp", json!({"inputSchemaRoot": {"additionalProperties": true}}), "anthropic", (false, false)),
            ("gemini", json!({"parametersJsonSchemaRoot": {"additionalProperties": false}}), "mcp", (true, false)),
            ("mcp", json!({"strict": true}), "openai", (false, false)),
        ];
        for (format, extras, target, (closed, strict)) in cases {
            assert_eq!(
                strictness(&tool(format, extras.clone()), target),
                Strictness { closed, strict },
                "{format} {extras} -> {target}"
            );
        }
    }

    #[test]
    fn input_root_is_the_first_kept_root_without_what_made_the_parameters() {
        // (tool extras by format, where the keywords are, dialect, keywords)
        let cases = [
            (
                json!({"mcp": {"inputSchemaRoot": {"additionalProperties": false}}}),
                Some((
                    "/tools/2/extras/mcp/inputSchemaRoot",
                    Dialect::JsonSchema,
                    json!({"additionalProperties": false}),
                )),
            ),
            (
                json!({"openai": {"parameters": {"type": "object", "allOf": [], "properties": {}, "required": [], "$defs": {}, "description": "d"}}}),
                Some(("/tools/2/extras/openai/parameters", Dialect::JsonSchema, json!({"description": "d"}))),
            ),
            (
                json!({"gemini": {"parametersRoot": {"nullable": true}}}),
                Some(("/tools/2/extras/gemini/parametersRoot", Dialect::Gemini, json!({"nullable": true}))),
            ),
            (
                json!({"gemini": {"parametersJsonSchemaRoot": {"title": "t"}}}),
                Some(("/tools/2/extras/gemini/parametersJsonSchemaRoot", Dialect::JsonSchema, json!({"title": "t"}))),
            ),
            (
                json!({"openai": {"parametersRoot": {"$defs": {}}}, "anthropic": {"input_schemaRoot": {"title": "a"}}}),
                Some(("/tools/2/extras/anthropic/input_schemaRoot", Dialect::JsonSchema, json!({"title": "a"}))),
            ),
            (json!({"mcp": {"inputSchema": {"type": "object", "properties": {}}}, "openapi": {"body": {}}}), None),
        ];
        for (extras, expect) in cases {
            let mut tool = Tool::new("t");
            for (format, kept) in extras.as_object().unwrap() {
                tool.extras.insert(format.clone(), kept.clone());
            }
            let expect = expect.map(|(at, dialect, keywords)| InputRoot {
                at: at.to_owned(),
                dialect,
                keywords: keywords.as_object().unwrap().clone(),
            });
            assert_eq!(input_root(&tool, 2), expect, "{extras}");
        }
    }

    #[test]
    fn foreign_losses_name_what_is_lost() {
        // (tool extras from openai, set extras from openai, target holds, messages)
        let cases: Vec<(Value, Value, Holds, Vec<&str>)> = vec![
            (
                json!({"strict": true, "form": "responses", "parametersRoot": {"additionalProperties": false}}),
                json!({"shape": "array", "otherTools": [{"at": 1, "tool": {"type": "web_search_preview"}}]}),
                Holds { strict: false, closed: true },
                vec![
                    "mcp cannot hold openai's built-in tools `web_search_preview`, which are not functions: left out",
                    "mcp cannot hold openai's `strict: true` (mcp has no strict mode): left out",
                ],
            ),
            (
                json!({"strict": true, "parametersRoot": {"additionalProperties": false}}),
                json!({"shape": "array"}),
                Holds { strict: true, closed: true },
                vec![],
            ),
            (
                json!({"parametersRoot": {"additionalProperties": false, "$schema": "x"}, "keep": {"x-y": 1}}),
                json!({"shape": "array"}),
                Holds { strict: false, closed: false },
                vec![
                    "mcp cannot hold openai's input schema root keys `additionalProperties`, `$schema`; openai's tool keys `x-y`: left out",
                ],
            ),
        ];
        for (tool_extras, set_extras, holds, expect) in cases {
            assert_eq!(named_losses("openai", tool_extras, set_extras, holds), expect);
        }
    }

    #[test]
    fn bedrocks_request_items_and_strictness_are_named_or_carried() {
        let set_extras = json!({"shape": "wrapped",
            "request": {"modelId": "m", "messages": [], "toolConfig": null},
            "document": {"toolChoice": {"auto": {}}},
            "otherTools": [{"at": 1, "tool": {"systemTool": {"name": "nova_grounding"}}}, {"at": 2, "tool": {"cachePoint": {"type": "default"}}}]});
        let tool_extras = json!({"strict": true, "inputSchemaJsonRoot": {"additionalProperties": false}});
        assert_eq!(
            named_losses("bedrock", tool_extras.clone(), set_extras, Holds { strict: true, closed: true }),
            vec![
                "mcp cannot hold bedrock's request keys `modelId`, `messages` around the tools; bedrock's document keys `toolChoice`; bedrock's tool-list entries `systemTool` (`nova_grounding`), `cachePoint`, which are not functions: left out"
            ]
        );
        let strictness = strictness(&tool("bedrock", tool_extras), "openai");
        assert_eq!(strictness, Strictness { closed: true, strict: true });
    }

    /// The `loss/extras` messages an mcp write gives for `format`'s extras, once named.
    fn named_losses(format: &str, tool_extras: Value, set_extras: Value, holds: Holds) -> Vec<String> {
        let mut model = ToolSet::default();
        model.tools.push(tool(format, tool_extras));
        model.extras.insert(format.into(), set_extras);
        let mut diagnostics = loss::uncarried(&model, "mcp", &loss::Carried::default());
        name_foreign_losses(&model, "mcp", holds, &mut diagnostics);
        diagnostics.into_iter().filter(|d| d.code == codes::LOSS_EXTRAS).map(|d| d.message).collect()
    }
}
