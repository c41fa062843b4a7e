//! The writer on a model from another format: fetch bodies from HTTP bindings, safe file
//! names, generated manifest fields, and the losses it reports.

mod common;

use insta::assert_snapshot;
use toolport_plugin::{Format, Options};
use toolport_format_raycast::Raycast;
use toolport_testkit::{codes, render};

#[test]
fn writes_an_http_model_as_a_buildable_extension() {
    let outcome = Raycast.write(&common::http_model(), &Options::default());
    let bundle = outcome.value.expect("write");
    let files: String = bundle.files.iter().map(|(path, text)| format!("==> {path} <==\n{text}\n")).collect();
    assert_snapshot!("http.written", files);
    assert_snapshot!("http.write-diagnostics", render(&outcome.diagnostics));
}

#[test]
fn no_path_leaves_the_output_directory() {
    let bundle = Raycast.write(&common::http_model(), &Options::default()).value.expect("write");
    let paths: Vec<&str> = bundle.files.keys().map(String::as_str).collect();
    assert_eq!(
        paths,
        [
            "package.json",
            "src/tools/delete-pet.ts",
            "src/tools/summarize-text.ts",
            "src/tools/update-pet.ts",
            "tsconfig.json"
        ]
    );
}

#[test]
fn reports_what_raycast_cannot_hold() {
    let outcome = Raycast.write(&common::http_model(), &Options::default());
    let codes = codes(&outcome.diagnostics);
    for expected in ["loss/prompt", "loss/schema", "changed/name", "generated/content", "changed/value"] {
        assert!(codes.contains(&expected), "missing {expected}:\n{}", render(&outcome.diagnostics));
    }
}

#[test]
fn written_http_model_reads_back_with_its_parameters() {
    let bundle = Raycast.write(&common::http_model(), &Options::default()).value.expect("write");
    let model = Raycast.read(&bundle, &Options::default()).value.expect("read");
    let update = model.tool("update-pet").expect("update-pet");
    let names: Vec<&str> = update.parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["petId", "owner-id", "tags", "verbose", "X-Request-Id", "session", "name", "status"]);
    let delete = model.tool("delete-pet").expect("delete-pet");
    assert_eq!(delete.confirmation.as_ref().and_then(|c| c.style.as_deref()), Some("destructive"));
    assert_eq!(delete.hints.destructive, Some(true));
    assert!(model.examples[0].prompt.starts_with("@pet-store "), "{}", model.examples[0].prompt);
}
