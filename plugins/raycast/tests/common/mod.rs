//! A model from outside Raycast (as an OpenAPI reader would give it) to test the writer with.

use serde_json::json;
use toolport_plugin::{
    ConstraintFields, EnumValue, Example, Expectation, HttpBinding, Matcher, ParamLocation, Parameter, Schema,
    SchemaType, Server, Tool, ToolCall, ToolSet,
};

fn parameter(name: &str, location: ParamLocation, required: bool, schema: Schema) -> Parameter {
    Parameter { name: name.into(), required, location: Some(location), schema, ..Parameter::default() }
}

#[allow(dead_code)]
pub fn http_model() -> ToolSet {
    let mut update = Tool::new("updatePet");
    update.description = Some("Update a pet.\n\nOnly the fields given change.".into());
    update.http = Some(Box::new(HttpBinding {
        method: "PATCH".into(),
        path: "/pets/{petId}/owners/{owner-id}".into(),
        body_content_type: Some("application/json".into()),
        ..HttpBinding::default()
    }));
    let string = |d: &str| Schema { description: Some(d.into()), ..Schema::of(SchemaType::String) };
    update.parameters = vec![
        parameter(
            "petId",
            ParamLocation::Path,
            true,
            Schema {
                constraints: ConstraintFields { minimum: Some(1.into()), ..ConstraintFields::NONE }.into(),
                ..Schema::of(SchemaType::Integer)
            },
        ),
        parameter("owner-id", ParamLocation::Path, true, string("The owner")),
        parameter(
            "tags",
            ParamLocation::Query,
            false,
            Schema { items: Some(Box::new(Schema::of(SchemaType::String))), ..Schema::of(SchemaType::Array) },
        ),
        parameter("verbose", ParamLocation::Query, false, Schema::of(SchemaType::Boolean)),
        parameter("X-Request-Id", ParamLocation::Header, false, string("A request id")),
        parameter("session", ParamLocation::Cookie, false, Schema::of(SchemaType::String)),
        parameter("name", ParamLocation::Body, true, string("New name")),
        parameter(
            "status",
            ParamLocation::Body,
            false,
            Schema {
                enumeration: Some(vec![
                    EnumValue { value: json!("available"), label: Some("Available".into()) },
                    EnumValue::new("sold"),
                ]),
                ..Schema::of(SchemaType::String)
            },
        ),
    ];
    let mut delete = Tool::new("../../deletePet");
    delete.hints.destructive = Some(true);
    delete.http =
        Some(Box::new(HttpBinding { method: "DELETE".into(), path: "/pets/{petId}".into(), ..HttpBinding::default() }));
    delete.parameters = vec![parameter("petId", ParamLocation::Path, true, Schema::of(SchemaType::String))];
    let mut summarize = Tool::new("Summarize Text");
    summarize.prompt = Some("Summarize {{text}}".into());
    summarize.parameters = vec![Parameter { required: true, ..Parameter::new("text", string("The text")) }];
    let mut arguments = indexmap::IndexMap::new();
    arguments.insert("petId".to_owned(), Matcher::eq(7));
    ToolSet {
        id: Some("Pet Store".into()),
        title: Some("Pet Store".into()),
        servers: vec![Server { url: "https://petstore.example.com/v1/".into(), ..Server::default() }],
        tools: vec![update, delete, summarize],
        examples: vec![Example {
            prompt: "rename pet 7 to Rex".into(),
            expected: vec![Expectation::CallsTool(ToolCall {
                tool: "updatePet".into(),
                arguments: Some(arguments),
                long_form: true,
            })],
            ..Example::default()
        }],
        ..ToolSet::default()
    }
}

/// Writes a bundle's files, text and binary (icons), under `dir`.
pub fn write_to_disk(bundle: &toolport_plugin::Bundle, dir: &std::path::Path) {
    for (path, bytes) in bundle.output_files() {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
}

/// The built `convert`, beside which `cargo build --workspace` puts the plugins.
pub fn convert_exe() -> std::path::PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| toolport_testkit::workspace_root().join("target"), std::path::PathBuf::from);
    let exe = target.join("debug").join(format!("convert{}", std::env::consts::EXE_SUFFIX));
    assert!(
        exe.exists(),
        "{} is not built: run `cargo build --workspace --lib --bins --examples` first",
        exe.display()
    );
    exe
}

/// The npm project the written extensions are checked against (tests/tsc).
pub fn npm_project() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tsc")
}

/// Whether node is here, with the npm project installed; false only when skipping. Tests run
/// on threads of one process: the first to ask installs the project (`npm ci`), the others
/// wait for it instead of running npm in the same folder or finding it half installed.
pub fn node_ready() -> bool {
    static READY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *READY.get_or_init(install_npm_project)
}

