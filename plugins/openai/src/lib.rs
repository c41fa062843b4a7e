//! OpenAI function tools: the Chat Completions form
//! `{"type": "function", "function": {name, description, parameters, strict}}` and the Responses
//! API's flat form `{"type": "function", name, description, parameters, strict}`. A file holds
//! an array of tools, `{"tools": [...]}`, or one tool.
//!
//! Reading keeps under `extras["openai"]` the document's shape, each tool's form and `strict`
//! flag, tools of other types (`web_search`, …) with their position, unknown keys, and the
//! `parameters` verbatim when the canonical schema cannot reproduce them exactly.
//!
//! Writing: names follow `^[a-zA-Z0-9_-]{1,64}$`; strict mode (options key `strict=true`, or a
//! tool whose source said `strict: true`) rewrites each schema as strict mode demands and reports
//! every rewrite. Options: `strict=true|false`, `form=chat|responses` (default: as read, else chat).

pub mod strict;

use serde_json::{Map, Value, json};
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::NameRules;
use toolport_plugin::source::child;
use toolport_plugin::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, InputShape, OptionSpec, Options, Outcome, Tool, ToolSet, codes,
};

use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::{Shape, Source};
use toolport_plugin::function_tools::schema::{Expansion, SchemaWriter};
use toolport_plugin::function_tools::{common, schema};
use toolport_plugin::jsonschema::Dialect;

const DIALECT: Dialect = Dialect::JsonSchema;

const ID: &str = "openai";

/// OpenAI tool names.
pub const NAME_RULES: NameRules = NameRules::WORD_DASH_64;

/// The `openai` format.
#[derive(Debug, Default)]
pub struct OpenAi;

impl Format for OpenAi {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: ID.into(),
            aliases: vec!["openai-tools".into(), "openai-functions".into()],
            description: "OpenAI function tools (Chat Completions or Responses form; JSON)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into()],
            options: Some(vec![
                OptionSpec::one_of(
                    "strict",
                    &["true", "false"],
                    "the source's own `strict` setting, else false",
                    "strict mode: every property required, no additional properties (a tool whose schema cannot be strict is written without it, with a warning)",
                ),
                OptionSpec::one_of(
                    "form",
                    &["chat", "responses"],
                    "the source's form, else chat",
                    "chat: Chat Completions tools (`{type, function: {...}}`); responses: the Responses API's flat tools",
                ),
            ]),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        common::detect_tool_list(input, |v: &Value| {
            v.get("type").is_some_and(|t| t == "function")
                && (v.get("function").is_some_and(|f| f.get("name").is_some()) || v.get("name").is_some())
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
        |map| map.contains_key("type"),
        "expected OpenAI tools: an array of tools, {\"tools\": [...]}, or one tool",
        &mut set_extras,
    ) {
        Ok(list) => list,
        Err(error) => return Outcome::fail(error),
    };
    let mut others = Vec::new();
    // A set, not a scan of the tools so far: a list of thousands stays linear.
    let mut names_seen = std::collections::HashSet::new();
    for (i, item) in list.items.iter().enumerate() {
        let path = list.path(i);
        if item.get("type").is_some_and(|t| t != "function") {
            // A built-in tool (`web_search`, `file_search`, …): not a function, kept in place.
            let kind = item.get("type").and_then(Value::as_str).unwrap_or("?");
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                &path,
                format!("built-in tool `{kind}` is not a function: kept as written for an OpenAI output, left out of every other format"),
            )));
            others.push(json!({"at": i, "tool": item}));
            continue;
        }
        if let Some(tool) = read_tool(source, item, &path, &mut diagnostics) {
            if !names_seen.insert(tool.name.clone()) {
                diagnostics.push(source.at(Diagnostic::warning(
                    codes::INPUT_INVALID,
                    path.clone(),
                    format!("tool name `{}` is used more than once", tool.name),
                )));
            }
            model.tools.push(tool);
        }
    }
    if !others.is_empty() {
        set_extras.insert("otherTools".into(), Value::Array(others));
    }
    model.extras.insert(ID.into(), Value::Object(set_extras));
    // Named schemas of the tool schemas (`$defs`), merged across tools.
    model.definitions = source.take_definitions();
    Outcome::ok(model, diagnostics)
}

const FUNCTION_KEYS: &[&str] = &["name", "description", "parameters", "strict"];

