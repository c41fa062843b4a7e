//! Every real extension in the shared corpus reads (tools without TypeScript are warnings),
//! and writing it back gives the same package.json and AI file as JSON/YAML values, plus the
//! keys Raycast requires that it lacks.

use crate::common;

use serde_json::Value;
use toolport_format_raycast::Raycast;
use toolport_plugin::{Diagnostic, Format, Options, Severity};
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
        toolport_yaml::parse(path, text).unwrap().value
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

/// Writing a corpus extension back gives its package.json and AI file as they were (keys in
/// their order), plus only the keys Raycast requires that it lacks, each said in a
/// `generated/*` diagnostic; reading that back gives the same model but for those keys.
#[test]
fn every_corpus_extension_writes_back_the_same_manifest_and_ai_file() {
    for dir in extensions() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let original = load(&dir);
        let (model, _) = read_ok(&Raycast, &original);
        let outcome = Raycast.write(&model, &Options::default());
        let written = outcome.value.expect("write");
        for (path, text) in &original.files {
            let Some(again) = written.get(path) else { panic!("{name}: {path} was not written") };
            let (source, mut again) = (parse(path, text), parse(path, again));
            if path == "package.json" {
                remove_generated_keys(&source, &mut again, &outcome.diagnostics, &name);
                let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
                assert_eq!(keys(&source), keys(&again), "{name}: package.json's key order");
            }
            assert_same_json(&source, &again, &format!("{name}/{path}"));
        }
        let (again, _) = read_ok(&Raycast, &written);
        common::assert_same_model_but_reported(&model, &again, &outcome.diagnostics, &name);
    }
}

/// Takes out of the written package.json each key the source lacks, which must be one a
/// `generated/*` diagnostic names (at the model path of the key).
pub(crate) fn remove_generated_keys(source: &Value, written: &mut Value, diagnostics: &[Diagnostic], name: &str) {
    let written = written.as_object_mut().unwrap();
    let added: Vec<String> = written.keys().filter(|k| source.get(k.as_str()).is_none()).cloned().collect();
    for key in added {
        let at = match key.as_str() {
            "title" | "description" => format!("/{key}"),
            "author" => "/creator".to_owned(),
            _ => format!("/extras/raycast/manifest/{key}"),
        };
        let said = diagnostics.iter().any(|d| d.code.starts_with("generated/") && d.path == at);
        assert!(said, "{name}: package.json gained `{key}` without a generated/* diagnostic at {at}");
        written.shift_remove(&key);
    }
}

#[test]
fn corpus_evals_are_read_into_examples() {
    let (model, _) = read_ok(&Raycast, &load(&corpus("raycast/dia")));
    assert_eq!(model.examples.len(), 15);
    let or = &model.examples[2].expected[0];
    assert!(matches!(or, toolport_plugin::Expectation::Or(items) if items.len() == 2), "{or:?}");
}
