//! TypeScript syntax the writer needs: identifiers, property keys and string literals.

pub(super) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

pub(super) fn property_key(name: &str) -> String {
    if is_identifier(name) { name.to_owned() } else { json_string(name) }
}

pub(super) fn json_string(text: &str) -> String {
    // JSON string escapes are valid in TypeScript string literals, except U+2028/2029 in old engines.
    serde_json::to_string(text).unwrap_or_default().replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// Text safe inside a template literal.
pub(super) fn template_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace('`', "\\`").replace("${", "\\${")
}