fn install_npm_project() -> bool {
    if !tool_available("node") || !tool_available("npm") {
        if std::env::var("TOOLPORT_SKIP_TSC").as_deref() == Ok("1") {
            eprintln!("skipped: node/npm not found and TOOLPORT_SKIP_TSC=1");
            return false;
        }
        panic!(
            "node and npm are needed to type-check and run written extensions (install Node.js 20+), or set TOOLPORT_SKIP_TSC=1 to skip"
        );
    }
    let project = npm_project();
    if project.join("node_modules/typescript/bin/tsc").exists() && project.join("node_modules/@raycast/api").exists() {
        return true;
    }
    let output = std::process::Command::new("npm")
        .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
        .current_dir(&project)
        .output()
        .expect("run npm ci");
    assert!(
        output.status.success(),
        "npm ci in {} failed:\n{}{}",
        project.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    true
}

fn tool_available(program: &str) -> bool {
    std::process::Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Leaf values of a JSON document by JSON pointer.
fn leaves(value: &serde_json::Value, at: String, out: &mut std::collections::BTreeMap<String, serde_json::Value>) {
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                leaves(v, format!("{at}/{k}"), out);
            }
        }
        serde_json::Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{at}/{i}"), out);
            }
        }
        other => {
            out.insert(at, other.clone());
        }
    }
}

/// Paths under which the writer said the model changes on the way back: types Raycast's
/// schema generator cannot read (`changed/schema`) and values Raycast requires that the source
/// lacked (`generated/content`, `generated/placeholder`). A stub (`generated/stub`) changes
/// nothing the model holds.
fn reported_paths(diagnostics: &[toolport_plugin::Diagnostic]) -> Vec<&str> {
    let codes = ["changed/schema", "generated/content", "generated/placeholder"];
    diagnostics.iter().filter(|d| codes.contains(&d.code.as_str())).map(|d| d.path.as_str()).collect()
}

/// raycast → raycast → read gives back `model`, except under the paths the writer reported.
/// Two records of where a generated value was missing follow it: a key it added joins the
/// manifest's key order (the source's keys keep theirs), and a tool description written into
/// package.json from the TypeScript is no longer marked as found only there.
pub fn assert_same_model_but_reported(
    model: &ToolSet,
    again: &ToolSet,
    diagnostics: &[toolport_plugin::Diagnostic],
    name: &str,
) {
    let reported = reported_paths(diagnostics);
    let mut expected = serde_json::to_value(model).unwrap();
    let mut actual = serde_json::to_value(again).unwrap();
    let source_order = expected.pointer("/extras/raycast/key_order").cloned().unwrap_or_default();
    if let Some(serde_json::Value::Array(order)) = actual.pointer_mut("/extras/raycast/key_order") {
        order.retain(|key| source_order.as_array().is_some_and(|o| o.contains(key)));
    }
    for (index, tool) in expected["tools"].as_array_mut().into_iter().flatten().enumerate() {
        if reported.contains(&format!("/tools/{index}/description").as_str())
            && let Some(serde_json::Value::Object(extras)) = tool.pointer_mut("/extras/raycast")
        {
            extras.remove("description_in_code");
        }
    }
    for model in [&mut expected, &mut actual] {
        prune_carried_files(model);
        prune_empty_extras(model);
    }
    let (mut before, mut after) = (Default::default(), Default::default());
    leaves(&expected, String::new(), &mut before);
    leaves(&actual, String::new(), &mut after);
    let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let unreported: Vec<String> = keys
        .into_iter()
        .filter(|k| before.get(*k) != after.get(*k))
        .filter(|k| !reported.iter().any(|c| k.as_str() == *c || k.starts_with(&format!("{c}/"))))
        .map(|k| format!("{k}: {:?} -> {:?}", before.get(k), after.get(k)))
        .collect();
    assert!(unreported.is_empty(), "{name}: changed without a diagnostic that says so:\n{}", unreported.join("\n"));
}

/// Drops the record of the source's files (the extension's files and where each tool's file
/// says what): a written extension has files the source lacked (stubs, placeholders), each
/// reported, and the files themselves are compared file by file in carry.rs.
fn prune_carried_files(model: &mut serde_json::Value) {
    if let Some(serde_json::Value::Object(extras)) = model.pointer_mut("/extras/raycast") {
        extras.remove("source_files");
    }
    for tool in model["tools"].as_array_mut().into_iter().flatten() {
        if let Some(serde_json::Value::Object(extras)) = tool.pointer_mut("/extras/raycast") {
            extras.remove("source");
        }
    }
}

/// Drops tools' `extras` objects left empty (a model without extras serialises none).
fn prune_empty_extras(model: &mut serde_json::Value) {
    for tool in model["tools"].as_array_mut().into_iter().flatten() {
        let Some(object) = tool.as_object_mut() else { continue };
        if let Some(serde_json::Value::Object(extras)) = object.get_mut("extras") {
            extras.retain(|_, v| !v.as_object().is_some_and(serde_json::Map::is_empty));
            if extras.is_empty() {
                object.remove("extras");
            }
        }
    }
}
