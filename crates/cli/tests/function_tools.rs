//! Every OpenAPI document of the shared corpus (Slack's Swagger 2.0 aside) converts to each
//! JSON function-tool format, and every output passes a validator for that target's rules,
//! written here from the targets' documentation rather than from the writers' own code.
//! Plugins are loaded as the dynamic libraries `convert` uses, through the host's registry.

use crate::support;

use std::collections::HashSet;

use serde_json::Value;
use toolport_core::{Bundle, Options, ToolSet};
use toolport_host::Registry;
use toolport_host::discovery::DiscoveryConfig;
use toolport_testkit::{check_detail_folds, corpus, expect_ok, files_in, load};

fn registry() -> Registry {
    support::require_plugins();
    Registry::discover(&DiscoveryConfig { exe_dir: Some(support::build_dir()), ..DiscoveryConfig::default() })
}

fn write(registry: &Registry, format: &str, model: &ToolSet, options: &[(&str, &str)]) -> Value {
    let mut opts = Options::default();
    for (k, v) in options {
        opts.set(*k, *v);
    }
    let (bundle, _) = expect_ok(registry.format(format).unwrap().format.write(model, &opts), format);
    let (_, text) = single(&bundle);
    serde_json::from_str(text).unwrap()
}

fn single(bundle: &Bundle) -> (&str, &str) {
    assert_eq!(bundle.files.len(), 1, "one document: {:?}", bundle.files.keys());
    bundle.files.iter().next().map(|(k, v)| (k.as_str(), v.as_str())).unwrap()
}

fn name_ok(name: &str, first: fn(char) -> bool, rest: fn(char) -> bool, max: usize) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(first) && chars.all(rest) && name.len() <= max
}

fn word_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn word_dot_dash(c: char) -> bool {
    word_dash(c) || c == '.'
}

fn letter_or_underscore(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// Checks names are valid and unique; returns the problems.
fn names<'a>(names: impl Iterator<Item = &'a str>, valid: impl Fn(&str) -> bool, out: &mut Vec<String>) {
    let mut seen = HashSet::new();
    for name in names {
        if !valid(name) {
            out.push(format!("invalid name `{name}`"));
        }
        if !seen.insert(name.to_owned()) {
            out.push(format!("duplicate name `{name}`"));
        }
    }
}

/// Visits `node` and every schema inside it, following schema structure (property values,
/// items, combinators, definitions) so that a property *named* `minimum` or `$ref` is never
/// mistaken for a keyword.
fn each_schema(node: &Value, path: &str, visit: &mut dyn FnMut(&serde_json::Map<String, Value>, &str)) {
    let Value::Object(map) = node else { return };
    visit(map, path);
    for (key, value) in map {
        let at = format!("{path}/{key}");
        match key.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" => {
                for (name, schema) in value.as_object().into_iter().flatten() {
                    each_schema(schema, &format!("{at}/{name}"), visit);
                }
            }
            "items" | "additionalProperties" | "not" | "contains" => each_schema(value, &at, visit),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                for (i, schema) in value.as_array().into_iter().flatten().enumerate() {
                    each_schema(schema, &format!("{at}/{i}"), visit);
                }
            }
            _ => {}
        }
    }
}

fn mcp_violations(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let tools = doc["tools"].as_array().expect("a tools/list result");
    names(
        tools.iter().map(|t| t["name"].as_str().unwrap_or_default()),
        |n| name_ok(n, word_dot_dash, word_dot_dash, 128),
        &mut out,
    );
    for t in tools {
        if t["inputSchema"]["type"] != "object" {
            out.push(format!("{}: inputSchema is not an object schema", t["name"]));
        }
    }
    out
}

