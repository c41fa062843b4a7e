//! toolport-yaml's contract, as tables run through one helper each: `check` for reading,
//! `check_written` for writing.

use serde_json::{Value, json};
use toolport_core::codes;
use toolport_core::limits::MAX_NESTING;
use toolport_yaml::{parse, to_string};

/// Parses `input` and compares with `expect`: JSON text (compared with key order), or
/// `"error LINE:COLUMN fragment"` for an `input/syntax` error at that place whose message
/// contains the fragment.
fn check(input: &str, expect: &str) {
    let result = parse("in.yaml", input);
    let shown = |s: &str| s.chars().take(120).collect::<String>();
    if let Some(error) = expect.strip_prefix("error ") {
        let (place, fragment) = error.split_once(' ').unwrap_or((error, ""));
        let (line, column) = place.split_once(':').unwrap();
        let diagnostic = result.expect_err(&format!("expected an error for {:?}", shown(input)));
        assert_eq!(diagnostic.code, codes::INPUT_SYNTAX);
        let span = diagnostic.span.clone().expect("every error has a place");
        assert_eq!(span.file, "in.yaml");
        assert_eq!(
            (span.line.to_string(), span.column.to_string()),
            (line.to_owned(), column.to_owned()),
            "place of {diagnostic} for {:?}",
            shown(input)
        );
        assert!(diagnostic.message.starts_with("invalid YAML: "), "{diagnostic}");
        assert!(diagnostic.message.contains(fragment), "{diagnostic} lacks {fragment:?}");
    } else {
        let value = result.unwrap_or_else(|e| panic!("{:?}: {e}", shown(input))).value;
        let expected: Value = serde_json::from_str(expect).unwrap();
        // serde_json's Map equality ignores order; the text does not.
        assert_eq!(value.to_string(), expected.to_string(), "for {:?}", shown(input));
    }
}

