//! The agent folder written from a Vertex extension (a golden snapshot), each auth kind's
//! scheme and credential, instructions ADK would read as templates, and the refusal to read.

use toolport_format_adk::Adk;
use toolport_format_openapi::{OpenApi, Vertex};
use toolport_plugin::{Auth, AuthKind, Bundle, Format, Options, ParamLocation, Server, Severity, Tool, ToolSet};
use toolport_testkit::{fixture, load_with_siblings, read_ok, render};

/// The folder written for `set` (output name `weather_agent`): each file's text, by path.
fn write(set: &ToolSet, options: &[(&str, &str)]) -> (Bundle, Vec<toolport_plugin::Diagnostic>) {
    let mut opts = Options::default();
    opts.set(Options::OUTPUT_NAME, "weather_agent");
    for (k, v) in options {
        opts.set(*k, *v);
    }
    let outcome = Adk.write(set, &opts);
    assert!(!outcome.has_errors(), "{}", render(&outcome.diagnostics));
    (outcome.value.expect("written"), outcome.diagnostics)
}

fn agent_py(bundle: &Bundle) -> &str {
    bundle.get("weather_agent/agent.py").expect("agent.py")
}

#[test]
fn a_vertex_extension_becomes_an_agent_folder() {
    let (set, _) = read_ok(&Vertex, &load_with_siblings(&fixture("vertex/weather/import.json")));
    let (bundle, diagnostics) = write(&set, &[]);
    let files: Vec<&str> = bundle.files.keys().map(String::as_str).collect();
    assert_eq!(files, ["weather_agent/__init__.py", "weather_agent/agent.py", "weather_agent/openapi.json"]);
    assert_eq!(bundle.get("weather_agent/__init__.py"), Some("from . import agent\n"));
    // The spec is the openapi format's own output for the same tool set, as OpenAPI 3.1.0 (the
    // extension's is 3.0), which the openapi format reads back with every tool.
    let mut openapi_options = Options::default();
    openapi_options.set("syntax", "json");
    openapi_options.set(Options::OUTPUT_NAME, "openapi");
    let openapi = OpenApi.write_as_openapi_31(&set, &openapi_options).value.expect("openapi");
    let spec = bundle.get("weather_agent/openapi.json").expect("spec");
    assert_eq!(Some(spec), openapi.get("openapi.json"));
    assert!(spec.contains("\"openapi\": \"3.1.0\""), "{spec}");
    let (read_back, _) = read_ok(&OpenApi, &Bundle::single("openapi.json", spec));
    let names = |set: &ToolSet| set.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&read_back), names(&set));
    insta::assert_snapshot!("weather.agent.py", agent_py(&bundle));
    insta::assert_snapshot!("weather.diagnostics", render(&diagnostics));
}

fn with_auth(auth: Auth) -> ToolSet {
    ToolSet {
        id: Some("weather".into()),
        description: Some("Weather by city.".into()),
        servers: vec![Server { url: "https://api.example.com".into(), ..Server::default() }],
        auth: vec![auth],
        tools: vec![Tool { name: "current".into(), ..Tool::default() }],
        ..ToolSet::default()
    }
}

