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
