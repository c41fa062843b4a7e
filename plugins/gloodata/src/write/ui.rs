//! A tool's `ui`: display hints, argument hints naming their value sets, and hints generated
//! for a tool that has none.

use std::collections::HashMap;

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Display, Parameter, Severity, Tool, codes};

use super::names::humanize;
use super::{Writer, put_opt};

impl Writer {
    /// `ui`: prefix, argument hints in display order, suffix. An argument with a value set
    /// names it by `dtypeName`, which is how Gloodata offers the set's values.
    pub(super) fn write_ui(
        &mut self,
        path: &str,
        tool: &Tool,
        display: &Display,
        set_ids: &HashMap<&str, String>,
    ) -> Map<String, Value> {
        // By name, the first parameter of a name (as `Tool::parameter`), looked up per argument.
        let mut parameters: HashMap<&str, &Parameter> = HashMap::with_capacity(tool.parameters.len());
        for parameter in &tool.parameters {
            parameters.entry(parameter.name.as_str()).or_insert(parameter);
        }
        let value_set_of = |name: &str| {
            let key = parameters.get(name)?.schema.value_set.as_deref()?;
            Some(set_ids.get(key).cloned().unwrap_or_else(|| key.to_owned()))
        };
        let mut ui = Map::new();
        put_opt(&mut ui, "prefix", &display.prefix);
        put_opt(&mut ui, "suffix", &display.suffix);
        let mut args = Map::new();
        for (name, hints) in &display.args {
            let mut arg = Map::new();
            put_opt(&mut arg, "prefix", &hints.prefix);
            put_opt(&mut arg, "suffix", &hints.suffix);
            if let Some(id) = value_set_of(name) {
                arg.insert("dtypeName".into(), Value::String(id));
            }
            args.insert(name.clone(), Value::Object(arg));
        }
        for (j, parameter) in tool.parameters.iter().enumerate() {
            if display.args.contains_key(&parameter.name) {
                continue;
            }
            if let Some(id) = value_set_of(&parameter.name) {
                let mut arg = Map::new();
                arg.insert("dtypeName".into(), Value::String(id.clone()));
                args.insert(parameter.name.clone(), Value::Object(arg));
                self.say(Severity::Info, codes::GENERATED, || {
                    Diagnostic::info(
                        codes::GENERATED,
                        child(&child(&child(path, "parameters"), j.to_string()), "schema"),
                        format!("added `ui.args.{}` to name its value set `{id}`", parameter.name),
                    )
                });
            }
        }
        ui.insert("args".into(), Value::Object(args));
        ui
    }
}

/// Display hints for a tool that has none: the title (or name) as prefix, and each
/// parameter's title (or name) as its prefix, in parameter order.
pub(super) fn generated_display(tool: &Tool) -> Display {
    let mut display =
        Display { prefix: Some(tool.title.clone().unwrap_or_else(|| humanize(&tool.name))), ..Display::default() };
    for parameter in &tool.parameters {
        let label = parameter.schema.title.clone().unwrap_or_else(|| humanize(&parameter.name));
        display.args.insert(parameter.name.clone(), toolport_plugin::ArgDisplay { prefix: Some(label), suffix: None });
    }
    display
}
