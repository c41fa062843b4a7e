//! Data-driven checks of the pieces: eval matchers and expectations, JSDoc tags, TypeScript
//! inputs for each construct, and detection.

use serde_json::{Value, json};
use toolport_format_raycast::{Raycast, evals, ts};
use toolport_plugin::{Bundle, Format, Matcher, Options};

/// A matcher read from `raw` is `expect`, and writes back as `raw`.
fn check_matcher(raw: Value, expect: Matcher) {
    assert_eq!(evals::read_matcher(&raw), expect, "{raw}");
    assert_eq!(evals::write_matcher(&expect), raw, "{raw}");
}

#[test]
fn argument_matchers_round_trip_in_every_form() {
    check_matcher(json!("thomas"), Matcher::eq("thomas"));
    check_matcher(json!(3), Matcher::eq(3));
    check_matcher(json!({"eq": "x"}), Matcher::Eq { value: json!("x"), explicit: true });
    check_matcher(json!({"eq": ["a", "b"]}), Matcher::Eq { value: json!(["a", "b"]), explicit: true });
    check_matcher(json!({"includes": "bread"}), Matcher::Includes(json!("bread")));
    check_matcher(json!({"matches": "^a"}), Matcher::Matches("^a".into()));
    check_matcher(
        json!([{"includes": "a"}, "b"]),
        Matcher::And { all: vec![Matcher::Includes(json!("a")), Matcher::eq("b")], explicit: false },
    );
    check_matcher(json!({"and": ["b"]}), Matcher::And { all: vec![Matcher::eq("b")], explicit: true });
    check_matcher(
        json!({"or": ["a", {"not": "b"}]}),
        Matcher::Or(vec![Matcher::eq("a"), Matcher::Not(Box::new(Matcher::eq("b")))]),
    );
    // An object that is no matcher form is an equality on the object.
    check_matcher(json!({"name": "a", "age": 1}), Matcher::eq(json!({"name": "a", "age": 1})));
}

fn check_expectation(raw: Value, recognised: bool) {
    let read = evals::read_expectation(&raw);
    assert_eq!(read.is_some(), recognised, "{raw}");
    if let Some(expectation) = read {
        assert_eq!(evals::write_expectation(&expectation, &|n| n.to_owned()), raw);
    }
}

#[test]
fn expectations_round_trip_and_unknown_ones_are_refused() {
    check_expectation(json!({"includes": "a"}), true);
    check_expectation(json!({"matches": "a+"}), true);
    check_expectation(json!({"meetsCriteria": "polite"}), true);
    check_expectation(json!({"callsTool": "get"}), true);
    check_expectation(json!({"callsTool": {"name": "get"}}), true);
    check_expectation(json!({"callsTool": {"name": "get", "arguments": {"user.name": "t"}}}), true);
    check_expectation(json!({"not": {"callsTool": "create"}}), true);
    check_expectation(json!({"or": [{"includes": "a"}, {"callsTool": "b"}]}), true);
    check_expectation(json!({"includes": 3}), false);
    check_expectation(json!({"callsTool": {"name": "a", "extra": 1}}), false);
    check_expectation(json!({"includes": "a", "matches": "b"}), false);
    check_expectation(json!({"sounds": "nice"}), false);
}

fn check_doc(text: &str, description: Option<&str>, default: Option<Value>, examples: &[&str]) {
    let parsed = ts::parse_doc(text);
    assert_eq!(parsed.description.as_deref(), description, "{text}");
    assert_eq!(parsed.default, default, "{text}");
    assert_eq!(parsed.examples, examples, "{text}");
}

#[test]
fn jsdoc_tags_give_defaults_and_examples() {
    check_doc("The name", Some("The name"), None, &[]);
    check_doc("Size\n@default 10", Some("Size"), Some(json!(10)), &[]);
    check_doc("Lang\n@default \"en\"", Some("Lang"), Some(json!("en")), &[]);
    check_doc("Lang\n@defaultValue 'fr'", Some("Lang"), Some(json!("fr")), &[]);
    check_doc("Mode\n@default fast", Some("Mode"), Some(json!("fast")), &[]);
    check_doc("Q\n@example\n```\nrust\n```", Some("Q"), None, &["```\nrust\n```"]);
    check_doc("Q\n\n@remarks kept", Some("Q\n\n@remarks kept"), None, &[]);
}

