//! MCP output schemas. MCP's SDKs accept a tools/list result only when every `outputSchema` is
//! an object schema (`"type": "object"` at its root), since a tool's structured result
//! (`structuredContent`) is a JSON object. So a result schema that is a reference to an object
//! definition is written as that object, and any other result (an array, a string, a nullable
//! object, a union) is wrapped as `{"type": "object", "properties": {"result": <schema>},
//! "required": ["result"]}`, which is how a server has to return it anyway. Wrapping keeps
//! what the result is; leaving the schema out would lose it.
//!
//! How much of the schema is written is the `output_schema` option, shared with the other
//! writers of results (`function_tools::output`): `full` for a model read from MCP, so a
//! same-format round trip gives its author's schemas back, else `shallow`.

use indexmap::IndexMap;
use toolport_plugin::definitions::refine;
use toolport_plugin::{Property, Schema, SchemaType};

/// `schema` as an object schema: a reference (or a chain of them) to an object definition
/// resolved one level (what it says beside the reference wins); anything that is not a plain
/// object wrapped as `{result: schema}`. Whether it was wrapped.
pub fn object_root(schema: &Schema, definitions: &IndexMap<String, Schema>) -> (Schema, bool) {
    let mut root = schema.clone();
    // A chain of references is as long as the definitions at most.
    for _ in 0..=definitions.len() {
        let Some(definition) = root.reference.as_ref().and_then(|name| definitions.get(name)) else { break };
        root.reference = None;
        refine(&mut root, definition.clone());
    }
    let is_object = root.reference.is_none()
        && !root.nullable
        && (root.kind == Some(SchemaType::Object) || (root.kind.is_none() && is_plain_object(&root)));
    if is_object {
        root.kind = Some(SchemaType::Object);
        return (root, false);
    }
    let wrapped = Schema {
        properties: vec![Property { name: "result".into(), required: true, schema: schema.clone() }],
        additional_properties: None,
        ..Schema::of(SchemaType::Object)
    };
    (wrapped, true)
}

/// A schema without a type that says only object things (properties).
fn is_plain_object(schema: &Schema) -> bool {
    !schema.properties.is_empty() && schema.any_of.is_empty() && schema.items.is_none() && schema.enumeration.is_none()
}
