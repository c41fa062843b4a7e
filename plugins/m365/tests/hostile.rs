//! Manifests that name a spec outside their folder: each is refused with an error located at
//! the manifest's `url`, and nothing is read, not even a file of the folder that a careless
//! resolution would reach.

use toolport_format_m365::M365;
use toolport_plugin::{Bundle, Format, Options};
use toolport_testkit::render;

const SPEC: &str = r#"{"openapi": "3.0.3", "info": {"title": "Leak", "version": "1"}, "paths": {"/leak": {"get": {"operationId": "leak", "responses": {"200": {"description": "ok"}}}}}}"#;

/// The manifest naming `url`, in a folder that also holds a spec under every name a resolution
/// that dropped `..`, a leading `/` or a scheme would find.
fn folder(url: &str) -> Bundle {
    let manifest = format!(
        "{{\n  \"schema_version\": \"v2.4\",\n  \"name_for_human\": \"H\",\n  \"namespace\": \"h\",\n  \"description_for_human\": \"d\",\n  \"runtimes\": [\n    {{\"type\": \"OpenApi\", \"auth\": {{\"type\": \"None\"}},\n     \"spec\": {{\"url\": {}}}}}\n  ]\n}}",
        serde_json::to_string(url).unwrap()
    );
    let mut bundle = Bundle::default();
    bundle.insert("h-apiplugin.json", manifest);
    for decoy in ["passwd", "etc/passwd", "openapi.json", "example.org/openapi.json", "spec/openapi.json"] {
        bundle.insert(decoy, SPEC);
    }
    bundle
}

/// Reading the folder of `url` fails with one error at the url's line and column that says `says`.
#[track_caller]
fn check(url: &str, says: &str) {
    let outcome = M365.read(&folder(url), &Options::default());
    let rendered = render(&outcome.diagnostics);
    assert!(outcome.value.is_none(), "{url} was read:\n{rendered}");
    let errors: Vec<&str> = rendered.lines().map(str::trim).filter(|l| l.contains("error[")).collect();
    assert_eq!(errors.len(), 1, "{url}:\n{rendered}");
    assert!(errors[0].starts_with("h-apiplugin.json:8:"), "{url}: not located at the url: {}", errors[0]);
    assert!(errors[0].contains("/runtimes/0/spec/url") && errors[0].contains(says), "{url}: {}", errors[0]);
}

#[test]
fn a_spec_outside_the_folder_is_refused_where_the_manifest_names_it() {
    let cases = [
        ("../../etc/passwd", "leaves the plugin's folder"),
        ("spec/../../openapi.json", "leaves the plugin's folder"),
        ("..\\..\\etc\\passwd", "leaves the plugin's folder"),
        ("/etc/passwd", "is an absolute path"),
        ("\\\\server\\share\\openapi.json", "is an absolute path"),
        ("https://example.org/openapi.json", "is a URL"),
        ("file:///etc/passwd", "is a URL"),
        ("C:\\specs\\openapi.json", "is a URL (or a drive path)"),
        ("", "the spec's url is empty"),
        ("missing.json", "is not in the plugin's folder"),
    ];
    for (url, says) in cases {
        check(url, says);
    }
}

#[test]
fn a_spec_inside_the_folder_by_a_winding_path_is_read() {
    let outcome = M365.read(&folder("./spec/../spec/openapi.json"), &Options::default());
    let model = outcome.value.expect("read");
    assert_eq!(model.tools.len(), 1);
}

#[test]
fn a_manifest_without_an_openapi_or_mcp_runtime_says_what_it_reads() {
    let manifest = r#"{"schema_version": "v2.4", "name_for_human": "H", "namespace": "h", "description_for_human": "d",
        "runtimes": [{"type": "LocalPlugin", "auth": {"type": "None"}, "spec": {"local_endpoint": "Microsoft.Office.Addin"}}]}"#;
    let outcome = M365.read(&Bundle::single("h-apiplugin.json", manifest), &Options::default());
    assert!(outcome.value.is_none());
    let said = render(&outcome.diagnostics);
    assert!(said.contains("warning[input/unsupported]: a runtime of type `LocalPlugin` is not read"), "{said}");
    assert!(said.contains("error[input/unsupported]: the manifest has no runtime of type OpenApi"), "{said}");
}

#[test]
fn a_missing_spec_names_the_nearest_file_of_the_folder() {
    check(
        "spec/openapi.yml",
        "is not in the plugin's folder (looked for `spec/openapi.yml`); did you mean `spec/openapi.json`?",
    );
}

/// The folder of `folder("openapi.json")` with a second manifest beside the first.
fn app_package() -> Bundle {
    let mut input = folder("openapi.json");
    let second = input.get("h-apiplugin.json").unwrap().replace("\"H\"", "\"Second\"");
    input.insert("second-apiplugin.json", second);
    input
}

#[test]
fn two_manifests_in_one_folder_are_refused_by_name_with_the_option_that_picks_one() {
    let outcome = M365.read(&app_package(), &Options::default());
    assert!(outcome.value.is_none());
    let said = render(&outcome.diagnostics);
    assert!(
        said.contains("2 plugin manifests (h-apiplugin.json, second-apiplugin.json): choose one with --option manifest=h-apiplugin.json"),
        "{said}"
    );
}

#[test]
fn the_manifest_option_reads_the_one_it_names_and_suggests_a_near_name() {
    let mut options = Options::default();
    options.set("manifest", "second-apiplugin.json");
    let model = M365.read(&app_package(), &options).value.expect("read");
    assert_eq!(model.title.as_deref(), Some("Second"));
    options.set("manifest", "secnd-apiplugin.json");
    let outcome = M365.read(&app_package(), &options);
    assert!(outcome.value.is_none());
    let said = render(&outcome.diagnostics);
    assert!(
        said.contains("no plugin manifest of that name at its top level; did you mean `second-apiplugin.json`?"),
        "{said}"
    );
}
