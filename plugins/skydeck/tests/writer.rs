//! Writing SkyDeck from a model of another shape: what is carried, changed, generated and lost.

use crate::common;

use serde_json::json;
use toolport_format_skydeck::SkyDeck;
use toolport_plugin::{
    Auth, AuthKind, ConstraintFields, Creator, Display, EnumValue, Example, Expectation, Format, HttpBinding, Icon,
    ModelSettings, Options, Output, ParamLocation, Parameter, Schema, SchemaType, Server, Severity, Timestamps, Tool,
    ToolCall, ToolSet, Version,
};
use toolport_testkit::expect_ok;

/// A tool set as an OpenAPI or Raycast reader could give it: no prompts, typed parameters,
/// HTTP bindings, examples, servers and auth.
fn api_model() -> ToolSet {
    let mut search = Tool::new("searchIssues");
    search.title = Some("Search issues".into());
    search.description = Some("Finds issues matching a query.".into());
    let mut query =
        Parameter::new("query", Schema { description: Some("Search text".into()), ..Schema::of(SchemaType::String) });
    query.required = true;
    query.location = Some(ParamLocation::Query);
    let limit = Parameter::new(
        "limit",
        Schema {
            default: Some(Box::new(json!(10))),
            constraints: ConstraintFields { minimum: Some(1.into()), ..ConstraintFields::NONE }.into(),
            ..Schema::of(SchemaType::Integer)
        },
    );
    let open =
        Parameter::new("open", Schema { default: Some(Box::new(json!(true))), ..Schema::of(SchemaType::Boolean) });
    let labels = Parameter::new(
        "labels",
        Schema {
            items: Some(Box::new(Schema {
                enumeration: Some(vec![
                    EnumValue { value: json!("bug"), label: Some("Bug".into()) },
                    EnumValue::new("feature"),
                ]),
                ..Schema::of(SchemaType::String)
            })),
            ..Schema::of(SchemaType::Array)
        },
    );
    let ids = Parameter::new(
        "ids",
        Schema { items: Some(Box::new(Schema::of(SchemaType::Integer))), ..Schema::of(SchemaType::Array) },
    );
    search.parameters = vec![query, limit, open, labels, ids];
    search.http =
        Some(Box::new(HttpBinding { method: "GET".into(), path: "/issues".into(), ..HttpBinding::default() }));
    search.display = Some(Box::new(Display { prefix: Some("Search".into()), ..Display::default() }));
    search.output = Some(Box::new(Output {
        description: Some("The matching issues".into()),
        content_type: Some("application/json".into()),
        schema: Some(Schema { items: Some(Box::new(Schema::of(SchemaType::Object))), ..Schema::of(SchemaType::Array) }),
        ..Output::default()
    }));

    let mut create = Tool::new("create_issue");
    create.prompt = Some("Create an issue titled {{title}}.".into());
    create.model_settings = Some(Box::new(ModelSettings {
        models: vec!["gpt-4o".into()],
        temperature: Some(serde_json::Number::from_f64(0.5).unwrap()),
        ..ModelSettings::default()
    }));
    create.parameters = vec![Parameter::new("title", Schema::of(SchemaType::String))];
    create.extras.insert("gloodata".into(), json!({"handler": "x"}));

    ToolSet {
        id: Some("issues".into()),
        title: Some("Issues".into()),
        version: Some(Version::Text("2.0.0".into())),
        creator: Some(Creator {
            name: Some("Ada".into()),
            url: Some("https://example.invalid".into()),
            ..Creator::default()
        }),
        icon: Some(Icon::Base64 { data: "AAAA".into(), media_type: Some("image/png".into()) }),
        timestamps: Timestamps {
            created: Some("2024-01-01T00:00:00Z".into()),
            updated: Some("2024-06-01T00:00:00Z".into()),
        },
        servers: vec![Server { url: "https://api.example.invalid".into(), ..Server::default() }],
        auth: vec![Auth { kind: AuthKind::HttpBearer, ..Auth::default() }],
        tools: vec![search, create],
        examples: vec![Example {
            prompt: "find open bugs".into(),
            expected: vec![Expectation::CallsTool(ToolCall { tool: "searchIssues".into(), ..ToolCall::default() })],
            ..Example::default()
        }],
        ..ToolSet::default()
    }
}

/// Writes `model` and checks the file names and the (severity, code, path) of every diagnostic.
fn check(model: &ToolSet, files: &[&str], expect: &[(Severity, &str, &str)]) -> toolport_plugin::Bundle {
    let (bundle, diagnostics) = expect_ok(SkyDeck.write(model, &Options::default()), "write");
    let names: Vec<&str> = bundle.files.keys().map(String::as_str).collect();
    assert_eq!(names, files);
    let found: Vec<(Severity, &str, &str)> =
        diagnostics.iter().map(|d| (d.severity, d.code.as_str(), d.path.as_str())).collect();
    assert_eq!(found, expect, "\n{}", common::lines(&diagnostics));
    bundle
}

