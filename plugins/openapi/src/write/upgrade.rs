//! A document written as OpenAPI 3.0 rewritten as 3.1.0, for readers that take every schema as
//! 3.1's (ADK parses specs with FastAPI's 3.1 models, where a boolean `exclusiveMinimum` makes
//! the whole response unreadable). The mirror of `downgrade`, which it needs far less of: 3.1
//! reads nearly all of 3.0. Rewritten: `nullable: true` as a `"null"` in the type list (and in
//! the `enum` beside it), and a
//! boolean exclusive bound as the number it marks; what means nothing in 3.0 either
//! (`nullable: false`, `exclusiveMinimum: false`) is left out; `nullable: true` beside no single
//! type is kept, as readers take it. The meaning is unchanged, so one
//! `changed/schema` note counts the rewrites.

use serde_json::{Map, Value, json};
use toolport_plugin::{Diagnostic, codes};

use super::places::{self, SchemaRewrite};

/// Rewrites `doc` (an OpenAPI 3.0 document) as OpenAPI 3.1.0.
pub(crate) fn to_openapi_31(doc: &mut Map<String, Value>, out: &mut Vec<Diagnostic>) {
    let was = doc.get("openapi").and_then(Value::as_str).unwrap_or("3.0").to_owned();
    doc.insert("openapi".into(), json!("3.1.0"));
    let mut up = Upgrade::default();
    places::paths(&mut up, doc);
    places::components(&mut up, doc);
    let rewrites = match (up.nullable, up.bounds) {
        (0, 0) => String::new(),
        (nullable, bounds) => {
            format!(": {nullable} nullable type(s) as type lists, {bounds} exclusive bound(s) as numbers")
        }
    };
    out.push(Diagnostic::info(
        codes::CHANGED_SCHEMA,
        "/openapi",
        format!("the OpenAPI {was} document was written as 3.1.0, the version its reader takes{rewrites}"),
    ));
}

#[derive(Default)]
struct Upgrade {
    nullable: usize,
    bounds: usize,
}

impl SchemaRewrite for Upgrade {
    fn schema(&mut self, schema: &mut Value, at: &str) {
        let Value::Object(map) = schema else { return };
        if map.contains_key("$ref") {
            return;
        }
        // `nullable` without a single type is kept as written: 3.1 ignores it, and readers that
        // take it for "or null" (most do, whatever 3.0 says) still can.
        match (map.get("nullable"), map.get("type")) {
            (Some(Value::Bool(true)), Some(Value::String(name))) => {
                let name = name.clone();
                map.shift_remove("nullable");
                map.insert("type".into(), json!([name, "null"]));
                // 3.0's nullable admits null past an `enum`; 3.1's enum must list it.
                if let Some(Value::Array(values)) = map.get_mut("enum")
                    && !values.contains(&Value::Null)
                {
                    values.push(Value::Null);
                }
                self.nullable += 1;
            }
            (Some(Value::Bool(false)), _) => {
                map.shift_remove("nullable");
            }
            _ => {}
        }
        for (exclusive, inclusive) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            self.exclusive_bound(map, exclusive, inclusive);
        }
        places::subschemas(map, at, |inner, at| self.schema(inner, at));
    }
}

impl Upgrade {
    /// `minimum: m` with `exclusiveMinimum: true` (3.0) → `exclusiveMinimum: m` (3.1).
    fn exclusive_bound(&mut self, map: &mut Map<String, Value>, exclusive: &str, inclusive: &str) {
        let Some(Value::Bool(marked)) = map.get(exclusive) else { return };
        if *marked && let Some(bound) = map.shift_remove(inclusive) {
            map.insert(exclusive.into(), bound);
            self.bounds += 1;
        } else {
            map.shift_remove(exclusive);
        }
    }
}
