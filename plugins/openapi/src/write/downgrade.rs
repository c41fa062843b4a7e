//! A 3.1 source written as OpenAPI 3.0 (Vertex's spec; the `openapi` writer keeps the source's
//! version) without what only 3.1 has: operations regenerated from the model are 3.0 already,
//! but the parts kept as the source wrote them (the document's and `info`'s other keys,
//! components, other responses, callbacks) are not.
//!
//! Left out, each a `loss/*` diagnostic: `webhooks`, `info.summary`, `info.license.identifier`,
//! `components.pathItems` (path items that refer to one get it inline), `mutualTLS` security
//! schemes, and schema keywords 3.0 has no place for (`contentMediaType`, `prefixItems`, …).
//! Rewritten in 3.0's form, each a `changed/schema` note: type lists (`nullable`, `anyOf`),
//! `const` (a one-value `enum`), numeric exclusive bounds, `examples` (one `example`), boolean
//! schemas, a `required` listing no name; `jsonSchemaDialect` and `$schema` (3.0
//! has one dialect) are left out with a note. Diagnostics point into the written document, whose
//! pointers are the source's for these parts.

use serde_json::{Map, Value, json};
use toolport_plugin::jsonschema::OPENAPI_30_KEYWORDS;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, codes};

use super::places::{self, SchemaRewrite};

/// Rewrites `doc`, written as OpenAPI 3.0, so that it holds nothing only 3.1 has.
pub(super) fn to_openapi_30(doc: &mut Map<String, Value>, out: &mut Vec<Diagnostic>) {
    let path_items = match doc.get_mut("components") {
        Some(Value::Object(components)) => components.shift_remove("pathItems"),
        _ => None,
    };
    let mut down = Downgrade { out, path_items, mutual_tls: Vec::new() };
    down.top_level(doc);
    down.mutual_tls = down.security_schemes(doc);
    places::paths(&mut down, doc);
    if down.path_items.is_some() {
        down.loss(
            codes::LOSS_FIELD,
            "/components/pathItems",
            "OpenAPI 3.0's components have no `pathItems`: left out (the paths that refer to one have it inline)",
        );
    }
    down.drop_requirements(doc.get_mut("security"));
    places::components(&mut down, doc);
}

struct Downgrade<'o> {
    out: &'o mut Vec<Diagnostic>,
    /// The source's `components.pathItems`, taken out of the document.
    path_items: Option<Value>,
    /// The `mutualTLS` security schemes left out.
    mutual_tls: Vec<String>,
}

impl Downgrade<'_> {
    /// The document's, `info`'s and `license`'s fields that only 3.1 has.
    fn top_level(&mut self, doc: &mut Map<String, Value>) {
        if doc.shift_remove("webhooks").is_some() {
            self.loss(
                codes::LOSS_HTTP,
                "/webhooks",
                "OpenAPI 3.0 has no `webhooks` (requests the API sends): left out",
            );
        }
        if let Some(dialect) = doc.shift_remove("jsonSchemaDialect") {
            self.note(
                "/jsonSchemaDialect",
                format!("OpenAPI 3.0 schemas have one dialect: `jsonSchemaDialect` ({dialect}) was left out and the schemas written in 3.0's"),
            );
        }
        let Some(Value::Object(info)) = doc.get_mut("info") else { return };
        if info.shift_remove("summary").is_some() {
            self.loss(codes::LOSS_FIELD, "/info/summary", "OpenAPI 3.0's `info` has no `summary`: left out");
        }
        if let Some(Value::Object(license)) = info.get_mut("license")
            && license.shift_remove("identifier").is_some()
        {
            self.loss(
                codes::LOSS_FIELD,
                "/info/license/identifier",
                "OpenAPI 3.0's `license` has no SPDX `identifier` (only a name and a URL): left out",
            );
        }
    }

    /// Removes, from a list of security requirements, the alternatives that name a
    /// `mutualTLS` scheme (an alternative needs every scheme it names).
    fn drop_requirements(&self, security: Option<&mut Value>) {
        if let Some(Value::Array(requirements)) = security
            && !self.mutual_tls.is_empty()
        {
            requirements.retain(|r| !r.as_object().is_some_and(|r| r.keys().any(|k| self.mutual_tls.contains(k))));
        }
    }

    fn loss(&mut self, code: &str, at: &str, message: impl Into<String>) {
        self.out.push(Diagnostic::loss(code, at, message));
    }

    /// A change in form only: what the document means is the same.
    fn note(&mut self, at: &str, message: impl Into<String>) {
        self.out.push(Diagnostic::info(codes::CHANGED_SCHEMA, at, message));
    }

    /// Leaves out `mutualTLS` schemes (3.0 has none); their names.
    fn security_schemes(&mut self, doc: &mut Map<String, Value>) -> Vec<String> {
        let schemes = doc.get_mut("components").and_then(|c| c.get_mut("securitySchemes"));
        let Some(Value::Object(schemes)) = schemes else { return Vec::new() };
        let dropped: Vec<String> = schemes
            .iter()
            .filter(|(_, s)| s.get("type") == Some(&json!("mutualTLS")))
            .map(|(k, _)| k.clone())
            .collect();
        for name in &dropped {
            schemes.shift_remove(name);
            self.loss(
                codes::LOSS_AUTH,
                &child("/components/securitySchemes", name),
                format!("OpenAPI 3.0 has no `mutualTLS` security scheme: `{name}` and the requirements naming it were left out"),
            );
        }
        dropped
    }

    /// A path item that is a `$ref` to `components.pathItems` (which 3.0 has not) replaced by
    /// what it names.
    fn inline_path_item(&mut self, item: &mut Value, at: &str) {
        let Some(reference) = item.get("$ref").and_then(Value::as_str).map(str::to_owned) else { return };
        let Some(name) = reference.strip_prefix("#/components/pathItems/") else { return };
        let name = name.replace("~1", "/").replace("~0", "~");
        if let Some(target) = self.path_items.as_ref().and_then(|p| p.get(&name)) {
            *item = target.clone();
            self.note(at, format!("OpenAPI 3.0 has no `components.pathItems`: `{reference}` was written inline"));
        }
    }
}

