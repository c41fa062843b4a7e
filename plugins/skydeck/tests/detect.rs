//! Detection from content: SkyDeck documents are claimed, others are not.

use toolport_format_skydeck::SkyDeck;
use toolport_plugin::{Bundle, Format};
use toolport_testkit::{corpus, fixture, load};

fn check(file: &str, text: &str, expect: std::ops::RangeInclusive<u8>) {
    let got = SkyDeck.detect(&Bundle::single(file, text));
    assert!(expect.contains(&got), "{file}: {got} not in {expect:?}");
}

#[test]
fn detects_skydeck_documents_only() {
    check("a.json", r#"{"model_prompt": "x", "metadata": {"variables": []}}"#, 90..=100);
    check("a.json", r#"{"model_prompt": "x"}"#, 80..=89);
    check("a.json", r#"{"metadata": {"prompt_name": "x"}}"#, 60..=79);
    check("a.json", "{\"model_prompt\": \"x\",\n \"metadata\": {\"prompt_name\": \"y\",},}", 90..=100);
    check("a.json", r#"{"ns": "x", "tools": {}}"#, 0..=0);
    check("a.json", r#"{"openapi": "3.0.0", "info": {"title": "model_prompt"}}"#, 0..=0);
    check("a.json", r#"{"model_prompt": 1}"#, 0..=0);
    check("a.json", "not json model_prompt", 0..=0);
    check("a.json", "", 0..=0);
}

#[test]
fn detects_the_corpus_and_fixtures() {
    for path in [
        corpus("skydeck/synthetic--llm-tool--strict.json"),
        corpus("skydeck/synthetic--llm-tool--as-printed-quirks.jsonish"),
        fixture("skydeck/es-resumen.json"),
        fixture("skydeck/trailing-comma.jsonish"),
    ] {
        assert!(SkyDeck.detect(&load(&path)) >= 90, "{}", path.display());
    }
}
