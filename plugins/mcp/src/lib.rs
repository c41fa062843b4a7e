//! MCP tools: the result of a `tools/list` request (`{"tools": [...]}`), a bare array of tools,
//! or one tool. See docs in /work/shared/formats/others.md (spec revision 2026-07-28).
//!
//! Reading keeps everything the canonical model has no place for under `extras["mcp"]`:
//! the document's shape and other top-level keys (`nextCursor`, `_meta`), each tool's `_meta`,
//! rich `icons`, unknown keys, and an input or output schema verbatim when the canonical
//! schema cannot reproduce it exactly (`$ref`/`$defs`, `allOf`, …), so that a same-format round
//! trip gives back the same document. A writer that renames a tool records the original name in
//! the tool's `_meta` under [`ORIGINAL_NAME_META`]; the reader restores it.
//!
//! Writing: every `outputSchema` is an object schema, as MCP's SDKs require ([`output`]);
//! options: `output_schema=full|shallow|none` (default: `full` for a model read from MCP, else
//! `shallow`). A tool without a description gets its title (an OpenAPI summary), else one made
//! from its name; an input schema another function format closed (`additionalProperties:
//! false`, OpenAI's strict tools) stays closed.

pub mod output;

use serde_json::{Map, Value, json};
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::NameRules;
use toolport_plugin::source::child;
use toolport_plugin::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, Hints, Icon, InputShape, OptionSpec, Options, Outcome, Output,
    Tool, ToolSet, codes,
};

use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::{Shape, Source};
use toolport_plugin::function_tools::schema::{Expansion, SchemaWriter};
use toolport_plugin::function_tools::{common, schema};
use toolport_plugin::jsonschema::Dialect;

const DIALECT: Dialect = Dialect::JsonSchema;

const ID: &str = "mcp";

/// The `_meta` key where a writer that had to rename a tool keeps its original name.
pub const ORIGINAL_NAME_META: &str = "io.toolport/original-name";

fn word_dot_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// MCP tool names: 1 to 128 characters of `[A-Za-z0-9_.-]`.
pub const MCP_NAME: NameRules = NameRules {
    pattern: "^[A-Za-z0-9_.-]{1,128}$",
    max_len: 128,
    first: word_dot_dash,
    rest: word_dot_dash,
    replacement: '_',
    lead: "_",
};

/// The `mcp` format.
#[derive(Debug, Default)]
pub struct Mcp;

impl Format for Mcp {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: ID.into(),
            aliases: vec!["mcp-tools".into()],
            description: "MCP tools: a tools/list result, an array of tools or one tool (JSON)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into()],
            options: Some(vec![OptionSpec::one_of(
                "output_schema",
                &["full", "shallow", "none"],
                "full for a model read from MCP, else shallow",
                "each tool's `outputSchema`: full (with every definition it reaches), shallow (the result's own object, definitions loosened), none (left out)",
            )]),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some(value) = common::detect_value(input) else { return 0 };
        let is_tool = |v: &Value| v.get("name").is_some_and(Value::is_string) && v.get("inputSchema").is_some();
        match &value {
            Value::Object(map) => match map.get("tools") {
                Some(Value::Array(tools)) if !tools.is_empty() && tools.iter().all(is_tool) => 90,
                Some(Value::Array(tools)) if tools.iter().any(is_tool) => 70,
                _ if is_tool(&value) => 80,
                _ => 0,
            },
            Value::Array(tools) if !tools.is_empty() && tools.iter().all(is_tool) => 85,
            _ => 0,
        }
    }

    fn read(&self, input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        let source = match Source::parse(input, ID) {
            Ok(source) => source,
            Err(error) => return Outcome::fail(error),
        };
        read_document(&source)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let (document, diagnostics) = write_document(model, options);
        Outcome::ok(common::json_bundle(&document, options), diagnostics)
    }
}