#[test]
fn each_auth_kind_becomes_adks_scheme_and_credential() {
    let secret = Some("projects/p/secrets/s/versions/1".to_owned());
    let account = Some("caller@p.iam.gserviceaccount.com".to_owned());
    // (auth, what agent.py holds, the codes said)
    let cases: Vec<(Auth, &[&str], &[&str])> = vec![
        (Auth::default(), &["OpenAPIToolset(\n    spec_str"], &[]),
        (
            Auth {
                kind: AuthKind::ApiKey,
                parameter_name: Some("key".into()),
                location: Some(ParamLocation::Query),
                secret: secret.clone(),
                ..Auth::default()
            },
            &[
                "token_to_scheme_credential(\n    \"apikey\", \"query\", \"key\", os.environ.get(\"WEATHER_API_KEY\")\n)",
                "# The extension read the API key from projects/p/secrets/s/versions/1.",
                "auth_scheme=auth_scheme,\n    auth_credential=auth_credential,",
            ],
            &["changed/value"],
        ),
        (
            Auth { kind: AuthKind::ApiKey, value: Some("literal-key".into()), ..Auth::default() },
            &["\"apikey\", \"header\", \"X-API-Key\", os.environ.get(\"WEATHER_API_KEY\")"],
            &["generated/content", "generated/content", "changed/value"],
        ),
        (
            Auth { kind: AuthKind::ApiKey, location: Some(ParamLocation::Body), ..Auth::default() },
            &[
                "toolset = OpenAPIToolset(\n    spec_str=SPEC.read_text(encoding=\"utf-8\"),\n    spec_str_type=\"json\",\n)",
            ],
            &["loss/auth"],
        ),
        (
            Auth { kind: AuthKind::HttpBasic, secret: secret.clone(), ..Auth::default() },
            &["HTTPBase(scheme=\"basic\")", "username=os.environ.get(\"WEATHER_USERNAME\")"],
            &["changed/value"],
        ),
        (
            Auth { kind: AuthKind::GoogleServiceAccount, service_account: account.clone(), ..Auth::default() },
            &[
                "ServiceAccount(use_default_credential=True, scopes=[\"https://www.googleapis.com/auth/cloud-platform\"])",
                "# The extension called as the service account caller@p.iam.gserviceaccount.com",
            ],
            // The spec's scheme is a bearer stand-in (no flows), then the account.
            &["changed/value", "changed/value"],
        ),
        (
            Auth { kind: AuthKind::Oidc, service_account: account.clone(), ..Auth::default() },
            &["ServiceAccount(use_default_credential=True, use_id_token=True, audience=\"https://api.example.com\")"],
            &["changed/value", "changed/value"],
        ),
        (
            Auth { kind: AuthKind::OAuth, value: Some("token".into()), ..Auth::default() },
            &["\"oauth2Token\", \"header\", \"Authorization\", os.environ.get(\"WEATHER_TOKEN\")"],
            // The spec's bearer stand-in, the literal token left out, a token ADK does not refresh.
            &["changed/value", "changed/value", "changed/value"],
        ),
        (
            Auth { kind: AuthKind::HttpBearer, ..Auth::default() },
            &["\"oauth2Token\", \"header\", \"Authorization\", os.environ.get(\"WEATHER_TOKEN\")"],
            &[],
        ),
        (
            Auth {
                kind: AuthKind::OAuth,
                settings: [(
                    "flows".to_owned(),
                    serde_json::json!({"clientCredentials": {"tokenUrl": "https://a.example/t", "scopes": {}}}),
                )]
                .into_iter()
                .collect(),
                ..Auth::default()
            },
            &[
                "dict_to_auth_scheme(json.loads(\"{\\\"type\\\":\\\"oauth2\\\"",
                "OAuth2Auth(client_id=os.environ.get(\"WEATHER_CLIENT_ID\")",
                "import json\n",
            ],
            &["generated/content"],
        ),
    ];
    let mut mismatches = Vec::new();
    for (auth, holds, said) in cases {
        let context = format!("{:?}", auth.kind);
        let (bundle, diagnostics) = write(&with_auth(auth), &[]);
        let py = agent_py(&bundle);
        for text in holds {
            assert!(py.contains(text), "{context}: agent.py lacks {text:?}:\n{py}");
        }
        // The spec's own notes (a title or version made up, info) are the openapi writer's.
        let found: Vec<&str> =
            diagnostics.iter().filter(|d| d.severity != Severity::Info).map(|d| d.code.as_str()).collect();
        if found != said {
            mismatches.push(format!("{context}: said {found:?}, expected {said:?}:\n{}", render(&diagnostics)));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn a_second_auth_entry_is_named_lost() {
    let mut set = with_auth(Auth { kind: AuthKind::HttpBearer, ..Auth::default() });
    set.auth.push(Auth { kind: AuthKind::ApiKey, id: Some("backup".into()), ..Auth::default() });
    let (_, diagnostics) = write(&set, &[]);
    let text = render(&diagnostics);
    assert!(text.contains("loss/auth") && text.contains("/auth/1") && text.contains("`backup`"), "{text}");
}

#[test]
fn an_instruction_with_braces_is_given_through_a_provider() {
    let mut set = with_auth(Auth::default());
    set.instructions = Some("Answer in {units}.".into());
    let (bundle, _) = write(&set, &[("model", "gemini-2.5-pro")]);
    let py = agent_py(&bundle);
    assert!(py.contains("INSTRUCTION = \"Answer in {units}.\""), "{py}");
    assert!(py.contains("def instruction(_context):") && py.contains("instruction=instruction,"), "{py}");
    assert!(py.contains("os.environ.get(\"ADK_MODEL\", \"gemini-2.5-pro\")"), "{py}");

    set.instructions = Some("Answer briefly.".into());
    let (bundle, _) = write(&set, &[]);
    let py = agent_py(&bundle);
    assert!(py.contains("instruction=INSTRUCTION,") && !py.contains("def instruction"), "{py}");
}

#[test]
fn the_agent_and_package_names_are_python_identifiers() {
    let mut set = with_auth(Auth::default());
    set.id = Some("my weather-tool".into());
    let mut options = Options::default();
    options.set(Options::OUTPUT_NAME, "import");
    let bundle = Adk.write(&set, &options).value.expect("written");
    let py = bundle.get("import_agent/agent.py").expect("the package is import_agent");
    assert!(py.contains("name=\"my_weather_tool\""), "{py}");
}

#[test]
fn reading_is_refused_with_the_way_to_read_the_spec() {
    let outcome = Adk.read(&Bundle::single("agent.py", "root_agent = None"), &Options::default());
    assert!(outcome.value.is_none());
    assert!(render(&outcome.diagnostics).contains("--from openapi"), "{}", render(&outcome.diagnostics));
    assert!(!Adk.info().reads && Adk.info().writes);
}

/// ADK parses specs with FastAPI's OpenAPI 3.1 models, where 3.0's boolean exclusive bounds make
/// a response unreadable ("Unsupported response"): a 3.0 spec is written in 3.1's form.
#[test]
fn a_30_spec_is_written_in_31s_form_adk_reads() {
    let spec = r#"
openapi: 3.0.3
info: {title: Bounds, version: "1"}
paths:
  /total:
    post:
      operationId: total
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Amount'}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  sum: {type: number, minimum: 0, exclusiveMinimum: true, nullable: true}
components:
  schemas:
    Amount:
      type: object
      properties:
        value: {type: number, maximum: 10, exclusiveMaximum: true}
        note: {type: string, nullable: false, minimum: 1, exclusiveMinimum: false}
        mode: {type: string, enum: [auto, default], nullable: true, default: null}
        context: {nullable: true, description: any value, or null}
"#;
    let (set, _) = read_ok(&OpenApi, &Bundle::single("bounds.yaml", spec));
    let (bundle, diagnostics) = write(&set, &[]);
    let written: serde_json::Value =
        serde_json::from_str(bundle.get("weather_agent/openapi.json").expect("spec")).expect("JSON");
    assert_eq!(written["openapi"], "3.1.0");
    let response = &written["paths"]["/total"]["post"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(response["properties"]["sum"], serde_json::json!({"type": ["number", "null"], "exclusiveMinimum": 0}));
    let amount = &written["components"]["schemas"]["Amount"]["properties"];
    assert_eq!(amount["value"], serde_json::json!({"type": "number", "exclusiveMaximum": 10}));
    assert_eq!(amount["note"], serde_json::json!({"type": "string", "minimum": 1}));
    // 3.1's enum lists null where 3.0's nullable admitted it past the enum.
    assert_eq!(amount["mode"]["type"], serde_json::json!(["string", "null"]));
    assert_eq!(amount["mode"]["enum"], serde_json::json!(["auto", "default", null]));
    // Without a type, `nullable` is kept as readers take it.
    assert_eq!(amount["context"]["nullable"], true);
    let said = render(&diagnostics);
    assert!(said.contains("3.0.3 document was written as 3.1.0") && said.contains("2 nullable type(s)"), "{said}");
}

/// A spec past 1 MiB makes an agent ADK cannot build in reasonable memory: the writer says so
/// and names the way out; a small one is not warned about.
#[test]
fn a_spec_too_large_for_adk_is_named_with_the_way_out() {
    let tool = |i: usize| {
        let mut tool = Tool::new(format!("operation_{i}"));
        tool.description = Some("x".repeat(2_000));
        tool
    };
    let large = ToolSet { tools: (0..600).map(tool).collect(), ..ToolSet::default() };
    let (_, diagnostics) = write(&large, &[]);
    let said = render(&diagnostics);
    assert!(said.contains("limit/schema") && said.contains("--select"), "{said}");
    let small = ToolSet { tools: (0..3).map(tool).collect(), ..ToolSet::default() };
    let (_, diagnostics) = write(&small, &[]);
    assert!(!render(&diagnostics).contains("limit/schema"));
}
