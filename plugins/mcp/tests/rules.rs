//! The writer enforces MCP's name rule on any model, keeps the original name in `_meta`, and a
//! later read restores it.

use serde_json::{Value, json};
use toolport_format_mcp::{MCP_NAME, Mcp};
use toolport_plugin::{Bundle, Format, Options, ToolSet};
use toolport_testkit::{expect_ok, read_ok, render};

fn check(model: &ToolSet) -> (Value, String) {
    let (bundle, diagnostics) = expect_ok(Mcp.write(model, &Options::default()), "write");
    let text = bundle.get("tools.json").expect("tools.json");
    let (again, _) = expect_ok(Mcp.write(model, &Options::default()), "write");
    assert_eq!(again.get("tools.json"), Some(text), "output is deterministic");
    let document: Value = serde_json::from_str(text).unwrap();
    let names: Vec<&str> = document["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    let unique: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "names are unique: {names:?}");
    assert!(names.iter().all(|n| MCP_NAME.is_valid(n)), "names are valid: {names:?}");
    (document, render(&diagnostics))
}

#[test]
fn names_are_made_valid_unique_and_restored_on_read() {
    let long = "x".repeat(140);
    let model: ToolSet = serde_json::from_value(json!({"tools": [
        {"name": "repos/get content"}, {"name": "repos_get_content"}, {"name": "repos get/content"},
        {"name": long}, {"name": ""}, {"name": "fine.name-1"}
    ]}))
    .unwrap();
    let (document, diagnostics) = check(&model);
    insta::assert_json_snapshot!("names.written", document);
    insta::assert_snapshot!("names.diagnostics", diagnostics);
    let (read_back, _) = read_ok(&Mcp, &Bundle::single("tools.json", serde_json::to_string(&document).unwrap()));
    let restored: Vec<&str> = read_back.tools.iter().map(|t| t.name.as_str()).collect();
    let original: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(restored, original);
}

#[test]
fn foreign_fields_are_reported_not_dropped_silently() {
    let model: ToolSet = serde_json::from_value(json!({"id": "set", "tools": [{"name": "t",
        "prompt": "Say {{x}}", "http": {"method": "GET", "path": "/t"},
        "output": {"description": "text", "schema": {"type": "string"}},
        "icon": {"kind": "path", "path": "assets/icon.png"},
        "parameters": [{"name": "x", "location": "query", "schema": {"type": "string"}}],
        "extras": {"gloodata": {"ui": 1}}}]}))
    .unwrap();
    let (document, diagnostics) = check(&model);
    // MCP output schemas are objects: a string result is wrapped.
    assert_eq!(
        document["tools"][0]["outputSchema"],
        json!({"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]})
    );
    insta::assert_snapshot!("foreign.diagnostics", diagnostics);
}

/// Writes `model` with `options`; the document and the diagnostics' codes and messages.
fn write_with(model: &ToolSet, options: &[(&str, &str)]) -> (Value, Vec<String>) {
    let mut opts = Options::default();
    for (key, value) in options {
        opts.set(*key, *value);
    }
    let (bundle, diagnostics) = expect_ok(Mcp.write(model, &opts), "write");
    let document = serde_json::from_str(bundle.get("tools.json").expect("tools.json")).unwrap();
    (document, diagnostics.iter().map(|d| format!("{}: {}", d.code, d.message)).collect())
}

#[test]
fn output_schemas_are_object_schemas_as_full_shallow_or_none_asks() {
    let definitions = json!({
        "Pet": {"type": "object", "description": "A pet.", "properties": [
            {"name": "id", "required": true, "schema": {"type": "integer"}},
            {"name": "kind", "schema": {"reference": "Kind"}},
            {"name": "owner", "schema": {"reference": "Owner"}}]},
        "Kind": {"type": "string", "enum": [{"value": "cat"}, {"value": "dog"}]},
        "Owner": {"type": "object", "description": "Who owns it.", "properties": [
            {"name": "name", "schema": {"type": "string"}}, {"name": "pets", "schema": {"type": "array", "items": {"reference": "Pet"}}}]}
    });
    // Expanded breadth first while within 30 schema nodes: the recursion through `Owner` is
    // cut after three levels, to a loose object with its description; `Kind` (small) inline.
    fn pet(depth: usize) -> Value {
        if depth == 0 {
            return json!({"type": "object", "description": "A pet."});
        }
        json!({"type": "object", "description": "A pet.", "properties": {
            "id": {"type": "integer"},
            "kind": {"type": "string", "enum": ["cat", "dog"]},
            "owner": {"type": "object", "description": "Who owns it.", "properties": {
                "name": {"type": "string"}, "pets": {"type": "array", "items": pet(depth - 1)}}}},
            "required": ["id"]})
    }
    let pet_shallow = pet(3);
    // (output schema, option, written outputSchema; None: left out)
    let cases = [
        (json!({"reference": "Pet"}), None, Some(pet_shallow.clone())),
        (json!({"reference": "Pet"}), Some("shallow"), Some(pet_shallow.clone())),
        (
            json!({"type": "array", "items": {"reference": "Pet"}}),
            None,
            Some(json!({"type": "object", "properties": {"result": {"type": "array", "items": pet_shallow}},
                "required": ["result"]})),
        ),
        (
            json!({"type": "string"}),
            Some("full"),
            Some(json!({"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]})),
        ),
        (
            json!({"type": "object", "nullable": true, "properties": [{"name": "a", "schema": {}}]}),
            Some("full"),
            Some(json!({"type": "object", "properties": {"result": {"type": ["object", "null"],
                "properties": {"a": {}}}}, "required": ["result"]})),
        ),
        (json!({"reference": "Kind"}), Some("none"), None),
    ];
    for (output, option, expect) in cases {
        let model: ToolSet = serde_json::from_value(json!({"definitions": definitions,
            "tools": [{"name": "t", "description": "T.", "output": {"schema": output}}]}))
        .unwrap();
        let options: Vec<(&str, &str)> = option.map(|o| ("output_schema", o)).into_iter().collect();
        let (document, _) = write_with(&model, &options);
        assert_eq!(document["tools"][0].get("outputSchema"), expect.as_ref(), "{output} with {option:?}");
    }
    // Full keeps every definition the result reaches, in `$defs`.
    let model: ToolSet = serde_json::from_value(json!({"definitions": definitions,
        "tools": [{"name": "t", "description": "T.", "output": {"schema": {"reference": "Pet"}}}]}))
    .unwrap();
    let (document, _) = write_with(&model, &[("output_schema", "full")]);
    let full = &document["tools"][0]["outputSchema"];
    assert_eq!(full["type"], "object");
    assert_eq!(full["properties"]["owner"], json!({"$ref": "#/$defs/Owner"}));
    let defs: Vec<&String> = full["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(defs, ["Kind", "Owner", "Pet"]);
}

#[test]
fn tools_get_the_best_description_and_never_an_empty_title() {
    // (tool, written title, written description, a generated/content diagnostic)
    let cases = [
        (json!({"name": "a", "title": "Summary", "description": "Own."}), Some("Summary"), Some("Own."), false),
        (json!({"name": "listPets", "title": "List all pets"}), Some("List all pets"), Some("List all pets"), false),
        // MCP's description is optional: none is made up.
        (json!({"name": "listPets", "title": "", "description": ""}), None, None, false),
        (json!({"name": "get_pet_by_id", "http": {"method": "GET", "path": "/pets/{id}"}}), None, None, false),
    ];
    for (tool, title, description, generated) in cases {
        let model: ToolSet = serde_json::from_value(json!({"tools": [tool]})).unwrap();
        let (document, diagnostics) = write_with(&model, &[]);
        let written = &document["tools"][0];
        assert_eq!(written.get("title").and_then(Value::as_str), title, "{tool}");
        assert_eq!(written.get("description").and_then(Value::as_str), description, "{tool}");
        assert_eq!(diagnostics.iter().any(|d| d.starts_with("generated/content")), generated, "{diagnostics:?}");
    }
}

#[test]
fn strictness_from_other_function_formats_travels_and_what_cannot_is_named() {
    // (tool extras, written inputSchema's additionalProperties, the loss/extras messages)
    let cases = [
        (
            json!({"openai": {"strict": true, "parametersRoot": {"additionalProperties": false}}}),
            Some(json!(false)),
            vec!["mcp cannot hold openai's `strict: true` (mcp has no strict mode): left out"],
        ),
        (json!({"anthropic": {"input_schemaRoot": {"additionalProperties": false}}}), Some(json!(false)), vec![]),
        (json!({"openai": {"form": "responses"}}), None, vec![]),
    ];
    for (extras, closed, messages) in cases {
        let model: ToolSet = serde_json::from_value(json!({"tools": [{"name": "t", "description": "T.",
            "parameters": [{"name": "x", "schema": {"type": "string"}}], "extras": extras}]}))
        .unwrap();
        let (document, diagnostics) = write_with(&model, &[]);
        assert_eq!(document["tools"][0]["inputSchema"].get("additionalProperties"), closed.as_ref(), "{extras}");
        let losses: Vec<&str> = diagnostics.iter().filter_map(|d| d.strip_prefix("loss/extras: ")).collect();
        assert_eq!(losses, messages);
    }
}

#[test]
fn schemas_carry_no_bookkeeping_and_no_empty_enum() {
    let model: ToolSet = serde_json::from_value(json!({
        "value_sets": {"cities": {"entries": []}, "colors": {"entries": [{"value": "r", "label": "Red"}]}},
        "tools": [{"name": "t", "description": "T.", "parameters": [
            {"name": "city", "required": true, "schema": {"type": "string", "value_set": "cities"}},
            {"name": "color", "schema": {"type": "string", "value_set": "colors", "multiline": true,
                "extras": {"jsonschema": {"nullable": false, "example": "r"}}}}]}]}))
    .unwrap();
    let (document, diagnostics) = write_with(&model, &[]);
    assert_eq!(
        document["tools"][0]["inputSchema"],
        json!({"type": "object", "properties": {"city": {"type": "string"},
            "color": {"type": "string", "enum": ["r"], "examples": ["r"]}}, "required": ["city"]})
    );
    assert!(diagnostics.iter().any(|d| d.contains("value set `cities` has no fixed values")), "{diagnostics:?}");
}
