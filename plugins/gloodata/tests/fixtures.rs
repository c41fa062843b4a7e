//! Hand-written fixtures, one per construct: each reads without error, writes back as the
//! same JSON, and has golden snapshots of its model, written document and diagnostics.

use serde_json::{Value, json};
use toolport_format_gloodata::Gloodata;
use toolport_plugin::display::display_line;
use toolport_plugin::{Diagnostic, Format, Options, ToolSet};
use toolport_testkit::{fixture, load, read_ok, render, round_trip};

/// Reads a fixture, checks the round trip, snapshots model, output and diagnostics.
fn check(name: &str) -> ToolSet {
    let bundle = load(&fixture(&format!("gloodata/{name}.json")));
    assert!(Gloodata.detect(&bundle) >= 90, "{name}: not detected");
    let trip = round_trip(&Gloodata, &bundle, &Options::default(), name);
    let (path, text) = trip.output();
    assert_eq!(path, format!("{}.json", trip.model.id.as_deref().unwrap_or("extension")));

    let diagnostics: Vec<Diagnostic> = trip.read_diagnostics.iter().chain(&trip.write_diagnostics).cloned().collect();
    insta::assert_json_snapshot!(format!("{name}__model"), trip.model);
    insta::assert_snapshot!(format!("{name}__written"), text);
    let rendered = if diagnostics.is_empty() { "(no diagnostics)\n".to_owned() } else { render(&diagnostics) };
    insta::assert_snapshot!(format!("{name}__diagnostics"), rendered);
    trip.model
}

#[test]
fn show_map_renders_its_display_line() {
    let model = check("show-map");
    let tool = model.tool("showMapAtAddressAndZoom").expect("the map tool");
    let arguments = json!({"address": "Cairo", "zoom": 12});
    assert_eq!(display_line(tool, arguments.as_object().unwrap()), "Show Map Of \"Cairo\" At Zoom Level 12");
    assert_eq!(model.examples.len(), 3);
    assert!(tool.parameters.iter().all(|p| p.required), "fields without [T, null] are required");
}

#[test]
fn hello_world_without_schema_or_ui() {
    let model = check("hello-world");
    assert_eq!(model.tools[0].display, None);
    assert!(model.tools[0].parameters.is_empty());
}

#[test]
fn value_sets_and_dtype_names() {
    let model = check("value-sets");
    let tool = &model.tools[0];
    let metric = &tool.parameter("metric").unwrap().schema;
    assert_eq!(metric.value_set.as_deref(), Some("Metric"));
    let labels: Vec<_> = metric.enumeration.iter().flatten().map(|v| v.label.as_deref().unwrap_or("")).collect();
    assert_eq!(labels, ["Total revenue", "Average order value"]);
    // `Country` (the id of the set stored under `country`) has no static entries: its values
    // come from its handlers at run time, so the field lists no allowed values (no value set,
    // no enum) and the name stays in the residue, written back as `dtypeName`.
    let country = tool.parameter("country").unwrap();
    assert_eq!((&country.schema.value_set, &country.schema.enumeration), (&None, &None));
    assert_eq!(tool.extras["gloodata"]["ui"]["args"]["country"]["dtypeName"], "Country");
    assert_eq!(model.value_sets["country"].handlers["search"], "enum::Country::search");
    let region = &tool.parameter("region").unwrap().schema;
    let region_values: Vec<_> =
        region.enumeration.iter().flatten().map(|v| (v.value.clone(), v.label.clone())).collect();
    assert_eq!(region_values[0], (json!("EMEA"), Some("Europe, Middle East and Africa".to_owned())));
    assert_eq!(region_values[2], (json!("AMER"), None), "a value the set does not list has no label");
}

#[test]
fn field_types_nullable_date_multiline_and_nulls() {
    let model = check("field-types");
    let tool = &model.tools[0];
    let note = tool.parameter("note").unwrap();
    assert!(note.schema.nullable && !note.required);
    let start = tool.parameter("start").unwrap();
    assert!(start.required, "a date without null in its type is required, even with default null");
    assert_eq!(start.schema.default, None, "`default: null` is Gloodata's way of saying none");
    assert_eq!(start.extras["gloodata"]["default"], Value::Null, "kept, so it is written back");
    assert_eq!(start.schema.format.as_deref(), Some("date"));
    assert!(tool.parameter("text").unwrap().schema.multiline);
    assert_eq!(tool.parameter("anything").unwrap().schema.kind, None);
}

#[test]
fn context_actions_in_both_shapes() {
    let model = check("context-actions");
    assert_eq!(model.tools[0].extras["gloodata"]["contextActions"][0]["target"]["name"], "ServiceId");
    assert_eq!(model.tools[1].extras["gloodata"]["contextActions"][0]["for"]["ns"], "status");
}

#[test]
fn functions_key_is_written_back() {
    let model = check("functions-key");
    assert_eq!(model.tools.len(), 2);
}

#[test]
fn ui_args_labels_suffixes_and_foreign_sets() {
    let model = check("ui-args");
    let tool = &model.tools[0];
    let display = tool.display.as_ref().unwrap();
    let order: Vec<_> = display.args.keys().map(String::as_str).collect();
    assert_eq!(order, ["year", "country", "city", "label_only"], "ui.args order is the display order");
    let arguments = json!({"country": "Italy", "year": 1950, "city": "Rome"});
    assert_eq!(
        display_line(tool, arguments.as_object().unwrap()),
        "Demographic Pyramid for Year 1950 Country \"Italy\" City \"Rome\" only (UN data)"
    );
    assert_eq!(tool.parameter("city").unwrap().schema.value_set, None, "a set of another namespace");
}

#[test]
fn unknown_keys_are_kept_and_reported() {
    check("unknown-keys");
}

/// Value sets without static entries, in every fixture and corpus document: no field gets an
/// empty enum or names such a set (every writer would read that as "no value is allowed"),
/// and each round trip stays exact (checked by `check` and by corpus.rs).
#[test]
fn value_sets_without_entries_give_no_empty_enum() {
    let mut inputs: Vec<std::path::PathBuf> = ["context-actions", "ui-args", "value-sets"]
        .iter()
        .map(|name| fixture(&format!("gloodata/{name}.json")))
        .collect();
    let mut corpus: Vec<_> = std::fs::read_dir(toolport_testkit::corpus("gloodata"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    corpus.sort();
    inputs.extend(corpus);
    for path in inputs {
        let (model, _) = read_ok(&Gloodata, &load(&path));
        for tool in &model.tools {
            for parameter in &tool.parameters {
                let at = format!("{} {}.{}", path.display(), tool.name, parameter.name);
                assert!(parameter.schema.enumeration.as_ref().is_none_or(|v| !v.is_empty()), "{at}: empty enum");
                if let Some(set) = &parameter.schema.value_set {
                    assert!(!model.value_sets[set].entries.is_empty(), "{at}: names `{set}`, which lists no values");
                }
            }
        }
    }
}
