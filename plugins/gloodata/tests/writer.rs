//! Writing models that did not come from Gloodata: what is carried, what is generated, and
//! every loss reported with its model path.

use indexmap::IndexMap;
use serde_json::{Value, json};
use toolport_format_gloodata::Gloodata;
use toolport_plugin::{
    Auth, AuthKind, Bundle, ConstraintFields, Diagnostic, EnumValue, Example, Expectation, Format, HttpBinding,
    Matcher, ModelSettings, Options, ParamLocation, Parameter, Property, Schema, SchemaType, Server, Tool, ToolCall,
    ToolSet, ValueSet,
};
use toolport_testkit::{check_detail_folds, read_ok, render, write_ok};

fn calls(tool: &str) -> Expectation {
    Expectation::CallsTool(ToolCall { tool: tool.into(), ..ToolCall::default() })
}

/// A weather API as an OpenAPI or SkyDeck reader might produce it.
fn foreign_model() -> ToolSet {
    let mut tool = Tool::new("get_forecast");
    tool.description = Some("Weather forecast for a city".into());
    tool.prompt = Some("Give the forecast for {{city}}".into());
    tool.model_settings =
        Some(Box::new(ModelSettings { temperature: serde_json::Number::from_f64(0.2), ..Default::default() }));
    tool.http =
        Some(Box::new(HttpBinding { method: "GET".into(), path: "/forecast/{city}".into(), ..Default::default() }));
    tool.extras.insert("skydeck".into(), json!({"category": "weather"}));

    let mut city = Parameter::new("city", Schema::of(SchemaType::String));
    city.required = true;
    city.location = Some(ParamLocation::Path);
    let mut days = Parameter::new(
        "days",
        Schema {
            constraints: ConstraintFields { minimum: Some(1.into()), ..ConstraintFields::NONE }.into(),
            ..Schema::of(SchemaType::Integer)
        },
    );
    days.schema.title = Some("Number of days".into());
    let tags = Parameter::new(
        "tags",
        Schema { items: Some(Box::new(Schema::of(SchemaType::String))), ..Schema::of(SchemaType::Array) },
    );
    let filter = Parameter::new(
        "filter",
        Schema {
            properties: vec![Property {
                name: "min_temp".into(),
                required: false,
                schema: Schema::of(SchemaType::Number),
            }],
            ..Schema::of(SchemaType::Object)
        },
    );
    let mut unit = Parameter::new(
        "unit",
        Schema {
            enumeration: Some(vec![
                EnumValue { value: json!("c"), label: Some("Celsius".into()) },
                EnumValue { value: json!("f"), label: Some("Fahrenheit".into()) },
            ]),
            ..Schema::of(SchemaType::String)
        },
    );
    unit.required = true;
    tool.parameters = vec![city, days, tags, filter, unit];

    let with_arguments = ToolCall {
        tool: "get_forecast".into(),
        arguments: Some(IndexMap::from([("city".to_owned(), Matcher::eq("Oslo"))])),
        long_form: false,
    };
    ToolSet {
        id: Some("weather".into()),
        title: Some("Weather".into()),
        servers: vec![Server { url: "https://api.example.com".into(), ..Default::default() }],
        auth: vec![Auth { kind: AuthKind::ApiKey, ..Default::default() }],
        tools: vec![tool],
        examples: vec![
            Example { prompt: "Weather in Paris".into(), expected: vec![calls("get_forecast")], ..Default::default() },
            Example {
                prompt: "Forecast for Oslo".into(),
                expected: vec![Expectation::CallsTool(with_arguments), Expectation::Includes("Oslo".into())],
                ..Default::default()
            },
            Example { prompt: "Hello".into(), ..Default::default() },
            Example {
                prompt: "Paris then Rome".into(),
                expected: vec![calls("get_forecast"), calls("get_forecast")],
                mocks: IndexMap::from([("get_forecast".to_owned(), json!({"temp": 20}))]),
                ..Default::default()
            },
        ],
        ..Default::default()
    }
}

fn written(outcome_bundle: &Bundle) -> Value {
    serde_json::from_str(outcome_bundle.entry_file().unwrap().1).unwrap()
}

