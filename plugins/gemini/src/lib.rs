//! Gemini function declarations: `{"functionDeclarations": [...]}`, a bare array of
//! declarations, `{"tools": [{"functionDeclarations": [...]}, ...]}`, or one declaration.
//! A declaration: `name`, `description`, `parameters` (the OpenAPI 3.0 subset) or
//! `parametersJsonSchema`, `response` or `responseJsonSchema`, `behavior`.
//!
//! Reading keeps under `extras["gemini"]` the document's shape, other tool entries
//! (`googleSearch`, …) with their position, which schema keys a declaration used, upper-case
//! type names, unknown keys, and a schema verbatim when the canonical form cannot reproduce it.
//!
//! Writing: names follow `^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`; `parameters` in the Gemini subset
//! (string enums only, `nullable`, `anyOf`, limited `format`), each forced change reported.
//! Options: `schema=json` writes `parametersJsonSchema`/`responseJsonSchema` (JSON Schema) instead.

pub mod subset;

use serde_json::{Map, Value, json};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::NameRules;
use toolport_plugin::source::child;
use toolport_plugin::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, InputShape, OptionSpec, Options, Outcome, Output, Tool, ToolSet,
    codes,
};

use toolport_plugin::function_tools::carry::{self, Holds};
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::properties::sanitize_property_names;
use toolport_plugin::function_tools::schema::{Expansion, SchemaWriter};
use toolport_plugin::function_tools::{common, schema};

const ID: &str = "gemini";

/// Gemini function names.
pub const NAME_RULES: NameRules = NameRules::FUNCTION;

/// Gemini parameter (property) names.
pub const PARAMETER_RULES: NameRules = NameRules::PARAMETER;

/// The `gemini` format.
#[derive(Debug, Default)]
pub struct Gemini;

