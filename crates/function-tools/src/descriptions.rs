//! The best description a written tool has: its own, else its title, else, where the target
//! requires one, one made from its name and HTTP binding.

use std::borrow::Cow;

use toolport_core::source::child;
use toolport_core::{Diagnostic, ToolSet, codes};

use crate::names::ascii;

/// Whether a target requires every tool to have a description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// A tool without one is written without one (MCP, OpenAI, Anthropic): nothing is made up.
    Optional,
    /// A tool without one gets one made from its name, with a `generated/content` warning
    /// (the Gemini API's `FunctionDeclaration.description` is required).
    Required,
}

/// The description each tool is written with, in tool order: its own; else its title (what
/// an OpenAPI operation's `summary` becomes); else, when the target requires one (`need`), one
/// made from its name and HTTP binding, with a `generated/content` warning naming the tool;
/// else none. Empty texts count as none. A model read from the format being written
/// (`model.extras` has its id) is written as it was read, so a same-format round trip gives
/// the same document. A title used as the description is no longer reported as lost (its
/// `loss/*` diagnostic at `/tools/<i>/title` is removed).
pub fn descriptions(
    model: &ToolSet,
    format: &str,
    need: Need,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Option<String>> {
    borrowed_descriptions(model, format, need, diagnostics).into_iter().map(|d| d.map(Cow::into_owned)).collect()
}

/// [`descriptions`], borrowed from the model where they are its own texts (its description or
/// title), for a writer that serializes them from there ([`crate::write::Written`]).
pub fn borrowed_descriptions<'a>(
    model: &'a ToolSet,
    format: &str,
    need: Need,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Option<Cow<'a, str>>> {
    let same_format = model.extras.contains_key(format);
    let present = |text: &'a Option<String>| text.as_deref().filter(|t| !t.trim().is_empty()).map(Cow::Borrowed);
    let mut titles_used = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(model.tools.len());
    for (i, tool) in model.tools.iter().enumerate() {
        let own = present(&tool.description);
        if own.is_some() || same_format {
            out.push(own.or_else(|| tool.description.as_deref().map(Cow::Borrowed)));
            continue;
        }
        let path = child("/tools", i.to_string());
        if let Some(title) = present(&tool.title) {
            titles_used.insert(child(&path, "title"));
            out.push(Some(title));
            continue;
        }
        if need == Need::Optional {
            out.push(None);
            continue;
        }
        let text = generated_description(tool);
        diagnostics.push(Diagnostic::warning(
            codes::GENERATED,
            child(&path, "description"),
            format!(
                "tool `{}` has no description or summary, which {format} requires; it was given one made from its name: \"{text}\"",
                tool.name
            ),
        ));
        out.push(Some(Cow::Owned(text)));
    }
    if !titles_used.is_empty() {
        diagnostics.retain(|d| !(d.code.starts_with("loss/") && titles_used.contains(&d.path)));
    }
    out
}

/// A description made from a tool's name (its words, `listPetsByOwner` -> "List pets by
/// owner") and its HTTP binding (`GET /pets`).
pub fn generated_description(tool: &toolport_core::Tool) -> String {
    let words = words(&ascii(&tool.name));
    let mut text = match words.split_first() {
        Some((first, rest)) => {
            let mut first: Vec<char> = first.chars().collect();
            if let Some(c) = first.first_mut() {
                *c = c.to_ascii_uppercase();
            }
            std::iter::once(first.into_iter().collect::<String>())
                .chain(rest.iter().cloned())
                .collect::<Vec<_>>()
                .join(" ")
        }
        None => format!("Calls `{}`", tool.name),
    };
    if let Some(http) = &tool.http {
        text.push_str(&format!(" ({} {})", http.method, http.path));
    }
    text.push('.');
    text
}

/// The words of an identifier, lower-cased: split at `_`, `-`, `.`, `/`, spaces and camelCase.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        } else {
            let boundary =
                c.is_ascii_uppercase() && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            if boundary && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        previous = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_core::Severity;

    use super::*;

    #[test]
    fn a_description_is_made_up_only_where_the_target_requires_one() {
        // (tool, what the target needs, written description, the diagnostic's severity)
        let cases = [
            (json!({"name": "a", "description": "Own."}), Need::Required, Some("Own."), None),
            (json!({"name": "a", "title": "Title"}), Need::Optional, Some("Title"), None),
            (json!({"name": "getTime"}), Need::Optional, None, None),
            (json!({"name": "getTime", "description": " "}), Need::Optional, None, None),
            (json!({"name": "getTime"}), Need::Required, Some("Get time."), Some(Severity::Warning)),
        ];
        for (tool, need, expect, severity) in cases {
            let model: ToolSet = serde_json::from_value(json!({"tools": [tool]})).unwrap();
            let mut diagnostics = Vec::new();
            let written = descriptions(&model, "target", need, &mut diagnostics);
            assert_eq!(written, [expect.map(str::to_owned)], "{tool} {need:?}");
            let said: Vec<(Severity, &str)> = diagnostics.iter().map(|d| (d.severity, d.code.as_str())).collect();
            assert_eq!(said, severity.map(|s| (s, codes::GENERATED)).into_iter().collect::<Vec<_>>(), "{tool}");
            if severity.is_some() {
                assert!(diagnostics[0].message.contains("`getTime`"), "{}", diagnostics[0].message);
            }
        }
    }
}
