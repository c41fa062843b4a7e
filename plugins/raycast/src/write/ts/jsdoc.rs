//! JSDoc blocks: a description with its `@default` and `@example` tags, as the reader
//! (`read::ts::jsdoc`) maps them back.

use serde_json::Value;

/// A JSDoc block at `indent` from a description, a default and examples; `None` when all are empty.
pub(super) fn jsdoc(
    description: Option<&str>,
    default: Option<&Value>,
    examples: &[Value],
    indent: &str,
) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    if let Some(description) = description.filter(|d| !d.trim().is_empty()) {
        lines.extend(description.replace("*/", "*\\/").lines().map(str::to_owned));
    }
    let mut tags = Vec::new();
    if let Some(default) = default {
        tags.push(format!("@default {}", serde_json::to_string(default).unwrap_or_default()));
    }
    for example in examples {
        let text = match example {
            Value::String(s) => s.clone(),
            other => serde_json::to_string(other).unwrap_or_default(),
        };
        tags.push(format!("@example {}", text.replace("*/", "*\\/")));
    }
    if !tags.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        for tag in tags {
            lines.extend(tag.lines().map(str::to_owned));
        }
    }
    if lines.is_empty() {
        return None;
    }
    if lines.len() == 1 {
        return Some(format!("{indent}/** {} */\n", lines[0]));
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{indent} *\n"));
        } else {
            out.push_str(&format!("{indent} * {line}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
    Some(out)
}