impl SchemaRewrite for Downgrade<'_> {
    fn path_item_before(&mut self, item: &mut Value, at: &str) {
        self.inline_path_item(item, at);
    }

    fn security(&mut self, security: Option<&mut Value>) {
        self.drop_requirements(security);
    }

    /// One schema object (and the schemas inside it) in 3.0's form.
    fn schema(&mut self, schema: &mut Value, at: &str) {
        if let Value::Bool(accepts) = schema {
            let (written, form) = if *accepts { (json!({}), "`{}`") } else { (json!({"not": {}}), "`not: {}`") };
            self.note(at, format!("OpenAPI 3.0 has no boolean schemas: `{accepts}` was written as {form}"));
            *schema = written;
            return;
        }
        let Value::Object(map) = schema else { return };
        if map.contains_key("$ref") {
            return;
        }
        self.type_list(map, at);
        self.constant(map, at);
        self.examples(map, at);
        for (exclusive, inclusive) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            self.exclusive_bound(map, exclusive, inclusive, at);
        }
        self.required(map, at);
        let unknown: Vec<String> = map
            .keys()
            .filter(|k| !k.starts_with("x-") && !OPENAPI_30_KEYWORDS.contains(&k.as_str()))
            .cloned()
            .collect();
        for key in unknown {
            let value = map.shift_remove(&key).unwrap_or_default();
            if key == "$schema" {
                self.note(
                    &child(at, &key),
                    format!("OpenAPI 3.0 schemas have one dialect: `$schema` ({value}) was left out"),
                );
            } else {
                self.loss(codes::LOSS_SCHEMA, &child(at, &key), format!("OpenAPI 3.0 has no `{key}`: left out"));
            }
        }
        if let Some(Value::Array(_)) = map.get("items") {
            map.shift_remove("items");
            self.loss(codes::LOSS_SCHEMA, &child(at, "items"), "OpenAPI 3.0 has no list of item schemas: left out");
        }
        places::subschemas(map, at, |inner, at| self.schema(inner, at));
    }
}

