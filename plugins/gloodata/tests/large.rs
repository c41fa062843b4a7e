//! Large models are written whole and in linear time: a tool with 100,000 parameters gives
//! 100,000 fields and display hints, and examples find their tool among 20,000. (Time is not
//! asserted; looking a parameter up by a scan per display hint took minutes.)

use std::collections::BTreeMap;

use serde_json::{Value, json};
use toolport_format_gloodata::Gloodata;
use toolport_plugin::limits::{EXPANSION_FACTOR, MIN_EXPANSION_BYTES};
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
                1 => Schema { default: Some(Box::new(json!(i))), ..Schema::of(SchemaType::Integer) },
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

/// A value set of 20,000 values used by 400 fields: each field used to get its own copy of the
/// values as its enum (a 0.6 MB document read as a 400-fold model, and written so by every
/// target). Copies are charged to a budget of a few times the sets' own size; the fields
/// past it keep only their value set, which writers expand within their own budget.
#[test]
fn a_large_value_set_used_by_many_fields_is_not_copied_into_each() {
    let entries: Vec<Value> = (0..20_000).map(|i| json!([format!("v{i}"), format!("value {i}")])).collect();
    let tools: serde_json::Map<String, Value> = (0..400)
        .map(|t| {
            let tool = json!({"title": format!("Tool {t}"), "schema": {"fields": {"pick": {"type": "string"}}},
                "ui": {"prefix": "Pick", "args": {"pick": {"prefix": "pick", "dtypeName": "Big"}}}});
            (format!("tool{t}"), tool)
        })
        .collect();
    let doc =
        json!({"ns": "vs", "title": "VS", "tools": tools, "tagValues": {"Big": {"id": "Big", "entries": entries}}});
    let text = doc.to_string();
    let outcome = Gloodata.read(&toolport_plugin::Bundle::single("doc.json", text.clone()), &Options::default());
    let model = outcome.value.expect("the document reads");
    let copied = model.tools.iter().filter(|t| t.parameters[0].schema.enumeration.is_some()).count();
    assert!(copied > 0, "fields within the budget still list the values");
    assert!(model.tools.iter().all(|t| t.parameters[0].schema.value_set.as_deref() == Some("Big")));
    let values: usize =
        model.tools.iter().filter_map(|t| t.parameters[0].schema.enumeration.as_ref()).map(Vec::len).sum();
    let bytes = serde_json::to_string(&model).unwrap().len();
    assert!(
        bytes < 20 * text.len(),
        "the model takes {bytes} bytes for a {} byte document ({values} values copied)",
        text.len()
    );
    // The copies do not raise the writers' budget in turn: it follows the document's size.
    let limit = toolport_plugin::definitions::Budget::for_model(&model).limit();
    let most = (EXPANSION_FACTOR * text.len()).max(MIN_EXPANSION_BYTES);
    assert!(limit <= most, "a writer may expand {limit} bytes for a {} byte document", text.len());
}
