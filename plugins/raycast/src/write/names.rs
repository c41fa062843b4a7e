//! The names a written extension gives things: one file name per tool (`src/tools/<name>.ts`,
//! unique even on case-insensitive file systems) and the extension's own name.

use std::collections::HashSet;

use toolport_plugin::names::{NameMap, NameRules, sanitize};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Options, ToolSet, codes};

use crate::extension::is_safe_name;

/// File names for the tools: a Raycast source's names stay when they are safe file names
/// (real extensions use camelCase too); others become kebab-case slugs.
pub(super) fn tool_file_names(model: &ToolSet, from_raycast: bool, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let keeps = |name: &str| from_raycast && is_safe_name(name);
    // macOS file systems ignore case: compare names case-insensitively.
    let mut taken: HashSet<String> =
        model.tools.iter().filter(|t| keeps(&t.name)).map(|t| t.name.to_ascii_lowercase()).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut slugs = NameMap::new(NameRules::FILE_SLUG);
    let mut out = Vec::new();
    for (index, tool) in model.tools.iter().enumerate() {
        let keep = keeps(&tool.name) && seen.insert(tool.name.to_ascii_lowercase());
        let name = if keep {
            tool.name.clone()
        } else {
            let mut name = slugs.assign(&tool.name);
            let mut attempt = 2;
            while taken.contains(&name.to_ascii_lowercase()) {
                name = slugs.assign(&format!("{}#{attempt}", tool.name));
                attempt += 1;
            }
            taken.insert(name.to_ascii_lowercase());
            diagnostics.push(
                Diagnostic::warning(
                    codes::CHANGED_NAME,
                    child(&child("/tools", index.to_string()), "name"),
                    format!(
                        "tool `{}` is written as `{name}`: Raycast tool names are file names (src/tools/{name}.ts)",
                        tool.name
                    ),
                )
                .renaming(&tool.name, &name, None),
            );
            name
        };
        out.push(name);
    }
    out
}

/// The extension's name: a Raycast source's as it is, else a kebab-case slug of its id or title.
pub(super) fn extension_id(
    model: &ToolSet,
    options: &Options,
    from_raycast: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    if from_raycast && let Some(id) = &model.id {
        return id.clone();
    }
    let source =
        model.id.clone().or_else(|| model.title.clone()).unwrap_or_else(|| options.output_name("extension").to_owned());
    let id = sanitize(&source, &NameRules::FILE_SLUG);
    if model.id.as_deref() != Some(id.as_str()) {
        let message = match &model.id {
            Some(original) => {
                format!("extension name `{original}` is written as `{id}` (Raycast names are kebab-case)")
            }
            None => format!("the source has no id; the extension is named `{id}`"),
        };
        let code = if model.id.is_some() { codes::CHANGED_NAME } else { codes::GENERATED };
        diagnostics.push(Diagnostic::new(toolport_plugin::Severity::Info, code, "/id", message));
    }
    id
}