impl Downgrade<'_> {
    /// `type: [T, "null"]` → `type: T, nullable: true`; several types → `anyOf` of each;
    /// `"null"` alone → `nullable: true`.
    fn type_list(&mut self, map: &mut Map<String, Value>, at: &str) {
        let names: Vec<String> = match map.get("type") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            Some(Value::String(name)) if name == "null" => vec![name.clone()],
            _ => return,
        };
        let written = map.shift_remove("type").unwrap_or_default();
        let types: Vec<&String> = names.iter().filter(|n| *n != "null").collect();
        let nullable = types.len() < names.len();
        let form = match types.as_slice() {
            [] => "`nullable: true`".to_owned(),
            [one] => {
                map.insert("type".into(), Value::String((*one).clone()));
                format!("`type: {one}`")
            }
            several => {
                let members: Vec<Value> = several.iter().map(|t| json!({"type": t})).collect();
                if map.contains_key("anyOf") {
                    // Both must hold: the source's alternatives and one of the types.
                    if let Value::Array(all_of) = map.entry("allOf").or_insert_with(|| json!([])) {
                        all_of.push(json!({"anyOf": members}));
                    }
                } else {
                    map.insert("anyOf".into(), Value::Array(members));
                }
                "`anyOf` one type each".to_owned()
            }
        };
        if nullable {
            map.insert("nullable".into(), Value::Bool(true));
        }
        let also = if nullable && !types.is_empty() { " with `nullable: true`" } else { "" };
        self.note(
            &child(at, "type"),
            format!("OpenAPI 3.0 has one type per schema: {written} was written as {form}{also}"),
        );
    }

    /// `const: v` → `enum: [v]`, or only `v` of an `enum` that lists it.
    fn constant(&mut self, map: &mut Map<String, Value>, at: &str) {
        let Some(value) = map.shift_remove("const") else { return };
        let at = child(at, "const");
        match map.get("enum") {
            Some(Value::Array(values)) if !values.contains(&value) => {
                self.loss(
                    codes::LOSS_SCHEMA,
                    &at,
                    format!("OpenAPI 3.0 has no `const`, and the `enum` beside it does not list {value}: left out"),
                );
                return;
            }
            _ => {}
        }
        map.insert("enum".into(), json!([value]));
        self.note(&at, format!("OpenAPI 3.0 has no `const`: written as `enum: [{value}]`"));
    }

    /// `examples: [a, b]` → `example: a`, the others left out.
    fn examples(&mut self, map: &mut Map<String, Value>, at: &str) {
        let Some(examples) = map.shift_remove("examples") else { return };
        let at = child(at, "examples");
        let mut values = match examples {
            Value::Array(values) => values,
            other => vec![other],
        };
        let first = if map.contains_key("example") || values.is_empty() {
            "`example` was kept"
        } else {
            map.insert("example".into(), values.remove(0));
            "the first of `examples` was written as `example`"
        };
        if values.is_empty() {
            self.note(&at, format!("OpenAPI 3.0 has one `example` per schema: {first}"));
        } else {
            let more = values.len();
            self.loss(
                codes::LOSS_SCHEMA,
                &at,
                format!("OpenAPI 3.0 has one `example` per schema: {first}, {more} more were left out"),
            );
        }
    }

    /// A numeric `exclusiveMinimum` (3.1) → `minimum` with `exclusiveMinimum: true` (3.0), or
    /// left out where the inclusive bound beside it is as strict.
    fn exclusive_bound(&mut self, map: &mut Map<String, Value>, exclusive: &str, inclusive: &str, at: &str) {
        let Some(Value::Number(bound)) = map.get(exclusive).cloned() else { return };
        let at = child(at, exclusive);
        let bound_f = bound.as_f64().unwrap_or_default();
        let stricter = match map.get(inclusive).and_then(Value::as_f64) {
            None => true,
            // `exclusiveMinimum: 5` is stricter than `minimum: 3`, and `minimum: 5` than `exclusiveMinimum: 3`.
            Some(other) if exclusive == "exclusiveMinimum" => bound_f >= other,
            Some(other) => bound_f <= other,
        };
        if stricter {
            map.insert(inclusive.into(), Value::Number(bound.clone()));
            map.insert(exclusive.into(), Value::Bool(true));
            self.note(
                &at,
                format!(
                    "OpenAPI 3.0 marks a bound exclusive: written as `{inclusive}: {bound}` with `{exclusive}: true`"
                ),
            );
        } else {
            map.shift_remove(exclusive);
            self.note(&at, format!("`{exclusive}: {bound}` says nothing `{inclusive}` does not: left out (OpenAPI 3.0 marks a bound exclusive)"));
        }
    }

    /// No `required` listing no name (3.0 needs one). (A list naming one twice was listed once
    /// on reading.)
    fn required(&mut self, map: &mut Map<String, Value>, at: &str) {
        if map.get("required").is_some_and(|r| r.as_array().is_some_and(Vec::is_empty)) {
            map.shift_remove("required");
            self.note(
                &child(at, "required"),
                "OpenAPI 3.0's `required` lists at least one name: the empty list was left out",
            );
        }
    }
}
