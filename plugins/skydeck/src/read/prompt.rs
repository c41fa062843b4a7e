//! `model_prompt`'s placeholders against the variables: each should name one, and each
//! variable should be used.

use std::collections::{HashMap, HashSet};

use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Severity, Tool, codes};

use super::Reader;
use crate::placeholder::placeholders;

impl Reader<'_> {
    /// Where a placeholder is written in the file: its first occurrence after `from` (where
    /// the previous one was found, or the `model_prompt` value), which moves past it. A
    /// placeholder holds no JSON escapes in practice; once one is not found, later ones are
    /// not searched for either (each search could scan the rest of the file).
    fn placeholder_position(&self, placeholder: &str, from: &mut Option<usize>) -> Option<(u32, u32)> {
        let text = self.at.text();
        let start = (*from)?;
        let found = text.get(start..).and_then(|rest| rest.find(placeholder)).map(|i| start + i);
        *from = found.map(|at| at + placeholder.len());
        found.map(|at| self.at.line_column(at))
    }

    /// Every `{{placeholder}}` should name a variable and every variable should be used.
    pub(super) fn check_placeholders(&mut self, tool: &Tool) {
        let Some(prompt) = &tool.prompt else { return };
        let used = placeholders(prompt);
        let declared: HashSet<&str> = tool.parameters.iter().map(|p| p.name.as_str()).collect();
        let mut by_lowercase: HashMap<String, &str> = HashMap::new();
        for parameter in &tool.parameters {
            by_lowercase.entry(parameter.name.to_lowercase()).or_insert(&parameter.name);
        }
        let mut reported: HashSet<&str> = HashSet::new();
        // Where the prompt is written is looked up only when a placeholder must be reported:
        // finding it indexes the whole file.
        let mut search_from: Option<Option<usize>> = None;
        for placeholder in &used {
            if !declared.contains(placeholder.name.as_str()) && reported.insert(&placeholder.name) {
                let near = by_lowercase
                    .get(&placeholder.name.to_lowercase())
                    .map(|name| format!(" (did you mean `{name}`?)"))
                    .unwrap_or_default();
                let message =
                    format!("placeholder `{{{{{}}}}}` names no variable in metadata.variables{near}", placeholder.name);
                let mut diagnostic = Diagnostic::warning(codes::INPUT_UNRESOLVED, "/model_prompt", message);
                let written = &prompt[placeholder.start..placeholder.end];
                let from = search_from.get_or_insert_with(|| self.at.offset("/model_prompt"));
                if let Some((line, column)) = self.placeholder_position(written, from) {
                    diagnostic = diagnostic.at(self.file, line, column);
                }
                let diagnostic = self.located(diagnostic);
                self.diagnostics.push(diagnostic);
            }
        }
        let variables_path = "/metadata/variables";
        let used: HashSet<&str> = used.iter().map(|p| p.name.as_str()).collect();
        for (index, parameter) in tool.parameters.iter().enumerate() {
            if !used.contains(parameter.name.as_str()) {
                self.report(
                    Severity::Warning,
                    crate::UNUSED_VARIABLE,
                    &child(variables_path, index.to_string()),
                    format!(
                        "variable `{}` has no `{{{{{}}}}}` placeholder in model_prompt",
                        parameter.name, parameter.name
                    ),
                );
            }
        }
    }
}
