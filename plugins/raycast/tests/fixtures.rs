//! Fixture extensions under fixtures/raycast/: what is read from them (golden model and
//! diagnostics), what is written back (golden files), and raycast → raycast round trips.

use crate::common;

use insta::{assert_json_snapshot, assert_snapshot};
use toolport_format_raycast::Raycast;
use toolport_plugin::{Bundle, Diagnostic, Format, Options, ToolSet};
use toolport_testkit::{fixture, load, render};

const FIXTURES: [&str; 6] = ["forms", "types", "ai-yaml", "ai-json5", "wrapped-json", "broken"];

fn read(name: &str) -> (ToolSet, Vec<Diagnostic>) {
    let outcome = Raycast.read(&load(&fixture(&format!("raycast/{name}"))), &Options::default());
    (
        outcome.value.unwrap_or_else(|| panic!("{name}: read failed:\n{}", render(&outcome.diagnostics))),
        outcome.diagnostics,
    )
}

fn write(model: &ToolSet) -> (Bundle, Vec<Diagnostic>) {
    let outcome = Raycast.write(model, &Options::default());
    (outcome.value.expect("write"), outcome.diagnostics)
}

/// Every written file, one after another, for a golden snapshot.
fn files(bundle: &Bundle) -> String {
    bundle.files.iter().map(|(path, text)| format!("==> {path} <==\n{text}\n")).collect()
}

#[test]
fn fixtures_read_to_the_golden_model() {
    for name in FIXTURES {
        let (mut model, diagnostics) = read(name);
        // The extension's files are kept in the model as they are (carry.rs compares them).
        if let Some(serde_json::Value::Object(extras)) = model.extras.get_mut("raycast") {
            assert!(extras.remove("source_files").is_some(), "{name}: the extension's files are not kept");
        }
        assert_json_snapshot!(format!("{name}.model"), model);
        assert_snapshot!(format!("{name}.read-diagnostics"), render(&diagnostics));
    }
}

#[test]
fn fixtures_write_the_golden_files() {
    for name in FIXTURES {
        let (model, _) = read(name);
        let (bundle, diagnostics) = write(&model);
        assert_snapshot!(format!("{name}.written"), files(&bundle));
        assert_snapshot!(format!("{name}.write-diagnostics"), render(&diagnostics));
    }
}

/// raycast → raycast gives the same model, except where the writer had to write a type
/// Raycast's schema generator reads (`types` has `string | null`, a `Record` and an
/// unresolved import: `changed/schema`) or a value Raycast requires that the fixture lacks
/// (commands, categories, license, a tool's description: `generated/*`). A second round
/// generates nothing more: what was generated is then the source's own.
#[test]
fn fixtures_round_trip_to_the_same_model() {
    for name in FIXTURES {
        let (model, _) = read(name);
        let (bundle, diagnostics) = write(&model);
        let again = Raycast.read(&bundle, &Options::default()).value.expect("re-read");
        common::assert_same_model_but_reported(&model, &again, &diagnostics, name);
        let (_, second) = write(&again);
        let generated: Vec<&Diagnostic> = second.iter().filter(|d| d.code == "generated/content").collect();
        assert!(generated.is_empty(), "{name}: generated again:\n{generated:#?}");
    }
}
