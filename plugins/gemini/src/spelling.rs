//! Gemini's REST API reads proto field names in either JSON spelling: lowerCamelCase
//! (`functionDeclarations`, as the SDKs and the reference write them) or the proto's own
//! snake_case (`function_declarations`, as Google's REST cookbook does). A document read in
//! snake_case is written back so (`snakeCase` in the tool set's extras).

use serde_json::{Map, Value};

/// The key of a list of declarations, in its camelCase spelling.
pub const DECLARATIONS: &str = "functionDeclarations";

/// The tool set's extras key that says the source spelled its keys in snake_case.
pub const SNAKE_CASE: &str = "snakeCase";

/// The keys read in either spelling: (camelCase, snake_case).
const KEYS: &[(&str, &str)] = &[
    ("functionDeclarations", "function_declarations"),
    ("parametersJsonSchema", "parameters_json_schema"),
    ("responseJsonSchema", "response_json_schema"),
];

/// The key `camel` as `map` spells it, when it has it in either spelling.
pub fn spelled(map: &Map<String, Value>, camel: &'static str) -> Option<&'static str> {
    if map.contains_key(camel) {
        return Some(camel);
    }
    let snake = written(camel, true);
    (snake != camel && map.contains_key(snake)).then_some(snake)
}

/// `camel` as a document written in snake_case (`snake`) spells it.
pub fn written(camel: &'static str, snake: bool) -> &'static str {
    match KEYS.iter().find(|(c, _)| *c == camel) {
        Some((_, snake_case)) if snake => snake_case,
        _ => camel,
    }
}
