//! Anthropic tools: `{name, description?, input_schema, input_examples?, strict?, cache_control?}`.
//! A file holds an array of tools, `{"tools": [...]}`, or one tool.
//!
//! `input_examples` become canonical examples: one example per input example, with an empty
//! prompt (Anthropic gives none, and inventing one would be read back as if a user had said it)
//! and one expected call of the tool whose arguments are plain equalities, in order. Any example
//! of that form is written back as an input example of its tool; other parts of examples are
//! reported as loss.
//!
//! Reading keeps under `extras["anthropic"]` the document's shape, `strict`, `cache_control`,
//! unknown keys, and `input_schema` verbatim when the canonical schema cannot reproduce it.
//! Writing: names follow `^[a-zA-Z0-9_-]{1,64}$`; strict mode (options key `strict=true`, or a
//! tool whose source said `strict: true`) drops numeric and length constraints (reported) and is
//! turned off, with a diagnostic, for a recursive schema.

pub mod strict;

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_plugin::definitions;
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::NameRules;
use toolport_plugin::source::child;
use toolport_plugin::{
    Bundle, Detection, Diagnostic, Example, Expectation, Format, FormatInfo, InputShape, Matcher, OptionSpec, Options,
    Outcome, Tool, ToolCall, ToolSet, codes,
};

use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::{Shape, Source};
use toolport_plugin::function_tools::schema::{Expansion, SchemaWriter};
use toolport_plugin::function_tools::{common, schema};
use toolport_plugin::jsonschema::Dialect;

const DIALECT: Dialect = Dialect::JsonSchema;

const ID: &str = "anthropic";

/// Anthropic tool names.
pub const NAME_RULES: NameRules = NameRules::WORD_DASH_64;

/// The `anthropic` format.
#[derive(Debug, Default)]
pub struct Anthropic;

impl Format for Anthropic {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: ID.into(),
            aliases: vec!["claude".into(), "anthropic-tools".into()],
            description: "Anthropic (Claude) tool definitions with input_schema (JSON)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into()],
            options: Some(vec![OptionSpec::one_of(
                "strict",
                &["true", "false"],
                "the source's own `strict` setting, else false",
                "strict tool use: every property required, no additional properties, schemas inlined (a tool whose schema cannot be strict is written without it, with a warning)",
            )]),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        common::detect_tool_list(input, |v: &Value| {
            v.get("name").is_some_and(Value::is_string) && v.get("input_schema").is_some()
        })
    }

    fn read(&self, input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        match Source::parse(input, ID) {
            Ok(source) => read_document(&source),
            Err(error) => Outcome::fail(error),
        }
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
        |map| map.contains_key("name"),
        "expected Anthropic tools: an array of tools, {\"tools\": [...]}, or one tool",
        &mut set_extras,
    ) {
        Ok(list) => list,
        Err(error) => return Outcome::fail(error),
    };
    // A set, not a scan of the tools so far: a list of thousands stays linear.
    let mut names_seen = std::collections::HashSet::new();
    for (i, item) in list.items.iter().enumerate() {
        let path = list.path(i);
        if let Some((tool, examples)) = read_tool(source, item, &path, &mut diagnostics) {
            if !names_seen.insert(tool.name.clone()) {
                diagnostics.push(source.at(Diagnostic::warning(
                    codes::INPUT_INVALID,
                    child(&path, "name"),
                    format!("tool name `{}` is used more than once", tool.name),
                )));
            }
            model.tools.push(tool);
            model.examples.extend(examples);
        }
    }
    model.extras.insert(ID.into(), Value::Object(set_extras));
    // Named schemas of the tool schemas (`$defs`), merged across tools.
    model.definitions = source.take_definitions();
    Outcome::ok(model, diagnostics)
}

/// Keys with a place in the model or in the tool's extras.
const TOOL_KEYS: &[&str] = &["name", "description", "input_schema", "input_examples", "strict", "cache_control"];

