//! Hand-written fixtures under fixtures/skydeck/: golden snapshots of what is read, written and
//! reported, and an exact round trip for every strict (`.json`) fixture.

use crate::common;

use common::{report, stem};
use toolport_format_skydeck::SkyDeck;
use toolport_plugin::Severity;
use toolport_testkit::{files_in, fixture, load, output_named, read_write, round_trip};

/// Reads a fixture, checks the (severity, code, path) of its read diagnostics, snapshots the
/// whole report, and for strict JSON checks that writing gives back the same document.
fn check(file: &str, expect: &[(Severity, &str, &str)]) {
    let path = fixture(&format!("skydeck/{file}"));
    let (input, options) = (load(&path), output_named(&stem(&path)));
    let trip = if file.ends_with(".json") {
        // Written back as the same document, and read back as the same model.
        let trip = round_trip(&SkyDeck, &input, &options, file);
        assert!(trip.write_diagnostics.is_empty(), "{file}: {:?}", trip.write_diagnostics);
        trip
    } else {
        read_write(&SkyDeck, &input, &options, file)
    };
    let found: Vec<(Severity, &str, &str)> =
        trip.read_diagnostics.iter().map(|d| (d.severity, d.code.as_str(), d.path.as_str())).collect();
    assert_eq!(found, expect, "{file}:\n{}", common::lines(&trip.read_diagnostics));
    assert_eq!(trip.output().0, format!("{}.json", stem(&path)), "{file}: the output file");
    insta::assert_snapshot!(
        stem(&path),
        report(&trip.model, &trip.read_diagnostics, &trip.written, &trip.write_diagnostics)
    );
}

use Severity::{Info, Warning};

#[test]
fn string_version_array_models_flat_avatar_code_output() {
    check("string-version.json", &[]);
}

#[test]
fn integer_version_string_model_avatar_object_limited_output() {
    check("integer-version.json", &[]);
}

#[test]
fn spanish_prompt_and_values() {
    check("es-resumen.json", &[]);
}

/// `"default": ""` is SkyDeck's empty default: the text must still be filled in, so the
/// parameter is required with no default (targets would otherwise offer an empty text).
#[test]
fn an_empty_text_default_is_no_default() {
    let path = fixture("skydeck/es-resumen.json");
    let trip = round_trip(&SkyDeck, &load(&path), &output_named(&stem(&path)), "es-resumen");
    let texto = trip.model.tools[0].parameter("texto").unwrap();
    assert!(texto.required && texto.schema.default.is_none(), "{texto:?}");
    let idioma = trip.model.tools[0].parameter("idioma de destino").unwrap();
    assert!(!idioma.required && idioma.schema.default.is_some(), "a real default stays one");
}

#[test]
fn spanish_type_names_are_tolerated() {
    check(
        "es-type-names.json",
        &[
            (Warning, "input/tolerated", "/metadata/variables/0/type"),
            (Warning, "input/tolerated", "/metadata/variables/1/type"),
            (Warning, "input/tolerated", "/metadata/variables/2/type"),
        ],
    );
}

#[test]
fn placeholder_mismatches_are_warnings() {
    check(
        "placeholder-mismatch.json",
        &[
            (Warning, "input/unresolved", "/model_prompt"),
            (Warning, "input/unresolved", "/model_prompt"),
            (Warning, "input/unused-variable", "/metadata/variables/1"),
            (Warning, "input/unused-variable", "/metadata/variables/2"),
        ],
    );
}

#[test]
fn trailing_and_missing_commas_are_tolerated() {
    check(
        "trailing-comma.jsonish",
        &[
            (Warning, "input/tolerated", "/metadata/model_version"),
            (Warning, "input/tolerated", "/metadata/variables/0"),
            (Warning, "input/tolerated", "/metadata/variables/1/default"),
            (Warning, "input/tolerated", "/metadata/variables"),
            (Warning, "input/tolerated", "/metadata"),
        ],
    );
}

#[test]
fn unknown_keys_and_odd_values_are_kept() {
    check(
        "unknown-keys.json",
        &[
            (Info, "input/unknown-key", "/license"),
            (Info, "input/unknown-key", "/metadata/category"),
            (Info, "input/unknown-key", "/metadata/creator/url"),
            (Warning, "input/invalid", "/metadata/parameters/temperature"),
            (Warning, "input/invalid", "/metadata/parameters/max_tokens"),
            (Info, "input/unknown-key", "/metadata/parameters/stop"),
            (Info, "input/unknown-key", "/metadata/variables/0/placeholder"),
            (Info, "input/unknown-key", "/metadata/expected_output/max_length"),
            (Warning, "input/invalid", "/metadata/timestamp"),
            (Info, "input/unknown-key", "/metadata/avatar/alt"),
            (Warning, "input/tolerated", "/metadata/avatar"),
            (Warning, "input/unused-variable", "/metadata/variables/1"),
        ],
    );
}

#[test]
fn a_prompt_alone_is_a_tool_named_after_the_file() {
    check("minimal.json", &[]);
}

#[test]
fn every_fixture_has_a_test() {
    let tested = [
        "es-resumen.json",
        "es-type-names.json",
        "integer-version.json",
        "minimal.json",
        "placeholder-mismatch.json",
        "string-version.json",
        "trailing-comma.jsonish",
        "unknown-keys.json",
    ];
    let found: Vec<String> = files_in(&fixture("skydeck"), &["json", "jsonish"])
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(found, tested);
}

/// A tool without `prompt_name` is named after its file, and `NAME.skydeck.json` (how convert
/// names what it writes) is the tool `NAME`: the format's mark is not part of the name.
#[test]
fn a_files_skydeck_mark_is_not_part_of_the_tools_name() {
    use toolport_plugin::{Bundle, Format, Options};
    for (file, name) in [("minimal.json", "minimal"), ("minimal.skydeck.json", "minimal"), ("a.b.json", "a-b")] {
        let mut bundle = Bundle::default();
        bundle.insert(file, r#"{"model_prompt": "Tell me a joke."}"#);
        let read = SkyDeck.read(&bundle, &Options::default());
        let model = read.value.unwrap_or_else(|| panic!("{file}: {:?}", read.diagnostics));
        assert_eq!(model.tools[0].name, name, "{file}");
    }
}
