//! Reading and writing each dialect through the public API, one `check` per case.

use indexmap::IndexMap;
use serde_json::{Value, json};
use toolport_core::{EnumValue, Schema, SchemaType, ValueSet, codes};

use toolport_jsonschema::*;

/// Reads `input` (the root document) as `from`, writes it as `to`, and compares the written
/// schema and the diagnostic codes (reading's first, then writing's).
#[track_caller]
fn check(from: Dialect, input: Value, to: Dialect, expect: Value, expect_codes: &[&str]) {
    let (schema, mut diagnostics) = read(&input, from);
    let (written, more) = write(&schema, to, "/s");
    diagnostics.extend(more);
    assert_eq!(written, expect, "written {to:?} from {from:?}; canonical: {}", serde_json::to_string(&schema).unwrap());
    let got: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(got, expect_codes, "{diagnostics:#?}");
}

use Dialect::{Gemini, JsonSchema as J, OpenApi30 as O30, OpenApi31 as O31};

#[test]
fn same_dialect_round_trips_are_exact() {
    let cases = [
        (
            J,
            json!({"type": "object", "properties": {"a": {"type": ["string", "null"], "examples": ["x"]}, "b": {"type": "integer", "exclusiveMinimum": 0}}, "required": ["a"], "additionalProperties": false}),
        ),
        (
            O30,
            json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true, "example": "x"}, "n": {"type": "number", "minimum": 1, "exclusiveMinimum": true}}, "required": ["a"]}),
        ),
        (J, json!({"oneOf": [{"type": "string"}, {"type": "integer"}], "description": "d"})),
        (J, json!({"type": ["string", "integer"]})),
        (J, json!({"type": "string", "const": "x", "$comment": "kept", "deprecated": true})),
        (O30, json!({"type": "string", "x-custom": {"a": 1}, "readOnly": true, "nullable": false})),
        (
            J,
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1, "uniqueItems": true}),
        ),
        (J, json!({"type": "object", "required": ["ghost"], "properties": {"a": {}}})),
        (J, json!({"default": null})),
        (J, json!({"type": "null"})),
    ];
    for (dialect, input) in cases {
        check(dialect, input.clone(), dialect, input, &[]);
    }
}