fn read_document(source: &Source) -> Outcome<ToolSet> {
    let mut diagnostics = Vec::new();
    let mut model = ToolSet::default();
    let mut set_extras = Map::new();
    let list = match common::tool_list(
        source,
        |map| map.contains_key("name") || map.contains_key("inputSchema"),
        "expected MCP tools: {\"tools\": [...]}, an array of tools, or one tool",
        &mut set_extras,
    ) {
        Ok(list) => list,
        Err(error) => return Outcome::fail(error),
    };
    // A set, not a scan of the tools so far: a list of thousands stays linear.
    let mut names_seen = std::collections::HashSet::new();
    for (i, value) in list.items.iter().enumerate() {
        let path = list.path(i);
        if let Some(tool) = read_tool(source, value, &path, &mut diagnostics) {
            if !names_seen.insert(tool.name.clone()) {
                diagnostics.push(source.at(Diagnostic::warning(
                    codes::INPUT_INVALID,
                    child(&path, "name"),
                    format!("tool name `{}` is used more than once", tool.name),
                )));
            }
            model.tools.push(tool);
        }
    }
    model.extras.insert(ID.into(), Value::Object(set_extras));
    // Named schemas of the tool schemas (`$defs`), merged across tools.
    model.definitions = source.take_definitions();
    Outcome::ok(model, diagnostics)
}

const TOOL_KEYS: &[&str] =
    &["name", "title", "icons", "description", "inputSchema", "outputSchema", "annotations", "_meta"];
/// A hint's field in the model.
type HintField = fn(&mut Hints) -> &mut Option<bool>;

const HINT_KEYS: &[(&str, HintField)] = &[
    ("readOnlyHint", |h| &mut h.read_only),
    ("destructiveHint", |h| &mut h.destructive),
    ("idempotentHint", |h| &mut h.idempotent),
    ("openWorldHint", |h| &mut h.open_world),
];

fn read_tool(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let Some(map) = value.as_object() else {
        diagnostics.push(source.at(Diagnostic::error(codes::INPUT_INVALID, path, "a tool must be an object; skipped")));
        return None;
    };
    let Some(name) = common::string(map, "name") else {
        diagnostics.push(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            child(path, "name"),
            "a tool needs a string `name`; skipped",
        )));
        return None;
    };
    let mut extras = Map::new();
    let mut keep = Map::new();
    let mut tool = Tool::new(name);
    tool.title = common::optional_string(source, map, "title", path, &mut keep, diagnostics);
    tool.description = common::optional_string(source, map, "description", path, &mut keep, diagnostics);

    if let Some(icons) = map.get("icons") {
        let first = icons.get(0).and_then(|i| i.get("src")).and_then(Value::as_str);
        tool.icon = first.map(icon_from_src);
        let plain =
            icons.as_array().is_some_and(|a| a.len() == 1) && icons[0].as_object().is_some_and(|o| o.len() == 1);
        if !plain || tool.icon.is_none() {
            extras.insert("icons".into(), icons.clone());
        }
    }

    match map.get("inputSchema") {
        Some(input) => {
            let path = child(path, "inputSchema");
            tool.parameters =
                schema::read_input(source, input, DIALECT, &path, "inputSchema", &mut extras, diagnostics);
        }
        None => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                path,
                format!("tool `{}` has no `inputSchema` (MCP requires one)", tool.name),
            )));
            extras.insert("noInputSchema".into(), true.into());
        }
    }
    if let Some(output) = map.get("outputSchema") {
        let path = child(path, "outputSchema");
        let schema = schema::read_single(source, output, DIALECT, &path, "outputSchema", &mut extras, diagnostics);
        tool.output = Some(Output { schema: Some(schema), ..Output::default() });
    }

    match map.get("annotations") {
        Some(Value::Object(annotations)) => {
            let mut unknown = Map::new();
            for (key, value) in annotations {
                if let Some((_, field)) = HINT_KEYS.iter().find(|(k, _)| k == key)
                    && let Some(flag) = value.as_bool()
                {
                    *field(&mut tool.hints) = Some(flag);
                } else if key == "title" && value.is_string() {
                    if tool.title.is_none() {
                        tool.title = value.as_str().map(str::to_owned);
                        extras.insert("titleIn".into(), "annotations".into());
                    } else {
                        extras.insert("annotationsTitle".into(), value.clone());
                    }
                } else {
                    unknown.insert(key.clone(), value.clone());
                }
            }
            if !unknown.is_empty() {
                extras.insert("annotations".into(), Value::Object(unknown));
            }
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "annotations"),
                "`annotations` should be an object; kept as written",
            )));
            keep.insert("annotations".into(), other.clone());
        }
        None => {}
    }

    if let Some(meta) = map.get("_meta") {
        let mut meta = meta.clone();
        let mut restored = false;
        if let Some(original) = meta.as_object_mut().and_then(|m| m.shift_remove(ORIGINAL_NAME_META))
            && let Some(original) = original.as_str()
        {
            // Written by us after a rename: restore the name the tool had before.
            extras.insert("renamedFrom".into(), Value::String(std::mem::take(&mut tool.name)));
            tool.name = original.to_owned();
            restored = true;
        }
        if !(restored && meta.as_object().is_some_and(Map::is_empty)) {
            extras.insert("_meta".into(), meta);
        }
    }
    if !MCP_NAME.is_valid(&tool.name) && !extras.contains_key("renamedFrom") {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            child(path, "name"),
            format!("tool name `{}` breaks MCP's rule {}", tool.name, MCP_NAME.pattern),
        )));
    }

    for (key, value) in map {
        if !TOOL_KEYS.contains(&key.as_str()) {
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(path, key),
                format!("unknown tool key `{key}`; kept as written"),
            )));
            keep.insert(key.clone(), value.clone());
        }
    }
    if !keep.is_empty() {
        extras.insert("keep".into(), Value::Object(keep));
    }
    if !extras.is_empty() {
        tool.extras.insert(ID.into(), Value::Object(extras));
    }
    Some(tool)
}

