//! Deterministic target names for a written document's tools: a valid name keeps itself,
//! others are transliterated to ASCII, then sanitised, each change reported with the way back.

use toolport_core::names::{NameMap, NameRules};
use toolport_core::source::child;
use toolport_core::{Diagnostic, ToolSet, codes};

/// Deterministic target names for every tool of `model`, in tool order, with a `changed/name`
/// diagnostic for each change that states the way back. A name that already follows the
/// rules keeps itself; on a collision the name that had to change gets the suffix
/// ([`NameMap::assign_all`]). Names are transliterated to ASCII before they are sanitised.
pub fn tool_names(model: &ToolSet, rules: NameRules, format: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut map = name_map(rules);
    let names = map.assign_all(model.tools.iter().map(|t| t.name.as_str()));
    for (i, (tool, name)) in model.tools.iter().zip(&names).enumerate() {
        if *name != tool.name {
            diagnostics.push(
                Diagnostic::warning(
                    codes::CHANGED_NAME,
                    child(&child("/tools", i.to_string()), "name"),
                    format!(
                        "{format} tool names must match {}: `{}` was written as `{name}` (map back: `{name}` -> `{}`)",
                        rules.pattern, tool.name, tool.name
                    ),
                )
                .renaming(&tool.name, name, None),
            );
        }
    }
    names
}

/// A [`NameMap`] under `rules` that transliterates names to ASCII before sanitising them.
pub fn name_map(rules: NameRules) -> NameMap {
    NameMap::new(rules).with_transliteration(ascii)
}

/// `text` in ASCII: letters transliterated (`áreas de enfoque` -> `areas de enfoque`, `東京` ->
/// `Dong Jing`), what has no transliteration left as `_`.
pub fn ascii(text: &str) -> String {
    deunicode::deunicode_with_tofu(text, "_").trim().to_owned()
}
