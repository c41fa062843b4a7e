//! A tool's `ui`: its display hints, and the value set an argument names by `dtypeName`.

use serde_json::Value;
use toolport_plugin::json_kind::kind_of;
use toolport_plugin::source::child;
use toolport_plugin::{ArgDisplay, Display, Severity, Tool, codes};

use super::Reader;
use super::residue::Residue;
use super::value_sets::{ValueSetIndex, link_value_set};

impl Reader<'_> {
    pub(super) fn read_ui(
        &mut self,
        path: &str,
        value: &Value,
        tool: &mut Tool,
        ns: Option<&str>,
        index: &ValueSetIndex,
        tool_residue: &mut Residue,
    ) {
        // Even a broken `ui` means the tool has one: the writer must not generate another.
        let mut display = Display::default();
        let Value::Object(ui) = value else {
            self.wrong_type(path, "ui", "an object", value, tool_residue);
            tool.display = Some(Box::new(display));
            return;
        };
        let mut residue = Residue::default();
        for (key, value) in ui {
            let path = child(path, key);
            match key.as_str() {
                "prefix" => display.prefix = self.string(&path, key, value, &mut residue),
                "suffix" => display.suffix = self.string(&path, key, value, &mut residue),
                "manualUpdate" => {
                    if !value.is_boolean() {
                        self.wrong_type(&path, key, "true or false", value, &mut residue);
                    }
                    residue.keep(key, value);
                }
                "args" => {
                    let Value::Object(args) = value else {
                        self.wrong_type(&path, key, "an object keyed by argument name", value, &mut residue);
                        continue;
                    };
                    for (name, arg) in args {
                        let arg_path = child(&path, name);
                        let (hints, kept) = self.read_ui_arg(&arg_path, name, arg, tool, ns, index);
                        display.args.insert(name.clone(), hints);
                        if let Some(kept) = kept {
                            residue.keep_in("args", name, kept);
                        }
                    }
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        if !ui.contains_key("args") {
            residue.absent.push("args".into());
        }
        if let Some(kept) = residue.into_value() {
            tool_residue.keep("ui", &kept);
        }
        tool.display = Some(Box::new(display));
    }

    /// One `ui.args.<name>`: display hints, and the residue of the argument's hints.
    fn read_ui_arg(
        &mut self,
        path: &str,
        name: &str,
        value: &Value,
        tool: &mut Tool,
        ns: Option<&str>,
        index: &ValueSetIndex,
    ) -> (ArgDisplay, Option<Value>) {
        let mut hints = ArgDisplay::default();
        let mut residue = Residue::default();
        let arg = match value {
            // A bare label, shown before the value like a prefix; the residue keeps the shape.
            Value::String(label) => {
                hints.prefix = Some(label.clone());
                return (hints, Some(value.clone()));
            }
            Value::Object(arg) => arg,
            _ => {
                self.report(
                    Severity::Error,
                    codes::INPUT_INVALID,
                    path,
                    format!("argument hints should be an object or a label, found {}; kept as written", kind_of(value)),
                );
                return (hints, Some(value.clone()));
            }
        };
        for (key, value) in arg {
            let path = child(path, key);
            match key.as_str() {
                "prefix" => hints.prefix = self.string(&path, key, value, &mut residue),
                "suffix" => hints.suffix = self.string(&path, key, value, &mut residue),
                "dtypeNs" | "from" => {
                    if !value.is_string() {
                        self.wrong_type(&path, key, "a string", value, &mut residue);
                    }
                    residue.keep(key, value);
                }
                "dtypeName" => {
                    let Some(reference) = self.string(&path, key, value, &mut residue) else { continue };
                    let foreign_ns = arg.get("dtypeNs").and_then(Value::as_str).is_some_and(|d| Some(d) != ns);
                    let parameter = tool.parameters.iter_mut().find(|p| p.name == name);
                    // A set without static entries (values found by its handlers at run time)
                    // lists no allowed values: `Schema::value_set` would read as an empty
                    // enum everywhere else, so the name stays in the residue for the writer.
                    let listed = |key: &String| index.entries.get(key).is_some_and(|e| !e.is_empty());
                    match (index.by_reference.get(&reference), parameter) {
                        (Some(set_key), Some(_)) if !foreign_ns && !listed(set_key) => residue.keep(key, value),
                        (Some(set_key), Some(parameter)) if !foreign_ns => {
                            parameter.schema.value_set = Some(set_key.clone());
                            link_value_set(parameter, set_key, index);
                        }
                        (None, _) if !foreign_ns => {
                            self.report(
                                Severity::Warning,
                                codes::INPUT_UNRESOLVED,
                                &path,
                                format!("`dtypeName` `{reference}` names no `tagValues` entry; kept as written"),
                            );
                            residue.keep(key, value);
                        }
                        // Another extension's set, or hints for an argument without a field.
                        _ => residue.keep(key, value),
                    }
                }
                _ => self.unknown_key(&path, key, &mut residue, value),
            }
        }
        (hints, residue.into_value())
    }
}
