//! `responses` → the tool's output: the first 2xx response (else `default`) is modelled, the
//! others are kept as written.

use serde_json::{Map, Value, json};
use toolport_plugin::jsonschema::Reader;
use toolport_plugin::source::child;
use toolport_plugin::{Output, Tool};

use super::{copy_without, pick_media, pointer_join};

pub(super) fn read_responses(
    reader: &mut Reader,
    responses: &Value,
    at: &str,
    tool: &mut Tool,
    ext: &mut Map<String, Value>,
) {
    let Some(map) = responses.as_object() else {
        ext.insert("responses".into(), json!({"raw": responses}));
        return;
    };
    let status =
        map.keys().find(|k| k.starts_with('2')).or_else(|| map.keys().find(|k| k.as_str() == "default")).cloned();
    let mut record = Map::new();
    let others = match &status {
        Some(status) => copy_without(map, &[status]),
        None => map.clone(),
    };
    if let Some(status) = status {
        let raw = &map[&status];
        record.insert("status".into(), Value::String(status.clone()));
        let r_at = child(at, &status);
        match reader.follow(raw, &r_at) {
            Some((response, response_at)) if response.is_object() && raw.get("$ref").is_none() => {
                let mut output = Output {
                    description: response.get("description").and_then(Value::as_str).map(str::to_owned),
                    ..Output::default()
                };
                let rest =
                    response.as_object().map(|r| copy_without(r, &["description", "content"])).unwrap_or_default();
                if let Some(content) = response.get("content") {
                    match content.as_object().and_then(pick_media) {
                        Some((media_type, media)) => {
                            output.content_type = Some(media_type.clone());
                            if let Some(schema) = media.get("schema") {
                                let s_at = pointer_join(&response_at, &["content", media_type, "schema"]);
                                output.schema = Some(reader.read(schema, &s_at));
                            }
                            let media_rest =
                                media.as_object().map(|media| copy_without(media, &["schema"])).unwrap_or_default();
                            if !media_rest.is_empty() {
                                record.insert("media".into(), Value::Object(media_rest));
                            }
                            let other_media = content
                                .as_object()
                                .map(|content| copy_without(content, &[media_type]))
                                .unwrap_or_default();
                            if !other_media.is_empty() {
                                record.insert("content".into(), Value::Object(other_media));
                            }
                        }
                        None => drop(record.insert("emptyContent".into(), content.clone())),
                    }
                }
                if !rest.is_empty() {
                    record.insert("response".into(), Value::Object(rest));
                }
                if output.description.is_none() {
                    record.insert("noDescription".into(), Value::Bool(true));
                }
                tool.output = Some(Box::new(output));
            }
            Some((response, response_at)) => {
                // A `$ref`'d response: modelled for other formats, kept as written for OpenAPI.
                record.insert("ref".into(), raw.clone());
                let description = response.get("description").and_then(Value::as_str).map(str::to_owned);
                let mut output = Output { description, ..Output::default() };
                if let Some((media_type, media)) =
                    response.get("content").and_then(Value::as_object).and_then(pick_media)
                {
                    output.content_type = Some(media_type.clone());
                    if let Some(schema) = media.get("schema") {
                        output.schema =
                            Some(reader.read(schema, &pointer_join(&response_at, &["content", media_type, "schema"])));
                    }
                }
                tool.output = Some(Box::new(output));
            }
            None => drop(record.insert("ref".into(), raw.clone())),
        }
    }
    if !others.is_empty() {
        record.insert("others".into(), Value::Object(others));
    }
    ext.insert("responses".into(), Value::Object(record));
}
