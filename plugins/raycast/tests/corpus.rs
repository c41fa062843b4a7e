//! Every real extension in the shared corpus reads (tools without TypeScript are warnings),
//! and writing it back gives the same package.json and AI file as JSON/YAML values.

use serde_json::Value;
use toolport_format_raycast::Raycast;
use toolport_plugin::{Format, Options, Severity};
use toolport_testkit::{assert_same_json, corpus, load, read_ok, render};

fn extensions() -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(corpus("raycast"))
        .expect("corpus/raycast")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "expected the raycast corpus, found {}", dirs.len());
    dirs
}

fn parse(path: &str, text: &str) -> Value {
    if path.ends_with(".yaml") {
        toolport_yaml::parse(path, text).unwrap()
    } else if path.ends_with(".json5") {
        json5::from_str(text).unwrap()
    } else {
        serde_json::from_str(text).unwrap()
    }
}

#[test]
fn every_corpus_extension_reads_with_only_warnings() {
    for dir in extensions() {
        let bundle = load(&dir);
        let (model, diagnostics) = read_ok(&Raycast, &bundle);
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(diagnostics.iter().all(|d| d.severity <= Severity::Warning), "{name}:\n{}", render(&diagnostics));
        // Tools have no TypeScript in the corpus: each is a missing-file warning, nothing worse.
        let missing = diagnostics.iter().filter(|d| d.code == "input/missing-file").count();
        assert_eq!(missing, model.tools.len(), "{name}:\n{}", render(&diagnostics));
        assert!(model.id.is_some(), "{name}: no id");
    }
}

#[test]
fn every_corpus_extension_writes_back_the_same_manifest_and_ai_file() {
    for dir in extensions() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let original = load(&dir);
        let (model, _) = read_ok(&Raycast, &original);
        let written = Raycast.write(&model, &Options::default()).value.expect("write");
        for (path, text) in &original.files {
            let Some(again) = written.get(path) else { panic!("{name}: {path} was not written") };
            assert_same_json(&parse(path, text), &parse(path, again), &format!("{name}/{path}"));
        }
        let (again, _) = read_ok(&Raycast, &written);
        assert_eq!(model, again, "{name}: read → write → read changed the model");
    }
}

#[test]
fn corpus_evals_are_read_into_examples() {
    let (model, _) = read_ok(&Raycast, &load(&corpus("raycast/dia")));
    assert_eq!(model.examples.len(), 15);
    let or = &model.examples[2].expected[0];
    assert!(matches!(or, toolport_plugin::Expectation::Or(items) if items.len() == 2), "{or:?}");
}
