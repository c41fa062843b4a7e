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
