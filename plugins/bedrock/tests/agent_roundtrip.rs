//! `bedrock-agent`: same-format round trips of the fixtures in fixtures/bedrock-agent/ and of
//! documents holding what the model has no field for (kept and given back), detection that
//! claims only action groups, and bad input said with its place.

use toolport_format_bedrock::{Bedrock, BedrockAgent};
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::{render, round_trip};

fn check(file: &str) {
    toolport_testkit::assert_fixture_round_trip!(BedrockAgent, "bedrock-agent", file);
}

#[test]
fn whole_request_with_lambda_confirmations_and_every_type() {
    check("create-request.json");
}

#[test]
fn function_schema_alone_with_a_function_without_parameters() {
    check("function-schema.json");
}

/// Documents that hold what the model cannot: each reads, writes back the same JSON, and says
/// what it kept (snapshot of the read diagnostics).
#[test]
fn what_the_model_cannot_hold_is_kept_and_given_back() {
    let cases: &[(&str, &str)] = &[
        // Unknown keys at every level, an explicit `required: false`, a type Bedrock refuses,
        // a detail that is no object, a `required` of the wrong type, a bad confirmation flag.
        (
            "kept",
            r#"{"functions": [{"name": "a", "x-owner": "ops", "requireConfirmation": "SOMETIMES",
                "parameters": {"p": {"type": "object", "required": false, "x-unit": "cm"},
                               "q": "just text", "r": {"description": 7, "required": "yes", "type": "string"}}}],
                "x-version": 2}"#,
        ),
        // A request that lacks what Bedrock requires (agentId) and has keys it does not know:
        // written back as it was, not completed.
        (
            "partial-request",
            r#"{"functionSchema": {"functions": [{"name": "b", "description": ""}]}, "x-team": "hotels"}"#,
        ),
    ];
    let mut all = String::new();
    for (name, text) in cases {
        let trip = round_trip(&BedrockAgent, &Bundle::single(format!("{name}.json"), *text), &Options::default(), name);
        assert!(trip.write_diagnostics.is_empty(), "{name}: {}", render(&trip.write_diagnostics));
        all.push_str(&format!("# {name}\n{}\n", render(&trip.read_diagnostics)));
    }
    insta::assert_snapshot!("agent-kept", all);
}

#[test]
fn detect_claims_action_groups_only() {
    let cases: &[(&str, u8)] = &[
        (r#"{"agentId": "A", "actionGroupName": "g", "functionSchema": {"functions": [{"name": "f"}]}}"#, 95),
        (r#"{"functionSchema": {"functions": []}}"#, 95),
        (r#"{"functions": [{"name": "f", "parameters": {"x": {"type": "string"}}}]}"#, 90),
        (r#"{"functions": [{"name": "f", "requireConfirmation": "ENABLED"}]}"#, 90),
        // Names only: OpenAI's legacy `functions` look the same.
        (r#"{"functions": [{"name": "f", "description": "d"}]}"#, 30),
        // OpenAI's legacy `functions`: parameters are a JSON Schema.
        (r#"{"functions": [{"name": "f", "parameters": {"type": "object", "properties": {}}}]}"#, 0),
        (r#"{"functions": []}"#, 0),
        (r#"{"functionSchema": {"payload": "..."}}"#, 0),
        (r#"{"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": {}}}}]}"#, 0),
        (r#"[{"name": "a", "inputSchema": {"type": "object"}}]"#, 0),
        ("not json", 0),
    ];
    for (text, expect) in cases {
        assert_eq!(BedrockAgent.detect(&Bundle::single("x.json", *text)), *expect, "{text}");
    }
}

/// Neither Bedrock format claims the other's fixtures, and `bedrock-agent` claims no fixture of
/// any other format.
#[test]
fn detection_does_not_steal_other_formats_files() {
    let root = toolport_testkit::fixture("");
    let mut checked = 0;
    let mut folders: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    folders.sort();
    for folder in folders.into_iter().filter(|p| p.is_dir()) {
        let format = folder.file_name().unwrap().to_string_lossy().into_owned();
        for file in toolport_testkit::files_in(&folder, &["json"]) {
            let bundle = toolport_testkit::load(&file);
            let agent = BedrockAgent.detect(&bundle);
            if format == "bedrock-agent" {
                assert!(agent >= 90, "{}: {agent}", file.display());
                assert_eq!(Bedrock.detect(&bundle), 0, "bedrock claims {}", file.display());
            } else {
                assert_eq!(agent, 0, "bedrock-agent claims {} ({format})", file.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} fixtures found");
}

#[test]
fn bad_input_gives_located_diagnostics() {
    let text = "{\"functions\": [\n  {\"description\": \"no name\"},\n  {\"name\": \"has space\", \"parameters\": [\"x\"]},\n  \"oops\",\n  {\"name\": 12},\n  {\"name\": \"ok\", \"parameters\": {\"a b\": {\"type\": 5}}, \"inputSchema\": {}}\n]}";
    let outcome = BedrockAgent.read(&Bundle::single("bad.json", text), &Options::default());
    let model = outcome.value.as_ref().expect("the valid functions are read");
    assert_eq!(model.tools.len(), 2);
    insta::assert_snapshot!("agent-bad-input", render(&outcome.diagnostics));
}

#[test]
fn a_document_without_functions_is_an_error_naming_the_place() {
    for (text, place) in [
        (r#"{"actionGroupName": "g", "functionSchema": {"payload": "x"}}"#, "/functionSchema"),
        (r#"[{"name": "f"}]"#, "bad.json:1:1"),
    ] {
        let outcome = BedrockAgent.read(&Bundle::single("bad.json", text), &Options::default());
        assert!(outcome.value.is_none(), "{text}");
        let said = render(&outcome.diagnostics);
        assert!(said.contains(place) && said.contains("bad.json:1:"), "{said}");
    }
}