/// Compares the set of (code, path) pairs; the snapshots pin the order and messages.
fn check(diagnostics: &[Diagnostic], expect: &[(&str, &str)]) {
    let mut got: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_str())).collect();
    let mut want = expect.to_vec();
    got.sort();
    want.sort();
    assert_eq!(got, want, "diagnostics:\n{}", render(diagnostics));
}

#[test]
fn foreign_model_reports_every_loss_and_generates_display_hints() {
    let (bundle, diagnostics) = write_ok(&Gloodata, &foreign_model());
    check(
        &diagnostics,
        &[
            ("loss/http", "/servers"),
            ("loss/auth", "/auth"),
            ("loss/prompt", "/tools/0/prompt"),
            ("loss/model-settings", "/tools/0/model_settings"),
            ("loss/http", "/tools/0/http"),
            ("loss/extras", "/tools/0/extras/skydeck"),
            ("loss/http", "/tools/0/parameters/0/location"),
            ("loss/schema", "/tools/0/parameters/1/schema/minimum"),
            ("loss/schema", "/tools/0/parameters/2/schema/items"),
            ("loss/schema", "/tools/0/parameters/3/schema/properties"),
            ("loss/examples", "/examples/1/expected/1"),
            ("loss/examples", "/examples/1/expected/0/arguments"),
            ("loss/examples", "/examples/2"),
            ("loss/examples", "/examples/3/mocks"),
            ("loss/examples", "/examples/3"),
            ("generated/content", "/tools/0/display"),
            ("changed/schema", "/tools/0/parameters/1/schema/nullable"),
            ("loss/schema", "/tools/0/parameters/2/schema/type"),
            ("changed/schema", "/tools/0/parameters/2/schema/nullable"),
            ("loss/schema", "/tools/0/parameters/3/schema/type"),
            ("changed/schema", "/tools/0/parameters/3/schema/nullable"),
            ("loss/schema", "/tools/0/parameters/4/schema/enum"),
        ],
    );
    let document = written(&bundle);
    let tool = &document["tools"]["get_forecast"];
    assert_eq!(tool["title"], "Get Forecast");
    assert_eq!(
        tool["ui"],
        json!({"prefix": "Get Forecast", "args": {
            "city": {"prefix": "City"},
            "days": {"prefix": "Number of days"},
            "tags": {"prefix": "Tags"},
            "filter": {"prefix": "Filter"},
            "unit": {"prefix": "Unit"}
        }})
    );
    assert_eq!(tool["examples"], json!(["Weather in Paris", "Forecast for Oslo"]));
    assert_eq!(tool["schema"]["fields"]["days"]["type"], json!(["integer", "null"]));
    assert_eq!(tool["schema"]["fields"]["tags"]["type"], json!(["string", "null"]));
    assert_eq!(tool["schema"]["fields"]["unit"]["enum"], json!(["c", "f"]));
    insta::assert_snapshot!("foreign_model__written", bundle.entry_file().unwrap().1);
    insta::assert_snapshot!("foreign_model__diagnostics", render(&diagnostics));
}

#[test]
fn output_is_deterministic_and_named_after_the_input() {
    let model = foreign_model();
    let (first, _) = write_ok(&Gloodata, &model);
    let (second, _) = write_ok(&Gloodata, &model);
    assert_eq!(first, second);
    assert_eq!(first.entry.as_deref(), Some("weather.json"));

    let mut options = Options::default();
    options.set(Options::OUTPUT_NAME, "my-tools");
    let outcome = Gloodata.write(&model, &options);
    assert_eq!(outcome.value.unwrap().entry.as_deref(), Some("my-tools.json"));

    let anonymous = ToolSet { id: None, title: Some("My Weather!".into()), ..ToolSet::default() };
    let (bundle, diagnostics) = write_ok(&Gloodata, &anonymous);
    assert_eq!(bundle.entry.as_deref(), Some("extension.json"));
    assert_eq!(written(&bundle)["ns"], "my-weather");
    check(&diagnostics, &[("generated/content", "/id")]);
}

