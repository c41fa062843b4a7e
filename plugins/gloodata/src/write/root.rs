//! The document's root: namespace (generated when missing), title, description, the tools
//! under the key the source used, and `tagValues`.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Severity, ToolSet, codes};

use super::names::{TOOL_ID, slug};
use super::residue::{is_absent, merge, residue};
use super::value_sets::value_set_id;
use super::{Writer, put, put_opt};
use crate::TOOLS_KEY;

impl Writer {
    pub(super) fn write_root(&mut self, model: &ToolSet) -> Map<String, Value> {
        let residue = residue(&model.extras);
        let mut root = Map::new();
        match &model.id {
            Some(id) => put(&mut root, "ns", id),
            None if !is_absent(residue, "ns") => {
                let ns = slug(model.title.as_deref().unwrap_or(&self.fallback_name));
                self.say(Severity::Info, codes::GENERATED, || {
                    Diagnostic::info(
                        codes::GENERATED,
                        "/id",
                        format!("Gloodata needs a namespace (`ns`); generated `{ns}`"),
                    )
                });
                put(&mut root, "ns", &ns);
            }
            None => {}
        }
        put_opt(&mut root, "title", &model.title);
        put_opt(&mut root, "description", &model.description);

        let mut prompts = self.examples_by_tool(model);
        let set_ids: HashMap<&str, String> =
            model.value_sets.iter().map(|(key, set)| (key.as_str(), value_set_id(key, set))).collect();
        let mut tools = Map::new();
        let mut taken: HashSet<String> = HashSet::new();
        let mut renamed = Vec::new();
        let ids = tool_names(model, TOOL_ID, "Gloodata", &mut renamed);
        self.push_all(renamed);
        for (i, (tool, id)) in model.tools.iter().zip(&ids).enumerate() {
            let path = child("/tools", i.to_string());
            let name = self.unique_name(&tool.name, id, &mut taken, &path);
            // Taken, not copied: with duplicate names the first tool (the one `model.tool` finds) gets them.
            let tool_prompts = prompts.remove(tool.name.as_str()).unwrap_or_default();
            tools.insert(name, Value::Object(self.write_tool(&path, tool, tool_prompts, &set_ids)));
        }
        let tools_key = residue.and_then(|r| r.get(TOOLS_KEY)).and_then(Value::as_str).unwrap_or("tools");
        root.insert(tools_key.to_owned(), Value::Object(tools));

        if !model.value_sets.is_empty() {
            let mut sets = Map::new();
            for (key, set) in &model.value_sets {
                sets.insert(key.clone(), Value::Object(self.write_value_set(key, set)));
            }
            root.insert("tagValues".into(), Value::Object(sets));
        }
        if let Some(residue) = residue {
            merge(&mut root, residue);
        }
        root
    }

    /// A tool id not used before in this document (`id`, the tool `name`'s valid form, else
    /// with a counter); Gloodata tools are keyed by id.
    fn unique_name(&mut self, name: &str, id: &str, taken: &mut HashSet<String>, path: &str) -> String {
        let mut unique = id.to_owned();
        let mut counter = 2;
        while !taken.insert(unique.clone()) {
            unique = format!("{id}_{counter}");
            counter += 1;
        }
        if unique != id {
            self.push_all(vec![
                Diagnostic::info(
                    codes::CHANGED_NAME,
                    child(path, "name"),
                    format!("a second tool named `{id}` is written as `{unique}`; Gloodata tool ids are unique"),
                )
                .renaming(name, &unique, None),
            ]);
        }
        unique
    }
}
