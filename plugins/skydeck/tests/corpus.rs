//! The shared corpus: both SkyDeck cases read, and the strict one round-trips exactly.

use crate::common;

use common::{json, read_path, report, stem, write_named};
use toolport_plugin::Severity;
use toolport_testkit::{assert_same_json, corpus};

/// A diagnostic's severity, code, path and line:column.
type Found<'a> = (Severity, &'a str, &'a str, Option<(u32, u32)>);

#[test]
fn strict_corpus_case_round_trips_exactly() {
    let path = corpus("skydeck/synthetic--llm-tool--strict.json");
    let (model, diagnostics) = read_path(&path);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let (bundle, write_diagnostics) = write_named(&model, &stem(&path));
    assert!(write_diagnostics.is_empty(), "{write_diagnostics:?}");
    let written = bundle.get("synthetic--llm-tool--strict.json").expect("named after the input");
    assert_same_json(&json(&std::fs::read_to_string(&path).unwrap()), &json(written), "strict corpus case");
    let tool = &model.tools[0];
    assert_eq!(tool.name, "audience-summarizer");
    assert_eq!(tool.title.as_deref(), Some("Audience Summarizer"));
    let names: Vec<&str> = tool.parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["text", "audience", "tone", "focus areas"]);
}

#[test]
fn jsonish_corpus_case_reads_with_warnings() {
    let path = corpus("skydeck/synthetic--llm-tool--as-printed-quirks.jsonish");
    let (model, diagnostics) = read_path(&path);
    let found: Vec<Found> = diagnostics
        .iter()
        .map(|d| (d.severity, d.code.as_str(), d.path.as_str(), d.span.as_ref().map(|s| (s.line, s.column))))
        .collect();
    let expect: Vec<Found> = vec![
        (Severity::Warning, "input/tolerated", "/metadata/variables/0", Some((16, 22))),
        (Severity::Warning, "input/tolerated", "/metadata/variables/1/default", Some((22, 30))),
        (Severity::Warning, "input/invalid", "/metadata/parameters/temperature", Some((10, 35))),
        (Severity::Warning, "input/invalid", "/metadata/parameters/max_tokens", Some((10, 58))),
        (Severity::Warning, "input/tolerated", "/metadata/avatar", Some((27, 15))),
    ];
    assert_eq!(found, expect, "{}", common::lines(&diagnostics));
    let (bundle, write_diagnostics) = write_named(&model, &stem(&path));
    insta::assert_snapshot!(report(&model, &diagnostics, &bundle, &write_diagnostics));
}
