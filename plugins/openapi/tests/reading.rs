//! The reader's own rules, moved here from unit tests in src/read/ (the crate builds no unit-test
//! binary of its own: with its opt-level, that build alone cost about 31 CPU seconds).

use serde_json::{Map, Value, json};
use toolport_format_openapi::OpenApi;
use toolport_plugin::{Bundle, Format, Options};

use crate::map_copy::copy_without;

/// `copy_without` leaves what cloning and removing with `Map::remove` leaves, order included.
#[test]
fn copy_without_matches_clone_and_remove() {
    let Value::Object(map) = json!({"a": 1, "b": {"x": 2}, "c": [3], "d": null, "e": "5"}) else { unreachable!() };
    let cases: [&[&str]; 6] = [&[], &["a"], &["e"], &["b", "d"], &["d", "a", "zz"], &["a", "b", "c", "d", "e"]];
    for keys in cases {
        let mut expected: Map<String, Value> = map.clone();
        for key in keys {
            expected.remove(*key);
        }
        let copied = copy_without(&map, keys);
        let order = |m: &Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
        assert_eq!(order(&copied), order(&expected), "{keys:?}");
        assert_eq!(copied, expected, "{keys:?}");
    }
}

/// A parameter whose `required` is `written` (YAML) is read as `expect`, with a warning at
/// its `required` saying so unless it is a boolean (or absent).
#[track_caller]
fn check_required(written: &str, expect: bool, says: Option<&str>) {
    let text = format!(
        "openapi: 3.0.0\npaths:\n  /a:\n    post:\n      operationId: a\n      parameters: [{{name: q, in: query, required: {written}}}]\n      requestBody: {{required: {written}, content: {{text/plain: {{schema: {{type: string}}}}}}}}\n"
    );
    let outcome = OpenApi.read(&Bundle::single("doc.yaml", text.as_str()), &Options::default());
    let model = outcome.value.unwrap_or_else(|| panic!("{written}: {:?}", outcome.diagnostics));
    let parameters = &model.tools[0].parameters;
    assert_eq!((parameters[0].required, parameters[1].required), (expect, expect), "{written}");
    let warnings: Vec<(&str, &str)> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.path.ends_with("/required"))
        .map(|d| (d.path.as_str(), d.message.as_str()))
        .collect();
    match says {
        None => assert!(warnings.is_empty(), "{written}: {warnings:?}"),
        Some(says) => {
            let at = ["/paths/~1a/post/parameters/0/required", "/paths/~1a/post/requestBody/required"];
            assert_eq!(warnings.iter().map(|w| w.0).collect::<Vec<_>>(), at, "{written}");
            assert!(warnings.iter().all(|w| w.1.contains(says)), "{written}: {warnings:?}");
        }
    }
}

#[test]
fn a_required_that_is_not_a_boolean_is_read_as_it_says_and_said() {
    check_required("true", true, None);
    check_required("false", false, None);
    check_required(
        "yes",
        true,
        Some("`required` is a boolean, not a string: \"yes\" is not one; it is read as required (true)"),
    );
    check_required("'true'", true, Some("\"true\" is not one; it is read as required (true)"));
    check_required("1", true, Some("not a number: 1 is not one; it is read as required (true)"));
    check_required("'off'", false, Some("it is read as not required (false)"));
    check_required("0", false, Some("it is read as not required (false)"));
    check_required("maybe", false, Some("it says neither true nor false, so it is read as not required (false)"));
    check_required("[true]", false, Some("not an array: [true] is not one"));
}