#[test]
fn refs_are_resolved_and_memoized() {
    let doc = json!({
        "$defs": {"Name": {"type": "string", "description": "a name"}},
        "type": "object",
        "properties": {
            "first": {"$ref": "#/$defs/Name"},
            "last": {"$ref": "#/$defs/Name", "description": "family name"},
            "old": {"$ref": "#/definitions/Old"}
        },
        "definitions": {"Old": {"type": "integer"}}
    });
    check(
        J,
        doc,
        J,
        json!({"type": "object", "properties": {
            "first": {"type": "string", "description": "a name"},
            "last": {"type": "string", "description": "family name"},
            "old": {"type": "integer"}
        }}),
        &[],
    );
    let components = json!({"components": {"schemas": {"Pet": {"type": "object", "properties": {"id": {"type": "integer"}}}}},
        "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}});
    let mut reader = Reader::new(&components, O30);
    let schema = reader.read(&components["schema"], "/schema");
    // Named schemas stay references, read once into the reader's definitions.
    assert_eq!(write(&schema, O30, "").0, json!({"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}));
    assert_eq!(write(&schema, J, "").0, json!({"type": "array", "items": {"$ref": "#/$defs/Pet"}}));
    let again = reader.read(&components["schema"], "/schema");
    assert_eq!(again, schema);
    let definitions = reader.take_definitions();
    assert_eq!(definitions.keys().collect::<Vec<_>>(), ["Pet"]);
    // Gemini has no references: they are inlined.
    let (gemini, diagnostics) = Writer::new(Gemini).with_definitions(&definitions).write(&schema, "");
    assert_eq!(
        gemini,
        json!({"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}})
    );
    assert!(diagnostics.is_empty());
}

/// Reads `doc` keeping references and compares the written root, the definitions (written
/// in the same dialect) and the diagnostic codes.
#[track_caller]
fn check_definitions(doc: Value, expect_root: Value, expect_definitions: Value, expect_codes: &[&str]) {
    let (schema, definitions, diagnostics) = read_with_definitions(&doc, J);
    assert_eq!(write(&schema, J, "").0, expect_root);
    let written: serde_json::Map<String, Value> =
        definitions.iter().map(|(name, d)| (name.clone(), write(d, J, "").0)).collect();
    assert_eq!(Value::Object(written), expect_definitions);
    let got: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(got, expect_codes);
}

#[test]
fn named_schemas_become_definitions() {
    // Colliding names from two containers get a suffix; siblings of `$ref` are kept.
    check_definitions(
        json!({"$defs": {"A": {"type": "string"}, "a/b": {"type": "integer"}}, "definitions": {"A": {"type": "boolean"}},
            "properties": {"x": {"$ref": "#/$defs/A", "description": "d"}, "y": {"$ref": "#/definitions/A"}, "z": {"$ref": "#/$defs/a~1b"}}}),
        json!({"properties": {"x": {"$ref": "#/$defs/A", "description": "d"}, "y": {"$ref": "#/$defs/A_2"}, "z": {"$ref": "#/$defs/a~1b"}}}),
        json!({"A": {"type": "string"}, "A_2": {"type": "boolean"}, "a/b": {"type": "integer"}}),
        &[],
    );
    // Recursive definitions are fine as references; deep pointers are still inlined.
    check_definitions(
        json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
            "properties": {"head": {"$ref": "#/$defs/Node"}, "n": {"$ref": "#/$defs/Node/properties/next"}}}),
        json!({"properties": {"head": {"$ref": "#/$defs/Node"}, "n": {"$ref": "#/$defs/Node"}}}),
        json!({"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}),
        &[],
    );
    // `$ref`s inside kept keywords name definitions too and follow the target's prefix.
    let doc = json!({"components": {"schemas": {"Acct": {"type": "string"}}},
        "s": {"type": "string", "x-expandable": {"oneOf": [{"$ref": "#/components/schemas/Acct"}]}}});
    let mut reader = Reader::new(&doc, O30);
    let schema = reader.read(&doc["s"], "/s");
    let definitions = reader.take_definitions();
    assert_eq!(definitions.keys().collect::<Vec<_>>(), ["Acct"]);
    assert_eq!(toolport_core::definitions::referenced(&schema, &definitions), ["Acct"]);
    assert_eq!(
        write(&schema, J, "").0,
        json!({"type": "string", "x-expandable": {"oneOf": [{"$ref": "#/$defs/Acct"}]}})
    );
    assert_eq!(write(&schema, O30, "").0, doc["s"]);
    let (inlined, diagnostics) = Writer::new(J).with_reference_prefix(None).write(&schema, "");
    assert_eq!((inlined, diagnostics[0].code.as_str()), (json!({"type": "string"}), "loss/schema"));

    // Gemini inlines with one loss where the recursion is cut.
    let doc = json!({"$defs": {"Node": {"type": "object", "description": "n", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "$ref": "#/$defs/Node"});
    let (schema, definitions, _) = read_with_definitions(&doc, J);
    let (written, diagnostics) = Writer::new(Gemini).with_definitions(&definitions).write(&schema, "/s");
    assert_eq!(
        written,
        json!({"type": "object", "description": "n", "properties": {"next": {"type": "object", "description": "n"}}})
    );
    let got: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_str())).collect();
    assert_eq!(got, [("loss/schema", "/s/properties/0/schema/reference")]);
}

#[test]
fn recursive_remote_and_missing_refs_give_diagnostics() {
    let doc = json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "properties": {"head": {"$ref": "#/$defs/Node"}, "more": {"$ref": "#/$defs/Node"}}});
    check(
        J,
        doc,
        J,
        json!({"properties": {
            "head": {"type": "object", "properties": {"next": {"type": "object"}}},
            "more": {"type": "object", "properties": {"next": {"type": "object"}}}
        }}),
        &["input/tolerated"],
    );
    check(
        J,
        json!({"properties": {"a": {"$ref": "https://example.com/s.json"}, "b": {"$ref": "#/nope"}}}),
        J,
        json!({"properties": {"a": {"$ref": "https://example.com/s.json"}, "b": {"$ref": "#/nope"}}}),
        &["input/unresolved", "input/unresolved"],
    );
}

#[test]
fn all_of_is_merged_and_nullable_maps_both_ways() {
    let doc = json!({"$defs": {"Base": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
        "allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"name": {"type": "string"}}, "required": ["name"]}]});
    check(
        J,
        doc,
        O30,
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}, "required": ["id", "name"]}),
        &[],
    );
    check(O30, json!({"type": "string", "nullable": true}), J, json!({"type": ["string", "null"]}), &[]);
    check(O31, json!({"type": ["integer", "null"]}), O30, json!({"type": "integer", "nullable": true}), &[]);
    check(
        O30,
        json!({"nullable": true, "anyOf": [{"type": "string"}]}),
        J,
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        &[],
    );
}

#[test]
fn dialect_specific_forms_are_translated() {
    check(
        J,
        json!({"type": "number", "exclusiveMaximum": 5, "examples": [1, 2]}),
        O30,
        json!({"type": "number", "example": 1, "maximum": 5, "exclusiveMaximum": true}),
        &["loss/schema"],
    );
    check(
        O30,
        json!({"type": "number", "maximum": 5, "exclusiveMaximum": true}),
        J,
        json!({"type": "number", "exclusiveMaximum": 5}),
        &[],
    );
    check(
        J,
        json!({"type": "string", "const": "a", "if": {}}),
        O30,
        json!({"type": "string"}),
        &["loss/schema", "loss/schema"],
    );
    check(
        J,
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        O30,
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        &[],
    );
}

#[test]
fn gemini_subset_is_enforced_with_diagnostics() {
    check(
        J,
        json!({"type": "integer", "enum": [1, 2], "default": 1}),
        Gemini,
        json!({"type": "string", "enum": ["1", "2"], "default": "1"}),
        &["changed/schema"],
    );
    check(
        J,
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        Gemini,
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
        &["changed/schema"],
    );
    check(
        J,
        json!({"type": "array", "uniqueItems": true, "items": {"type": "string", "const": "x"}}),
        Gemini,
        json!({"type": "array", "items": {"type": "string"}}),
        &["loss/schema", "loss/schema"],
    );
    check(
        J,
        json!({"type": ["string", "null"], "exclusiveMinimum": 1}),
        Gemini,
        json!({"type": "string", "nullable": true, "minimum": 1}),
        &["changed/schema"],
    );
}

#[test]
fn labels_value_sets_and_multiline_survive_rich_dialects() {
    let mut schema = Schema::of(SchemaType::String);
    schema.enumeration = Some(vec![EnumValue { value: json!("a"), label: Some("Alpha".into()) }, EnumValue::new("b")]);
    schema.multiline = true;
    let (written, diagnostics) = write(&schema, O30, "");
    assert!(diagnostics.is_empty());
    assert_eq!(read(&written, O30).0, schema);
    let (_, diagnostics) = write(&schema, Gemini, "/p");
    let paths: Vec<&str> = diagnostics.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["/p/enum", "/p/multiline"]);

    let mut sets = IndexMap::new();
    sets.insert("colors".to_owned(), ValueSet { entries: vec![EnumValue::new("red")], ..ValueSet::default() });
    let schema = Schema { value_set: Some("colors".into()), ..Schema::of(SchemaType::String) };
    let (written, _) = Writer::new(Gemini).with_value_sets(&sets).write(&schema, "");
    assert_eq!(written, json!({"type": "string", "enum": ["red"]}));
}

#[test]
fn deep_reference_chains_are_read_without_nesting() {
    let mut defs = serde_json::Map::new();
    for i in 0..100 {
        defs.insert(
            format!("S{i}"),
            json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/S{}", i + 1)}}}),
        );
    }
    defs.insert("S100".into(), json!({"type": "string"}));
    let doc = json!({"$defs": defs, "$ref": "#/$defs/S0"});
    let (_, definitions, diagnostics) = read_with_definitions(&doc, J);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(definitions.len(), 101);
}

#[test]
fn other_languages_type_names_are_read_as_json_schema_types() {
    let c = "changed/schema";
    // (read as JSON Schema, written back, diagnostic codes)
    let cases = [
        (
            json!({"type": "dict", "properties": {"a": {"type": "str"}}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            vec![c, c],
        ),
        (
            json!({"type": "list", "items": {"type": "int"}}),
            json!({"type": "array", "items": {"type": "integer"}}),
            vec![c, c],
        ),
        (json!({"type": "tuple"}), json!({"type": "array"}), vec![c]),
        (json!({"type": "float", "minimum": 0}), json!({"type": "number", "minimum": 0}), vec![c]),
        (json!({"type": "bool"}), json!({"type": "boolean"}), vec![c]),
        (json!({"type": "any", "description": "Anything."}), json!({"description": "Anything."}), vec![c]),
        (json!({"type": ["str", "null"]}), json!({"type": ["string", "null"]}), vec![c]),
        (json!({"type": ["any", "null"]}), json!({}), vec![c]),
        // Not a type of any language toolport knows: kept as written, as before.
        (json!({"type": "dictionary"}), json!({"type": "dictionary"}), vec!["input/invalid"]),
        (json!({"type": ["str", "thing"]}), json!({"type": ["str", "thing"]}), vec![]),
    ];
    for (input, expect, codes) in cases {
        check(J, input, J, expect, &codes);
    }
    let (_, diagnostics) = read(&json!({"type": "object", "properties": {"when": {"type": "float"}}}), O30);
    let said: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.path.as_str(), d.message.as_str())).collect();
    assert_eq!(said, [("/properties/when/type", "type `float` is not a JSON Schema type; read as `number`")]);
}

#[test]
fn a_required_name_of_the_wrong_kind_costs_only_itself() {
    let input = json!({"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a", 7, null, "b"]});
    let expect = json!({"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a", "b"]});
    check(J, input.clone(), J, expect, &[codes::INPUT_TOLERATED, codes::INPUT_TOLERATED]);
    let (_, diagnostics) = read(&input, J);
    let said: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.path.as_str(), d.message.as_str())).collect();
    assert_eq!(
        said,
        [
            (
                "/required/1",
                "`required` lists property names, not a number: 7 is left out, the names beside it are read"
            ),
            (
                "/required/2",
                "`required` lists property names, not null: null is left out, the names beside it are read"
            ),
        ]
    );
}