fn icon_from_src(src: &str) -> Icon {
    if let Some(rest) = src.strip_prefix("data:")
        && let Some((media_type, data)) = rest.split_once(";base64,")
    {
        return Icon::Base64 {
            data: data.to_owned(),
            media_type: (!media_type.is_empty()).then(|| media_type.to_owned()),
        };
    }
    Icon::Url { url: src.to_owned() }
}

fn icon_src(icon: &Icon) -> Option<String> {
    match icon {
        Icon::Url { url } => Some(url.clone()),
        Icon::Base64 { data, media_type } => {
            Some(format!("data:{};base64,{data}", media_type.as_deref().unwrap_or("application/octet-stream")))
        }
        Icon::Path { .. } => None,
    }
}

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
    outputs: output::Mode,
    /// Output schemas that lost definitions to `shallow`, and those wrapped as `{result}`.
    shallowed: usize,
    wrapped: usize,
}

fn write_document(model: &ToolSet, options: &Options) -> (Value, Vec<Diagnostic>) {
    let mut diagnostics = uncarried(model, ID, &CARRIED);
    carry::name_foreign_losses(model, ID, Holds { strict: false, closed: true }, &mut diagnostics);
    let outputs = output::Mode::from_options(options, model, &mut diagnostics);
    let names = common::tool_names(model, MCP_NAME, ID, &mut diagnostics);
    let descriptions = common::descriptions(model, ID, &mut diagnostics);
    let set_extras = common::extras_object(&model.extras, ID);
    let expansion = Expansion::for_model(model);
    let writer = SchemaWriter::for_model(DIALECT, model, &expansion);
    let mut context = Context { writer, outputs, shallowed: 0, wrapped: 0 };
    let mut tools = Vec::with_capacity(model.tools.len());
    for (i, ((tool, name), description)) in model.tools.iter().zip(&names).zip(descriptions).enumerate() {
        let path = child("/tools", i.to_string());
        tools.push(write_tool(tool, name, description, &path, &mut context, &mut diagnostics));
    }
    let with_outputs = model.tools.iter().filter(|t| t.output.as_ref().is_some_and(|o| o.schema.is_some())).count();
    if outputs == output::Mode::None && with_outputs > 0 {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_SCHEMA,
            "",
            format!("`{}=none`: the output schemas of {with_outputs} tools were left out", output::OPTION),
        ));
    }
    if context.shallowed > 0 {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_SCHEMA,
            "",
            format!(
                "`{}=shallow`: {} output schemas were written without the definitions they refer to, each use of one a loose schema with its description (`--option {}=full` writes them whole)",
                output::OPTION,
                context.shallowed,
                output::OPTION
            ),
        ));
    }
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

    let shape = set_extras.get("shape").and_then(Value::as_str).and_then(Shape::parse).unwrap_or(Shape::Wrapped);
    let document = match shape {
        Shape::Single if tools.len() == 1 => tools.remove(0),
        Shape::Array => Value::Array(tools),
        _ => {
            let mut document = Map::new();
            document.insert("tools".into(), Value::Array(tools));
            if let Some(Value::Object(others)) = set_extras.get("document") {
                document.extend(others.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            Value::Object(document)
        }
    };
    (document, diagnostics)
}

fn write_tool(
    tool: &Tool,
    name: &str,
    description: Option<String>,
    path: &str,
    context: &mut Context,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let writer = context.writer;
    let extras = common::extras_object(&tool.extras, ID);
    // MCP clients show a title in place of the name: an empty one would show nothing.
    let title = tool.title.as_ref().filter(|t| !t.trim().is_empty());
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    let title_in_annotations = extras.get("titleIn").and_then(Value::as_str) == Some("annotations");
    if let Some(title) = title
        && !title_in_annotations
    {
        out.insert("title".into(), title.clone().into());
    }

    let kept_icons = extras.get("icons").filter(|icons| {
        let first = icons.get(0).and_then(|i| i.get("src")).and_then(Value::as_str);
        first.map(icon_from_src) == tool.icon
    });
    if let Some(icons) = kept_icons {
        out.insert("icons".into(), icons.clone());
    } else if let Some(icon) = &tool.icon {
        match icon_src(icon) {
            Some(src) => {
                out.insert("icons".into(), json!([{ "src": src }]));
            }
            None => diagnostics.push(Diagnostic::loss(
                codes::LOSS_FIELD,
                child(path, "icon"),
                "MCP icons are URIs; a relative icon path cannot be carried",
            )),
        }
    }
    if let Some(description) = description {
        out.insert("description".into(), description.into());
    }

    if !(extras.get("noInputSchema") == Some(&Value::Bool(true)) && tool.parameters.is_empty()) {
        let at = child(path, "parameters");
        let mut input = schema::write_input(writer, &tool.parameters, &extras, "inputSchema", &at, diagnostics);
        let strictness = carry::strictness(tool, ID);
        if strictness.closed || strictness.strict {
            carry::close_root(&mut input);
        }
        out.insert("inputSchema".into(), input);
    }

    if let Some(output) = &tool.output {
        let output_path = child(path, "output");
        for (field, present) in [
            ("description", output.description.is_some()),
            ("kind", output.kind.is_some()),
            ("format", output.format.is_some()),
            ("language", output.language.is_some()),
            ("allowed_values", output.allowed_values.is_some()),
            ("content_type", output.content_type.is_some()),
        ] {
            if present {
                diagnostics.push(Diagnostic::loss(
                    codes::LOSS_FIELD,
                    child(&output_path, field),
                    format!(
                        "MCP describes a tool's output only by `outputSchema`; the output's `{field}` was left out"
                    ),
                ));
            }
        }
        if let Some(schema) = &output.schema
            && context.outputs != output::Mode::None
        {
            let at = child(&output_path, "schema");
            let (mut root, wrapped) = output::object_root(schema, writer.definitions);
            context.wrapped += usize::from(wrapped);
            if context.outputs == output::Mode::Shallow {
                let (cut, shallowed) = output::shallow(&root, writer.definitions, wrapped, &at);
                root = cut;
                context.shallowed += usize::from(shallowed);
            }
            // The source's own schema comes back when it still says the same (an MCP round trip).
            let value = schema::write_single(writer, &root, &extras, "outputSchema", &at, diagnostics);
            out.insert("outputSchema".into(), value);
        }
    }

    let mut annotations = Map::new();
    if title_in_annotations {
        if let Some(title) = title {
            annotations.insert("title".into(), title.clone().into());
        }
    } else if let Some(title) = extras.get("annotationsTitle") {
        annotations.insert("title".into(), title.clone());
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
    if !annotations.is_empty() {
        out.insert("annotations".into(), Value::Object(annotations));
    }

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
    if let Some(meta) = meta {
        out.insert("_meta".into(), meta);
    }
    if let Some(Value::Object(keep)) = extras.get("keep") {
        for (key, value) in keep {
            out.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    Value::Object(out)
}
