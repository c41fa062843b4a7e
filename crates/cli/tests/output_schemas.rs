//! How much of each result schema is written: `--option output_schema=full|shallow|none`, one
//! choice for gemini, mcp, openapi and vertex (function-tools' `output`), shown by `convert
//! formats`, with what was shortened or left out said.

use crate::support;

use serde_json::Value;
use support::*;

/// An API of our own whose one result reaches a chain of definitions: Order -> Customer ->
/// Address -> Country, more together than a shallow schema's allowance (30 schema nodes), so
/// Country is the one cut loose.
const SHOP: &str = r#"openapi: 3.0.3
info: {title: Shop, version: '1'}
servers: [{url: 'https://shop.example.com'}]
paths:
  /orders/{id}:
    get:
      operationId: getOrder
      description: One order.
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: The order.
          content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
components:
  schemas:
    Order:
      type: object
      description: An order.
      properties:
        id: {type: string}
        total: {type: integer}
        note: {type: string}
        customer: {$ref: '#/components/schemas/Customer'}
    Customer:
      type: object
      description: Who ordered.
      properties:
        name: {type: string}
        email: {type: string}
        phone: {type: string}
        vip: {type: boolean}
        address: {$ref: '#/components/schemas/Address'}
    Address:
      type: object
      description: Where it goes.
      properties:
        line1: {type: string}
        line2: {type: string}
        city: {type: string}
        zip: {type: string}
        region: {type: string}
        district: {type: string}
        state: {type: string}
        county: {type: string}
        building: {type: string}
        floor: {type: string}
        door: {type: string}
        country: {$ref: '#/components/schemas/Country'}
    Country:
      type: object
      description: A country.
      properties:
        code: {type: string}
        name: {type: string}
        currency: {type: string}
        languages: {type: array, items: {type: string}}
        flag: {type: string}
        capital: {type: string}
        population: {type: integer}
        area: {type: number}
        timezone: {type: string}
"#;

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("shop.yaml"), SHOP).unwrap();
    dir
}

/// Converts shop.yaml to `target` with `options`, printing every diagnostic: the written
/// document (parsed from stdout) and stderr.
fn convert(dir: &std::path::Path, target: &str, options: &[&str]) -> (Value, String) {
    let mut args = vec!["--to", target, "shop.yaml", "-v"];
    for option in options {
        args.extend(["--option", option]);
    }
    let run = run_in(dir, &args);
    run.expect_code(0);
    let document = if target == "openapi" || target == "vertex" {
        Value::String(run.stdout.clone())
    } else {
        serde_json::from_str(&run.stdout).expect("JSON on stdout")
    };
    (document, run.stderr.clone())
}

#[test]
fn gemini_writes_shallow_result_schemas_unless_told_and_says_what_it_shortened() {
    let dir = setup();
    let response = |document: &Value| document["functionDeclarations"][0].get("response").cloned();
    // Default: the result's own object and what fits, the rest loose with its description.
    let (shallow, stderr) = convert(dir.path(), "gemini", &[]);
    let shallow = response(&shallow).expect("a response");
    assert_eq!(shallow["properties"]["customer"]["properties"]["name"]["type"], "string", "{shallow}");
    let country = &shallow["properties"]["customer"]["properties"]["address"]["properties"]["country"];
    assert_eq!(country["description"], "A country.", "{shallow}");
    assert!(country.get("properties").is_none(), "past the allowance a definition is loose: {shallow}");
    assert!(
        stderr.contains("`output_schema=shallow`: 1 output schemas (`getOrder`) were written without the definitions"),
        "{stderr}"
    );
    // The same when asked for by name.
    let (asked, _) = convert(dir.path(), "gemini", &["output_schema=shallow"]);
    assert_eq!(response(&asked).as_ref(), Some(&shallow));
    // Full: every definition inlined, nothing said about output schemas.
    let (full, stderr) = convert(dir.path(), "gemini", &["output_schema=full"]);
    let full = response(&full).expect("a response");
    let country = &full["properties"]["customer"]["properties"]["address"]["properties"]["country"];
    assert_eq!(country["properties"]["languages"]["type"], "array", "{full}");
    assert!(!stderr.contains("output_schema="), "{stderr}");
    // None: no response, and that is said.
    let (none, stderr) = convert(dir.path(), "gemini", &["output_schema=none"]);
    assert_eq!(response(&none), None);
    assert!(stderr.contains("`output_schema=none`: the output schemas of 1 tools were left out"), "{stderr}");
    // A value it does not know is a usage error naming the choices.
    let run = run_in(dir.path(), &["--to", "gemini", "shop.yaml", "--option", "output_schema=deep"]);
    run.expect_code(2);
    assert!(run.stderr.contains("takes `full`, `shallow` or `none`"), "{}", run.stderr);
}