#[test]
fn a_null_alternative_is_folded_into_nullable_for_openapi_30() {
    // One typed alternative: the schema itself, nullable (3.0.3: `nullable` counts beside a type).
    let one = json!({"description": "d", "anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]});
    check(J, one.clone(), O30, json!({"type": "string", "format": "date", "nullable": true, "description": "d"}), &[]);
    check(J, one, Gemini, json!({"type": "string", "format": "date", "nullable": true, "description": "d"}), &[]);
    check(
        J,
        json!({"oneOf": [{"type": "null"}, {"type": "integer", "enum": [1, 2]}]}),
        O30,
        json!({"type": "integer", "enum": [1, 2, null], "nullable": true}),
        &[],
    );
    // Keywords that clash stay apart: the alternative alone, nullable.
    check(
        J,
        json!({"description": "outer", "anyOf": [{"type": "string", "description": "inner"}, {"type": "null"}]}),
        O30,
        json!({"description": "outer", "anyOf": [{"type": "string", "description": "inner", "nullable": true}]}),
        &[],
    );
    // Several: each nullable, under anyOf (null would match every alternative of a oneOf).
    check(
        J,
        json!({"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "object", "properties": {"a": {"type": "integer"}}}]}),
        O30,
        json!({"anyOf": [{"type": "string", "nullable": true}, {"type": "object", "nullable": true, "properties": {"a": {"type": "integer"}}}]}),
        &[],
    );
    // What cannot carry `nullable` (a reference ignores its siblings in 3.0) keeps the null
    // branch, said as a change.
    let doc = json!({"$defs": {"A": {"type": "string"}}, "oneOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]});
    let (schema, _, _) = read_with_definitions(&doc, J);
    let (written, diagnostics) = write(&schema, O30, "/s");
    assert_eq!(written, json!({"oneOf": [{"$ref": "#/components/schemas/A"}, {"nullable": true}]}));
    assert_eq!(diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["changed/schema"]);
    check(
        J,
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}),
        O30,
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"nullable": true}]}),
        &["changed/schema"],
    );
}

