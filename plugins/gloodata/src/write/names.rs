//! Names the writer makes up where the model has none: titles from identifiers, a namespace
//! from a title, the output's file stem; and the rule tool ids follow.

use toolport_plugin::names::NameRules;

/// Gloodata tool ids: the spec calls a tool's key its "internal unique identifier", and every
/// extension's ids are identifiers of the language it is written in (Python function names,
/// Rust and JavaScript constants), which all take this form. A name other formats allow, or one
/// a reader made up (`POST /streams`, an OpenAPI operation without an operationId), is written
/// as one. No length limit is documented.
pub(super) const TOOL_ID: NameRules = NameRules {
    pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
    max_len: usize::MAX,
    first: |c| c.is_ascii_alphabetic() || c == '_',
    rest: |c| c.is_ascii_alphanumeric() || c == '_',
    replacement: '_',
    lead: "_",
};

/// Words of an identifier or title, split at `_`, `-`, spaces and case changes, each with a
/// capital first letter: `showMapAtAddressAndZoom` → `Show Map At Address And Zoom`.
pub(super) fn humanize(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || c == '-' || c.is_whitespace() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let starts_word = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if starts_word && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A namespace from a title: lower-case words joined by dashes (`extension` when empty).
pub(super) fn slug(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() { "extension".into() } else { slug.to_owned() }
}

/// A file stem that is one relative path segment.
pub(super) fn safe_file_stem(name: &str) -> String {
    let stem: String = name.chars().map(|c| if matches!(c, '/' | '\\') || c.is_control() { '-' } else { c }).collect();
    if stem.trim_matches('.').is_empty() { "extension".into() } else { stem }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expect: &str) {
        assert_eq!(humanize(input), expect, "humanize({input:?})");
    }

    #[test]
    fn humanizes_identifiers() {
        check("showMapAtAddressAndZoom", "Show Map At Address And Zoom");
        check("from_unit", "From Unit");
        check("getHTTPStatus", "Get HTTP Status");
        check("zoom", "Zoom");
        check("CountryInfoBox", "Country Info Box");
        check("already Spaced-words", "Already Spaced Words");
        check("", "");
    }

    #[test]
    fn file_stems_stay_one_segment() {
        assert_eq!(safe_file_stem("a/b"), "a-b");
        assert_eq!(safe_file_stem(".."), "extension");
        assert_eq!(safe_file_stem("my-ext"), "my-ext");
        assert_eq!(slug("My Extension Title!"), "my-extension-title");
        assert_eq!(slug(""), "extension");
    }
}
