//! `{{placeholder}}` parsing and prompt rendering.

use serde_json::{Map, Value, json};
use toolport_format_skydeck::{generated_prompt, placeholders, render_prompt};

fn check_names(prompt: &str, expect: &[&str]) {
    let names: Vec<String> = placeholders(prompt).into_iter().map(|p| p.name).collect();
    assert_eq!(names, expect, "{prompt:?}");
}

#[test]
fn finds_placeholders_with_any_name() {
    check_names("Summarize {{text}} for {{audience}}", &["text", "audience"]);
    check_names("Cover {{focus areas}} and {{ Tone }}", &["focus areas", "Tone"]);
    check_names("Traduce al {{idioma de destino}} — {{日本語}}", &["idioma de destino", "日本語"]);
    check_names("Literal {{}} {{ }} {single} {{a\nb}}", &[]);
    check_names("{{{x}}} and {{unclosed", &["x"]);
    check_names("{{a}}{{a}}", &["a", "a"]);
}

fn check(prompt: &str, arguments: Value, expect: &str) {
    let arguments: Map<String, Value> = arguments.as_object().unwrap().clone();
    assert_eq!(render_prompt(prompt, &arguments), expect, "{prompt:?}");
}

#[test]
fn renders_arguments_into_prompts() {
    check("Write a {{tone}} summary", json!({"tone": "formal"}), "Write a formal summary");
    check("Cover {{ focus areas }}.", json!({"focus areas": ["risks", "costs"]}), "Cover risks, costs.");
    check("Top {{n}} items, strict: {{strict}}", json!({"n": 3, "strict": false}), "Top 3 items, strict: false");
    check("Keep {{unknown}} and {{missing}}", json!({"missing": null}), "Keep {{unknown}} and {{missing}}");
    check("Idioma: {{idioma de destino}}", json!({"idioma de destino": "español"}), "Idioma: español");
    check("Mixed {{v}}", json!({"v": ["a", 1, true]}), "Mixed a, 1, true");
    check("Braces {{}} stay", json!({"": "x"}), "Braces {{}} stay");
    check("Object {{o}}", json!({"o": {"k": 1}}), "Object {\"k\":1}");
}

#[test]
fn generated_prompts_use_every_parameter() {
    assert_eq!(
        generated_prompt("Finds issues.", &["query", "focus areas"]),
        "Finds issues.\n\nquery: {{query}}\nfocus areas: {{focus areas}}"
    );
    assert_eq!(generated_prompt("Ping.", &[]), "Ping.");
    let names: Vec<String> = placeholders(&generated_prompt("x", &["a b", "c"])).into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["a b", "c"]);
}
