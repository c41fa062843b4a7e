//! An overlay file's text: parsed as JSON or YAML, and positions of the values an error is
//! about, so every error names the file, line and column.

use serde_json::Value;
use toolport_core::source::{Locator, parse_json};
use toolport_core::{Diagnostic, codes};

/// A parsed overlay file and where its values are.
pub(crate) struct Document<'t> {
    pub file: String,
    pub value: Value,
    text: &'t str,
    json: Option<Locator<'t>>,
}

impl<'t> Document<'t> {
    /// JSON when the file says so (`.json`, or text that starts with `{`), else YAML; a syntax
    /// error is located.
    pub fn parse(file: &str, text: &'t str) -> Result<Document<'t>, Diagnostic> {
        let json = file.ends_with(".json") || text.trim_start().starts_with('{');
        let parsed = if json { parse_json(file, text)? } else { toolport_yaml::parse(file, text)? };
        Ok(Document { file: file.to_owned(), value: parsed.value, text, json: json.then(|| Locator::new(text)) })
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    /// A `curate/overlay` error about the value at `pointer` in this file.
    pub fn error(&self, pointer: &str, message: impl Into<String>) -> Diagnostic {
        let (line, column) = self.locate(pointer);
        Diagnostic::error(codes::CURATE_OVERLAY, pointer, message).at(&self.file, line, column)
    }

    /// Line and column of the value at `pointer` (of its key, in YAML), else of the nearest
    /// enclosing value found; 1:1 for the whole document.
    fn locate(&self, pointer: &str) -> (u32, u32) {
        if let Some(locator) = &self.json {
            let mut at = pointer;
            loop {
                if let Some(place) = locator.locate(at) {
                    return place;
                }
                match at.rsplit_once('/') {
                    Some((parent, _)) => at = parent,
                    None => return (1, 1),
                }
            }
        }
        yaml_key_position(self.text, pointer)
    }
}

/// Where the key of `pointer`'s last segment is in block YAML: each key is the first line
/// after its parent's, indented deeper than it, that starts with the key (plain or quoted) and
/// a colon; an array index is its parent's `n`th `- ` item (whose first key shares its line).
/// Overlays are written in block style; a segment not found (flow style) leaves the position
/// at its parent.
fn yaml_key_position(text: &str, pointer: &str) -> (u32, u32) {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .map(|l| {
            let content = l.trim_start();
            (l.len() - content.len(), content)
        })
        .collect();
    let blank = |content: &str| content.is_empty() || content.starts_with('#');
    // The last place found: its line (0-based), the indent its children exceed, and whether
    // it is an item whose first key is on its own line.
    let (mut line, mut column, mut parent_indent, mut item) = (0usize, 1usize, None::<usize>, false);
    for raw in pointer.split('/').skip(1) {
        let key = raw.replace("~1", "/").replace("~0", "~");
        let first = if parent_indent.is_none() {
            0
        } else if item {
            line
        } else {
            line + 1
        };
        let mut found = None;
        if let Ok(n) = key.parse::<usize>().map_err(|_| ()).and_then(|n| if item { Err(()) } else { Ok(n) }) {
            let mut count = 0;
            for (i, (indent, content)) in lines.iter().enumerate().skip(first) {
                if blank(content) {
                    continue;
                }
                if parent_indent.is_some_and(|p| *indent < p)
                    || (parent_indent == Some(*indent) && !content.starts_with("- "))
                {
                    break;
                }
                if content.starts_with("- ") {
                    if count == n {
                        found = Some((i, *indent, true));
                        break;
                    }
                    count += 1;
                }
            }
        } else {
            for (i, (indent, content)) in lines.iter().enumerate().skip(first) {
                let on_item_line = item && i == line;
                let content = if on_item_line { &content[2..] } else { content };
                if blank(content) {
                    continue;
                }
                if !on_item_line && parent_indent.is_some_and(|p| *indent <= p) {
                    break;
                }
                let is_key = [format!("{key}:"), format!("\"{key}\":"), format!("'{key}':")]
                    .iter()
                    .any(|k| content.starts_with(k.as_str()));
                if is_key {
                    found = Some((i, if on_item_line { indent + 2 } else { *indent }, false));
                    break;
                }
            }
        }
        let Some((i, indent, is_item)) = found else { break };
        (line, column, parent_indent, item) = (i, indent + 1, Some(indent), is_item);
    }
    let line = if parent_indent.is_some() { line + 1 } else { 1 };
    (u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(column).unwrap_or(u32::MAX))
}

/// ` (did you mean `x`?)` when `name` is likely a typo of one of `candidates`, else nothing.
pub(crate) fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    toolport_core::suggest::did_you_mean(name, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_keys_are_found_under_their_parents() {
        let text = "tools:\n  # a comment\n  listPets:\n    name: x\n    parameters:\n      limit: {value: 3}\n  other:\n    parameters:\n      'limit': {hidden: true}\n";
        for (pointer, place) in [
            ("/tools/listPets", (3, 3)),
            ("/tools/listPets/parameters/limit", (6, 7)),
            ("/tools/other/parameters/limit", (9, 7)),
            ("/tools/other/parameters/none", (8, 5)),
            ("/tools/listPets/description", (3, 3)),
            ("", (1, 1)),
        ] {
            assert_eq!(yaml_key_position(text, pointer), place, "{pointer}");
        }
        let text = "overlay: 1.0.0\nactions:\n  - target: a\n    update: {}\n  - target: b\n    remove: true\n";
        for (pointer, place) in [
            ("/actions", (2, 1)),
            ("/actions/0", (3, 3)),
            ("/actions/0/update", (4, 5)),
            ("/actions/1/target", (5, 5)),
            ("/actions/1/remove", (6, 5)),
            ("/actions/0/remove", (3, 3)),
            ("/actions/2", (2, 1)),
        ] {
            assert_eq!(yaml_key_position(text, pointer), place, "{pointer}");
        }
    }
}
