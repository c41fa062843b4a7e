//! An overlay file's text: parsed as JSON or YAML, and positions of the values an error is
//! about, so every error names the file, line and column.

use serde_json::Value;
use toolport_core::source::{Locator, parse_json};
use toolport_core::{Diagnostic, codes};

/// Where a parsed file's values are, by the locator of its syntax.
enum Places<'t> {
    Json(Locator<'t>),
    Yaml(toolport_yaml::Locator<'t>),
}

/// A parsed overlay file and where its values are.
pub(crate) struct Document<'t> {
    pub file: String,
    pub value: Value,
    text: &'t str,
    places: Places<'t>,
}

impl<'t> Document<'t> {
    /// JSON when the file says so (`.json`, or text that starts with `{`), else YAML; a syntax
    /// error is located.
    pub fn parse(file: &str, text: &'t str) -> Result<Document<'t>, Diagnostic> {
        let json = file.ends_with(".json") || text.trim_start().starts_with('{');
        let (parsed, places) = if json {
            (parse_json(file, text)?, Places::Json(Locator::new(text)))
        } else {
            (toolport_yaml::parse(file, text)?, Places::Yaml(toolport_yaml::Locator::new(text)))
        };
        Ok(Document { file: file.to_owned(), value: parsed.value, text, places })
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
        let mut at = pointer;
        loop {
            let found = match &self.places {
                Places::Json(locator) => locator.locate(at),
                Places::Yaml(locator) => locator.locate(at),
            };
            if let Some(place) = found {
                return place;
            }
            match at.rsplit_once('/') {
                Some((parent, _)) => at = parent,
                None => return (1, 1),
            }
        }
    }
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
    fn an_error_is_placed_at_its_value_else_at_the_nearest_enclosing_one() {
        let text = "tools:\n  listPets:\n    name: x\n    parameters: {limit: {value: 3}}\n";
        let document = Document::parse("o.yaml", text).unwrap();
        for (pointer, place) in [
            ("/tools/listPets/parameters/limit", (4, 18)),
            ("/tools/listPets/description", (2, 3)),
            ("/tools/nothing/name", (1, 1)),
            ("", (1, 1)),
        ] {
            assert_eq!(document.locate(pointer), place, "{pointer}");
        }
        let document = Document::parse("o.json", "{\"tools\": {\"a\": {\"name\": 1}}}").unwrap();
        assert_eq!(document.locate("/tools/a/name/deeper"), (1, 26));
    }
}
