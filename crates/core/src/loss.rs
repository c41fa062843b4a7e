//! Loss reporting shared by every writer: a writer declares which model fields it carries,
//! and [`uncarried`] reports each present field it does not, with its model path. A writer
//! then adds diagnostics only for partial losses it alone can see (an expectation kind it
//! cannot express, a value it had to change).
//!
//! References: a writer that writes [`crate::ToolSet::definitions`] declares `definitions` in
//! [`Carried::tool_set`] and `reference` in [`Carried::schema`] (each definition's schema is
//! then checked like any other). A writer whose target cannot refer to schemas calls
//! [`crate::definitions::resolve`] first and passes the resolved model here, so it reports only
//! the cuts `resolve` itself reports.

use serde_json::Value;

use crate::source::child;
use crate::{Diagnostic, ToolSet, codes};

/// The model fields (by their JSON names) a writer carries, per level of the model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Carried<'a> {
    /// Keys of the tool set (`id`, `title`, `servers`, …). `tools` is always carried.
    pub tool_set: &'a [&'a str],
    /// Keys of a tool (`title`, `prompt`, …). `name` and `parameters` are always carried.
    pub tool: &'a [&'a str],
    /// Keys of a parameter besides `name` and `schema` (`required`, `location`).
    pub parameter: &'a [&'a str],
    /// Keys of a schema (`type`, `enum`, `items`, …), at every depth.
    pub schema: &'a [&'a str],
    /// Keys of an example (`prompt`, `expected`, …), when the writer carries `examples`.
    pub example: &'a [&'a str],
}

/// Every field present in `model` that `carried` leaves out, as loss diagnostics. Extras of
/// formats other than `format_id` are reported too (a writer keeps only its own).
pub fn uncarried(model: &ToolSet, format_id: &str, carried: &Carried) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Ok(Value::Object(set)) = serde_json::to_value(model) else { return out };
    let target = format_id;
    for (key, value) in &set {
        match key.as_str() {
            "tools" => {}
            "extras" => foreign_extras(value, "", format_id, &mut out),
            _ if !carried.tool_set.contains(&key.as_str()) => {
                out.push(loss(key, &child("", key), &format!("the tool set's `{key}`"), target));
            }
            "definitions" => {
                for (name, schema) in value.as_object().into_iter().flatten() {
                    let what = format!("definition `{name}`");
                    schema_level(
                        schema,
                        &child(&child("", "definitions"), name),
                        carried.schema,
                        &what,
                        format_id,
                        &mut out,
                    );
                }
            }
            "examples" => {
                for (i, example) in value.as_array().into_iter().flatten().enumerate() {
                    let path = child(&child("", "examples"), i.to_string());
                    level(example, &path, carried.example, &["extras"], "example", target, &mut out);
                    if let Some(extras) = example.get("extras") {
                        foreign_extras(extras, &path, format_id, &mut out);
                    }
                }
            }
            _ => {}
        }
    }
    for (i, tool) in set.get("tools").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let path = child("/tools", i.to_string());
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        let what = format!("tool `{name}`");
        level(tool, &path, carried.tool, &["name", "parameters", "extras"], &what, target, &mut out);
        if let Some(extras) = tool.get("extras") {
            foreign_extras(extras, &path, format_id, &mut out);
        }
        for (j, parameter) in tool.get("parameters").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let ppath = child(&child(&path, "parameters"), j.to_string());
            let pname = parameter.get("name").and_then(Value::as_str).unwrap_or("?");
            let what = format!("parameter `{pname}` of tool `{name}`");
            level(parameter, &ppath, carried.parameter, &["name", "schema", "extras"], &what, target, &mut out);
            if let Some(extras) = parameter.get("extras") {
                foreign_extras(extras, &ppath, format_id, &mut out);
            }
            if let Some(schema) = parameter.get("schema") {
                schema_level(schema, &child(&ppath, "schema"), carried.schema, &what, format_id, &mut out);
            }
        }
        if let Some(schema) = tool.get("output").and_then(|o| o.get("schema"))
            && carried.tool.contains(&"output")
        {
            let what = format!("the output of tool `{name}`");
            let path = child(&child(&path, "output"), "schema");
            schema_level(schema, &path, carried.schema, &what, format_id, &mut out);
        }
    }
    out
}

fn level(
    value: &Value,
    path: &str,
    carried: &[&str],
    always: &[&str],
    what: &str,
    target: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some(map) = value.as_object() else { return };
    for key in map.keys() {
        if !carried.contains(&key.as_str()) && !always.contains(&key.as_str()) {
            out.push(loss(key, &child(path, key), &format!("`{key}` of {what}"), target));
        }
    }
}

