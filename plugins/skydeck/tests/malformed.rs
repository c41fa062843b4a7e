//! Broken input: every problem is a diagnostic with a code, a path and (where it can be found)
//! a line and column; nothing panics.

use toolport_format_skydeck::SkyDeck;
use toolport_plugin::{Bundle, Format, Options, Severity};

/// What one diagnostic must say: severity, code, path, and line:column when known.
type Expect<'a> = (Severity, &'a str, &'a str, Option<(u32, u32)>);

/// Reads `text` as `tool.json`; `read` says whether a model must still come out.
fn check(text: &str, read: bool, expect: &[Expect]) {
    let outcome = SkyDeck.read(&Bundle::single("tool.json", text), &Options::default());
    assert_eq!(outcome.value.is_some(), read, "{text}\n{:?}", outcome.diagnostics);
    let found: Vec<Expect> = outcome
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.code.as_str(), d.path.as_str(), d.span.as_ref().map(|s| (s.line, s.column))))
        .collect();
    assert_eq!(found, expect, "{text}");
    for diagnostic in &outcome.diagnostics {
        if let Some(span) = &diagnostic.span {
            assert_eq!(span.file, "tool.json");
        }
    }
}

use Severity::{Error, Info, Warning};

#[test]
fn a_missing_comma_on_one_line_fails_with_its_position() {
    check(
        "{\n  \"model_prompt\": \"Hi {{x}}\"\n  \"metadata\": {\"variables\": [{\"name\": \"x\" \"type\": \"text\"}]}\n}",
        false,
        &[(Error, "input/syntax", "", Some((3, 43)))],
    );
}

#[test]
fn broken_json_fails_with_its_position() {
    check("{\"model_prompt\": \"Hi\",\n  \"metadata\": {\n", false, &[(Error, "input/syntax", "", Some((3, 0)))]);
    check("{\"model_prompt\": \"unterminated}", false, &[(Error, "input/syntax", "", Some((1, 31)))]);
    check("[1, 2]", false, &[(Error, "input/invalid", "", Some((1, 1)))]);
}

#[test]
fn model_prompt_not_a_string_is_an_error_with_a_path() {
    check(
        "{\"model_prompt\": [\"Hi\"], \"metadata\": {\"prompt_name\": \"X\"}}",
        true,
        &[(Error, "input/invalid", "/model_prompt", Some((1, 18)))],
    );
}

#[test]
fn variables_not_an_array_is_an_error_with_a_path() {
    check(
        "{\"model_prompt\": \"Hi\",\n \"metadata\": {\"variables\": {\"name\": \"x\"}}}",
        true,
        &[(Error, "input/invalid", "/metadata/variables", Some((2, 28)))],
    );
}

#[test]
fn an_unknown_variable_type_is_a_warning_with_a_path() {
    check(
        "{\"model_prompt\": \"{{n}}\", \"metadata\": {\"variables\": [{\"name\": \"n\", \"type\": \"number\"}]}}",
        true,
        &[(Warning, "input/invalid", "/metadata/variables/0/type", Some((1, 76)))],
    );
}

#[test]
fn broken_variables_are_skipped_with_a_path() {
    check(
        r#"{"model_prompt": "{{a}}", "metadata": {"variables": ["a", {"type": "text"}, {"name": "a", "type": 3, "default": 1}]}}"#,
        true,
        &[
            (Error, "input/invalid", "/metadata/variables/0", Some((1, 54))),
            (Error, "input/invalid", "/metadata/variables/1", Some((1, 59))),
            (Warning, "input/invalid", "/metadata/variables/2/type", Some((1, 99))),
            (Warning, "input/invalid", "/metadata/variables/2/default", Some((1, 113))),
        ],
    );
}

#[test]
fn wrong_types_in_metadata_are_reported_and_kept() {
    check(
        r#"{"version": 1.5, "model_prompt": "x", "metadata": {"prompt_name": 7, "model_version": [1], "creator": "me", "expected_output": {"allowed_values": "a"}, "avatar_type": "emoji", "avatar": "x", "variables": [{"name": "s", "type": "single-select", "default": "z", "allowed_values": ["a"]}]}}"#,
        true,
        &[
            (Warning, "input/invalid", "/version", Some((1, 13))),
            (Warning, "input/invalid", "/metadata/prompt_name", Some((1, 67))),
            (Warning, "input/invalid", "/metadata/model_version", Some((1, 87))),
            (Warning, "input/invalid", "/metadata/creator", Some((1, 103))),
            (Warning, "input/invalid", "/metadata/expected_output/allowed_values", Some((1, 147))),
            (Warning, "input/invalid", "/metadata/variables/0/default", Some((1, 256))),
            (Warning, "input/invalid", "/metadata/avatar", Some((1, 187))),
            (Warning, "input/unused-variable", "/metadata/variables/0", Some((1, 206))),
        ],
    );
}

#[test]
fn odd_but_readable_documents() {
    check("{}", true, &[(Warning, "input/invalid", "", Some((1, 1)))]);
    check(
        "\u{feff}{\"model_prompt\": \"x\", \"metadata\": {\"avatar\": \"https://x.invalid/a.png\"}}",
        true,
        &[(Info, "input/tolerated", "", Some((1, 1))), (Info, "input/tolerated", "/metadata/avatar", Some((1, 46)))],
    );
    check(
        "{\"model_prompt\": \"{{a}}\", \"metadata\": {\"variables\": [{\"name\": \"a\"}]}}",
        true,
        &[(Info, "input/tolerated", "/metadata/variables/0", Some((1, 54)))],
    );
}

#[test]
fn an_input_without_an_entry_file_is_an_error() {
    let mut bundle = Bundle::default();
    bundle.insert("a.json", "{}");
    bundle.insert("b.json", "{}");
    let outcome = SkyDeck.read(&bundle, &Options::default());
    assert!(outcome.value.is_none());
    assert_eq!(outcome.diagnostics[0].code, "input/missing-file");
}

#[test]
fn no_prefix_of_a_real_file_panics() {
    for file in ["skydeck/synthetic--llm-tool--as-printed-quirks.jsonish", "skydeck/synthetic--llm-tool--strict.json"] {
        let text = std::fs::read_to_string(toolport_testkit::corpus(file)).unwrap();
        for (end, _) in text.char_indices() {
            let bundle = Bundle::single("t.json", &text[..end]);
            let outcome = SkyDeck.read(&bundle, &Options::default());
            assert!(outcome.value.is_some() || outcome.has_errors(), "{file} cut at {end}");
            SkyDeck.detect(&bundle);
            if let Some(model) = outcome.value {
                SkyDeck.write(&model, &Options::default());
            }
        }
    }
}
