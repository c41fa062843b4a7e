//! The document's root: namespace, title, description, which key holds the tools (`tools` or
//! the older `functions`), handlers and the keys kept as written.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Severity, ToolSet, codes};

use super::Reader;
use super::residue::Residue;
use super::value_sets::ValueSetIndex;
use crate::TOOLS_KEY;

impl Reader<'_> {
    pub(super) fn read_root(&mut self, root: &Map<String, Value>) -> ToolSet {
        let mut set = ToolSet::default();
        let mut residue = Residue::default();
        let index = match root.get("tagValues") {
            Some(value) => self.read_tag_values(value, &mut set, &mut residue),
            None => ValueSetIndex::empty(),
        };
        let tools_key = match (root.contains_key("tools"), root.contains_key("functions")) {
            (true, true) => {
                self.report(
                    Severity::Warning,
                    codes::INPUT_TOLERATED,
                    "/functions",
                    "both `tools` and the older `functions`; `tools` is read and `functions` kept as written".into(),
                );
                residue.keep("functions", &root["functions"]);
                Some("tools")
            }
            (true, false) => Some("tools"),
            (false, true) => {
                residue.keep(TOOLS_KEY, &Value::String("functions".into()));
                Some("functions")
            }
            (false, false) => {
                self.report(
                    Severity::Warning,
                    codes::INPUT_INVALID,
                    "",
                    "no `tools`: an extension should offer at least one tool".into(),
                );
                residue.absent.push("tools".into());
                None
            }
        };
        for (key, value) in root {
            let path = child("", key);
            match key.as_str() {
                "ns" => set.id = self.string(&path, key, value, &mut residue),
                "title" => set.title = self.string(&path, key, value, &mut residue),
                "description" => set.description = self.nullable_string(&path, key, value, &mut residue),
                "tagValues" => {}
                k if Some(k) == tools_key => {
                    let ns = root.get("ns").and_then(Value::as_str);
                    self.read_tools(key, value, ns, &index, &mut set, &mut residue);
                }
                "functions" => {}
                "handlers" => {
                    if !value.as_array().is_some_and(|items| items.iter().all(Value::is_string)) {
                        self.report(
                            Severity::Warning,
                            codes::INPUT_INVALID,
                            &path,
                            "`handlers` should be a list of handler ids; kept as written".into(),
                        );
                    }
                    residue.keep(key, value);
                }
                "dynEnums" => residue.keep(key, value),
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        if !root.contains_key("ns") {
            self.report(Severity::Warning, codes::INPUT_INVALID, "", "no `ns`: the extension has no namespace".into());
            residue.absent.push("ns".into());
        }
        residue.store(&mut set.extras);
        set
    }
}