impl Format for Gemini {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: ID.into(),
            aliases: vec!["gemini-functions".into(), "function-declarations".into()],
            description: "Gemini function declarations (functionDeclarations; JSON)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into()],
            options: Some(vec![OptionSpec::one_of(
                "schema",
                &["gemini", "json"],
                "the source's form, else gemini",
                "gemini: `parameters`/`response` in Gemini's OpenAPI subset; json: `parametersJsonSchema`/`responseJsonSchema` in JSON Schema",
            )]),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some(value) = common::detect_value(input) else { return 0 };
        let declares = |v: &Value| v.get("functionDeclarations").is_some_and(Value::is_array);
        let is_declaration = |v: &Value| {
            v.get("name").is_some_and(Value::is_string)
                && ["parameters", "parametersJsonSchema", "response", "responseJsonSchema"]
                    .iter()
                    .any(|k| v.get(k).is_some())
                && v.get("type").is_none()
                && v.get("inputSchema").is_none()
        };
        match &value {
            v if declares(v) => 95,
            Value::Object(map)
                if map.get("tools").and_then(Value::as_array).is_some_and(|t| t.iter().any(declares)) =>
            {
                95
            }
            // Bare declarations look like other formats' tools: only `parametersJsonSchema` or
            // an upper-case OpenAPI type is specific.
            Value::Array(items) if !items.is_empty() && items.iter().all(is_declaration) => 40,
            v if is_declaration(v) => 30,
            _ => 0,
        }
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
    // (group index, declaration, path)
    let mut declarations: Vec<(usize, &Value, String)> = Vec::new();
    let list = |value: &Value| value.get("functionDeclarations").and_then(Value::as_array).cloned();
    match &source.value {
        Value::Object(map) if map.contains_key("functionDeclarations") => {
            set_extras.insert("shape".into(), "declarations".into());
            let others = without(map, "functionDeclarations");
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            for (i, d) in map["functionDeclarations"].as_array().into_iter().flatten().enumerate() {
                declarations.push((0, d, format!("/functionDeclarations/{i}")));
            }
        }
        Value::Object(map)
            if map.get("tools").and_then(Value::as_array).is_some_and(|t| t.iter().any(|e| list(e).is_some())) =>
        {
            set_extras.insert("shape".into(), "tools".into());
            let others = without(map, "tools");
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            let mut groups = Vec::new();
            for (g, entry) in map["tools"].as_array().into_iter().flatten().enumerate() {
                match entry.get("functionDeclarations").and_then(Value::as_array) {
                    Some(items) => {
                        let rest = entry.as_object().map(|m| without(m, "functionDeclarations")).unwrap_or_default();
                        groups.push(Value::Object(rest));
                        for (i, d) in items.iter().enumerate() {
                            declarations.push((g, d, format!("/tools/{g}/functionDeclarations/{i}")));
                        }
                    }
                    None => groups.push(json!({"entry": entry})),
                }
            }
            set_extras.insert("groups".into(), Value::Array(groups));
        }
        Value::Array(items) => {
            set_extras.insert("shape".into(), "array".into());
            for (i, d) in items.iter().enumerate() {
                declarations.push((0, d, format!("/{i}")));
            }
        }
        Value::Object(map) if map.contains_key("name") => {
            set_extras.insert("shape".into(), "single".into());
            declarations.push((0, &source.value, String::new()));
        }
        _ => {
            return Outcome::fail(source.at(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                "expected Gemini function declarations: {\"functionDeclarations\": [...]}, {\"tools\": [...]}, or an array",
            )));
        }
    }
    // A set, not a scan of the tools so far: a list of thousands stays linear.
    let mut names_seen = std::collections::HashSet::new();
    for (group, value, path) in declarations {
        if let Some(mut tool) = read_declaration(source, value, &path, &mut diagnostics) {
            if group > 0 {
                let extras = tool.extras.entry(ID.to_owned()).or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(map) = extras {
                    map.insert("group".into(), group.into());
                }
            }
            if !names_seen.insert(tool.name.clone()) {
                diagnostics.push(source.at(Diagnostic::warning(
                    codes::INPUT_INVALID,
                    child(&path, "name"),
                    format!("function name `{}` is used more than once", tool.name),
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

fn without(map: &Map<String, Value>, key: &str) -> Map<String, Value> {
    map.iter().filter(|(k, _)| *k != key).map(|(k, v)| (k.clone(), v.clone())).collect()
}

const DECLARATION_KEYS: &[&str] =
    &["name", "description", "parameters", "parametersJsonSchema", "response", "responseJsonSchema"];

/// The dialect of a schema key.
fn dialect_of(key: &str) -> Dialect {
    if key.ends_with("JsonSchema") { Dialect::JsonSchema } else { Dialect::Gemini }
}

fn read_declaration(source: &Source, value: &Value, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Tool> {
    let Some(map) = value.as_object() else {
        diagnostics.push(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            path,
            "a function declaration must be an object; skipped",
        )));
        return None;
    };
    let Some(name) = common::string(map, "name") else {
        diagnostics.push(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            child(path, "name"),
            "a function declaration needs a string `name`; skipped",
        )));
        return None;
    };
    if !NAME_RULES.is_valid(&name) {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            child(path, "name"),
            format!("function name `{name}` breaks Gemini's rule {}", NAME_RULES.pattern),
        )));
    }
    let mut extras = Map::new();
    let mut keep = Map::new();
    let mut tool = Tool::new(name);
    tool.description = common::optional_string(source, map, "description", path, &mut keep, diagnostics);

    let parameters_key = ["parameters", "parametersJsonSchema"].into_iter().find(|k| map.contains_key(*k));
    if let Some(key) = parameters_key {
        if key == "parametersJsonSchema" {
            extras.insert("jsonSchema".into(), true.into());
        }
        let mut value = map[key].clone();
        if subset::lower_types(&mut value) {
            extras.insert("upperCaseTypes".into(), true.into());
        }
        let at = child(path, key);
        tool.parameters = schema::read_input(source, &value, dialect_of(key), &at, key, &mut extras, diagnostics);
        if tool.parameters.is_empty() {
            extras.insert("emptyParameters".into(), true.into());
        }
        if key == "parameters" && map.contains_key("parametersJsonSchema") {
            keep.insert("parametersJsonSchema".into(), map["parametersJsonSchema"].clone());
        }
    }
    let response_key = ["response", "responseJsonSchema"].into_iter().find(|k| map.contains_key(*k));
    if let Some(key) = response_key {
        let mut value = map[key].clone();
        if subset::lower_types(&mut value) {
            extras.insert("upperCaseTypes".into(), true.into());
        }
        let at = child(path, key);
        let schema = schema::read_single(source, &value, dialect_of(key), &at, key, &mut extras, diagnostics);
        tool.output = Some(Output { schema: Some(schema), ..Output::default() });
        if key == "response" && map.contains_key("responseJsonSchema") {
            keep.insert("responseJsonSchema".into(), map["responseJsonSchema"].clone());
        }
        if key == "responseJsonSchema" {
            extras.insert("responseJsonSchema".into(), true.into());
        }
    }
    for (key, value) in map {
        if key == "behavior" {
            keep.insert(key.clone(), value.clone());
        } else if !DECLARATION_KEYS.contains(&key.as_str()) {
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(path, key),
                format!("unknown function declaration key `{key}`; kept as written"),
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
    tool: &["description", "output"],
    parameter: &["required"],
    schema: schema::CARRIED_SCHEMA,
    example: &[],
};

fn write_document(model: &ToolSet, options: &Options) -> (Value, Vec<Diagnostic>) {
    let mut diagnostics = uncarried(model, ID, &CARRIED);
    let json_form = options.get("schema") == Some("json");
    carry::name_foreign_losses(model, ID, Holds { strict: false, closed: json_form }, &mut diagnostics);
    let names = common::tool_names(model, NAME_RULES, ID, &mut diagnostics);
    let mut descriptions = common::descriptions(model, ID, &mut diagnostics).into_iter();
    let set_extras = common::extras_object(&model.extras, ID);
    let expansion = Expansion::for_model(model);
    let schemas = SchemaWriter::for_model(Dialect::Gemini, model, &expansion);
    let mut declarations: Vec<(usize, Value)> = Vec::new();
    for (i, (tool, name)) in model.tools.iter().zip(&names).enumerate() {
        let extras = common::extras_object(&tool.extras, ID);
        let group = extras.get("group").and_then(Value::as_u64).unwrap_or(0) as usize;
        let path = child("/tools", i.to_string());
        let named = Named { name, description: descriptions.next().flatten() };
        declarations.push((group, write_declaration(schemas, tool, named, &extras, &path, options, &mut diagnostics)));
    }
    let with_document = |mut document: Map<String, Value>| {
        if let Some(Value::Object(others)) = set_extras.get("document") {
            document.extend(others.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        Value::Object(document)
    };
    let document = match set_extras.get("shape").and_then(Value::as_str) {
        Some("array") => Value::Array(declarations.into_iter().map(|(_, d)| d).collect()),
        Some("single") if declarations.len() == 1 => declarations.remove(0).1,
        Some("tools") => {
            let groups = match set_extras.get("groups") {
                Some(Value::Array(groups)) => groups.clone(),
                _ => vec![json!({})],
            };
            // Each group's declarations, in order, sorted out in one pass.
            let known = groups.len();
            let mut members: Vec<Vec<Value>> = vec![Vec::new(); known];
            let mut strays: Vec<Value> = Vec::new();
            for (g, declaration) in declarations {
                match members.get_mut(g) {
                    Some(group) => group.push(declaration),
                    None => strays.push(declaration),
                }
            }
            let mut tools = Vec::with_capacity(groups.len());
            for (group, members) in groups.iter().zip(members) {
                if let Some(entry) = group.get("entry") {
                    tools.push(entry.clone());
                    continue;
                }
                let mut entry = Map::new();
                entry.insert("functionDeclarations".into(), Value::Array(members));
                entry.extend(group.as_object().into_iter().flatten().map(|(k, v)| (k.clone(), v.clone())));
                tools.push(Value::Object(entry));
            }
            // Declarations of groups that no longer exist join the first group.
            if !strays.is_empty()
                && let Some(Value::Array(first)) =
                    tools.iter_mut().find_map(|t| t.get_mut("functionDeclarations")).map(|v| &mut *v)
            {
                first.extend(strays);
            }
            with_document(Map::from_iter([("tools".to_owned(), Value::Array(tools))]))
        }
        _ => with_document(Map::from_iter([(
            "functionDeclarations".to_owned(),
            Value::Array(declarations.into_iter().map(|(_, d)| d).collect()),
        )])),
    };
    (document, diagnostics)
}

/// A declaration's name and description as written.
struct Named<'n> {
    name: &'n str,
    description: Option<String>,
}

/// `schemas` is the document's writer; each schema is written in the dialect its key asks for.
fn write_declaration(
    schemas: SchemaWriter,
    tool: &Tool,
    named: Named,
    extras: &Map<String, Value>,
    path: &str,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let json_schema = match options.get("schema") {
        Some("json") => true,
        Some(_) => false,
        None => extras.get("jsonSchema") == Some(&Value::Bool(true)),
    };
    let upper = extras.get("upperCaseTypes") == Some(&Value::Bool(true));
    let mut out = Map::new();
    out.insert("name".into(), named.name.into());
    if let Some(description) = named.description {
        out.insert("description".into(), description.into());
    }
    let (key, dialect) =
        if json_schema { ("parametersJsonSchema", Dialect::JsonSchema) } else { ("parameters", Dialect::Gemini) };
    let writer = SchemaWriter { dialect, ..schemas };
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
        out.insert(key.into(), value);
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
                    format!("Gemini describes a result only by its schema; the output's `{field}` was left out"),
                ));
            }
        }
        if let Some(schema) = &output.schema {
            let json_response = match options.get("schema") {
                Some("json") => true,
                Some(_) => false,
                None => extras.get("responseJsonSchema") == Some(&Value::Bool(true)),
            };
            let (key, dialect) =
                if json_response { ("responseJsonSchema", Dialect::JsonSchema) } else { ("response", Dialect::Gemini) };
            let writer = SchemaWriter { dialect, ..schemas };
            let at = child(&output_path, "schema");
            let mut value = schema::write_single(writer, schema, extras, key, &at, diagnostics);
            if !json_response {
                subset::enforce(&mut value, &at, diagnostics);
            }
            if upper && !json_response {
                subset::upper_types(&mut value);
            }
            out.insert(key.into(), value);
        }
    }
    if let Some(Value::Object(keep)) = extras.get("keep") {
        for (key, value) in keep {
            out.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    Value::Object(out)
}