fn read_tool(
    source: &Source,
    value: &Value,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Tool, Vec<Example>)> {
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
    if !NAME_RULES.is_valid(&name) {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            child(path, "name"),
            format!("tool name `{name}` breaks Anthropic's rule {}", NAME_RULES.pattern),
        )));
    }
    let mut extras = Map::new();
    let mut keep = Map::new();
    let mut tool = Tool::new(name);
    tool.description = common::optional_string(source, map, "description", path, &mut keep, diagnostics);
    match map.get("input_schema") {
        Some(input) => {
            let at = child(path, "input_schema");
            tool.parameters = schema::read_input(source, input, DIALECT, &at, "input_schema", &mut extras, diagnostics);
        }
        None => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                path,
                format!("tool `{}` has no `input_schema` (Anthropic requires one)", tool.name),
            )));
            extras.insert("noInputSchema".into(), true.into());
        }
    }
    let mut examples = Vec::new();
    match map.get("input_examples") {
        Some(Value::Array(items)) if items.iter().all(Value::is_object) => {
            if items.is_empty() {
                extras.insert("emptyInputExamples".into(), true.into());
            }
            examples = items.iter().filter_map(Value::as_object).map(|args| example_of(&tool.name, args)).collect();
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "input_examples"),
                "`input_examples` should be an array of argument objects; kept as written",
            )));
            keep.insert("input_examples".into(), other.clone());
        }
        None => {}
    }
    match map.get("strict") {
        Some(Value::Bool(flag)) => {
            extras.insert("strict".into(), (*flag).into());
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "strict"),
                "`strict` should be a boolean; kept as written",
            )));
            keep.insert("strict".into(), other.clone());
        }
        None => {}
    }
    for (key, value) in map {
        if key == "cache_control" {
            keep.insert(key.clone(), value.clone());
        } else if !TOOL_KEYS.contains(&key.as_str()) {
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
    Some((tool, examples))
}

/// An input example as a canonical example: no prompt, one expected call with these arguments.
fn example_of(tool: &str, arguments: &Map<String, Value>) -> Example {
    let arguments: IndexMap<String, Matcher> =
        arguments.iter().map(|(k, v)| (k.clone(), Matcher::eq(v.clone()))).collect();
    Example {
        prompt: String::new(),
        expected: vec![Expectation::CallsTool(ToolCall {
            tool: tool.to_owned(),
            arguments: Some(arguments),
            long_form: false,
        })],
        ..Example::default()
    }
}

const CARRIED: Carried = Carried {
    tool_set: &["examples", "definitions"],
    tool: &["description"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &["prompt", "expected"],
};

fn write_document(model: &ToolSet, options: &Options) -> (Value, Vec<Diagnostic>) {
    let mut diagnostics = uncarried(model, ID, &CARRIED);
    carry::name_foreign_losses(model, ID, Holds { strict: true, closed: true }, &mut diagnostics);
    let expansion = Expansion::for_model(model);
    let writer = SchemaWriter::for_model(DIALECT, model, &expansion);
    let names = common::tool_names(model, NAME_RULES, ID, &mut diagnostics);
    let mut descriptions = common::descriptions(model, ID, &mut diagnostics).into_iter();
    let input_examples = input_examples(model, &mut diagnostics);
    let set_extras = common::extras_object(&model.extras, ID);
    let mut tools: Vec<Value> = model
        .tools
        .iter()
        .zip(&names)
        .enumerate()
        .map(|(i, (tool, name))| {
            let examples = input_examples.get(&i).cloned().unwrap_or_default();
            let written = Written { description: descriptions.next().flatten(), examples };
            write_tool(tool, name, written, &child("/tools", i.to_string()), writer, options, &mut diagnostics)
        })
        .collect();
    let shape = set_extras.get("shape").and_then(Value::as_str).and_then(Shape::parse).unwrap_or(Shape::Array);
    let document = match shape {
        Shape::Single if tools.len() == 1 => tools.remove(0),
        Shape::Wrapped => {
            let mut document = Map::new();
            document.insert("tools".into(), Value::Array(tools));
            if let Some(Value::Object(others)) = set_extras.get("document") {
                document.extend(others.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            Value::Object(document)
        }
        _ => Value::Array(tools),
    };
    (document, diagnostics)
}

/// The input examples of each tool (by index) from the model's examples, reporting every part
/// of an example an input example cannot say.
fn input_examples(model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> IndexMap<usize, Vec<Value>> {
    let mut out: IndexMap<usize, Vec<Value>> = IndexMap::new();
    // Tool indices by name (the first of a name), looked up per call.
    let mut tools: HashMap<&str, usize> = HashMap::new();
    if !model.examples.is_empty() {
        for (index, tool) in model.tools.iter().enumerate() {
            tools.entry(tool.name.as_str()).or_insert(index);
        }
    }
    for (i, example) in model.examples.iter().enumerate() {
        let path = child("/examples", i.to_string());
        if !example.prompt.is_empty() {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_EXAMPLES,
                child(&path, "prompt"),
                "Anthropic input examples have no prompt; only the expected tool arguments were written",
            ));
        }
        for (j, expectation) in example.expected.iter().enumerate() {
            let at = child(&child(&path, "expected"), j.to_string());
            let written = match expectation {
                Expectation::CallsTool(call) => call_as_input_example(model, &tools, call),
                _ => None,
            };
            match written {
                Some((tool, arguments)) => out.entry(tool).or_default().push(arguments),
                None => diagnostics.push(Diagnostic::loss(
                    codes::LOSS_EXAMPLES,
                    at,
                    "Anthropic input examples hold only a known tool's exact arguments; this expectation was left out",
                )),
            }
        }
    }
    out
}

/// A call with exact arguments of a tool in the set: (tool index, arguments object).
/// Dotted argument names (`user.name`) that are not parameters become nested objects.
fn call_as_input_example(model: &ToolSet, tools: &HashMap<&str, usize>, call: &ToolCall) -> Option<(usize, Value)> {
    let index = *tools.get(call.tool.as_str())?;
    let tool = &model.tools[index];
    let mut arguments = Map::new();
    // The tool's parameter names, gathered once when a dotted argument name needs them.
    let mut parameters: Option<HashSet<&str>> = None;
    for (name, matcher) in call.arguments.as_ref()? {
        let value = matcher.as_eq()?.clone();
        if name.contains('.')
            && !parameters
                .get_or_insert_with(|| tool.parameters.iter().map(|p| p.name.as_str()).collect())
                .contains(name.as_str())
        {
            let mut parts: Vec<&str> = name.split('.').collect();
            let last = parts.pop()?;
            let mut target = &mut arguments;
            for part in parts {
                let entry = target.entry(part.to_owned()).or_insert_with(|| Value::Object(Map::new()));
                target = entry.as_object_mut()?;
            }
            target.insert(last.to_owned(), value);
        } else {
            arguments.insert(name.clone(), value);
        }
    }
    Some((index, Value::Object(arguments)))
}

/// What a tool is written with besides itself: its description (its own or the best
/// available, `common::descriptions`) and its input examples.
struct Written {
    description: Option<String>,
    examples: Vec<Value>,
}

fn write_tool(
    tool: &Tool,
    name: &str,
    written: Written,
    path: &str,
    writer: SchemaWriter,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let extras = common::extras_object(&tool.extras, ID);
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    let Written { description, examples } = written;
    if let Some(description) = description {
        out.insert("description".into(), description.into());
    }
    // Strictness another function format gave the tool (OpenAI's `strict`, a closed input).
    let carried = carry::strictness(tool, ID);
    let strict = match options.get("strict") {
        Some("true") => true,
        Some("false") => false,
        _ => extras.get("strict") == Some(&Value::Bool(true)) || carried.strict,
    };
    let mut strict_written = strict;
    if !(extras.get("noInputSchema") == Some(&Value::Bool(true)) && tool.parameters.is_empty()) {
        let at = child(path, "parameters");
        // Strict schemas are written without `$ref`s, inlined; a recursive definition cannot be
        // inlined, so it stays a `$ref` and strict mode is refused below (`make_strict`).
        let recursive = tool.parameters.iter().find_map(|p| definitions::recursive(&p.schema, writer.definitions));
        let writer = if strict && recursive.is_none() { writer.inlined() } else { writer };
        let mut input = schema::write_input(writer, &tool.parameters, &extras, "input_schema", &at, diagnostics);
        if carried.closed {
            carry::close_root(&mut input);
        }
        if strict {
            match strict::make_strict(&mut input, &child(path, "parameters")) {
                Ok(changes) => diagnostics.extend(changes),
                Err(reason) => {
                    strict_written = false;
                    diagnostics.push(Diagnostic::warning(
                        codes::CHANGED_VALUE,
                        child(path, "strict"),
                        format!("tool `{}` was written without strict mode: {reason}", tool.name),
                    ));
                }
            }
        }
        out.insert("input_schema".into(), input);
    }
    if !examples.is_empty() || extras.get("emptyInputExamples") == Some(&Value::Bool(true)) {
        out.insert("input_examples".into(), Value::Array(examples));
    }
    match extras.get("strict") {
        Some(written) if written.as_bool() == Some(strict_written) => {
            out.insert("strict".into(), written.clone());
        }
        _ if strict_written || extras.contains_key("strict") || options.get("strict").is_some() => {
            out.insert("strict".into(), strict_written.into());
        }
        _ => {}
    }
    if let Some(Value::Object(keep)) = extras.get("keep") {
        for (key, value) in keep {
            out.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    Value::Object(out)
}
