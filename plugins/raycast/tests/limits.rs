//! Inputs built to exhaust the reader: nesting deeper than the limit in a tool's TypeScript or
//! in ai.json5 is a located error before oxc or json5 runs, and types that refer to each other
//! (in cycles, or fanning out at every level) end with a located warning.

use toolport_format_raycast::Raycast;
use toolport_plugin::{Bundle, Format, Options, Severity};

const PACKAGE: &str =
    r#"{"name": "x", "tools": [{"name": "t", "description": "T"}], "dependencies": {"@raycast/api": "1"}}"#;

/// Reads an extension whose tool file is `tool` (and whose ai.json5 is `ai`, when given). The
/// diagnostics with `code` must be exactly `expect`: (severity, file, line, column, a part of
/// the message).
fn check(tool: &str, ai: Option<&str>, code: &str, expect: &[(Severity, &str, u32, u32, &str)]) {
    let mut bundle = Bundle::default();
    bundle.insert("package.json", PACKAGE);
    bundle.insert("src/tools/t.ts", tool);
    if let Some(ai) = ai {
        bundle.insert("ai.json5", ai);
    }
    bundle.entry = Some("package.json".into());
    let outcome = Raycast.read(&bundle, &Options::default());
    assert!(outcome.value.is_some(), "{:?}", outcome.diagnostics);
    let found: Vec<_> = outcome.diagnostics.iter().filter(|d| d.code == code).collect();
    assert_eq!(found.len(), expect.len(), "{found:?}");
    for (diagnostic, (severity, file, line, column, message)) in found.iter().zip(expect) {
        let span = diagnostic.span.as_ref().expect("a span");
        assert_eq!(
            (diagnostic.severity, span.file.as_str(), span.line, span.column),
            (*severity, *file, *line, *column),
            "{}",
            diagnostic.message
        );
        assert!(diagnostic.message.contains(message), "{}", diagnostic.message);
    }
}

const TOOL: &str = "type Input = { a: string };\nexport default function tool(input: Input) {}\n";
const DEEP: &str = "nested deeper than 128 levels";

#[test]
fn deep_typescript_is_a_located_error() {
    let deep = format!("{TOOL}const x = {}{};\n", "[".repeat(20_000), "]".repeat(20_000));
    check(&deep, None, "input/syntax", &[(Severity::Error, "src/tools/t.ts", 3, 139, DEEP)]);
    // Unclosed, and in a type.
    check(
        &format!("{TOOL}type Deep = {}", "{ a: ".repeat(20_000)),
        None,
        "input/syntax",
        &[(Severity::Error, "src/tools/t.ts", 3, 13 + 5 * 128, DEEP)],
    );
    // At the limit oxc reads it; brackets in strings, comments and templates do not count.
    let at_limit = format!("{TOOL}const x = {}{};\n", "[".repeat(128), "]".repeat(128));
    check(&at_limit, None, "input/syntax", &[]);
    let hidden = format!(
        "{TOOL}const s = '{0}'; // {0}\n/* {0} */ const t = `{0} ${{ \"{0}\" }}`; const r = /[(]{{1}}/;\n",
        "(".repeat(500)
    );
    check(&hidden, None, "input/syntax", &[]);
}

#[test]
fn deep_ai_json5_is_a_located_error() {
    let deep = format!("{{\n  instructions: 'x',\n  evals: {}{}}}", "[".repeat(20_000), "]".repeat(20_000));
    check(TOOL, Some(&deep), "input/syntax", &[(Severity::Error, "ai.json5", 3, 10 + 127, DEEP)]);
    let at_limit = format!("{{instructions: 'x', other: {}{}}}", "[".repeat(127), "]".repeat(127));
    check(TOOL, Some(&at_limit), "input/syntax", &[]);
    // Detection does not parse what it would refuse.
    let mut bundle = Bundle::default();
    bundle.insert("ai.json5", &deep);
    assert_eq!(Raycast.detect(&bundle), 0);
}

#[test]
fn types_that_refer_to_each_other_end_with_a_located_warning() {
    // A cycle through aliases.
    let cycle = "type A = { next: B };\ntype B = { next: A };\nexport default function tool(input: A) {}\n";
    check(cycle, None, "input/unsupported", &[(Severity::Warning, "src/tools/t.ts", 1, 10, "nests too deeply")]);
    // Every level refers to the next one eight times: 8^12 types within the depth limit.
    let mut fan = String::new();
    for level in 0..14 {
        let members: Vec<String> = (0..8).map(|m| format!("m{m}: T{}", level + 1)).collect();
        fan.push_str(&format!("type T{level} = {{ {} }};\n", members.join("; ")));
    }
    fan.push_str("export default function tool(input: T0) {}\n");
    check(
        &fan,
        None,
        "input/unsupported",
        &[
            (Severity::Warning, "src/tools/t.ts", 7, 11, "nests too deeply"),
            (Severity::Warning, "src/tools/t.ts", 6, 65, "expand to more than"),
        ],
    );
    // `readonly` chains count as levels.
    let chain =
        format!("type R = {}string[];\nexport default function tool(i: {{ r: R }}) {{}}\n", "readonly ".repeat(50));
    check(
        &chain,
        None,
        "input/unsupported",
        &[(Severity::Warning, "src/tools/t.ts", 1, 10 + 9 * 11, "nests too deeply")],
    );
}

#[test]
fn a_union_of_literals_wider_than_the_type_budget_is_one_enum() {
    // 30,000 literals, more than the 20,000 types an input may expand to: they are the input
    // itself, read in one pass as one type, with no warning and every value kept.
    let union = (0..30_000).map(|i| format!("\"v{i}\"")).collect::<Vec<_>>().join(" | ");
    let tool = format!("type Input = {{ choice: {union} }};\nexport default function tool(input: Input) {{}}\n");
    check(&tool, None, "input/unsupported", &[]);
    let mut bundle = Bundle::default();
    bundle.insert("package.json", PACKAGE);
    bundle.insert("src/tools/t.ts", tool.as_str());
    bundle.entry = Some("package.json".into());
    let model = Raycast.read(&bundle, &Options::default()).value.expect("a model");
    let schema = &model.tools[0].parameters[0].schema;
    let values = schema.enumeration.as_ref().expect("an enum");
    assert_eq!((values.len(), &values[29_999].value), (30_000, &serde_json::json!("v29999")));
    assert!(schema.any_of.is_empty());
}
