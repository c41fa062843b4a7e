//! The only place toolport touches a YAML library. Everything else sees `serde_json::Value`
//! and toolport diagnostics, so replacing serde_yaml (deprecated upstream) changes this file
//! alone.
#![forbid(unsafe_code)]

use serde::Serialize;
use serde_json::Value;
use toolport_core::{Diagnostic, codes};

/// Parses YAML into a JSON value. A syntax error becomes a diagnostic with `file`, line and
/// column. Keys that are not strings are turned into strings; YAML-only values (tags, binary)
/// follow serde_yaml's JSON mapping.
pub fn parse(file: &str, text: &str) -> Result<Value, Diagnostic> {
    let yaml: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| error(file, &e))?;
    Ok(to_json(yaml))
}

/// Writes a value as YAML (block style, keys in the value's order).
pub fn to_string<T: Serialize>(value: &T) -> Result<String, String> {
    serde_yaml::to_string(value).map_err(|e| e.to_string())
}

fn error(file: &str, e: &serde_yaml::Error) -> Diagnostic {
    let message = toolport_core::source::strip_position(&e.to_string());
    let diagnostic = Diagnostic::error(codes::INPUT_SYNTAX, "", format!("invalid YAML: {message}"));
    match e.location() {
        Some(at) => diagnostic.at(file, at.line() as u32, at.column() as u32),
        None => diagnostic,
    }
}

fn to_json(yaml: serde_yaml::Value) -> Value {
    use serde_yaml::Value as Y;
    match yaml {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                // NaN and infinities have no JSON form.
                n.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Y::Mapping(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let key = match k {
                        Y::String(s) => s,
                        other => match to_json(other) {
                            Value::String(s) => s,
                            v => v.to_string(),
                        },
                    };
                    (key, to_json(v))
                })
                .collect(),
        ),
        Y::Tagged(tagged) => to_json(tagged.value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_to_json_keeping_key_order() {
        let value = parse("a.yaml", "b: 1\na: [x, {c: true}]\n200: ok\n").unwrap();
        assert_eq!(value, json!({"b": 1, "a": ["x", {"c": true}], "200": "ok"}));
        let keys: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["b", "a", "200"]);
    }

    #[test]
    fn syntax_errors_name_file_line_column() {
        let error = parse("ai.yaml", "ai:\n  instructions: [unclosed\n").unwrap_err();
        let span = error.span.clone().expect("span");
        assert_eq!(span.file, "ai.yaml");
        assert!(span.line >= 2, "{error}");
    }

    #[test]
    fn round_trips_through_text() {
        let value = json!({"openapi": "3.0.0", "paths": {"/x": {"get": {"operationId": "x"}}}});
        let text = to_string(&value).unwrap();
        assert_eq!(parse("x.yaml", &text).unwrap(), value);
    }
}
