//! `requestBody` → body parameters: an object schema's properties each become one, any other
//! schema one parameter named `body`.

use serde_json::{Map, Value, json};
use toolport_plugin::jsonschema::Reader;
use toolport_plugin::{Diagnostic, HttpBinding, ParamLocation, Parameter, Schema, SchemaType, Tool, codes};

use super::{copy_without, pick_media, pointer_join, read_required};
use crate::ID;
use crate::bookkeeping::XT;

pub(super) fn read_request_body(
    reader: &mut Reader,
    body: &Value,
    at: &str,
    tool: &mut Tool,
    http: &mut HttpBinding,
    ext: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some((body, body_at)) = reader.follow(body, at) else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_UNRESOLVED,
            at,
            "the request body's `$ref` names nothing; skipped",
        ));
        return;
    };
    let Some(map) = body.as_object() else { return };
    let required = read_required(map, &body_at, diagnostics);
    let mut request = Map::new();
    for (key, value) in map {
        if key != "content" && !key.starts_with(XT) {
            request.insert(key.clone(), value.clone());
        }
    }
    // Kept as the boolean it was read as.
    if let Some(flag) = required {
        request.insert("required".into(), Value::Bool(flag));
    }
    let required = required.unwrap_or(false);
    let content = map.get("content").and_then(Value::as_object);
    let Some((media_type, media)) = content.and_then(pick_media) else {
        ext.insert("body".into(), json!({"request": request}));
        return;
    };
    http.body_content_type = Some(media_type.clone());
    let others = content.map(|content| copy_without(content, &[media_type])).unwrap_or_default();
    if !others.is_empty() {
        request.insert("content".into(), Value::Object(others));
    }
    let media_rest = media.as_object().map(|media| copy_without(media, &["schema"])).unwrap_or_default();
    let mut body_ext = Map::new();
    if !media_rest.is_empty() {
        body_ext.insert("media".into(), Value::Object(media_rest));
    }
    let schema = match media.get("schema") {
        Some(schema) => reader.read(schema, &pointer_join(&body_at, &["content", media_type, "schema"])),
        None => {
            body_ext.insert("noSchema".into(), Value::Bool(true));
            Schema::default()
        }
    };
    let flatten = !schema.properties.is_empty()
        && matches!(schema.kind, None | Some(SchemaType::Object))
        && schema.any_of.is_empty()
        && !schema.nullable;
    if flatten {
        let mut rest = schema;
        for property in std::mem::take(&mut rest.properties) {
            let mut parameter = Parameter::new(property.name.clone(), property.schema);
            parameter.required = property.required;
            parameter.location = Some(ParamLocation::Body);
            if tool.parameter(&property.name).is_some() {
                parameter.name = format!("body_{}", property.name);
                parameter.extras.insert(ID.into(), json!({"name": property.name}));
                diagnostics.push(Diagnostic::info(
                    codes::INPUT_TOLERATED,
                    at,
                    format!(
                        "body property `{}` is called `{}` in the model: a parameter has its name",
                        property.name, parameter.name
                    ),
                ));
            }
            tool.parameters.push(parameter);
        }
        body_ext.insert("schema".into(), serde_json::to_value(&rest).unwrap_or_default());
    } else {
        let mut name = "body".to_owned();
        while tool.parameter(&name).is_some() {
            name.insert_str(0, "request_");
        }
        let mut parameter = Parameter::new(name.clone(), schema);
        parameter.required = required;
        parameter.location = Some(ParamLocation::Body);
        tool.parameters.push(parameter);
        http.body_parameter = Some(name);
    }
    body_ext.insert("request".into(), Value::Object(request));
    ext.insert("body".into(), Value::Object(body_ext));
}