#[test]
fn values_keep_key_order_and_the_core_schema() {
    for (input, expect) in [
        ("b: 1\na: [x, {c: true}]\n200: ok\n", r#"{"b": 1, "a": ["x", {"c": true}], "200": "ok"}"#),
        ("", "null"),
        ("# only a comment\n", "null"),
        ("---\na: 1\n...\n", r#"{"a": 1}"#),
        ("plain text", r#""plain text""#),
        ("\u{feff}a: 1\r\nb:\r\n  - x\r\n", r#"{"a": 1, "b": ["x"]}"#),
        ("%YAML 1.1\n---\na: yes\n", r#"{"a": "yes"}"#),
        ("[~, null, Null, NULL, '', ]", r#"[null, null, null, null, ""]"#),
        ("a:\nb: ~", r#"{"a": null, "b": null}"#),
        ("[true, True, TRUE, false, FALSE]", "[true, true, true, false, false]"),
        // YAML 1.2: no yes/no/on/off booleans, no sexagesimal, no underscores, no dates.
        (
            "[yes, no, on, off, y, n, 1:20, 1_000, 2020-08-27]",
            r#"["yes","no","on","off","y","n","1:20","1_000","2020-08-27"]"#,
        ),
        ("[0, -1, +12, 0x1F, 0o17, 0b101, -0x10]", "[0, -1, 12, 31, 15, 5, -16]"),
        ("[0123, 007, -01]", r#"["0123", "007", "-01"]"#),
        ("[1.5, -2.25, 1e3, 1., .5, +1.0e-2, 0x, 1.2.3]", r#"[1.5, -2.25, 1000.0, 1.0, 0.5, 0.01, "0x", "1.2.3"]"#),
        // No JSON form: null.
        ("[.inf, -.Inf, +.INF, .nan, .NaN]", "[null, null, null, null, null]"),
        ("['123', \"true\", 'null', \"\"]", r#"["123", "true", "null", ""]"#),
        ("a: |\n  line 1\n  line 2\nb: >-\n  folded\n  text\n", r#"{"a": "line 1\nline 2\n", "b": "folded text"}"#),
        ("s: \"tab\\there \\u00e9 \\U0001F600\"", r#"{"s": "tab\there é 😀"}"#),
        // Keys that are not strings become strings; collections their JSON text.
        ("200: a\ntrue: b\n~: c\n1.5: d\n0x10: e", r#"{"200":"a","true":"b","null":"c","1.5":"d","16":"e"}"#),
        ("[a, 1]: x\n{k: v}: y\n", r#"{"[\"a\",1]": "x", "{\"k\":\"v\"}": "y"}"#),
        ("? complex\n: value\n", r#"{"complex": "value"}"#),
        // The core schema's tags are applied; others are said (see `unknown_tags_are_said`).
        (
            "[!custom foo, !custom 12, !!str 12, !!int '12', !x {a: 1}, !y [1], ! 12, !!timestamp 2001-12-14]",
            r#"["foo", "12", "12", 12, {"a": 1}, [1], "12", "2001-12-14"]"#,
        ),
        ("<<: {a: 1}\nb: 2", r#"{"<<": {"a": 1}, "b": 2}"#),
    ] {
        check(input, expect);
    }
}

#[test]
fn big_integers_become_the_nearest_float() {
    for (input, expect) in [
        ("9223372036854775807", "9223372036854775807"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("18446744073709551615", "18446744073709551615"),
        ("minimum: -9223372036854776000", r#"{"minimum": -9.223372036854776e18}"#),
        ("-9223372036854775809", "-9.223372036854776e18"),
        ("18446744073709551616", "1.8446744073709552e19"),
        ("0xFFFFFFFFFFFFFFFFFF", "4.722366482869645e21"),
        ("-0b11111111111111111111111111111111111111111111111111111111111111111", "-3.6893488147419103e19"),
        (&"9".repeat(400), "null"),
        ("1e400", "null"),
    ] {
        check(input, expect);
    }
}

/// Parses `input`, expecting what it tolerated: (line, column, JSON pointer, part of the
/// message) for each `input/tolerated` warning, in order.
fn check_tolerated(input: &str, expect: &[(u32, u32, &str, &str)]) {
    let parsed = parse("in.yaml", input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(parsed.tolerated.len(), expect.len(), "{input:?}: {:?}", parsed.tolerated);
    for (diagnostic, (line, column, pointer, fragment)) in parsed.tolerated.iter().zip(expect) {
        let span = diagnostic.span.as_ref().expect("located");
        assert_eq!(
            (span.file.as_str(), span.line, span.column, diagnostic.path.as_str(), diagnostic.code.as_str()),
            ("in.yaml", *line, *column, *pointer, codes::INPUT_TOLERATED),
            "{input:?}: {diagnostic}"
        );
        assert!(diagnostic.message.contains(fragment), "{diagnostic} lacks {fragment:?}");
    }
}

#[test]
fn inexact_numbers_are_said() {
    check_tolerated(
        "a: 18446744073709551616\nb: [1e400, -.inf, .nan, 1.5, 0xFFFFFFFFFFFFFFFFFF]\nc: 18446744073709551615\nd: ~\n",
        &[
            (
                1,
                4,
                "/a",
                "the integer 18446744073709551616 does not fit in 64 bits: it is read as the nearest float, 1.8446744073709552e+19",
            ),
            (2, 5, "/b/0", "`1e400` has no JSON form (it is infinite or not a number): it is read as null"),
            (2, 12, "/b/1", "`-.inf` has no JSON form"),
            (2, 19, "/b/2", "`.nan` has no JSON form"),
            (2, 30, "/b/4", "the integer 0xFFFFFFFFFFFFFFFFFF does not fit"),
        ],
    );
}

#[test]
fn unknown_tags_are_said() {
    // The title keeps its text; it is not dropped (an empty one is the empty text, not null).
    let input = "info:\n  title: !!python/str My API\n  summary: !!python/name:os.system\n  tags: !!python/tuple [a, b]\n  n: !custom 12\n  s: !!str 12\n";
    check(input, r#"{"info": {"title": "My API", "summary": "", "tags": ["a", "b"], "n": "12", "s": "12"}}"#);
    check_tolerated(
        input,
        &[
            (
                2,
                10,
                "/info/title",
                "the tag `!!python/str` is not one toolport knows: it is ignored and the scalar read as the text \"My API\"",
            ),
            (3, 12, "/info/summary", "the tag `!!python/name:os.system` is not one"),
            (
                4,
                9,
                "/info/tags",
                "the tag `!!python/tuple` is not one toolport knows: it is ignored and the collection read as it is",
            ),
            (5, 6, "/info/n", "the tag `!custom`"),
        ],
    );
}

#[test]
fn anchors_may_be_redefined_and_aliases_take_the_latest() {
    for (input, expect) in [
        ("a: &x 1\nb: *x\nc: &x [2]\nd: *x\n", r#"{"a": 1, "b": 1, "c": [2], "d": [2]}"#),
        ("- &k key\n- {*k : v}\n- &k other\n- *k\n", r#"["key", {"key": "v"}, "other", "other"]"#),
        ("base: &b {x: 1}\nuse: [*b, *b]\n", r#"{"base": {"x": 1}, "use": [{"x": 1}, {"x": 1}]}"#),
        ("a: *nothing\n", "error 1:4 unknown anchor"),
        ("a: &x [1, *x]\n", "error 1:11 contains it"),
    ] {
        check(input, expect);
    }
}

#[test]
fn the_openai_spec_parses_whole() {
    // Read in place: big integers and an anchor defined twice.
    let path = toolport_testkit::corpus("openapi/openai-2024-09-27/openapi.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed = parse("openapi.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(parsed.tolerated.is_empty(), "{:?}", parsed.tolerated);
    let spec = parsed.value;
    assert_eq!(spec["openapi"], "3.0.0");
    assert!(spec["paths"].as_object().is_some_and(|p| p.len() > 50));
    let text = serde_json::to_string(&spec).unwrap();
    assert!(text.contains("-9223372036854775808"));
}

#[test]
fn aliases_are_bounded() {
    // A "billion laughs": 9 levels of 9 aliases each would be 387 million nodes.
    let mut laughs = String::from("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..10 {
        let previous = format!("*l{}", level - 1);
        laughs.push_str(&format!("l{level}: &l{level} [{}]\n", vec![previous; 9].join(", ")));
    }
    let started = std::time::Instant::now();
    let error = parse("laughs.yaml", &laughs).unwrap_err();
    assert!(error.message.contains("billion laughs"), "{error}");
    let span = error.span.unwrap();
    assert!(span.line >= 5 && span.column > 1, "{span:?}");
    eprintln!("billion laughs refused in {:?}", started.elapsed());

    // An alias copied into a deep place counts toward the depth.
    let deep = "[".repeat(100) + &"]".repeat(100);
    check(
        &format!("a: &d {deep}\nb: {}*d{}\n", "[".repeat(28), "]".repeat(28)),
        r#"error 2:32 once this alias is expanded"#,
    );
    let fits = format!("a: &d {deep}\nb: {}*d{}\n", "[".repeat(27), "]".repeat(27));
    parse("fits.yaml", &fits).unwrap();
}

/// A real spec's kind of reuse: one anchored schema (300 nodes) in each of 3,000 operations,
/// about half a megabyte, expands to more nodes than the text has bytes, and reads.
#[test]
fn heavy_reuse_of_an_anchor_reads() {
    let fields: Vec<String> =
        (0..100).map(|i| format!("        field_{i}: {{type: string, description: Field {i}}}\n")).collect();
    let mut spec = format!(
        "openapi: 3.0.3\ninfo: {{title: Reuse, version: '1'}}\ncomponents:\n  schemas:\n    Item: &item\n      type: object\n      properties:\n{}paths:\n",
        fields.concat()
    );
    for i in 0..3000 {
        spec.push_str(&format!(
            "  /items/{i}:\n    get:\n      operationId: get_{i}\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: *item\n"
        ));
    }
    let parsed = parse("reuse.yaml", &spec).unwrap_or_else(|e| panic!("{e}"));
    let schema = &parsed.value["components"]["schemas"]["Item"];
    let nodes = |value: &Value| serde_json::to_string(value).unwrap().matches([':', ',', '[', '{']).count();
    assert!(
        nodes(schema) * 3000 > spec.len(),
        "more nodes copied ({}) than bytes ({})",
        nodes(schema) * 3000,
        spec.len()
    );
    assert_eq!(
        parsed.value["paths"]["/items/2999"]["get"]["responses"]["200"]["content"]["application/json"]["schema"],
        *schema
    );
}

#[test]
fn nesting_is_limited_at_the_node_that_crosses_it() {
    let n = MAX_NESTING;
    let flow = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
    let flow_maps = |depth: usize| "{a: ".repeat(depth) + "1" + &"}".repeat(depth);
    let compact = |depth: usize| "- ".repeat(depth) + "x\n";
    let block = |depth: usize| (0..depth).map(|i| format!("{}k:\n", "  ".repeat(i))).collect::<String>();
    let cases = [
        (flow(n), "ok".to_owned()),
        (flow(n + 1), format!("error 1:{} deeper than 128", n + 1)),
        (flow_maps(n), "ok".to_owned()),
        (flow_maps(n + 1), format!("error 1:{} deeper than 128", 4 * n + 1)),
        (compact(n), "ok".to_owned()),
        (compact(n + 1), format!("error 1:{} deeper than 128", 2 * n + 1)),
        (block(n), "ok".to_owned()),
        // The mapping under the 128th key is the 129th level: it starts at its first key.
        (block(n + 1), format!("error {}:{} deeper than 128", n + 1, 2 * n + 1)),
        (format!("{}{}", compact(100).trim_end_matches("x\n"), flow(28)), "ok".to_owned()),
        (format!("{}{}", compact(100).trim_end_matches("x\n"), flow(29)), "error 1:229 deeper than 128".to_owned()),
        // Far deeper than the parser's own limits: still the 129th level, quickly, no overflow.
        ("[".repeat(20_000), format!("error 1:{} deeper than 128", n + 1)),
        ("{a: ".repeat(20_000), format!("error 1:{} deeper than 128", 4 * n + 1)),
        ("- ".repeat(20_000), format!("error 1:{} deeper than 128", 2 * n + 1)),
        ("? ".repeat(20_000), format!("error 1:{} deeper than 128", 2 * n + 1)),
        ("[{".repeat(10_000), format!("error 1:{} deeper than 128", n + 1)),
        (
            (0..2_000).map(|i| format!("{}k:\n", " ".repeat(i))).collect(),
            format!("error {}:{} deeper than 128", n + 1, n + 1),
        ),
        (format!("key:\n  {}", "[".repeat(20_000)), format!("error 2:{} deeper than 128", n + 2)),
        // Where a block mapping needs a key, the parser's own refusal (at the 256th) stands.
        (format!("a:\n{}", "[".repeat(300)), "error 2:256 deeper than 128".to_owned()),
    ];
    for (input, expect) in cases {
        if expect == "ok" {
            parse("deep.yaml", &input).unwrap_or_else(|e| panic!("{e}"));
        } else {
            check(&input, &expect);
        }
    }
}

#[test]
fn every_error_has_a_line_and_column() {
    for (input, expect) in [
        ("ai:\n  instructions: [unclosed\n", "error 3:1 "),
        ("a: 1\n---\nb: 2\n", "error 2:1 second document"),
        ("a: 1\n...\nb: 2\n", "error 3:1 second document"),
        ("--- a\n--- b\n", "error 2:1 second document"),
        ("a: 1\na: 2\n", "error 2:1 duplicate key \"a\""),
        ("1: x\n'1': y\n", "error 2:1 duplicate key \"1\""),
        ("a: 'unclosed\n", "error 1:4 quoted scalar"),
        ("a: b: c\n", "error 1:5 "),
        ("a:\n\t- b\n", "error 2:2 tabs"),
        ("- a\nb: c\n", "error 2:1 "),
        ("key: [a, b}\n", "error 1:11 "),
        ("%YAML 1.2\n%YAML 1.2\n---\na\n", "error 2:1 "),
    ] {
        check(input, expect);
    }
}

/// Writes `value` and compares with `expect`, then reads the text back: the same value.
fn check_written(value: Value, expect: &str) {
    let text = to_string(&value).unwrap();
    assert_eq!(text, expect, "for {value}");
    let back = parse("out.yaml", &text).unwrap_or_else(|e| panic!("{e} in\n{text}")).value;
    assert_eq!(back.to_string(), value.to_string(), "read back from\n{text}");
}

#[test]
fn writes_serde_yaml_layout() {
    check_written(
        json!({"openapi": "3.0.0", "servers": [{"url": "https://x.example"}], "paths": {"/x": {"get": {
            "operationId": "x", "tags": ["a", "b"], "deprecated": false, "x-n": 1.5, "x-none": null,
            "x-nested": [["a", "b"], [], {}, [{"k": 1, "l": [2]}]]}}},
            "description": "first line\nsecond line\n", "empty": {}, "code": {"200": "ok"}}),
        "openapi: 3.0.0\nservers:\n- url: https://x.example\npaths:\n  /x:\n    get:\n      operationId: x\n      tags:\n      \
         - a\n      - b\n      deprecated: false\n      x-n: 1.5\n      x-none: null\n      x-nested:\n      - - a\n        - b\n      \
         - []\n      - {}\n      - - k: 1\n          l:\n          - 2\ndescription: |\n  first line\n  second line\nempty: {}\ncode:\n  \
         '200': ok\n",
    );
    check_written(json!([]), "[]\n");
    check_written(json!({}), "{}\n");
    check_written(json!("text"), "text\n");
    check_written(json!(12), "12\n");
    check_written(json!([1, [2]]), "- 1\n- - 2\n");
    let long_key = "k".repeat(129);
    check_written(json!({ long_key.clone(): 1 }), &format!("? {long_key}\n: 1\n"));
    check_written(json!({"two\nlines": {"a": 1}}), "? |-\n  two\n  lines\n: a: 1\n");
}

/// Words (letters, digits, `_ - . /`) are plain unless a reader would retype them (the
/// writer's byte scan of ASCII strings, checked against its full scan in debug builds).
#[test]
fn words_are_plain_unless_a_reader_would_retype_them() {
    check_written(
        json!({"get_user": "x.y/z", "v1-beta": "a--", "Yes": "null", "a/b/": "123", "0.5": "e1", "1e3": "a"}),
        "get_user: x.y/z\nv1-beta: a--\n'Yes': 'null'\na/b/: '123'\n'0.5': e1\n'1e3': a\n",
    );
}

#[test]
fn strings_are_quoted_when_a_reader_would_retype_them() {
    // (string, as written at the top level)
    let table = [
        // YAML 1.1 booleans, nulls, merge and value keys.
        ("y", "'y'"),
        ("Y", "'Y'"),
        ("yes", "'yes'"),
        ("Yes", "'Yes'"),
        ("YES", "'YES'"),
        ("n", "'n'"),
        ("N", "'N'"),
        ("no", "'no'"),
        ("No", "'No'"),
        ("NO", "'NO'"),
        ("on", "'on'"),
        ("On", "'On'"),
        ("ON", "'ON'"),
        ("off", "'off'"),
        ("Off", "'Off'"),
        ("OFF", "'OFF'"),
        ("true", "'true'"),
        ("True", "'True'"),
        ("FALSE", "'FALSE'"),
        ("~", "'~'"),
        ("null", "'null'"),
        ("Null", "'Null'"),
        ("NULL", "'NULL'"),
        ("", "''"),
        ("=", "'='"),
        ("<<", "'<<'"),
        // Numbers in every form either version knows.
        ("12", "'12'"),
        ("-3", "'-3'"),
        ("+7", "'+7'"),
        ("0x1F", "'0x1F'"),
        ("0o17", "'0o17'"),
        ("0b101", "'0b101'"),
        ("0x_1F", "'0x_1F'"),
        ("0b1_0", "'0b1_0'"),
        ("0777", "'0777'"),
        ("0089", "'0089'"),
        ("1_000", "'1_000'"),
        ("_", "'_'"),
        ("1:20", "'1:20'"),
        ("190:20:30.15", "'190:20:30.15'"),
        ("-1:05", "'-1:05'"),
        ("1.5", "'1.5'"),
        ("1.", "'1.'"),
        (".5", "'.5'"),
        ("._5", "'._5'"),
        ("1e5", "'1e5'"),
        ("1.0e+3", "'1.0e+3'"),
        ("1_0.5_0", "'1_0.5_0'"),
        ("1e400", "'1e400'"),
        (".inf", "'.inf'"),
        ("-.Inf", "'-.Inf'"),
        ("+.INF", "'+.INF'"),
        (".nan", "'.nan'"),
        (".NaN", "'.NaN'"),
        // Dates and timestamps.
        ("2020-08-27", "'2020-08-27'"),
        ("2001-12-14t21:59:43.10-05:00", "'2001-12-14t21:59:43.10-05:00'"),
        ("2001-12-14 21:59:43.10 -5", "'2001-12-14 21:59:43.10 -5'"),
        ("2001-12-15T02:59:43.1Z", "'2001-12-15T02:59:43.1Z'"),
        ("2002-1-2 3:04:05", "'2002-1-2 3:04:05'"),
        // What YAML 1.2 itself needs.
        ("- item", "'- item'"),
        ("-", "'-'"),
        ("? q", "'? q'"),
        (": c", "': c'"),
        ("a: b", "'a: b'"),
        ("a #b", "'a #b'"),
        ("#c", "'#c'"),
        ("[x]", "'[x]'"),
        ("{x}", "'{x}'"),
        ("&a", "'&a'"),
        ("*a", "'*a'"),
        ("!t", "'!t'"),
        ("|", "'|'"),
        (">", "'>'"),
        ("%x", "'%x'"),
        ("@x", "'@x'"),
        ("`x", "'`x'"),
        ("'q'", "'''q'''"),
        ("\"q\"", "'\"q\"'"),
        ("---", "'---'"),
        ("...", "'...'"),
        ("a:", "'a:'"),
        (" lead", "' lead'"),
        ("trail ", "'trail '"),
        ("it's", "it's"),
        ("tab\there", "\"tab\\there\""),
        ("bell\u{7}", "\"bell\\a\""),
        ("\u{feff}bom", "\"\\uFEFFbom\""),
        ("nel\u{85}", "\"nel\\N\""),
        ("ls\u{2028}ps\u{2029}", "\"ls\\Lps\\P\""),
        ("cr\r", "\"cr\\r\""),
        ("multi\nline", "|-\n  multi\n  line"),
        ("trail \nspace", "\"trail \\nspace\""),
        ("\n", "|2+\n"),
        (" lead\nline\n", "|2\n   lead\n  line"),
        ("keep\n\n", "|+\n  keep\n"),
        // Plain stays plain: nothing reads these as anything but strings.
        ("3.0.3", "3.0.3"),
        ("1.0.0", "1.0.0"),
        ("v1", "v1"),
        ("1:60", "1:60"),
        ("2020-08", "2020-08"),
        ("0x1G", "0x1G"),
        ("yes please", "yes please"),
        ("Nope", "Nope"),
        ("NaN", "NaN"),
        ("inf", "inf"),
        ("a-b", "a-b"),
        ("é😀", "é😀"),
        ("https://x.example/a#b", "https://x.example/a#b"),
        ("a:b", "a:b"),
        ("100%", "100%"),
        ("a, b", "a, b"),
    ];
    for (string, written) in table {
        check_written(json!(string), &format!("{written}\n"));
        // Keys follow the same rule (a key's block scalar becomes an explicit `? |` entry).
        if !string.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']) {
            check_written(json!({ string: 1 }), &format!("{written}: 1\n"));
        }
    }
}

#[test]
fn tricky_strings_round_trip() {
    // Debug builds check the ASCII shortcut's analysis against the full scan on each.
    let strings = [
        "",
        "a \nb",
        "a\n b",
        "x\r\ny",
        "a\u{7f}",
        "a\u{1}b",
        "\ta: b",
        "a :b",
        "a: #b",
        "a\n#b",
        "a\t#b",
        " ",
        "  ",
        "\n",
        "\n\n",
        " \n ",
        "a\n",
        "a\n\n\n",
        "\na",
        "\ta",
        "a\t",
        "#",
        "# x",
        "x #",
        "x#y",
        "- ",
        "-x",
        "--",
        "--- x",
        "... x",
        "?",
        ":",
        "x:",
        "x: ",
        "x:y",
        ",",
        "[",
        "]",
        "{",
        "}",
        "'",
        "''",
        "\"",
        "\\",
        "\\n",
        "\u{0}",
        "\u{1b}",
        "\u{7f}",
        "\u{a0}",
        "\u{fffe}",
        "😀",
        "é",
        "a\u{2028}b",
        "a\r\nb",
        "line 1\nline 2",
        "  indented\nnext",
        "trailing \nspaces ",
        "x\n  y\n",
        "yes",
        "No",
        "on",
        "~",
        "null",
        "0",
        "00",
        "-0",
        "0.0",
        "1_2",
        "1:2:3",
        "2001-01-01",
        "2001-1-1 1:02:03",
        "=",
        "<<",
        ".inf",
        ".NAN",
        "0o8",
        "0x",
        "+",
        "+-1",
        &"k".repeat(200),
        &format!("{}\n{}", "a".repeat(150), "b"),
    ];
    for s in strings {
        for value in [json!(s), json!([s]), json!({"key": s}), json!({ s: s }), json!({"a": [{ s: [s] }]})] {
            let text = to_string(&value).unwrap();
            let back = parse("round.yaml", &text).unwrap_or_else(|e| panic!("{e} in\n{text}")).value;
            assert_eq!(back, value, "{s:?} written as\n{text}");
        }
    }
}

/// Every string, whatever its first character, is written so that it reads back as itself.
/// The texts follow each ASCII first byte with the tails of every kind of text a reader would
/// take for another type (`yes`, `null`, `0x1f`, `1:30`, `2000-01-01`, …); the writer's shortcut
/// on the first byte is held to the full YAML 1.1 and 1.2 rules on each of them (a debug
/// assertion in the writer).
#[test]
fn strings_with_every_first_byte_read_back_as_written() {
    let tails = [
        "", "1", "0", "es", "ES", "rue", "alse", "ull", "ULL", "n", "N", "ff", "FF", "inf", "nan", "_", "1:30",
        "00-01-01", "x1f", "b10", "o17", "5", "e5", "<", "abc", ".5e3",
    ];
    for first in 0u8..128 {
        for tail in tails {
            let text = format!("{}{tail}", char::from(first));
            let written = toolport_yaml::value_to_string(&json!({ "k": text }));
            let read = parse("t.yaml", &written).unwrap_or_else(|e| panic!("{text:?} as {written:?}: {e:?}")).value;
            assert_eq!(read, json!({ "k": text }), "{text:?} as {written:?}");
        }
    }
}

/// A string is read back as written wherever in it the bytes that decide its style are: each
/// at every place of texts up to three words of eight bytes long (the writer looks at eight
/// bytes at a time; its debug assertion holds that to the full scan).
#[test]
fn the_bytes_that_decide_a_style_count_at_every_place() {
    let deciders = [": ", ":", " #", "#", "\n", "\r", "\t", "\u{7f}", "\u{1}", " \n", "\n ", "'", "\""];
    for len in 1..=24 {
        for at in 0..=len {
            for decider in deciders {
                let text = format!("{}{decider}{}", "a".repeat(at), "a".repeat(len - at));
                let written = toolport_yaml::value_to_string(&json!({ "k": text }));
                let read = parse("t.yaml", &written).unwrap_or_else(|e| panic!("{text:?} as {written:?}: {e:?}")).value;
                assert_eq!(read, json!({ "k": text }), "{text:?} as {written:?}");
            }
        }
    }
}
