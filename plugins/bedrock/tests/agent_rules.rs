//! The `bedrock-agent` writer keeps Bedrock's rules on any model: flat parameters (what they
//! cannot hold reported, naming the tool and the parameter), names fitted to
//! `([0-9a-zA-Z][_-]?){1,100}`, descriptions cut to their limits, confirmations, and the request
//! around the functions from the options.

use serde_json::{Value, json};
use toolport_format_bedrock::BedrockAgent;
use toolport_format_bedrock::agent::is_name;
use toolport_plugin::{Format, Options, Parameter, Schema, SchemaType, Tool, ToolSet, limits};
use toolport_testkit::{expect_ok, render};

/// Writes `model` twice with `options` (deterministic), checks every function and parameter
/// name against Bedrock's pattern and their uniqueness, and gives the request and the rendered
/// diagnostics.
fn write(model: &ToolSet, options: &[(&str, &str)]) -> (Value, String) {
    let mut opts = Options::default();
    for (key, value) in options {
        opts.set(*key, *value);
    }
    let (bundle, diagnostics) = expect_ok(BedrockAgent.write(model, &opts), "write");
    let text = bundle.get("tools.json").expect("tools.json");
    let (again, _) = expect_ok(BedrockAgent.write(model, &opts), "write");
    assert_eq!(again.get("tools.json"), Some(text), "output is deterministic");
    let document: Value = serde_json::from_str(text).unwrap();
    let functions = document["functionSchema"]["functions"].as_array().expect("a request's functions");
    let names: Vec<&str> = functions.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(names.iter().all(|n| is_name(n)), "{names:?}");
    assert_eq!(names.iter().collect::<std::collections::HashSet<_>>().len(), names.len(), "{names:?}");
    for function in functions {
        let parameters = function.get("parameters").and_then(Value::as_object).into_iter().flatten();
        for (name, detail) in parameters {
            assert!(is_name(name), "{name}");
            let kind = detail["type"].as_str().unwrap();
            assert!(["string", "number", "integer", "boolean", "array"].contains(&kind), "{detail}");
        }
    }
    assert!(is_name(document["actionGroupName"].as_str().unwrap()), "{document}");
    (document, render(&diagnostics))
}

fn model(value: Value) -> ToolSet {
    serde_json::from_value(value).unwrap()
}

#[test]
fn what_flat_parameters_cannot_hold_is_reported_naming_tool_and_parameter() {
    let (document, diagnostics) = write(
        &model(json!({
            "id": "pets",
            "definitions": {"Owner": {"type": "object", "properties": [{"name": "email", "schema": {"type": "string", "format": "email"}}]}},
            "tools": [{
                "name": "find_pets", "description": "Finds pets.",
                "parameters": [
                    {"name": "status", "required": true, "schema": {"type": "string", "enum": [{"value": "sold"}, {"value": "free"}], "default": "free"}},
                    {"name": "tags", "schema": {"type": "array", "items": {"type": "string"}, "max_items": 5}},
                    {"name": "owner", "schema": {"reference": "Owner", "description": "Who owns it."}},
                    {"name": "since", "schema": {"type": "string", "format": "date", "nullable": true}},
                    {"name": "anything", "schema": {"any_of": [{"type": "string"}, {"type": "integer"}]}},
                    {"name": "limit", "location": "query", "schema": {"type": "integer", "minimum": 1}}
                ],
                "output": {"schema": {"type": "array", "items": {"type": "string"}}}
            }]
        })),
        &[],
    );
    let parameters = &document["functionSchema"]["functions"][0]["parameters"];
    assert_eq!(parameters["status"], json!({"type": "string", "required": true}));
    assert_eq!(parameters["tags"], json!({"type": "array"}));
    assert_eq!(parameters["owner"], json!({"description": "Who owns it.", "type": "string"}));
    assert_eq!(parameters["anything"]["type"], "string");
    for (parameter, what) in [
        ("status", "`enum`"),
        ("status", "`default`"),
        ("tags", "`items`"),
        ("owner", "`properties`"),
        ("since", "`format`"),
        ("since", "`nullable`"),
        ("anything", "`any_of`"),
        ("limit", "`minimum`"),
    ] {
        assert!(
            diagnostics
                .lines()
                .any(|l| l.contains(&format!("parameter `{parameter}` of tool `find_pets`")) && l.contains(what)),
            "{parameter} {what} not named:\n{diagnostics}"
        );
    }
    insta::assert_snapshot!("agent-flat.diagnostics", diagnostics);
}