fn openai_violations(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let tools = doc.as_array().or_else(|| doc["tools"].as_array()).expect("a list of tools");
    let functions: Vec<&Value> =
        tools.iter().map(|t| if t["function"].is_object() { &t["function"] } else { t }).collect();
    names(
        functions.iter().map(|f| f["name"].as_str().unwrap_or_default()),
        |n| name_ok(n, word_dash, word_dash, 64),
        &mut out,
    );
    for f in functions {
        let name = f["name"].as_str().unwrap_or_default();
        if f["strict"] != true {
            continue;
        }
        let root = &f["parameters"];
        if root["type"] != "object" {
            out.push(format!("{name}: strict root is not an object"));
        }
        each_schema(root, "", &mut |schema, path| {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                if schema.get("additionalProperties") != Some(&Value::Bool(false)) {
                    out.push(format!("{name}{path}: strict object without additionalProperties: false"));
                }
                let required: HashSet<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                for key in props.keys() {
                    if !required.contains(key.as_str()) {
                        out.push(format!("{name}{path}: strict property `{key}` not required"));
                    }
                }
            }
            for banned in ["allOf", "not", "if", "then", "else", "default"] {
                if schema.contains_key(banned) {
                    out.push(format!("{name}{path}: `{banned}` in strict mode"));
                }
            }
        });
    }
    out
}

fn anthropic_violations(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let tools = doc.as_array().or_else(|| doc["tools"].as_array()).expect("a list of tools");
    names(
        tools.iter().map(|t| t["name"].as_str().unwrap_or_default()),
        |n| name_ok(n, word_dash, word_dash, 64),
        &mut out,
    );
    for t in tools {
        let name = t["name"].as_str().unwrap_or_default();
        if t["input_schema"]["type"] != "object" {
            out.push(format!("{name}: input_schema is not an object schema"));
        }
        if t["strict"] == true {
            each_schema(&t["input_schema"], "", &mut |schema, path| {
                for banned in [
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "minLength",
                    "maxLength",
                    "minItems",
                    "maxItems",
                    "multipleOf",
                ] {
                    if schema.contains_key(banned) {
                        out.push(format!("{name}{path}: `{banned}` in strict mode"));
                    }
                }
                if schema.get("$ref").is_some() {
                    // A strict schema may use $ref only to non-recursive definitions; we keep the
                    // check simple: writers inline strict schemas.
                    out.push(format!("{name}{path}: `$ref` in a strict schema"));
                }
            });
        }
    }
    out
}

fn gemini_violations(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let declarations = doc["functionDeclarations"].as_array().expect("functionDeclarations");
    names(
        declarations.iter().map(|d| d["name"].as_str().unwrap_or_default()),
        |n| name_ok(n, letter_or_underscore, word_dot_dash, 64),
        &mut out,
    );
    for d in declarations {
        let name = d["name"].as_str().unwrap_or_default();
        for key in ["parameters", "response"] {
            each_schema(&d[key], "", &mut |schema, path| {
                for banned in ["oneOf", "allOf", "not", "$ref", "$defs"] {
                    if schema.contains_key(banned) {
                        out.push(format!("{name}/{key}{path}: `{banned}` is outside Gemini's schema subset"));
                    }
                }
                if let Some(values) = schema.get("enum").and_then(Value::as_array)
                    && values.iter().any(|v| !v.is_string())
                {
                    out.push(format!("{name}/{key}{path}: a non-string enum"));
                }
                if schema.get("type").is_some_and(Value::is_array) {
                    out.push(format!("{name}/{key}{path}: a type array (Gemini uses nullable)"));
                }
            });
        }
    }
    out
}