#[test]
fn formats_show_the_output_schema_option_of_every_target_that_writes_results() {
    let dir = tempfile::tempdir().unwrap();
    for (format, default) in [
        ("gemini", "full for a model read from Gemini, else shallow"),
        ("mcp", "full for a model read from MCP, else shallow"),
        ("openapi", "full"),
        ("vertex", "full"),
    ] {
        let run = run_in(dir.path(), &["formats", format]);
        run.expect_code(0);
        assert!(run.stdout.contains("output_schema"), "{format}:\n{}", run.stdout);
        assert!(run.stdout.contains(default), "{format}:\n{}", run.stdout);
    }
}

#[test]
fn openapi_and_vertex_write_response_schemas_full_shallow_or_none() {
    let dir = setup();
    // Full (the default): the response refers to its component, written once.
    let (full, _) = convert(dir.path(), "openapi", &["syntax=json"]);
    let full: Value = serde_json::from_str(full.as_str().unwrap()).unwrap();
    let media = &full["paths"]["/orders/{id}"]["get"]["responses"]["200"]["content"]["application/json"];
    assert_eq!(media["schema"]["$ref"], "#/components/schemas/Order", "{media}");
    // None: the response keeps its description, not its schema.
    let (none, stderr) = convert(dir.path(), "openapi", &["syntax=json", "output_schema=none"]);
    let none: Value = serde_json::from_str(none.as_str().unwrap()).unwrap();
    let response = &none["paths"]["/orders/{id}"]["get"]["responses"]["200"];
    assert_eq!(response["description"], "The order.");
    assert!(response.pointer("/content/application~1json/schema").is_none(), "{response}");
    assert!(stderr.contains("`output_schema=none`"), "{stderr}");
    // Vertex, shallow: the spec holds only the schemas it refers to, so the definitions only
    // the response reached deep down are gone.
    let (vertex_full, _) = convert(dir.path(), "vertex", &[]);
    assert!(vertex_full.as_str().unwrap().contains("Country"), "{vertex_full}");
    let (vertex_shallow, stderr) = convert(dir.path(), "vertex", &["output_schema=shallow"]);
    let spec = vertex_shallow.as_str().unwrap();
    assert!(!spec.contains("Country:"), "{spec}");
    assert!(spec.contains("A country."), "the loose schema keeps its description: {spec}");
    assert!(stderr.contains("`output_schema=shallow`: 1 output schemas (`getOrder`)"), "{stderr}");
}

#[test]
fn stripe_to_gemini_is_under_ten_megabytes_by_default() {
    let spec = toolport_testkit::corpus("openapi/stripe/spec3.json");
    let dir = tempfile::tempdir().unwrap();
    let spec = spec.to_str().unwrap();
    let run = run_in(dir.path(), &["--to", "gemini", spec, "-o", "stripe.gemini.json", "-v"]);
    run.expect_code(0);
    let size = std::fs::metadata(dir.path().join("stripe.gemini.json")).unwrap().len();
    assert!(size < 10_000_000, "Stripe -> gemini wrote {size} bytes");
    assert!(run.stderr.contains("`output_schema=shallow`: "), "what was shortened is said");
}
