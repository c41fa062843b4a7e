//! Fixture extensions under fixtures/raycast/: what is read from them (golden model and
//! diagnostics), what is written back (golden files), and raycast → raycast round trips.

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
        let (model, diagnostics) = read(name);
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

/// Leaf values of a JSON document by JSON pointer.
fn leaves(value: &serde_json::Value, at: String, out: &mut std::collections::BTreeMap<String, serde_json::Value>) {
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                leaves(v, format!("{at}/{k}"), out);
            }
        }
        serde_json::Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{at}/{i}"), out);
            }
        }
        other => {
            out.insert(at, other.clone());
        }
    }
}

/// raycast → raycast gives the same model, except where the writer had to write a type
/// Raycast's schema generator reads (`types` has `string | null`, a `Record` and an
/// unresolved import): each such difference lies under a `changed/schema` it reported.
#[test]
fn fixtures_round_trip_to_the_same_model() {
    for name in FIXTURES {
        let (model, _) = read(name);
        let (bundle, diagnostics) = write(&model);
        let again = Raycast.read(&bundle, &Options::default()).value.expect("re-read");
        let expected = serde_json::to_value(&model).unwrap();
        let actual = serde_json::to_value(&again).unwrap();
        let changed: Vec<&str> =
            diagnostics.iter().filter(|d| d.code == "changed/schema").map(|d| d.path.as_str()).collect();
        if changed.is_empty() {
            toolport_testkit::assert_same_json(&expected, &actual, name);
            assert_eq!(model, again, "{name}");
            continue;
        }
        let (mut before, mut after) = (Default::default(), Default::default());
        leaves(&expected, String::new(), &mut before);
        leaves(&actual, String::new(), &mut after);
        let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        let unreported: Vec<String> = keys
            .into_iter()
            .filter(|k| before.get(*k) != after.get(*k))
            .filter(|k| !changed.iter().any(|c| k.as_str() == *c || k.starts_with(&format!("{c}/"))))
            .map(|k| format!("{k}: {:?} -> {:?}", before.get(k), after.get(k)))
            .collect();
        assert!(
            unreported.is_empty(),
            "{name}: changed without a changed/schema diagnostic:\n{}",
            unreported.join("\n")
        );
    }
}
