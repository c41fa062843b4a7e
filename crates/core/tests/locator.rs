//! Locating many diagnostics in one large document: every pointer of a generated MCP-like tool
//! list is found at the line and column it was written at.

use toolport_core::source::{Locator, child};

/// A generated document and, for each pointer a diagnostic could name, where its value starts.
struct Generated {
    text: String,
    expect: Vec<(String, Option<(u32, u32)>)>,
}

/// `tools` tools, one per line block, each with a bad `inputSchema` type and an unknown key,
/// as a reader would report them; non-ASCII descriptions make columns differ from bytes.
fn generate(tools: usize) -> Generated {
    let mut text = String::from("{\n  \"tools\": [\n");
    let mut expect = Vec::new();
    for index in 0..tools {
        let tool = child("/tools", index.to_string());
        let line = 3 + index as u32 * 3;
        let head = format!("    {{\"name\": \"tool_{index}\", \"description\": \"résumé № {index}\", ");
        let column = head.chars().count() as u32 + "\"x-unknown\": ".len() as u32 + 1;
        expect.push((child(&tool, "x-unknown"), Some((line, column))));
        text.push_str(&head);
        text.push_str("\"x-unknown\": [1, 2],\n");
        let schema = "      \"inputSchema\": {\"type\": ";
        expect.push((child(&child(&tool, "inputSchema"), "type"), Some((line + 1, schema.len() as u32 + 1))));
        text.push_str(schema);
        text.push_str("\"objekt\", \"properties\": {\"a/b\": {\"type\": 3}}}\n");
        let property = format!("{schema}\"objekt\", \"properties\": {{\"a/b\": {{\"type\": ");
        expect.push((
            child(&child(&child(&child(&tool, "inputSchema"), "properties"), "a/b"), "type"),
            Some((line + 1, property.chars().count() as u32 + 1)),
        ));
        expect.push((child(&child(&tool, "inputSchema"), "required"), None));
        text.push_str(if index + 1 < tools { "    },\n" } else { "    }\n" });
    }
    text.push_str("  ]\n}\n");
    Generated { text, expect }
}

fn check(generated: &Generated) {
    let locator = Locator::new(generated.text.as_str());
    for (pointer, expect) in &generated.expect {
        assert_eq!(locator.locate(pointer), *expect, "{pointer}");
    }
}

#[test]
fn ten_thousand_diagnostics_are_each_located() {
    let generated = generate(4_000);
    assert!(generated.expect.len() >= 16_000);
    assert!(serde_json::from_str::<serde_json::Value>(&generated.text).is_ok());
    check(&generated);
}

/// Not a test of time (none is asserted): prints how long locating takes at 1x to 8x, to show
/// it grows linearly. `cargo test --release -p toolporter-core --test integration -- locator:: --ignored --nocapture`
#[test]
#[ignore]
fn locating_time_grows_linearly() {
    for factor in [1, 2, 4, 8] {
        let generated = generate(2_000 * factor);
        let start = std::time::Instant::now();
        check(&generated);
        println!(
            "{factor}x: {} bytes, {} lookups, {:?}",
            generated.text.len(),
            generated.expect.len(),
            start.elapsed()
        );
    }
}
