//! A writer's output cannot explode: MCP copies each tool's closure of definitions into its
//! own `$defs`, and every copy is charged to one budget per document
//! (`limits::EXPANSION_FACTOR` times the bytes of the model's schemas). Past it, references
//! are cut to loose schemas, each schema's cut a located `loss/schema`, and no `$ref` dangles.

use serde_json::Value;
use toolport_format_mcp::Mcp;
use toolport_plugin::definitions::{Budget, model_weight, refs_in_value};
use toolport_plugin::{Format, Options, Parameter, Property, Schema, SchemaType, Tool, ToolSet};
use toolport_testkit::expect_ok;

/// `tools` tools whose one parameter is the definition `Record`, an object of `width` strings.
fn model(tools: usize, width: usize) -> ToolSet {
    let properties = (0..width)
        .map(|i| Property {
            name: format!("field_{i}"),
            required: false,
            schema: Schema { description: Some(format!("field {i} of the record")), ..Schema::of(SchemaType::String) },
        })
        .collect();
    let record = Schema { description: Some("a record".into()), properties, ..Schema::of(SchemaType::Object) };
    let mut model = ToolSet::default();
    model.definitions.insert("Record".into(), record);
    for i in 0..tools {
        let mut tool = Tool::new(format!("op_{i}"));
        let payload = Schema { reference: Some("Record".into()), ..Schema::default() };
        tool.parameters.push(Parameter::new("payload", payload));
        model.tools.push(tool);
    }
    model
}

/// What writing [`model`] must give: how many tools carry `Record` whole in their `$defs`,
/// and how many have it cut (each with its `loss/schema`).
struct Expect {
    whole: usize,
    cut: usize,
}

/// How many times its weight (compact JSON, about) a schema takes pretty-printed at its
/// indentation in the written document: a property of `Record` in a `$defs`, `"field_NNNN":
/// {"type": "string", "description": "field NNNN of the record"}`, weighs about 70 bytes and
/// takes under 140 with its 16 spaces of indentation and line breaks.
const PRETTY: usize = 2;
/// The least a copied node of `Record` weighs: a property with its name and description.
const NODE_WEIGHT: usize = 50;
/// The most bytes a tool's own entry takes besides its schema nodes (name, wrappers, keys).
const TOOL_BYTES: usize = 300;

fn check(tools: usize, width: usize, expect: Expect) {
    let model = model(tools, width);
    let (bundle, diagnostics) = expect_ok(Mcp.write(&model, &Options::default()), "write");
    let text = bundle.get("tools.json").expect("tools.json");
    let document: Value = serde_json::from_str(text).unwrap();
    let written = document["tools"].as_array().unwrap();
    assert_eq!(written.len(), tools);

    let mut whole = 0;
    let mut copied_nodes = 0;
    for (i, tool) in written.iter().enumerate() {
        let input = &tool["inputSchema"];
        let payload = &input["properties"]["payload"];
        match input.get("$defs") {
            Some(defs) => {
                whole += 1;
                assert_eq!(payload["$ref"], "#/$defs/Record", "tool {i}");
                let record = &defs["Record"];
                assert_eq!(record["properties"].as_object().unwrap().len(), width, "tool {i}");
                assert_eq!(record["properties"]["field_0"]["description"], "field 0 of the record");
                copied_nodes += 1 + width;
            }
            // Cut: a loose object that keeps the description, and nothing to refer to.
            None => assert_eq!(payload, &serde_json::json!({"type": "object", "description": "a record"}), "tool {i}"),
        }
        let mut refs = Vec::new();
        refs_in_value(input, &mut refs);
        for reference in refs {
            let resolves = reference.strip_prefix('#').is_some_and(|pointer| input.pointer(pointer).is_some());
            assert!(resolves, "tool {i}: `{reference}` dangles");
        }
    }
    let cuts: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d.code == "loss/schema")
        .inspect(|d| assert!(d.message.contains("expansion budget") && d.message.contains("`Record`"), "{d:?}"))
        .map(|d| d.path.as_str())
        .collect();
    assert_eq!((whole, cuts.len()), (expect.whole, expect.cut));
    // Where: the first tool that did not fit, at the reference it holds.
    if expect.cut > 0 {
        assert_eq!(cuts[0], format!("/tools/{}/parameters/0/schema/reference", expect.whole));
    }

    // The bound is the design's: copies never exceed the budget (and the descriptions of cut
    // references their allowance, as large), so the document is at most the tools' own
    // entries plus the model and twice the budget, pretty-printed, whatever the number of tools.
    let budget = Budget::for_model(&model).limit();
    assert!(copied_nodes * NODE_WEIGHT <= budget, "{copied_nodes} nodes copied, budget {budget} bytes");
    let bound = tools * TOOL_BYTES + (model_weight(&model) + 2 * budget) * PRETTY;
    assert!(text.len() <= bound, "{} bytes written, bound {bound}", text.len());
}

#[test]
fn a_definition_used_by_thousands_of_tools_is_copied_within_the_budget() {
    // A normal document: every tool carries its closure.
    check(50, 20, Expect { whole: 50, cut: 0 });
    // 2,000 copies of `Record` (1,501 nodes, about 100 KB of schema) would be about 200 MB;
    // the budget is its 4 MiB floor (8 times the model's 180 KB is less): 40 whole copies,
    // then cuts.
    check(2000, 1500, Expect { whole: 40, cut: 1960 });
}

/// Tools whose results are the same bare reference share one written output schema while the
/// document's budget affords it again: the same document and diagnostics as written one by one
/// (a `{result}`-wrapped list's schema is its `result` property's).
#[test]
fn output_schemas_shared_by_tools_are_those_written_one_by_one() {
    toolport_testkit::check_shared_outputs(
        &Mcp,
        |document| {
            let tools = document["tools"].as_array_mut().unwrap().iter_mut();
            tools
                .map(|tool| {
                    let output = &mut tool["outputSchema"];
                    match output["properties"].get("result").is_some() {
                        true => &mut output["properties"]["result"],
                        false => output,
                    }
                })
                .collect()
        },
        0,
    );
}