fn schema_level(schema: &Value, path: &str, carried: &[&str], what: &str, format_id: &str, out: &mut Vec<Diagnostic>) {
    let Some(map) = schema.as_object() else { return };
    for (key, value) in map {
        if key == "extras" {
            foreign_extras(value, path, format_id, out);
            continue;
        }
        if !carried.contains(&key.as_str()) {
            out.push(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                child(path, key),
                format!("{format_id} cannot express `{key}` in the schema of {what}"),
            ));
            continue;
        }
        match key.as_str() {
            "items" => schema_level(value, &child(path, key), carried, what, format_id, out),
            "additional_properties" if value.is_object() => {
                schema_level(value, &child(path, key), carried, what, format_id, out)
            }
            "properties" => {
                for (i, property) in value.as_array().into_iter().flatten().enumerate() {
                    if let Some(s) = property.get("schema") {
                        let p = child(&child(&child(path, key), i.to_string()), "schema");
                        schema_level(s, &p, carried, what, format_id, out);
                    }
                }
            }
            "any_of" => {
                for (i, s) in value.as_array().into_iter().flatten().enumerate() {
                    schema_level(s, &child(&child(path, key), i.to_string()), carried, what, format_id, out);
                }
            }
            _ => {}
        }
    }
}

fn foreign_extras(extras: &Value, path: &str, format_id: &str, out: &mut Vec<Diagnostic>) {
    for key in extras.as_object().into_iter().flat_map(|m| m.keys()) {
        // `jsonschema` holds schema keywords outside the canonical subset; any schema-rich
        // writer may carry it, so it is reported by the schema walk's `carried` list instead.
        if key != format_id && key != "jsonschema" {
            out.push(Diagnostic::loss(
                codes::LOSS_EXTRAS,
                child(&child(path, "extras"), key),
                format!("{format_id} cannot hold data only {key} has"),
            ));
        }
    }
}

fn loss(key: &str, path: &str, what: &str, target: &str) -> Diagnostic {
    let code = match key {
        "prompt" => codes::LOSS_PROMPT,
        "model_settings" => codes::LOSS_MODEL_SETTINGS,
        "http" | "location" | "servers" => codes::LOSS_HTTP,
        "auth" => codes::LOSS_AUTH,
        "examples" | "expected" | "mocks" | "response" | "response_summary" | "used_as_example" | "name" => {
            codes::LOSS_EXAMPLES
        }
        "display" => codes::LOSS_DISPLAY,
        "confirmation" | "hints" => codes::LOSS_CONFIRMATION,
        _ => codes::LOSS_FIELD,
    };
    Diagnostic::loss(code, path, format!("{target} cannot hold {what}; it was left out"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Parameter, Schema, SchemaType, Tool};

    fn check(model: &ToolSet, carried: &Carried, expect: &[(&str, &str)]) {
        let got: Vec<(String, String)> =
            uncarried(model, "target", carried).into_iter().map(|d| (d.code, d.path)).collect();
        let want: Vec<(String, String)> = expect.iter().map(|(c, p)| (c.to_string(), p.to_string())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn reports_each_uncarried_field_with_its_path() {
        let mut tool = Tool::new("summarize");
        tool.prompt = Some("Summarize {{text}}".into());
        tool.title = Some("Summarize".into());
        let mut schema = Schema::of(SchemaType::Array);
        schema.items = Some(Box::new(Schema { pattern: Some("x".into()), ..Schema::of(SchemaType::String) }));
        tool.parameters.push(Parameter::new("text", schema));
        tool.extras.insert("skydeck".into(), serde_json::json!({"k": 1}));
        let model = ToolSet { id: Some("x".into()), tools: vec![tool], ..ToolSet::default() };
        let carried = Carried { tool_set: &["id"], tool: &["title"], schema: &["type", "items"], ..Carried::default() };
        check(
            &model,
            &carried,
            &[
                ("loss/prompt", "/tools/0/prompt"),
                ("loss/extras", "/tools/0/extras/skydeck"),
                ("loss/schema", "/tools/0/parameters/0/schema/items/pattern"),
            ],
        );
        let mut own = model.clone();
        own.tools[0].prompt = None;
        own.tools[0].parameters.clear();
        assert!(uncarried(&own, "skydeck", &carried).is_empty(), "own extras are not a loss");
    }
}