fn read_tool(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let Some(outer) = value.as_object() else {
        diagnostics.push(source.at(Diagnostic::error(codes::INPUT_INVALID, path, "a tool must be an object; skipped")));
        return None;
    };
    let mut extras = Map::new();
    let (function, function_path) = match outer.get("function") {
        Some(Value::Object(function)) => {
            let outer_rest: Map<String, Value> = outer
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "type" | "function"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !outer_rest.is_empty() {
                extras.insert("keepOuter".into(), Value::Object(outer_rest));
            }
            (function, child(path, "function"))
        }
        _ => {
            extras.insert("form".into(), "responses".into());
            (outer, path.to_owned())
        }
    };
    if !outer.contains_key("type") {
        extras.insert("noType".into(), true.into());
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            path,
            "a tool without `\"type\": \"function\"` was read as a function",
        )));
    }
    let Some(name) = common::string(function, "name") else {
        diagnostics.push(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            child(&function_path, "name"),
            "a function needs a string `name`; skipped",
        )));
        return None;
    };
    if !NAME_RULES.is_valid(&name) {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            child(&function_path, "name"),
            format!("function name `{name}` breaks OpenAI's rule {}", NAME_RULES.pattern),
        )));
    }
    let mut keep = Map::new();
    let mut tool = Tool::new(name);
    tool.description = common::optional_string(source, function, "description", &function_path, &mut keep, diagnostics);
    match function.get("parameters") {
        Some(parameters) => {
            let at = child(&function_path, "parameters");
            tool.parameters =
                schema::read_input(source, parameters, DIALECT, &at, "parameters", &mut extras, diagnostics);
        }
        None => {
            extras.insert("noParameters".into(), true.into());
        }
    }
    match function.get("strict") {
        Some(Value::Bool(flag)) => {
            extras.insert("strict".into(), (*flag).into());
        }
        Some(Value::Null) => {
            extras.insert("strict".into(), Value::Null);
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(&function_path, "strict"),
                "`strict` should be a boolean; kept as written",
            )));
            keep.insert("strict".into(), other.clone());
        }
        None => {}
    }
    for (key, value) in function {
        let outer_key = extras.get("form").is_some() && key == "type";
        if !FUNCTION_KEYS.contains(&key.as_str()) && !outer_key {
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(&function_path, key),
                format!("unknown function key `{key}`; kept as written"),
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

const CARRIED: Carried = Carried {
    tool_set: &["definitions"],
    tool: &["description"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &[],
};

fn write_document(model: &ToolSet, options: &Options) -> (Value, Vec<Diagnostic>) {
    let mut diagnostics = uncarried(model, ID, &CARRIED);
    carry::name_foreign_losses(model, ID, Holds { strict: true, closed: true }, &mut diagnostics);
    let expansion = Expansion::for_model(model);
    let writer = SchemaWriter::for_model(DIALECT, model, &expansion);
    let names = common::tool_names(model, NAME_RULES, ID, &mut diagnostics);
    let descriptions = common::descriptions(model, ID, &mut diagnostics);
    let set_extras = common::extras_object(&model.extras, ID);
    let mut tools: Vec<Value> = model
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
    if let Some(Value::Array(others)) = set_extras.get("otherTools") {
        let others = others.iter().map(|other| {
            let at = other.get("at").and_then(Value::as_u64).unwrap_or(u64::MAX) as usize;
            (at, other.get("tool").cloned().unwrap_or(Value::Null))
        });
        tools = insert_all(tools, others.collect());
    }
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

fn write_tool(
    tool: &Tool,
    name: &str,
    description: Option<String>,
    path: &str,
    writer: SchemaWriter,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let extras = common::extras_object(&tool.extras, ID);
    let mut function = Map::new();
    function.insert("name".into(), name.into());
    if let Some(description) = description {
        function.insert("description".into(), description.into());
    }
    // Strictness another function format gave the tool (Anthropic's `strict`, a closed input).
    let carried = carry::strictness(tool, ID);
    let strict = match options.get("strict") {
        Some("true") => true,
        Some("false") => false,
        _ => extras.get("strict") == Some(&Value::Bool(true)) || carried.strict,
    };
    let omit_parameters = extras.get("noParameters") == Some(&Value::Bool(true)) && tool.parameters.is_empty();
    if !omit_parameters || strict {
        let at = child(path, "parameters");
        let mut parameters = schema::write_input(writer, &tool.parameters, &extras, "parameters", &at, diagnostics);
        if carried.closed {
            carry::close_root(&mut parameters);
        }
        let mut strict_written = strict;
        if strict {
            match strict::make_strict(&mut parameters, &child(path, "parameters")) {
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
        function.insert("parameters".into(), parameters);
        write_strict_flag(&mut function, &extras, options, strict_written);
    } else {
        write_strict_flag(&mut function, &extras, options, false);
    }
    if let Some(Value::Object(keep)) = extras.get("keep") {
        for (key, value) in keep {
            function.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    let responses = match options.get("form") {
        Some("responses") => true,
        Some("chat") => false,
        _ => extras.get("form").and_then(Value::as_str) == Some("responses"),
    };
    let with_type = extras.get("noType") != Some(&Value::Bool(true));
    let mut out = Map::new();
    if with_type {
        out.insert("type".into(), "function".into());
    }
    if responses {
        out.extend(function);
    } else {
        out.insert("function".into(), Value::Object(function));
        if let Some(Value::Object(keep)) = extras.get("keepOuter") {
            out.extend(keep.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    Value::Object(out)
}

/// `items` with each of `inserts` inserted in turn at its index (the end when past it), as a
/// `Vec::insert` per entry would, in O(n log n) rather than a shift of the list per entry: in
/// reverse order, each entry takes the free slot of the final list that has as many free
/// slots before it as its index (a Fenwick tree counts them); `items` fill the slots left.
fn insert_all(items: Vec<Value>, inserts: Vec<(usize, Value)>) -> Vec<Value> {
    if inserts.is_empty() {
        return items;
    }
    let total = items.len() + inserts.len();
    // free[i] counts the free slots in a range ending at slot i (Fenwick tree, 1-based).
    let mut free = vec![0usize; total + 1];
    for i in 1..=total {
        free[i] += 1;
        let parent = i + (i & i.wrapping_neg());
        if parent <= total {
            free[parent] += free[i];
        }
    }
    let mut slots: Vec<Option<Value>> = (0..total).map(|_| None).collect();
    let top = total.next_power_of_two();
    for (k, (at, value)) in inserts.into_iter().enumerate().rev() {
        // The (rank + 1)-th free slot: the largest position with at most `rank` free before it.
        let mut rank = at.min(items.len() + k);
        let mut position = 0;
        let mut step = top;
        while step > 0 {
            if position + step <= total && free[position + step] <= rank {
                position += step;
                rank -= free[position];
            }
            step /= 2;
        }
        slots[position] = Some(value);
        let mut i = position + 1;
        while i <= total {
            free[i] -= 1;
            i += i & i.wrapping_neg();
        }
    }
    let mut items = items.into_iter();
    slots.into_iter().map(|slot| slot.or_else(|| items.next()).unwrap_or(Value::Null)).collect()
}

/// `strict` as the source wrote it, unless strict mode was asked for or had to be turned off.
fn write_strict_flag(function: &mut Map<String, Value>, extras: &Map<String, Value>, options: &Options, on: bool) {
    let asked = options.get("strict").is_some();
    match extras.get("strict") {
        Some(written) if !asked && (written == &Value::Bool(on) || !on && !written.as_bool().unwrap_or(false)) => {
            function.insert("strict".into(), written.clone());
        }
        Some(_) => {
            function.insert("strict".into(), on.into());
        }
        None if asked || on => {
            function.insert("strict".into(), on.into());
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// [`insert_all`] against a `Vec::insert` per entry.
    fn check(items: usize, inserts: &[usize]) {
        let base: Vec<Value> = (0..items).map(|i| json!(i)).collect();
        let entries: Vec<(usize, Value)> =
            inserts.iter().enumerate().map(|(k, at)| (*at, json!(format!("x{k}")))).collect();
        let mut expect = base.clone();
        for (at, value) in entries.clone() {
            expect.insert(at.min(expect.len()), value);
        }
        assert_eq!(insert_all(base, entries), expect, "{items} items, inserts at {inserts:?}");
    }

    #[test]
    fn other_tools_go_back_where_they_were() {
        check(0, &[]);
        check(3, &[]);
        check(0, &[5, 0, 7]);
        check(4, &[0, 2, 5]);
        check(4, &[3, 3, 3, 0, 9, 1]);
        check(5, &[usize::MAX, 2, 2, 7, 0]);
        check(10, &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 4]);
    }
}