/// Parameters read from one tool file, as `name: type` with `?` for optional.
fn check_input(source: &str, expect: &[&str]) {
    let mut bundle = Bundle::default();
    bundle.insert("src/tools/t.ts", source);
    let mut diagnostics = Vec::new();
    let tool = ts::extract(&bundle, "src/tools/t.ts", &mut diagnostics).expect("parses");
    let got: Vec<String> = tool
        .parameters
        .iter()
        .map(|p| {
            let kind = p.schema.kind.map_or("any", |k| k.as_str());
            format!("{}{}: {kind}", p.name, if p.required { "" } else { "?" })
        })
        .collect();
    assert_eq!(got, expect, "{source}");
}

#[test]
fn inputs_are_found_for_every_function_form() {
    let input = "type Input = { a: string; b?: number };\n";
    check_input(&format!("{input}export default async function tool(input: Input) {{}}"), &["a: string", "b?: number"]);
    check_input(&format!("{input}export default function (input: Input) {{}}"), &["a: string", "b?: number"]);
    check_input(
        &format!("{input}const tool = (input: Input) => 1;\nexport default tool;"),
        &["a: string", "b?: number"],
    );
    check_input(
        &format!("{input}function tool(input: Input) {{}}\nexport {{ tool as default }};"),
        &["a: string", "b?: number"],
    );
    check_input(&format!("{input}export default async ({{ a, ...rest }}: Input) => a;"), &["a: string", "b?: number"]);
    check_input(
        &format!("{input}export default function (input: Input = {{ a: \"\" }}) {{}}"),
        &["a: string", "b?: number"],
    );
    check_input(
        &format!("{input}export default withA(p)(withB(async (input: Input) => 1));"),
        &["a: string", "b?: number"],
    );
    check_input(
        &format!("{input}const t = async (i: Input) => 1;\nexport default withCache(t);"),
        &["a: string", "b?: number"],
    );
    check_input("interface Args { a: string }\nexport default function (i: Args) {}", &["a: string"]);
    check_input(
        "interface B { b: boolean }\ninterface A extends B { a: string }\nexport default function (i: A) {}",
        &["b: boolean", "a: string"],
    );
    check_input(
        "type A = { a: string } & { b?: boolean };\nexport default function (i: Partial<A>) {}",
        &["a?: string", "b?: boolean"],
    );
    check_input("export default function (i: { q: string }) {}", &["q: string"]);
    check_input("export default function () {}", &[]);
    check_input("export default function (linkId: string) {}", &["linkId: string"]);
    check_input("export default function ({ a, b = 2 }) {}", &["a?: any", "b?: any"]);
    check_input(
        "type I = { m: 'a' | 'b' | undefined; n: string | undefined };\nexport default (i: I) => 1;",
        &["m: string", "n: string"],
    );
}

#[test]
fn syntax_errors_are_diagnostics_with_positions() {
    let mut bundle = Bundle::default();
    bundle.insert("src/tools/t.ts", "type Input = {\n  a: = ;\n};\nexport default function (i: Input) {}\n");
    let mut diagnostics = Vec::new();
    let _ = ts::extract(&bundle, "src/tools/t.ts", &mut diagnostics);
    let error = diagnostics.iter().find(|d| d.code == "input/syntax").expect("a syntax error");
    let span = error.span.as_ref().expect("a position");
    assert_eq!((span.file.as_str(), span.line), ("src/tools/t.ts", 2));
}

fn check_detect(files: &[(&str, &str)], expect: u8) {
    let mut bundle = Bundle::default();
    for (path, text) in files {
        bundle.insert(*path, *text);
    }
    assert_eq!(Raycast.detect(&bundle), expect, "{files:?}");
}

#[test]
fn detects_extensions_and_ai_files_only() {
    check_detect(&[("package.json", r#"{"name":"x","tools":[],"dependencies":{"@raycast/api":"1"}}"#)], 100);
    check_detect(&[("package.json", r#"{"name":"x","dependencies":{"@raycast/api":"1"}}"#)], 90);
    check_detect(&[("package.json", r#"{"name":"x","dependencies":{"react":"1"}}"#)], 0);
    check_detect(&[("ai.yaml", "instructions: hi\n")], 70);
    check_detect(&[("ai.json", r#"{"ai": {"evals": []}}"#)], 70);
    check_detect(&[("tool.json", r#"{"name": "x"}"#)], 0);
    let outcome = Raycast.read(&Bundle::single("tool.json", "{}"), &Options::default());
    assert!(outcome.value.is_none() && outcome.has_errors());
}
