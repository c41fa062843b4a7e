//! Writing from any tool set: the manifest's required metadata taken from the model or
//! generated (and said), function names that are their operations' operationIds, Microsoft's
//! restrictions said per parameter and per auth scheme, confirmations as Adaptive Cards.

use serde_json::{Value, json};
use toolport_format_m365::{M365, SCHEMA_URL, SCHEMA_VERSION};
use toolport_plugin::{Auth, AuthKind, Bundle, Format, Options, ParamLocation, ToolSet};
use toolport_testkit::{codes, expect_ok, render};

/// A tool set as a function-tool format reads one: no id, title, description or auth.
fn bare() -> Value {
    json!({"tools": [
        {"name": "get weather", "title": "Get weather", "parameters": [
            {"name": "city", "required": true, "schema": {"type": "string"}},
            {"name": "days", "schema": {"type": "array", "items": {"type": "integer"}}}
        ], "http": {"method": "GET", "path": "/weather"}},
        {"name": "2fa.reset", "description": "Resets a user's second factor.",
         "confirmation": {"message": "Reset it?", "info": [{"name": "User", "value": "ada"}], "style": "destructive"},
         "parameters": [{"name": "user", "required": true, "schema": {"type": "string"}}]},
        {"name": "ping", "description": "Is the service up?"}
    ]})
}

fn write(model: Value) -> (Bundle, Vec<toolport_plugin::Diagnostic>) {
    let model: ToolSet = serde_json::from_value(model).unwrap();
    let mut options = Options::default();
    options.set(Options::OUTPUT_NAME, "weather");
    expect_ok(M365.write(&model, &options), "write")
}

fn document(bundle: &Bundle, file: &str) -> Value {
    serde_json::from_str(bundle.get(file).unwrap_or_else(|| panic!("{file} in {:?}", bundle.files.keys()))).unwrap()
}

/// Each operation's operationId in the written spec, in document order.
fn operation_ids(spec: &Value) -> Vec<String> {
    let mut ids = Vec::new();
    for item in spec["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            if let Some(id) = op.get("operationId").and_then(Value::as_str) {
                ids.push(id.to_owned());
            }
        }
    }
    ids
}

