//! `--option profile=bedrock-agent`: the document as an Amazon Bedrock Agents action group's
//! `apiSchema` takes it: OpenAPI 3.0.0 whatever the source's version, a description on every
//! operation, no `enum` (its values listed in the description, each move said), and
//! `x-requireConfirmation` for a tool that asks first.

use crate::common::parse;

use serde_json::{Value, json};
use toolport_format_openapi::OpenApi;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{expect_ok, render};

/// A 3.1 document with enums in a query parameter, a body property, a shared schema and a
/// result, operations without a description, and one without a summary either.
const SOURCE: &str = r##"{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
  "paths": {
    "/pets": {
      "get": {"operationId": "list_pets", "summary": "List pets",
        "parameters": [{"name": "status", "in": "query", "schema": {"type": "string", "enum": ["sold", "free"]}},
                       {"name": "kind", "in": "query", "schema": {"$ref": "#/components/schemas/Kind"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
          {"type": "object", "properties": {"state": {"type": "string", "enum": ["ok", "late"]}}}}}}}},
      "post": {"operationId": "add_pet",
        "requestBody": {"content": {"application/json": {"schema": {"type": "object",
          "properties": {"size": {"type": "string", "description": "How big.", "enum": ["S", "M", "L"]}}}}}},
        "responses": {"201": {"description": "added"}}}
    },
    "/pets/{id}": {
      "delete": {"operationId": "remove_pet", "description": "Removes a pet for good.",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
        "responses": {"204": {"description": "gone"}}}
    }
  },
  "components": {"schemas": {"Kind": {"type": "string", "enum": ["cat", "dog", 7]}}}}"##;

fn write(profile: &str) -> (Value, String) {
    let (mut set, _) = expect_ok(OpenApi.read(&Bundle::single("pets.json", SOURCE), &Options::default()), "read");
    set.tools[2].confirmation = Some(Box::default());
    let mut options = Options::default();
    options.set("syntax", "json");
    options.set("profile", profile);
    let (bundle, diagnostics) = expect_ok(OpenApi.write(&set, &options), "write");
    let (file, text) = bundle.files.iter().next().unwrap();
    (parse(file, text), render(&diagnostics))
}

/// Every object in `value` with key `key`.
fn holding<'v>(value: &'v Value, key: &str, found: &mut Vec<&'v Value>) {
    match value {
        Value::Object(map) => {
            if map.contains_key(key) {
                found.push(value);
            }
            map.values().for_each(|v| holding(v, key, found));
        }
        Value::Array(items) => items.iter().for_each(|v| holding(v, key, found)),
        _ => {}
    }
}

#[test]
fn the_bedrock_agent_profile_fits_bedrocks_rules() {
    let (doc, said) = write("bedrock-agent");
    assert_eq!(doc["openapi"], "3.0.0");
    let mut enums = Vec::new();
    holding(&doc, "enum", &mut enums);
    assert!(enums.is_empty(), "no enum is left: {enums:?}");
    let list = &doc["paths"]["/pets"]["get"];
    let add = &doc["paths"]["/pets"]["post"];
    let remove = &doc["paths"]["/pets/{id}"]["delete"];
    assert_eq!(list["description"], "List pets");
    assert_eq!(add["description"], "Add pet (POST /pets).");
    assert_eq!(remove["description"], "Removes a pet for good.");
    assert_eq!(list["parameters"][0]["schema"]["description"], "Allowed values: `sold`, `free`.");
    let size = &add["requestBody"]["content"]["application/json"]["schema"]["properties"]["size"];
    assert_eq!(size["description"], "How big. Allowed values: `S`, `M`, `L`.");
    assert_eq!(doc["components"]["schemas"]["Kind"]["description"], "Allowed values: `cat`, `dog`, `7`.");
    assert_eq!(remove["x-requireConfirmation"], "ENABLED");
    assert!(list.get("x-requireConfirmation").is_none(), "{list}");
    for expected in [
        "changed/value]: the target takes OpenAPI 3.0.0 only: the 3.1.0 document is written as 3.0.0",
        "parameter `status` of `list_pets` are listed in its description instead (`sold`, `free`",
        "(at /tools/0/parameters/0)",
        "parameter `size` of `add_pet` are listed in its description instead (`S`, `M`, `L`",
        "(at /tools/1/parameters/0)",
        "shared schema `Kind` are listed in its description",
        "(at /definitions/Kind)",
        "the result of `list_pets` (property `state` at /properties/state)",
        "generated/content]: operation `add_pet` has no description",
        "(at /tools/1/description)",
    ] {
        assert!(said.contains(expected), "{expected:?} not said:\n{said}");
    }
    insta::assert_snapshot!("bedrock-agent-profile.diagnostics", said);
}

#[test]
fn without_the_profile_nothing_of_it_is_done() {
    for profile in ["plain", "gpt-actions"] {
        let (doc, said) = write(profile);
        assert_ne!(doc["openapi"], "3.0.0");
        assert_eq!(doc["components"]["schemas"]["Kind"]["enum"], json!(["cat", "dog", 7]));
        assert!(doc["paths"]["/pets/{id}"]["delete"].get("x-requireConfirmation").is_none());
        assert!(!said.contains("Bedrock"), "{said}");
    }
}