use Severity::{Info, Warning};

#[test]
fn a_model_of_another_shape_reports_every_loss_change_and_generation() {
    let model = api_model();
    let bundle = check(
        &model,
        &["create-issue.json", "search-issues.json"],
        &[
            (Warning, "loss/field", "/id"),
            (Warning, "loss/field", "/title"),
            (Warning, "loss/http", "/servers"),
            (Warning, "loss/auth", "/auth"),
            (Warning, "loss/examples", "/examples"),
            (Warning, "loss/display", "/tools/0/display"),
            (Warning, "loss/http", "/tools/0/http"),
            (Warning, "loss/http", "/tools/0/parameters/0/location"),
            (Warning, "loss/schema", "/tools/0/parameters/1/schema/minimum"),
            (Warning, "loss/extras", "/tools/1/extras/gloodata"),
            (Info, "generated/content", "/tools/0/prompt"),
            (Warning, "loss/schema", "/tools/0/parameters/1/schema/type"),
            (Warning, "changed/schema", "/tools/0/parameters/1/schema/default"),
            (Warning, "changed/schema", "/tools/0/parameters/2/schema/type"),
            (Warning, "changed/schema", "/tools/0/parameters/2/schema/default"),
            (Warning, "loss/schema", "/tools/0/parameters/3/schema/items/enum"),
            (Info, "changed/schema", "/tools/0/parameters/3/required"),
            (Warning, "loss/schema", "/tools/0/parameters/4/schema/type"),
            (Info, "changed/schema", "/tools/0/parameters/4/required"),
            (Warning, "loss/field", "/tools/0/output/description"),
            (Warning, "loss/field", "/tools/0/output/content_type"),
            (Warning, "loss/schema", "/tools/0/output/schema"),
            (Info, "changed/value", "/icon/media_type"),
            (Warning, "changed/name", "/tools/0/name"),
            (Info, "changed/schema", "/tools/1/parameters/0/required"),
            (Warning, "changed/name", "/tools/1/name"),
            (Warning, "loss/field", "/creator/url"),
            (Warning, "loss/field", "/timestamps/created"),
        ],
    );
    insta::assert_snapshot!(bundle.files.iter().map(|(p, t)| format!("== {p}\n{t}")).collect::<String>());
}

#[test]
fn colliding_names_get_distinct_files() {
    let mut model = ToolSet::default();
    for name in ["get weather", "Get-Weather", "get weather"] {
        let mut tool = Tool::new(name);
        tool.prompt = Some("Weather?".into());
        tool.title = Some(name.into());
        model.tools.push(tool);
    }
    let (bundle, _) = expect_ok(SkyDeck.write(&model, &Options::default()), "write");
    let names: Vec<&str> = bundle.files.keys().map(String::as_str).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.contains(&"get-weather.json"), "{names:?}");
    assert!(names.iter().all(|n| !n.contains('/') && !n.starts_with('.')), "{names:?}");
}

#[test]
fn one_tool_is_written_under_the_suggested_name() {
    let mut model = ToolSet::default();
    let mut tool = Tool::new("a");
    tool.prompt = Some("Hi".into());
    model.tools.push(tool);
    for (suggested, expect) in [("my-prompt", "my-prompt.json"), ("../evil", "a.json"), ("", "a.json")] {
        let (bundle, _) = common::write_named(&model, suggested);
        let names: Vec<&str> = bundle.files.keys().map(String::as_str).collect();
        assert_eq!(names, [expect], "suggested {suggested:?}");
    }
}