#[test]
fn a_bare_tool_set_becomes_a_plugin_folder_with_its_metadata_said() {
    let (bundle, diagnostics) = write(bare());
    let files: Vec<&String> = bundle.files.keys().collect();
    assert_eq!(files, ["weather-apiplugin.json", "weather-openapi.json"]);
    let manifest = document(&bundle, "weather-apiplugin.json");
    assert_eq!(manifest["$schema"], SCHEMA_URL);
    assert_eq!(manifest["schema_version"], SCHEMA_VERSION);
    assert_eq!(manifest["namespace"], "weather");
    assert_eq!(manifest["runtimes"][0]["spec"]["url"], "weather-openapi.json");
    assert_eq!(manifest["runtimes"][0]["auth"], json!({"type": "None"}));
    // Every function is an operation of the spec, by its operationId.
    let functions: Vec<&str> =
        manifest["functions"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(functions, ["get_weather", "_2fa_reset", "ping"]);
    let mut ids = operation_ids(&document(&bundle, "weather-openapi.json"));
    ids.sort();
    let mut expected: Vec<String> = functions.iter().map(|f| f.to_string()).collect();
    expected.sort();
    assert_eq!(ids, expected);
    assert_eq!(manifest["runtimes"][0]["run_for_functions"], json!(functions));
    insta::assert_snapshot!("bare.manifest", bundle.get("weather-apiplugin.json").unwrap());
    insta::assert_snapshot!("bare.diagnostics", render(&diagnostics));
}

#[test]
fn a_confirmation_becomes_an_adaptive_card_and_its_rows_are_said_lost() {
    let (bundle, diagnostics) = write(bare());
    let manifest = document(&bundle, "weather-apiplugin.json");
    assert_eq!(
        manifest["functions"][1]["capabilities"],
        json!({"confirmation": {"type": "AdaptiveCard", "title": "2fa.reset", "body": "Reset it?"}})
    );
    assert!(manifest["functions"][0].get("capabilities").is_none());
    let lost: Vec<String> =
        diagnostics.iter().filter(|d| d.code == "loss/confirmation").map(|d| d.path.clone()).collect();
    assert_eq!(lost, ["/tools/1/confirmation"]);
    // The spec holds no second copy of it (the manifest is where Copilot reads it).
    assert!(!bundle.get("weather-openapi.json").unwrap().contains("Reset it?"));
}

#[test]
fn parameters_copilot_does_not_support_are_said_once_each() {
    let object = json!({"type": "object", "properties": [{"name": "street", "schema": {"type": "string"}}]});
    let cases: Vec<(Value, bool)> = vec![
        (json!({"type": "string"}), false),
        (json!({"type": "array", "items": {"type": "string", "enum": [{"value": "a"}, {"value": "b"}]}}), false),
        (object.clone(), true),
        (json!({"type": "array", "items": object}), true),
        (json!({"reference": "Address"}), true),
        (json!({"any_of": [{"type": "string"}, {"type": "integer"}]}), true),
    ];
    for (schema, said) in cases {
        let model = json!({"id": "maps", "definitions": {"Address": object}, "tools": [
            {"name": "find", "description": "Finds.", "parameters": [{"name": "where", "schema": schema}]}
        ]});
        let (_, diagnostics) = write(model);
        let found: Vec<&str> =
            diagnostics.iter().filter(|d| d.code == "limit/schema").map(|d| d.path.as_str()).collect();
        let expected: &[&str] = if said { &["/tools/0/parameters/0"] } else { &[] };
        assert_eq!(found, expected, "{schema}: {}", render(&diagnostics));
    }
}

#[test]
fn each_auth_scheme_becomes_the_runtimes_auth_or_is_said_unsupported() {
    let oauth_flows = |flows: Value| Auth {
        kind: AuthKind::OAuth,
        settings: [("flows".to_owned(), flows)].into_iter().collect(),
        ..Auth::default()
    };
    let cases: Vec<(Vec<Auth>, Value, &[&str])> = vec![
        (vec![], json!({"type": "None"}), &[]),
        (
            vec![Auth { kind: AuthKind::ApiKey, location: Some(ParamLocation::Header), ..Auth::default() }],
            json!({"type": "ApiKeyPluginVault", "reference_id": "${{APIKEYAUTH_REGISTRATION_ID}}"}),
            &["generated/placeholder"],
        ),
        (
            vec![Auth { kind: AuthKind::HttpBearer, ..Auth::default() }],
            json!({"type": "ApiKeyPluginVault", "reference_id": "${{APIKEYAUTH_REGISTRATION_ID}}"}),
            &["generated/placeholder"],
        ),
        (
            vec![oauth_flows(json!({"authorizationCode": {}}))],
            json!({"type": "OAuthPluginVault", "reference_id": "${{OAUTH2AUTHCODE_CONFIGURATION_ID}}"}),
            &["generated/placeholder"],
        ),
        (
            vec![oauth_flows(json!({"clientCredentials": {}}))],
            json!({"type": "OAuthPluginVault", "reference_id": "${{OAUTH2AUTHCODE_CONFIGURATION_ID}}"}),
            &["loss/auth", "generated/placeholder"],
        ),
        (
            vec![Auth { kind: AuthKind::ApiKey, location: Some(ParamLocation::Cookie), ..Auth::default() }],
            json!({"type": "None"}),
            &["loss/auth"],
        ),
        (vec![Auth { kind: AuthKind::HttpBasic, ..Auth::default() }], json!({"type": "None"}), &["loss/auth"]),
        (
            vec![
                Auth { kind: AuthKind::HttpBearer, ..Auth::default() },
                Auth { kind: AuthKind::HttpBasic, ..Auth::default() },
            ],
            json!({"type": "ApiKeyPluginVault", "reference_id": "${{APIKEYAUTH_REGISTRATION_ID}}"}),
            &["loss/auth", "generated/placeholder"],
        ),
    ];
    for (auth, expected, said) in cases {
        let mut model =
            json!({"id": "a", "title": "A", "description": "D.", "tools": [{"name": "t", "description": "T."}]});
        model["auth"] = serde_json::to_value(&auth).unwrap();
        let (bundle, diagnostics) = write(model);
        let manifest = document(&bundle, "weather-apiplugin.json");
        assert_eq!(manifest["runtimes"][0]["auth"], expected, "{auth:?}");
        let auth_codes: Vec<&str> = codes(&diagnostics)
            .into_iter()
            .filter(|c| *c == "loss/auth" || c.starts_with("generated/placeholder"))
            .collect();
        assert_eq!(auth_codes, said, "{auth:?}: {}", render(&diagnostics));
    }
}

#[test]
fn long_descriptions_are_cut_for_people_and_whole_for_the_model() {
    let description = "Forecasts for every city on the planet, by the hour and by the day. Alerts, radar and history too, free for everyone who asks nicely.";
    let model = json!({"id": "weather-api", "title": "The weather of every city on earth", "description": description, "tools": [{"name": "t"}]});
    let (bundle, diagnostics) = write(model);
    let manifest = document(&bundle, "weather-apiplugin.json");
    assert_eq!(
        manifest["description_for_human"],
        "Forecasts for every city on the planet, by the hour and by the day."
    );
    assert_eq!(manifest["description_for_model"], description);
    assert_eq!(manifest["namespace"], "weather-api");
    let said = render(&diagnostics);
    assert!(
        said.contains("warning[changed/description]: description_for_human cut from")
            && said.contains("at a sentence's end: Copilot may ignore characters past 100"),
        "{said}"
    );
    assert!(
        said.contains("warning[limit/name]: name_for_human `The weather of every city on earth` has 34 characters"),
        "{said}"
    );
}
