//! The OpenAPI features Microsoft documents that API plugins do not support
//! ([`crate::KNOWN_ISSUES_SOURCE`]): nested objects in request bodies or parameters,
//! polymorphic references (`oneOf`, `allOf`, `anyOf`) and circular references (which only objects
//! hold). The spec keeps
//! them as they are (it stays a faithful description of the API); each is said once per
//! parameter, a `limit/schema` warning, so the user knows which calls Copilot may get wrong.

use std::collections::HashSet;

use toolport_plugin::{Diagnostic, Schema, SchemaType, Tool, ToolSet, codes};

use crate::KNOWN_ISSUES_SOURCE;

/// What a parameter's schema holds that Copilot does not support, if anything: a nested
/// object (the parameter itself an object, or one within it, which any circular reference
/// needs), else a polymorphic schema. Each definition is walked once.
fn unsupported<'a>(model: &'a ToolSet, schema: &'a Schema) -> Option<&'static str> {
    let mut seen = HashSet::new();
    let mut stack = vec![schema];
    let mut polymorphic = false;
    while let Some(schema) = stack.pop() {
        if schema.kind == Some(SchemaType::Object) || !schema.properties.is_empty() {
            return Some("a nested object");
        }
        polymorphic |= !schema.any_of.is_empty();
        if let Some(name) = &schema.reference
            && seen.insert(name.as_str())
            && let Some(definition) = model.definitions.get(name)
        {
            stack.push(definition);
        }
        stack.extend(schema.items.as_deref());
        stack.extend(&schema.any_of);
    }
    polymorphic.then_some("a polymorphic schema (oneOf, anyOf or allOf)")
}

/// One `limit/schema` warning per parameter of `tool` (at `index`) Copilot does not support.
pub fn check(model: &ToolSet, tool: &Tool, index: usize, diagnostics: &mut Vec<Diagnostic>) {
    for (j, parameter) in tool.parameters.iter().enumerate() {
        let Some(what) = unsupported(model, &parameter.schema) else { continue };
        diagnostics.push(Diagnostic::warning(
            codes::LIMIT_SCHEMA,
            format!("/tools/{index}/parameters/{j}"),
            format!(
                "parameter `{}` of tool `{}` is {what}, which API plugins do not support: the spec keeps it, and Copilot may not fill it (flatten it, or pin it with an overlay) (source: {KNOWN_ISSUES_SOURCE})",
                parameter.name, tool.name
            ),
        ));
    }
}
