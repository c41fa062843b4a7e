//! `model_prompt`: the tool's prompt template, or one made up from its description and a
//! placeholder per parameter when it has none.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Severity, Tool, codes};

use super::{Writer, flag};
use crate::kept;
use crate::placeholder::generated_prompt;

impl Writer<'_> {
    /// `None` when the file it was read from had no `model_prompt`.
    pub(super) fn model_prompt(
        &mut self,
        tool: &Tool,
        own: &Map<String, Value>,
        kept_top: &Map<String, Value>,
        path: &str,
    ) -> Option<String> {
        match &tool.prompt {
            Some(prompt) => Some(prompt.clone()),
            None if flag(own, kept::NO_MODEL_PROMPT) || kept_top.contains_key("model_prompt") => None,
            None => {
                let lead = tool.description.as_deref().or(tool.title.as_deref()).unwrap_or(&tool.name);
                let names: Vec<&str> = tool.parameters.iter().map(|p| p.name.as_str()).collect();
                let prompt = generated_prompt(lead, &names);
                self.note(
                Severity::Info,
                codes::GENERATED,
                child(path, "prompt"),
                format!(
                    "tool `{}` has no prompt template; SkyDeck needs one, so model_prompt was built from its {} and a {{{{placeholder}}}} per parameter",
                    tool.name,
                    if tool.description.is_some() { "description" } else { "name" }
                ),
            );
                Some(prompt)
            }
        }
    }
}