/// Every `$ref` in `node` (string values of `$ref` keys), with its JSON pointer.
fn refs_in<'a>(node: &'a Value, path: &str, out: &mut Vec<(String, &'a str)>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(reference)) => out.push((path.to_owned(), reference)),
                    _ => refs_in(value, &format!("{path}/{key}"), out),
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                refs_in(item, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// `$ref`s of a written tool list that do not resolve inside their own schema (a tool's input
/// or output schema is a document of its own to the APIs that receive it).
fn dangling_refs(doc: &Value) -> Vec<String> {
    let tools = doc.as_array().or_else(|| doc["tools"].as_array()).expect("a list of tools");
    let mut out = Vec::new();
    for tool in tools {
        let tool = if tool["function"].is_object() { &tool["function"] } else { tool };
        let name = tool["name"].as_str().unwrap_or_default();
        for key in ["inputSchema", "outputSchema", "parameters", "input_schema"] {
            let Some(root) = tool.get(key) else { continue };
            let mut refs = Vec::new();
            refs_in(root, "", &mut refs);
            for (at, reference) in refs {
                let resolves = reference.strip_prefix('#').is_some_and(|pointer| root.pointer(pointer).is_some());
                if !resolves {
                    out.push(format!("{name}/{key}{at}: `$ref` {reference} does not resolve in the schema"));
                }
            }
        }
    }
    out
}

#[test]
fn dangling_refs_are_found() {
    let doc = serde_json::json!([{"name": "a", "inputSchema": {"properties": {
        "x": {"$ref": "#/$defs/X"}, "y": {"$ref": "#/components/schemas/Y"}}, "$defs": {"X": {}}}}]);
    assert_eq!(
        dangling_refs(&doc),
        ["a/inputSchema/properties/y: `$ref` #/components/schemas/Y does not resolve in the schema"]
    );
}

/// One target format (with options) and the validator for its rules.
struct Target {
    format: &'static str,
    options: &'static [(&'static str, &'static str)],
    violations: fn(&Value) -> Vec<String>,
}

/// The number of tools in a written document, whatever its shape.
fn tool_count(doc: &Value) -> usize {
    let list = doc.as_array().or_else(|| doc["tools"].as_array()).or_else(|| doc["functionDeclarations"].as_array());
    list.map_or(0, Vec::len)
}

#[test]
fn every_openapi_document_converts_to_every_function_tool_format_within_its_rules() {
    let registry = registry();
    let openapi = registry.format("openapi").unwrap();
    let mut problems = Vec::new();
    for dir in ["oai-examples", "twilio", "openai-2024-09-27", "stripe", "github"] {
        for path in files_in(&corpus(&format!("openapi/{dir}")), &["json", "yaml"]) {
            let (model, _) =
                expect_ok(openapi.format.read(&load(&path), &Options::default()), &path.display().to_string());
            let n = model.tools.len();
            let checks = [
                Target { format: "mcp", options: &[], violations: mcp_violations },
                Target { format: "openai", options: &[], violations: openai_violations },
                Target { format: "openai", options: &[("strict", "true")], violations: openai_violations },
                Target { format: "anthropic", options: &[], violations: anthropic_violations },
                Target { format: "anthropic", options: &[("strict", "true")], violations: anthropic_violations },
                Target { format: "gemini", options: &[], violations: gemini_violations },
            ];
            for Target { format, options, violations } in checks {
                let doc = write(&registry, format, &model, options);
                if tool_count(&doc) != n {
                    problems.push(format!(
                        "{} -> {format}: {} tools for {n} operations",
                        path.display(),
                        tool_count(&doc)
                    ));
                }
                for v in violations(&doc) {
                    problems.push(format!("{} -> {format} {options:?}: {v}", path.display()));
                }
                // Every written `$ref` must point inside the schema it appears in.
                if format != "gemini" {
                    for v in dangling_refs(&doc) {
                        problems.push(format!("{} -> {format} {options:?}: {v}", path.display()));
                    }
                }
            }
        }
    }
    let shown: Vec<&String> = problems.iter().take(40).collect();
    assert!(problems.is_empty(), "{} problems, first ones:\n{shown:#?}", problems.len());
}

/// Asked for less than every diagnostic (the default summary, `-q`), each function-tool writer
/// keeps in full and counts exactly what writing them all and folding gives, with the same
/// document: the losses it only counts are never made (core's `uncarried_as_asked`).
#[test]
fn a_detail_asked_for_keeps_and_counts_as_folding_all_would() {
    let registry = registry();
    let openapi = registry.format("openapi").unwrap();
    let path = corpus("openapi/twilio/twilio_verify_v2.json");
    let (model, _) = expect_ok(openapi.format.read(&load(&path), &Options::default()), "twilio verify");
    for format in ["mcp", "openai", "anthropic", "gemini", "bedrock", "mcp-prompts"] {
        check_detail_folds(&*registry.format(format).unwrap().format, &model, 100, format);
    }
}

/// Tool lists of one function format: an Anthropic list, a legacy OpenAI `functions` list, an
/// MCP list, and Gemini's `parametersJsonSchema`, each with one tool taking `city`.
fn foreign_lists() -> [(&'static str, Value); 4] {
    let schema =
        serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    let tool = |key: &str| serde_json::json!([{"name": "get_weather", "description": "Weather.", key: schema}]);
    [
        ("input_schema", tool("input_schema")),
        ("parameters", tool("parameters")),
        ("inputSchema", tool("inputSchema")),
        ("parametersJsonSchema", tool("parametersJsonSchema")),
    ]
}

#[test]
fn a_function_format_refuses_another_formats_tools_naming_it() {
    let registry = registry();
    // (the list's schema key, the format reading it, the formats the error must name)
    let cases = [
        ("input_schema", "openai", "anthropic"),
        ("input_schema", "gemini", "anthropic"),
        ("input_schema", "mcp", "anthropic"),
        ("parameters", "anthropic", "openai or gemini"),
        ("parameters", "mcp", "openai or gemini"),
        ("inputSchema", "anthropic", "mcp"),
        ("inputSchema", "openai", "mcp"),
        ("inputSchema", "gemini", "mcp"),
        ("parametersJsonSchema", "openai", "gemini"),
        ("parametersJsonSchema", "anthropic", "gemini"),
    ];
    let lists = foreign_lists();
    let read_as = |format: &str, key: &str| {
        let list = &lists.iter().find(|(k, _)| *k == key).unwrap().1;
        let bundle = Bundle::single("tools.json", list.to_string());
        registry.format(format).unwrap().format.read(&bundle, &Options::default())
    };
    for (key, from, named) in cases {
        let outcome = read_as(from, key);
        let errors: Vec<String> = outcome.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.to_string()).collect();
        assert!(
            errors.iter().any(|e| e.contains(&format!("looks like {named}")) && e.contains("(at /0/")),
            "{key} read as {from}: {errors:?}"
        );
    }
    // Each list is read by its own format(s) without a word of the sort.
    let owners = [
        ("input_schema", "anthropic"),
        ("parameters", "openai"),
        ("parameters", "gemini"),
        ("inputSchema", "mcp"),
        ("parametersJsonSchema", "gemini"),
    ];
    for (key, owner) in owners {
        let (model, _) = expect_ok(read_as(owner, key), owner);
        assert_eq!(model.tools[0].parameters[0].name, "city", "{key} read as {owner}");
    }
}

#[test]
fn a_strict_conversion_with_the_wrong_from_fails_naming_the_format() {
    let dir = tempfile::tempdir().unwrap();
    let anthropic = &foreign_lists()[0].1;
    std::fs::write(dir.path().join("tools.json"), anthropic.to_string()).unwrap();
    let run =
        support::run_in(dir.path(), &["--strict", "--from", "openai", "--to", "mcp", "tools.json", "-o", "out.json"]);
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("looks like anthropic") && run.stderr.contains("--from anthropic"), "{}", run.stderr);
    assert!(!dir.path().join("out.json").exists(), "nothing is written");
}

/// An input schema the model cannot give back as spelled (an unused definition beside the
/// used one) converted to another format: what the target cannot hold of its root is said,
/// as for any other schema (the schema kept whole for an openai round trip once hid it), and
/// the definitions, which the model holds, are not.
#[test]
fn a_root_key_the_target_cannot_hold_is_said_whatever_the_schema_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let tools = serde_json::json!([{"type": "function", "function": {"name": "book", "description": "Books a room.",
        "parameters": {"type": "object", "additionalProperties": false,
            "properties": {"guest": {"$ref": "#/$defs/Person"}}, "required": ["guest"],
            "$defs": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}},
                "Unused": {"type": "string"}}}}}]);
    std::fs::write(dir.path().join("tools.json"), tools.to_string()).unwrap();
    let run =
        support::run_in(dir.path(), &["-v", "--from", "openai", "--to", "gemini", "tools.json", "-o", "out.json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("gemini cannot hold openai's input schema root keys `additionalProperties`"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("`$defs`"), "{}", run.stderr);
    // Back to openai the schema is written as it was read.
    let run = support::run_in(dir.path(), &["--from", "openai", "--to", "openai", "tools.json", "-o", "back.json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("back.json")).unwrap()).unwrap();
    assert_eq!(back, tools);
}