#[test]
fn names_are_fitted_to_the_pattern_and_stay_unique() {
    let long = "x".repeat(150);
    let separated = "ab-".repeat(70); // 140 letters and as many dashes: past the 100 letters
    let tools: Vec<Value> = [
        "list pets",
        "list_pets",
        "a__b",
        "a_b",
        "_lead",
        "-",
        "",
        "pets.list/all",
        "Ñandú",
        long.as_str(),
        separated.as_str(),
        "ok-name_",
    ]
    .iter()
    .map(|name| json!({"name": name}))
    .collect();
    let mut tools = tools;
    tools[0]["parameters"] = json!([
        {"name": "user.name", "schema": {"type": "string"}},
        {"name": "user_name", "schema": {"type": "string"}},
        {"name": "a--b", "schema": {"type": "string"}}
    ]);
    let (document, diagnostics) = write(&model(json!({"title": "Pet Store!", "tools": tools})), &[]);
    let names: Vec<&str> = document["functionSchema"]["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    // Valid names keep themselves; the one that had to change takes the suffix.
    assert_eq!(names[1], "list_pets");
    assert_eq!(names[3], "a_b");
    assert_eq!(names[11], "ok-name_");
    assert_ne!(names[0], "list_pets");
    assert_eq!(document["actionGroupName"], "Pet_Store_");
    let parameters: Vec<&String> =
        document["functionSchema"]["functions"][0]["parameters"].as_object().unwrap().keys().collect();
    assert_eq!(parameters.len(), 3, "{parameters:?}");
    assert!(parameters.contains(&&"user_name".to_owned()), "{parameters:?}");
    // Each rename says the way back.
    let renames = diagnostics.lines().filter(|l| l.contains("changed/name")).count();
    assert_eq!(renames, diagnostics.matches("map back:").count());
    insta::assert_snapshot!("agent-names.diagnostics", diagnostics);
}

#[test]
fn descriptions_are_cut_to_bedrocks_lengths() {
    let sentence = "This sentence has forty characters in it. ";
    let (document, diagnostics) = write(
        &model(json!({"id": "cuts", "description": sentence.repeat(8), "tools": [{
            "name": "t", "description": sentence.repeat(40),
            "parameters": [{"name": "p", "schema": {"type": "string", "description": sentence.repeat(20)}}]
        }]})),
        &[],
    );
    let function = &document["functionSchema"]["functions"][0];
    let lengths = [
        (document["description"].as_str().unwrap(), 200),
        (function["description"].as_str().unwrap(), 1200),
        (function["parameters"]["p"]["description"].as_str().unwrap(), 500),
    ];
    for (text, max) in lengths {
        assert!(text.chars().count() <= max && text.ends_with('.'), "{max}: {text}");
    }
    assert_eq!(diagnostics.matches("changed/description").count(), 3, "{diagnostics}");
}

#[test]
fn confirmations_become_require_confirmation() {
    let (document, diagnostics) = write(
        &model(json!({"id": "c", "tools": [
            {"name": "delete", "confirmation": {"message": "Delete it?", "style": "destructive"}},
            {"name": "ask", "confirmation": {}},
            {"name": "read"}
        ]})),
        &[],
    );
    let functions = document["functionSchema"]["functions"].as_array().unwrap();
    assert_eq!(functions[0]["requireConfirmation"], "ENABLED");
    assert_eq!(functions[1]["requireConfirmation"], "ENABLED");
    assert!(functions[2].get("requireConfirmation").is_none());
    let lost: Vec<&str> = diagnostics.lines().filter(|l| l.contains("loss/confirmation")).collect();
    assert_eq!(lost.len(), 2, "{diagnostics}");
    assert!(lost.iter().all(|l| l.contains("`delete`")), "{diagnostics}");
}

#[test]
fn the_request_around_the_functions_comes_from_the_options() {
    let set = model(json!({"tools": [{"name": "t"}]}));
    let (document, diagnostics) = write(&set, &[]);
    assert_eq!(document["agentId"], "REPLACEME0");
    assert_eq!(document["agentVersion"], "DRAFT");
    assert_eq!(document["actionGroupExecutor"], json!({"customControl": "RETURN_CONTROL"}));
    assert!(diagnostics.contains("generated/placeholder") && diagnostics.contains("agent_id"), "{diagnostics}");
    let arn = "arn:aws:lambda:us-east-1:123456789012:function:pets";
    let (document, diagnostics) = write(&set, &[("agent_id", "AGENT00042"), ("lambda_arn", arn)]);
    assert_eq!(document["agentId"], "AGENT00042");
    assert_eq!(document["actionGroupExecutor"], json!({"lambda": arn}));
    assert!(!diagnostics.contains("generated/placeholder"), "{diagnostics}");
    for (key, value) in [("agent_id", "short"), ("agent_id", "has space!"), ("lambda_arn", "pets")] {
        let mut options = Options::default();
        options.set(key, value);
        let outcome = BedrockAgent.write(&set, &options);
        assert!(outcome.value.is_none(), "{key}={value}");
        assert!(render(&outcome.diagnostics).contains(key), "{key}={value}");
    }
}

/// Hostile models: a parameter nested as deep as a model may be, thousands of parameters with
/// long names, and types Bedrock has no word for: written without a panic (on the stack a
/// conversion runs on), each loss said.
#[test]
fn hostile_models_are_written_with_their_losses_said() {
    std::thread::Builder::new()
        .stack_size(limits::CONVERSION_STACK_BYTES)
        .spawn(hostile_model)
        .unwrap()
        .join()
        .unwrap();
}

fn hostile_model() {
    let mut deep = Schema { kind: Some(SchemaType::String), ..Schema::default() };
    for _ in 0..limits::MAX_MODEL_NESTING {
        deep = Schema { kind: Some(SchemaType::Array), items: Some(Box::new(deep)), ..Schema::default() };
    }
    let mut tool = Tool::new("deep");
    tool.parameters.push(Parameter::new("nested", deep));
    tool.parameters.push(Parameter::new("nothing", Schema { kind: Some(SchemaType::Null), ..Schema::default() }));
    for i in 0..3000 {
        let name = format!("{}{i}", "p".repeat(300));
        tool.parameters.push(Parameter::new(name, Schema::default()));
    }
    let set = ToolSet { tools: vec![tool], ..ToolSet::default() };
    let (document, diagnostics) = write(&set, &[]);
    let parameters = document["functionSchema"]["functions"][0]["parameters"].as_object().unwrap();
    assert_eq!(parameters.len(), 3002);
    assert_eq!(parameters["nested"], json!({"type": "array"}));
    assert_eq!(parameters["nothing"], json!({"type": "string"}));
    assert!(diagnostics.contains("cannot express `items` in the schema of parameter `nested` of tool `deep`"), "items");
    assert!(diagnostics.contains("parameter `nothing` of function `deep` has type `null`"), "null");
}

/// A document nested past the reader's limit is a located error, not a crash.
#[test]
fn a_deeply_nested_document_is_refused_with_its_place() {
    let depth = 100_000;
    let text = format!(
        "{{\"functions\": [{{\"name\": \"f\", \"parameters\": {{\"p\": {{\"type\": {}1{}}}}}}}]}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let outcome = BedrockAgent.read(&toolport_plugin::Bundle::single("deep.json", text), &Options::default());
    assert!(outcome.value.is_none());
    let said = render(&outcome.diagnostics);
    assert!(said.contains("deep.json:1:") && said.contains("error[input/syntax]"), "{said}");
}
