//! Large models are written whole and in linear time: a tool with 100,000 parameters gives
//! 100,000 fields and display hints, and examples find their tool among 20,000. (Time is not
//! asserted; looking a parameter up by a scan per display hint took minutes.)

use std::collections::BTreeMap;

use serde_json::{Value, json};
use toolport_format_gloodata::Gloodata;
use toolport_plugin::{
    EnumValue, Example, Expectation, Format, Options, Parameter, Schema, SchemaType, Tool, ToolCall, ToolSet, ValueSet,
};
use toolport_testkit::expect_ok;

/// `tools` tools; the first has `parameters` parameters cycling through a string, an integer
/// with a default, a string with a value set and a boolean (even ones required); one example
/// per tool calls it.
fn model(tools: usize, parameters: usize) -> ToolSet {
    let mut model = ToolSet { id: Some("big".into()), ..ToolSet::default() };
    model.value_sets.insert(
        "ab".into(),
        ValueSet { entries: vec![EnumValue::new("a"), EnumValue::new("b")], ..ValueSet::default() },
    );
    for t in 0..tools {
        let mut tool = Tool::new(format!("tool{t}"));
        for i in 0..if t == 0 { parameters } else { 1 } {
            let schema = match i % 4 {
                0 => Schema { description: Some(format!("text {i}")), ..Schema::of(SchemaType::String) },
                1 => Schema { default: Some(json!(i)), ..Schema::of(SchemaType::Integer) },
                2 => Schema { value_set: Some("ab".into()), ..Schema::of(SchemaType::String) },
                _ => Schema::of(SchemaType::Boolean),
            };
            tool.parameters.push(Parameter { required: i % 2 == 0, ..Parameter::new(format!("p{i}"), schema) });
        }
        model.examples.push(Example {
            prompt: format!("use tool {t}"),
            expected: vec![Expectation::CallsTool(ToolCall { tool: format!("tool{t}"), ..ToolCall::default() })],
            ..Example::default()
        });
        model.tools.push(tool);
    }
    model
}

/// Writes [`model`] and compares the first tool's fields and `ui.args` at `spots` (parameter
/// name → field, arg), the counts, each tool's example and the diagnostics counted by code.
fn check(tools: usize, parameters: usize, spots: &[(&str, Value, Value)], expect_codes: &[(&str, usize)]) {
    let (bundle, diagnostics) = expect_ok(Gloodata.write(&model(tools, parameters), &Options::default()), "write");
    let document: Value = serde_json::from_str(bundle.get("big.json").expect("big.json")).unwrap();
    let written = document["tools"].as_object().unwrap();
    assert_eq!(written.len(), tools);
    let first = &written["tool0"];
    let fields = first["schema"]["fields"].as_object().unwrap();
    let args = first["ui"]["args"].as_object().unwrap();
    assert_eq!((fields.len(), args.len()), (parameters, parameters));
    for (name, field, arg) in spots {
        assert_eq!((&fields[*name], &args[*name]), (field, arg), "parameter {name}");
    }
    for t in [0, tools / 2, tools - 1] {
        assert_eq!(written[&format!("tool{t}")]["examples"], json!([format!("use tool {t}")]));
    }
    let codes = diagnostics.iter().fold(BTreeMap::new(), |mut codes, d| {
        *codes.entry(d.code.as_str()).or_insert(0) += 1;
        codes
    });
    assert_eq!(codes, expect_codes.iter().copied().collect::<BTreeMap<&str, usize>>());
}

#[test]
fn a_tool_with_100_000_parameters_is_written_whole() {
    let (tools, n) = (20_000, 100_000);
    let spots = [
        ("p0", json!({"type": "string", "description": "text 0"}), json!({"prefix": "P0"})),
        ("p1", json!({"type": ["integer", "null"], "default": 1}), json!({"prefix": "P1"})),
        ("p2", json!({"type": "string"}), json!({"prefix": "P2", "dtypeName": "ab"})),
        ("p99999", json!({"type": ["boolean", "null"]}), json!({"prefix": "P99999"})),
    ];
    // Per optional parameter, an optional written as [T, "null"]; per tool, a generated title
    // and display hints.
    check(tools, n, &spots, &[("changed/schema", n / 2), ("generated/content", tools)]);
}
