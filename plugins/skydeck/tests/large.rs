//! Large models are written whole and in linear time: a tool with 100,000 parameters gives one
//! file with 100,000 variables, each change reported once. (Time is not asserted; these ran
//! for minutes while diagnostics were de-duplicated by a scan per note.)

use std::collections::BTreeMap;

use serde_json::{Value, json};
use toolport_format_skydeck::SkyDeck;
use toolport_plugin::{EnumValue, Format, Options, Parameter, Schema, SchemaType, Tool, ToolSet};
use toolport_testkit::expect_ok;

/// One tool with `n` parameters, cycling through a string, an integer with a default, a string
/// enum and a boolean; even ones required.
fn model(n: usize) -> ToolSet {
    let mut tool = Tool::new("big");
    for i in 0..n {
        let schema = match i % 4 {
            0 => Schema { description: Some(format!("text {i}")), ..Schema::of(SchemaType::String) },
            1 => Schema { default: Some(Box::new(json!(i))), ..Schema::of(SchemaType::Integer) },
            2 => Schema {
                enumeration: Some(vec![EnumValue::new("a"), EnumValue::new("b")]),
                ..Schema::of(SchemaType::String)
            },
            _ => Schema::of(SchemaType::Boolean),
        };
        tool.parameters.push(Parameter { required: i % 2 == 0, ..Parameter::new(format!("p{i}"), schema) });
    }
    ToolSet { tools: vec![tool], ..ToolSet::default() }
}

/// Writes [`model`]`(n)` and compares the variables at `spots` (index → variable), their
/// count, the prompt's lines and the diagnostics counted by code.
fn check(n: usize, spots: &[(usize, Value)], expect_codes: &[(&str, usize)]) {
    let (bundle, diagnostics) = expect_ok(SkyDeck.write(&model(n), &Options::default()), "write");
    assert_eq!(bundle.files.len(), 1);
    let document: Value = serde_json::from_str(bundle.get("big.json").expect("big.json")).unwrap();
    let variables = document["metadata"]["variables"].as_array().unwrap();
    assert_eq!(variables.len(), n);
    for (i, expect) in spots {
        assert_eq!(&variables[*i], expect, "variable {i}");
    }
    let prompt = document["model_prompt"].as_str().unwrap();
    assert_eq!(prompt.lines().filter(|l| l.starts_with('p')).count(), n);
    assert!(prompt.ends_with(&format!("p{0}: {{{{p{0}}}}}", n - 1)));
    let codes = diagnostics.iter().fold(BTreeMap::new(), |mut codes, d| {
        *codes.entry(d.code.as_str()).or_insert(0) += 1;
        codes
    });
    assert_eq!(codes, expect_codes.iter().copied().collect::<BTreeMap<&str, usize>>());
}

#[test]
fn a_tool_with_100_000_parameters_is_written_whole() {
    let n = 100_000;
    let spots = [
        (0, json!({"name": "p0", "type": "text", "description": "text 0"})),
        (1, json!({"name": "p1", "type": "text", "default": "1"})),
        (2, json!({"name": "p2", "type": "single-select", "allowed_values": ["a", "b"]})),
        (3, json!({"name": "p3", "type": "single-select", "allowed_values": ["true", "false"]})),
        (99_997, json!({"name": "p99997", "type": "text", "default": "99997"})),
        (99_999, json!({"name": "p99999", "type": "single-select", "allowed_values": ["true", "false"]})),
    ];
    // Per integer: a loss of type and a changed default; per boolean: a changed type and an
    // optional variable without a default; once: the generated prompt.
    check(n, &spots, &[("changed/schema", n / 2 + n / 4), ("generated/content", 1), ("loss/schema", n / 4)]);
}