#[test]
fn value_sets_are_written_as_tag_values_with_dtype_names() {
    let mut set = ToolSet { id: Some("units".into()), ..ToolSet::default() };
    set.value_sets.insert(
        "Unit".into(),
        ValueSet {
            name: Some("Unit".into()),
            entries: vec![EnumValue { value: json!("KM"), label: Some("Kilometres".into()) }, EnumValue::new("MI")],
            handlers: IndexMap::from([("match".to_owned(), "enum::Unit::match".to_owned())]),
            ..ValueSet::default()
        },
    );
    let mut tool = Tool::new("convert");
    tool.title = Some("Convert".into());
    let mut unit = Parameter::new("unit", Schema { value_set: Some("Unit".into()), ..Schema::of(SchemaType::String) });
    unit.schema.enumeration = set.value_sets["Unit"].entries.clone().into();
    unit.required = true;
    tool.parameters.push(unit);
    set.tools.push(tool);

    let (bundle, diagnostics) = write_ok(&Gloodata, &set);
    check(&diagnostics, &[("generated/content", "/tools/0/display")]);
    let document = written(&bundle);
    assert_eq!(
        document["tagValues"],
        json!({"Unit": {"name": "Unit", "entries": [["KM", "Kilometres"], ["MI", "MI"]], "matchHandlerId": "enum::Unit::match"}})
    );
    let tool = &document["tools"]["convert"];
    assert_eq!(tool["schema"]["fields"]["unit"], json!({"type": "string", "enum": ["KM", "MI"]}));
    assert_eq!(tool["ui"]["args"]["unit"], json!({"prefix": "Unit", "dtypeName": "Unit"}));

    // Read back, the field names its set again.
    let (again, _) = read_ok(&Gloodata, &bundle);
    assert_eq!(again.tools[0].parameters[0].schema.value_set.as_deref(), Some("Unit"));
}

#[test]
fn duplicate_tool_names_are_made_unique() {
    let mut set = ToolSet { id: Some("dupes".into()), ..ToolSet::default() };
    for _ in 0..2 {
        let mut tool = Tool::new("search");
        tool.title = Some("Search".into());
        tool.display = Some(Box::default());
        set.tools.push(tool);
    }
    let (bundle, diagnostics) = write_ok(&Gloodata, &set);
    check(&diagnostics, &[("changed/name", "/tools/1/name")]);
    let document = written(&bundle);
    let names: Vec<_> = document["tools"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(names, ["search", "search_2"]);
}

#[test]
fn tool_names_that_are_not_identifiers_are_written_as_ids_with_the_way_back() {
    let mut set = ToolSet { id: Some("names".into()), ..ToolSet::default() };
    // An OpenAPI operation without operationId, a name with a dash, and a valid one.
    for name in ["POST /streams", "get-forecast", "helloWorld", "get_forecast"] {
        let mut tool = Tool::new(name);
        tool.title = Some("T".into());
        tool.display = Some(Box::default());
        set.tools.push(tool);
    }
    let (bundle, diagnostics) = write_ok(&Gloodata, &set);
    check(&diagnostics, &[("changed/name", "/tools/0/name"), ("changed/name", "/tools/1/name")]);
    let renamed: Vec<(&str, &str)> =
        diagnostics.iter().filter_map(|d| d.renamed.as_deref()).map(|r| (r.from.as_str(), r.to.as_str())).collect();
    // `get_forecast` keeps itself; `get-forecast` gets a suffix rather than taking its name.
    let get_forecast = renamed[1].1;
    assert!(get_forecast.starts_with("get_forecast_") && get_forecast.len() > "get_forecast_".len(), "{renamed:?}");
    assert_eq!(renamed, [("POST /streams", "POST_streams"), ("get-forecast", get_forecast)]);
    assert!(diagnostics.iter().all(|d| d.severity == toolport_plugin::Severity::Warning), "{}", render(&diagnostics));
    let document = written(&bundle);
    let names: Vec<_> = document["tools"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(names, ["POST_streams", get_forecast, "helloWorld", "get_forecast"]);
}

/// Asked for less than every diagnostic (a batch's summary, `-q`), the writer says in full and
/// counts exactly what writing them all and folding gives, with the same document; what it
/// only counts it does not make (core's `Said`).
#[test]
fn a_detail_asked_for_keeps_and_counts_as_folding_all_would() {
    let mut model = foreign_model();
    model.tools.push(Tool::new("get-forecast"));
    check_detail_folds(&Gloodata, &model, 11, "gloodata");
}
