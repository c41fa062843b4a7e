//! Malformed documents give diagnostics with a stable code, the JSON path and
//! file:line:column; the reader never panics and keeps what it can, so a malformed document
//! whose defects were all kept writes back as it was.

use serde_json::Value;
use toolport_format_gloodata::Gloodata;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{assert_same_json, render};

/// Reads `input` as `doc.json` and compares (code, path, line, column) of every diagnostic.
fn check(input: &str, expect: &[(&str, &str, u32, u32)]) {
    let outcome = Gloodata.read(&Bundle::single("doc.json", input), &Options::default());
    let got: Vec<(&str, &str, u32, u32)> = outcome
        .diagnostics
        .iter()
        .map(|d| {
            let span = d.span.as_ref().unwrap_or_else(|| panic!("no position in {d}"));
            assert_eq!(span.file, "doc.json");
            (d.code.as_str(), d.path.as_str(), span.line, span.column)
        })
        .collect();
    assert_eq!(got, expect, "diagnostics:\n{}", render(&outcome.diagnostics));
}

/// A malformed document whose defects were all kept as written comes back as it was.
fn round_trips(input: &str) {
    let model = Gloodata.read(&Bundle::single("doc.json", input), &Options::default()).value.expect("a model");
    let written = Gloodata.write(&model, &Options::default()).value.expect("written");
    let (_, text) = written.entry_file().unwrap();
    let original: Value = serde_json::from_str(input).unwrap();
    assert_same_json(&original, &serde_json::from_str(text).unwrap(), "malformed round trip");
}

#[test]
fn syntax_errors_fail_with_a_position() {
    check("{\n  \"ns\": \"x\",\n  \"tools\": {,}\n}", &[("input/syntax", "", 3, 13)]);
}

#[test]
fn a_document_that_is_not_an_object_fails() {
    let outcome = Gloodata.read(&Bundle::single("doc.json", "\n  [1, 2]"), &Options::default());
    assert!(outcome.value.is_none());
    check("\n  [1, 2]", &[("input/invalid", "", 2, 3)]);
}

#[test]
fn tools_that_are_not_an_object() {
    let input = r#"{
  "ns": "x",
  "title": "X",
  "tools": ["showMap"]
}"#;
    check(input, &[("input/invalid", "/tools", 4, 12)]);
    round_trips(input);
}

#[test]
fn a_field_type_that_is_not_a_json_schema_type() {
    let input = r#"{
  "ns": "x",
  "tools": {
    "t": {
      "schema": {"fields": {"a": {"type": "str"}, "b": {"type": ["string", "int"]}, "c": {"type": 5}}},
      "ui": {"args": {}},
      "examples": []
    }
  }
}"#;
    check(
        input,
        &[
            ("input/invalid", "/tools/t/schema/fields/a/type", 5, 43),
            ("input/invalid", "/tools/t/schema/fields/b/type", 5, 65),
            ("input/invalid", "/tools/t/schema/fields/c/type", 5, 99),
        ],
    );
    round_trips(input);
}

#[test]
fn a_dtype_name_naming_no_value_set() {
    let input = r#"{
  "ns": "x",
  "title": "X",
  "tagValues": {"Country": {"icon": "flag"}},
  "tools": {
    "t": {
      "title": "T",
      "schema": {"fields": {"c": {"type": "string"}}},
      "ui": {"args": {"c": {"prefix": "in", "dtypeName": "Contry"}}},
      "examples": []
    }
  }
}"#;
    check(input, &[("input/unresolved", "/tools/t/ui/args/c/dtypeName", 9, 58)]);
    round_trips(input);
}

#[test]
fn values_of_the_wrong_type_are_reported_and_kept() {
    check(
        r#"{
  "ns": 7,
  "title": "X",
  "description": ["not", "text"],
  "tagValues": {
    "A": {"entries": [["K"]], "matchHandlerId": 3},
    "B": "flag"
  },
  "handlers": "all",
  "tools": {
    "t": {
      "title": "T",
      "description": 3,
      "schema": {"fields": {"a": {"type": "string", "multiline": "yes", "enum": "x"}, "b": 1}},
      "ui": {"prefix": "T", "manualUpdate": "no", "args": {"a": 5}},
      "contextActions": [{"handler": "h"}],
      "examples": ["ok", 2]
    },
    "u": 1,
    "v": {"title": "V", "schema": {"fields": []}, "ui": "none", "examples": "none"}
  }
}"#,
        &[
            ("input/invalid", "/tagValues/A/entries", 6, 22),
            ("input/invalid", "/tagValues/A/matchHandlerId", 6, 49),
            ("input/invalid", "/tagValues/B", 7, 10),
            ("input/invalid", "/ns", 2, 9),
            ("input/invalid", "/description", 4, 18),
            ("input/invalid", "/handlers", 9, 15),
            ("input/invalid", "/tools/t/description", 13, 22),
            ("input/invalid", "/tools/t/schema/fields/a/multiline", 14, 66),
            ("input/invalid", "/tools/t/schema/fields/a/enum", 14, 81),
            ("input/invalid", "/tools/t/schema/fields/b", 14, 92),
            ("input/invalid", "/tools/t/contextActions/0", 16, 26),
            ("input/invalid", "/tools/t/examples/1", 17, 26),
            ("input/invalid", "/tools/t/ui/manualUpdate", 15, 45),
            ("input/invalid", "/tools/t/ui/args/a", 15, 65),
            ("input/invalid", "/tools/u", 19, 10),
            ("input/invalid", "/tools/v/schema/fields", 20, 46),
            ("input/invalid", "/tools/v/examples", 20, 77),
            ("input/invalid", "/tools/v/ui", 20, 57),
        ],
    );
}

#[test]
fn both_tools_and_functions() {
    let input = r#"{"ns": "x", "title": "X", "tools": {}, "functions": {"old": {}}}"#;
    check(input, &[("input/tolerated", "/functions", 1, 53)]);
    round_trips(input);
}

#[test]
fn missing_ns_and_tools() {
    let input = r#"{"title": "X"}"#;
    check(input, &[("input/invalid", "", 1, 1), ("input/invalid", "", 1, 1)]);
    round_trips(input);
}

#[test]
fn array_and_union_types_are_unsupported() {
    // An array field is read, but written back as a string field with a loss diagnostic.
    let input = r#"{"ns": "x", "tools": {"t": {"title": "T", "schema": {"fields": {
  "a": {"type": "array"},
  "b": {"type": ["string", "integer"]}
}}, "ui": {"args": {}}, "examples": []}}}"#;
    check(
        input,
        &[
            ("input/unsupported", "/tools/t/schema/fields/a/type", 2, 17),
            ("input/unsupported", "/tools/t/schema/fields/b/type", 3, 17),
        ],
    );
}

#[test]
fn an_input_without_files_fails() {
    let outcome = Gloodata.read(&Bundle::default(), &Options::default());
    assert!(outcome.value.is_none());
    assert_eq!(outcome.diagnostics[0].code, "input/missing-file");
}