#[test]
fn writing_is_deterministic_and_strict_json() {
    let model = api_model();
    let first = SkyDeck.write(&model, &Options::default());
    let second = SkyDeck.write(&model, &Options::default());
    assert_eq!(first, second);
    for (path, text) in &first.value.unwrap().files {
        assert!(text.ends_with("}\n"), "{path}");
        serde_json::from_str::<serde_json::Value>(text).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}

#[test]
fn an_empty_tool_set_is_an_error() {
    let outcome = SkyDeck.write(&ToolSet::default(), &Options::default());
    assert!(outcome.value.is_none());
    assert_eq!(outcome.diagnostics[0].path, "/tools");
}

#[test]
fn written_files_read_back_cleanly() {
    let (bundle, _) = expect_ok(SkyDeck.write(&api_model(), &Options::default()), "write");
    for (path, text) in &bundle.files {
        let (model, diagnostics) = expect_ok(
            SkyDeck.read(&toolport_plugin::Bundle::single(path.clone(), text.clone()), &Options::default()),
            path,
        );
        assert!(diagnostics.is_empty(), "{path}: {}", common::lines(&diagnostics));
        assert_eq!(format!("{}.json", model.tools[0].name), *path);
        assert_eq!(model.version, Some(Version::Text("2.0.0".into())));
    }
}

/// A written file, the `prompt_name` written in it and the tool name it reads back as.
type WrittenName = (String, Option<String>, String);

/// Writes `model` and reads every file back, and gives the `renamed` (from, to) of each
/// `changed/name`.
fn names_written(model: &ToolSet) -> (Vec<WrittenName>, Vec<(String, String)>) {
    let (bundle, diagnostics) = expect_ok(SkyDeck.write(model, &Options::default()), "write");
    let files = bundle
        .files
        .iter()
        .map(|(path, text)| {
            let document: serde_json::Value = serde_json::from_str(text).unwrap();
            let prompt_name = document["metadata"]["prompt_name"].as_str().map(str::to_owned);
            let single = toolport_plugin::Bundle::single(path.clone(), text.clone());
            let (read, _) = expect_ok(SkyDeck.read(&single, &Options::default()), path);
            (path.clone(), prompt_name, read.tools[0].name.clone())
        })
        .collect();
    let renamed = diagnostics
        .iter()
        .filter(|d| d.code == "changed/name")
        .map(|d| {
            let renamed = d.renamed.as_deref().unwrap_or_else(|| panic!("no renamed: {}", d.message));
            (renamed.from.clone(), renamed.to.clone())
        })
        .collect();
    (files, renamed)
}

fn titled(name: &str, title: Option<&str>) -> Tool {
    let mut tool = Tool::new(name);
    tool.prompt = Some("Go.".into());
    tool.title = title.map(str::to_owned);
    tool
}

#[test]
fn a_blank_title_is_no_prompt_name() {
    // An OpenAPI operation with `summary: ""`: SkyDeck would name the tool after its file.
    let model = ToolSet { tools: vec![titled("fetch-number", Some(" ")), titled("b", None)], ..ToolSet::default() };
    let (files, renamed) = names_written(&model);
    let expect = |file: &str, prompt: &str, name: &str| (file.to_owned(), Some(prompt.to_owned()), name.to_owned());
    assert_eq!(files, [expect("b.json", "b", "b"), expect("fetch-number.json", "fetch-number", "fetch-number")]);
    assert_eq!(renamed, []);
}

#[test]
fn a_skydeck_files_blank_prompt_name_stays_blank() {
    let text = r#"{"model_prompt": "Go.", "metadata": {"prompt_name": ""}}"#;
    let (model, _) =
        expect_ok(SkyDeck.read(&toolport_plugin::Bundle::single("my-tool.json", text), &Options::default()), "read");
    let (files, renamed) = names_written(&model);
    assert_eq!(files, [("my-tool.json".to_owned(), Some(String::new()), "my-tool".to_owned())]);
    assert_eq!(renamed, []);
}

#[test]
fn tools_of_one_title_read_back_under_distinct_names() {
    let model = ToolSet {
        tools: vec![
            titled("repos/get-commit", Some("Get a commit")),
            titled("git/get-commit", Some("Get a commit")),
            titled("other", Some("Get a commit (git/get-commit)")),
            titled("git/get-commit", Some("Get a commit")),
        ],
        ..ToolSet::default()
    };
    let (files, renamed) = names_written(&model);
    let read_back: Vec<&str> = files.iter().map(|(_, _, name)| name.as_str()).collect();
    let prompts: Vec<&str> = files.iter().filter_map(|(_, prompt, _)| prompt.as_deref()).collect();
    let (mut read_back, mut prompts) = (read_back, prompts);
    read_back.sort_unstable();
    prompts.sort_unstable();
    assert_eq!(
        read_back,
        [
            "get-a-commit",
            "get-a-commit-git-get-commit",
            "get-a-commit-git-get-commit-2",
            "get-a-commit-git-get-commit-other"
        ]
    );
    assert_eq!(
        prompts,
        [
            "Get a commit",
            "Get a commit (git/get-commit)",
            "Get a commit (git/get-commit) (other)",
            "Get a commit (git/get-commit) 2"
        ]
    );
    let pair = |from: &str, to: &str| (from.to_owned(), to.to_owned());
    assert_eq!(
        renamed,
        [
            pair("repos/get-commit", "get-a-commit"),
            pair("git/get-commit", "get-a-commit-git-get-commit"),
            pair("other", "get-a-commit-git-get-commit-other"),
            pair("git/get-commit", "get-a-commit-git-get-commit-2"),
        ]
    );
}
