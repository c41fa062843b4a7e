//! Hand-written fixtures under fixtures/skydeck/: golden snapshots of what is read, written and
//! reported, and an exact round trip for every strict (`.json`) fixture.

mod common;

use common::{json, read_path, report, stem, write_named};
use toolport_plugin::Severity;
use toolport_testkit::{assert_same_json, files_in, fixture};

/// Reads a fixture, checks the (severity, code, path) of its read diagnostics, snapshots the
/// whole report, and for strict JSON checks that writing gives back the same document.
fn check(file: &str, expect: &[(Severity, &str, &str)]) {
    let path = fixture(&format!("skydeck/{file}"));
    let (model, read_diagnostics) = read_path(&path);
    let found: Vec<(Severity, &str, &str)> =
        read_diagnostics.iter().map(|d| (d.severity, d.code.as_str(), d.path.as_str())).collect();
    assert_eq!(found, expect, "{file}:\n{}", common::lines(&read_diagnostics));
    let (bundle, write_diagnostics) = write_named(&model, &stem(&path));
    let written_name = format!("{}.json", stem(&path));
    let written = bundle.get(&written_name).unwrap_or_else(|| panic!("{file}: no {written_name}"));
    if file.ends_with(".json") {
        let original = std::fs::read_to_string(&path).unwrap();
        assert_same_json(&json(&original), &json(written), file);
        assert!(write_diagnostics.is_empty(), "{file}: {write_diagnostics:?}");
        // And read → write → read gives the same model.
        let again = toolport_testkit::expect_ok(
            toolport_plugin::Format::read(
                &toolport_format_skydeck::SkyDeck,
                &toolport_plugin::Bundle::single(written_name.clone(), written),
                &Default::default(),
            ),
            file,
        )
        .0;
        assert_eq!(again, model, "{file}: model after a round trip");
    }
    insta::assert_snapshot!(stem(&path), report(&model, &read_diagnostics, &bundle, &write_diagnostics));
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
