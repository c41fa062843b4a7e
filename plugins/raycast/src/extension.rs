//! What the reader and the writer agree a Raycast extension looks like: the tool-entry and
//! eval keys the model has a place for, which tool names can be file names, and the forms an
//! eval's argument matcher can take. Both sides use this module; neither uses the other.

use serde_json::Value;

/// Tool entry keys that map into the model.
pub const TOOL_KEYS: [&str; 5] = ["name", "title", "description", "icon", "instructions"];

/// Keys of an eval the model has a place for, in the order the writer puts them.
pub const EVAL_KEYS: [&str; 4] = ["input", "mocks", "expected", "usedAsExample"];

/// A tool name that can be a file name as it is (no path separators or dots).
pub fn is_safe_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.len() <= 80
}

/// One level of an argument matcher written as an object with one key (`{"eq": …}`,
/// `{"and": […]}`, …), its operand not yet read.
#[derive(Debug)]
pub enum MatcherForm<'v> {
    Eq(&'v Value),
    Includes(&'v Value),
    Matches(&'v str),
    And(&'v [Value]),
    Or(&'v [Value]),
    Not(&'v Value),
}

/// The matcher form `value` is written in, or `None` when it is a plain value. The reader reads
/// a form as that matcher; the writer wraps a value that looks like one in `eq`.
pub fn matcher_form(value: &Value) -> Option<MatcherForm<'_>> {
    let object = value.as_object().filter(|o| o.len() == 1)?;
    let (key, inner) = object.iter().next()?;
    Some(match (key.as_str(), inner) {
        ("eq", v) => MatcherForm::Eq(v),
        ("includes", v) => MatcherForm::Includes(v),
        ("matches", Value::String(s)) => MatcherForm::Matches(s),
        ("and", Value::Array(items)) => MatcherForm::And(items),
        ("or", Value::Array(items)) => MatcherForm::Or(items),
        ("not", v) => MatcherForm::Not(v),
        _ => return None,
    })
}
