//! Inputs built to exhaust the reader: deep nesting is a located error before any recursive
//! parser runs, and many tolerated defects or diagnostics are each located.

use toolport_format_skydeck::SkyDeck;
use toolport_plugin::{Bundle, Format, Options, Outcome, ToolSet};

fn read(text: &str) -> Outcome<ToolSet> {
    SkyDeck.read(&Bundle::single("tool.json", text), &Options::default())
}

/// What reading must give: `Err((line, column))` of the nesting error, or `Ok(n)`: a model
/// and `n` diagnostics, each of which must be located at `locate(i)` (its index).
fn check(text: &str, expect: Result<usize, (u32, u32)>, locate: impl Fn(usize) -> (String, u32, u32)) {
    let outcome = read(text);
    match expect {
        Err((line, column)) => {
            assert!(outcome.value.is_none());
            let [error] = &outcome.diagnostics[..] else { panic!("{:?}", outcome.diagnostics) };
            assert_eq!(error.code, "input/syntax");
            assert!(error.message.contains("nested deeper than 128 levels"), "{}", error.message);
            let span = error.span.as_ref().expect("a span");
            assert_eq!((span.file.as_str(), span.line, span.column), ("tool.json", line, column));
        }
        Ok(count) => {
            assert!(outcome.value.is_some(), "{:?}", outcome.diagnostics.first());
            assert_eq!(outcome.diagnostics.len(), count);
            for (index, diagnostic) in outcome.diagnostics.iter().enumerate() {
                let span = diagnostic.span.as_ref().expect("a span");
                let want = locate(index);
                assert_eq!((diagnostic.path.clone(), span.line, span.column), want, "{}", diagnostic.message);
            }
        }
    }
}

fn none(_: usize) -> (String, u32, u32) {
    unreachable!()
}

/// A tool whose metadata holds `depth` nested arrays (`[[[…]]]`, or unclosed), after a line break.
fn deep(depth: usize, closed: bool) -> String {
    let close = if closed { "]".repeat(depth) } else { String::new() };
    format!("{{\"model_prompt\": \"x\",\n \"metadata\": {{\"x\": {}{close}}}}}", "[".repeat(depth))
}

#[test]
fn deep_nesting_is_a_located_error() {
    // The object and `metadata` are two levels: the 127th `[` is the 129th level.
    let column = " \"metadata\": {\"x\": ".len() as u32 + 127;
    check(&deep(20_000, true), Err((2, column)), none);
    check(&deep(50_000, true), Err((2, column)), none);
    check(&deep(20_000, false), Err((2, column)), none);
    // At the limit: serde_json refuses its 128th level, so the file is read as JSON5.
    let at_limit = [(String::new(), 2, column - 1), ("/metadata/x".into(), 2, 20)];
    check(&deep(126, true), Ok(2), |i| at_limit[i].clone());
    check(&deep(127, true), Err((2, column)), none);
    // In what json5 would read: single-quoted strings and comments hide brackets.
    let json5 = format!("{{'model_prompt': 'x', /* {} */ 'metadata': {{}}}}", "[".repeat(500));
    check(&json5, Ok(1), |_| (String::new(), 1, 2));
    check(&format!("{{'a': '{}', 'b': {}", "[".repeat(500), "{".repeat(200)), Err((1, 643)), none);
}

#[test]
fn many_tolerated_defects_are_each_located() {
    // 10,000 variables, each with a trailing comma, on lines of their own.
    let count = 10_000;
    let variables: Vec<String> =
        (0..count).map(|i| format!("  {{\"name\": \"v{i}\", \"description\": \"é {i}\",}}")).collect();
    let prompt: String = (0..count).map(|i| format!("{{{{v{i}}}}}")).collect();
    let text = format!(
        "{{\"model_prompt\": \"{prompt}\",\n\"metadata\": {{\"variables\": [\n{}\n]}}}}",
        variables.join(",\n")
    );
    check(&text, Ok(count * 2), |i| {
        // First the repairs, then an info per variable (no `type`).
        let variable = i % count;
        let line = 3 + variable as u32;
        let path = format!("/metadata/variables/{variable}");
        if i < count {
            (
                path,
                line,
                format!("  {{\"name\": \"v{variable}\", \"description\": \"é {variable}\"").chars().count() as u32 + 1,
            )
        } else {
            (path, line, 3)
        }
    });
}

#[test]
fn many_unresolved_placeholders_are_each_located() {
    let count = 10_000;
    let prompt: String = (0..count).map(|i| format!("{{{{p{i}}}}} ")).collect();
    let text = format!("{{\"metadata\": {{}},\n  \"model_prompt\": \"{prompt}\"}}");
    let mut columns = Vec::new();
    let mut column = "  \"model_prompt\": \"".len() + 1;
    for i in 0..count {
        columns.push(column as u32);
        column += format!("{{{{p{i}}}}} ").len();
    }
    check(&text, Ok(count), |i| ("/model_prompt".into(), 2, columns[i]));
}

/// Not a test of time (none is asserted): prints read times at 1x to 8x sizes, to show they
/// grow linearly.
/// `cargo test --release -p toolporter-format-skydeck --test integration -- limits:: --ignored --nocapture`
#[test]
#[ignore]
fn read_time_grows_linearly() {
    for factor in [1, 2, 4, 8] {
        let depth = 50_000 * factor;
        let text = deep(depth, true);
        let start = std::time::Instant::now();
        let outcome = read(&text);
        let deep_time = start.elapsed();
        assert!(outcome.value.is_none());
        // Under the limit, lenient: many 100-deep arrays, each with a trailing comma.
        let unit = format!("{}1,{}", "[".repeat(100), "]".repeat(100));
        let body = vec![unit; 500 * factor].join(",\n");
        let text = format!("{{\"model_prompt\": \"x\", \"metadata\": {{\"x\": [{body}]}}}}");
        let start = std::time::Instant::now();
        let outcome = read(&text);
        let lenient_time = start.elapsed();
        println!(
            "{factor}x: deep {} bytes {deep_time:?}; lenient {} bytes, {} diagnostics {lenient_time:?}",
            2 * depth,
            text.len(),
            outcome.diagnostics.len()
        );
    }
}
