//! Gloodata extension info (`ns`, `title`, `tools` with `schema.fields`, `ui`, `examples`).
//!
//! The reader maps what the canonical model can say into it and keeps everything else as a
//! *residue*: the document's own JSON minus what the model holds, stored under
//! `extras["gloodata"]` at the level it came from (tool set, tool, parameter, value set). The
//! writer builds the canonical JSON and merges the residue back in, so a Gloodata document
//! read and written again is the same document. Two markers live in residues:
//! [`ABSENT`] lists keys the source did not have but the writer would write by default, and
//! [`TOOLS_KEY`] remembers that an older document used `functions` instead of `tools`.

mod read;
mod write;

use serde_json::{Map, Value};
use toolport_plugin::{Bundle, Detection, Format, FormatInfo, InputShape, Options, Outcome, ToolSet};

/// The format id, also the key of this format's extras.
pub const FORMAT_ID: &str = "gloodata";

/// Residue key: keys the source lacked that the writer would otherwise write (`ui`, `schema`, …).
pub const ABSENT: &str = "$absent";

/// Residue key (tool set level): the name the source used for its tools (`functions`).
pub const TOOLS_KEY: &str = "$toolsKey";

/// The `gloodata` format.
#[derive(Debug, Default)]
pub struct Gloodata;

impl Format for Gloodata {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: FORMAT_ID.into(),
            aliases: vec!["extension-info".into()],
            description: "Gloodata extension info (ns, title, tools with schema.fields, ui, examples)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into()],
            options: Some(vec![]),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some((_, text)) = input.entry_file() else { return 0 };
        // Cheap test first: most inputs of other formats never mention `"ns"`.
        if !text.contains("\"ns\"") {
            return 0;
        }
        let Ok(Value::Object(root)) = serde_json::from_str::<Value>(text) else { return 0 };
        let has_ns = root.get("ns").is_some_and(Value::is_string);
        let has_tools = ["tools", "functions"].iter().any(|k| root.get(*k).is_some_and(Value::is_object));
        match (has_ns, has_tools) {
            (true, true) => 95,
            (true, false) if root.contains_key("title") => 30,
            _ => 0,
        }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        read::read(input, options)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        write::write(model, options)
    }
}

/// Words of an identifier or title, split at `_`, `-`, spaces and case changes, each with a
/// capital first letter: `showMapAtAddressAndZoom` → `Show Map At Address And Zoom`.
pub(crate) fn humanize(name: &str) -> String {
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

/// This format's residue in an extras map, when it is an object.
pub(crate) fn residue(extras: &toolport_plugin::Extras) -> Option<&Map<String, Value>> {
    extras.get(FORMAT_ID).and_then(Value::as_object)
}

/// Whether a residue says the source had no `key` at its level.
pub(crate) fn is_absent(residue: Option<&Map<String, Value>>, key: &str) -> bool {
    residue
        .and_then(|r| r.get(ABSENT))
        .and_then(Value::as_array)
        .is_some_and(|keys| keys.iter().any(|k| k.as_str() == Some(key)))
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
}
