//! One tool: title (generated when missing), description, `schema.fields`, `ui` and example
//! prompts, with the residue merged back.

use std::collections::HashMap;

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Severity, Tool, codes};

use super::names::humanize;
use super::residue::{is_absent, merge, residue};
use super::ui::generated_display;
use super::{Writer, put, put_opt};

impl Writer {
    pub(super) fn write_tool(
        &mut self,
        path: &str,
        tool: &Tool,
        prompts: Vec<String>,
        set_ids: &HashMap<&str, String>,
    ) -> Map<String, Value> {
        let residue = residue(&tool.extras);
        let mut object = Map::new();
        let mut generated = Vec::new();
        match &tool.title {
            Some(title) => put(&mut object, "title", title),
            None if !is_absent(residue, "title") => {
                put(&mut object, "title", &humanize(&tool.name));
                generated.push("a title from its name");
            }
            None => {}
        }
        put_opt(&mut object, "description", &tool.description);

        let mut fields = Map::new();
        for (j, parameter) in tool.parameters.iter().enumerate() {
            let parameter_path = child(&child(path, "parameters"), j.to_string());
            fields.insert(parameter.name.clone(), Value::Object(self.write_field(&parameter_path, parameter)));
        }
        let mut schema = Map::new();
        schema.insert("fields".into(), Value::Object(fields));
        object.insert("schema".into(), Value::Object(schema));

        let ui = match &tool.display {
            Some(display) => Some(self.write_ui(path, tool, display, set_ids)),
            None if !is_absent(residue, "ui") => {
                generated.push("display hints (`ui`) from its title and parameter titles or names");
                Some(self.write_ui(path, tool, &generated_display(tool), set_ids))
            }
            None => None,
        };
        if let Some(ui) = ui {
            object.insert("ui".into(), Value::Object(ui));
        }
        object.insert("examples".into(), prompts.into_iter().map(Value::String).collect());
        if !generated.is_empty() {
            // Pointed at the display hints when they were generated, else at the title.
            let at = if generated.len() > 1 || tool.title.is_some() { "display" } else { "title" };
            // Gloodata requires them, so they are made up; words a user will see are a warning.
            self.say(Severity::Warning, codes::GENERATED, || {
                Diagnostic::warning(
                    codes::GENERATED,
                    child(path, at),
                    format!("tool `{}` had none, so the writer made {}", tool.name, generated.join(" and ")),
                )
            });
        }
        if let Some(residue) = residue {
            merge(&mut object, residue);
        }
        object
    }
}