/// A loss deep in a schema is said at its model path, through every kind of nesting (property,
/// items, additional properties, an alternative); the writer writes a place out only for a
/// diagnostic.
#[test]
fn a_loss_deep_in_a_schema_names_its_model_path() {
    let input = json!({"type": "object", "properties": {"keep": {"type": "string"}, "list": {"type": "array",
        "items": {"type": "object", "additionalProperties": {"anyOf": [{"type": "string"},
            {"type": "array", "items": {"type": "string"}, "uniqueItems": true}]}}}}});
    let (schema, _) = read(&input, J);
    let (_, diagnostics) = write(&schema, Gemini, "/tools/0/parameters/1/schema");
    let got: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_str())).collect();
    assert_eq!(
        got,
        [(
            "loss/schema",
            "/tools/0/parameters/1/schema/properties/1/schema/items/additional_properties/any_of/1/unique_items"
        )]
    );
}

/// A parameter list is written, in every dialect, as the object schema of its parameters
/// would be, diagnostics and their places included (a reference among them too, through the
/// copies inlining makes).
#[test]
fn a_parameter_list_is_written_as_its_object_schema() {
    use toolport_core::{Parameter, Property};
    let (city, _) = read(&json!({"type": "string", "format": "uri-template", "description": "a city"}), J);
    let (days, _) = read(&json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true}), J);
    let named = Schema { reference: Some("Place".into()), ..Schema::default() };
    for list in [vec![("city", true, city.clone()), ("days", false, days.clone())], vec![("at", true, named)], vec![]] {
        let parameters: Vec<Parameter> = list
            .iter()
            .map(|(name, required, schema)| Parameter { required: *required, ..Parameter::new(*name, schema.clone()) })
            .collect();
        let properties = list.iter().map(|(name, required, schema)| Property {
            name: (*name).into(),
            required: *required,
            schema: schema.clone(),
        });
        let object = Schema { properties: properties.collect(), ..Schema::of(SchemaType::Object) };
        for dialect in [J, O30, O31, Gemini] {
            let writer = Writer::new(dialect);
            assert_eq!(writer.write_parameters(&parameters, "/p"), writer.write(&object, "/p"), "{dialect:?} {list:?}");
        }
    }
}
