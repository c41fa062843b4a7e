//! A model from outside Raycast (as an OpenAPI reader would give it) to test the writer with.

use serde_json::json;
use toolport_plugin::{
    EnumValue, Example, Expectation, HttpBinding, Matcher, ParamLocation, Parameter, Schema, SchemaType, Server, Tool,
    ToolCall, ToolSet,
};

fn parameter(name: &str, location: ParamLocation, required: bool, schema: Schema) -> Parameter {
    Parameter { name: name.into(), required, location: Some(location), schema, ..Parameter::default() }
}

#[allow(dead_code)]
pub fn http_model() -> ToolSet {
    let mut update = Tool::new("updatePet");
    update.description = Some("Update a pet.\n\nOnly the fields given change.".into());
    update.http = Some(HttpBinding {
        method: "PATCH".into(),
        path: "/pets/{petId}/owners/{owner-id}".into(),
        body_content_type: Some("application/json".into()),
        ..HttpBinding::default()
    });
    let string = |d: &str| Schema { description: Some(d.into()), ..Schema::of(SchemaType::String) };
    update.parameters = vec![
        parameter(
            "petId",
            ParamLocation::Path,
            true,
            Schema { minimum: Some(1.into()), ..Schema::of(SchemaType::Integer) },
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
    delete.http = Some(HttpBinding { method: "DELETE".into(), path: "/pets/{petId}".into(), ..HttpBinding::default() });
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

/// Writes a bundle's files under `dir`.
#[allow(dead_code)]
pub fn write_to_disk(bundle: &toolport_plugin::Bundle, dir: &std::path::Path) {
    for (path, text) in &bundle.files {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
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
