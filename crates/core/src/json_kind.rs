//! The kind of a JSON value, as messages name it: [`kind_of`] in the words of JSON
//! (`a string`, `an array`) for messages about a document's syntax, [`kind_in_plain_words`]
//! (`text`, `a list`) for messages about data a person never saw as JSON.

use serde_json::Value;

/// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`: for messages that
/// say what a document holds where it should hold something else.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// [`kind_of`] in plain words: `true/false`, `text` and `a list` for a boolean, a string and an
/// array (what a format kept, listed in a loss message).
pub fn kind_in_plain_words(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "true/false",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        other => kind_of(other),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn names_every_kind_in_both_vocabularies() {
        let values = [json!(null), json!(true), json!(1.5), json!("x"), json!([]), json!({})];
        let json_words: Vec<&str> = values.iter().map(kind_of).collect();
        assert_eq!(json_words, ["null", "a boolean", "a number", "a string", "an array", "an object"]);
        let plain: Vec<&str> = values.iter().map(kind_in_plain_words).collect();
        assert_eq!(plain, ["null", "true/false", "a number", "text", "a list", "an object"]);
    }
}
