//! Filling and making SkyDeck `model_prompt`s; the `{{variable}}` syntax itself is the
//! model's, in core's `template` (re-exported here for the reader and writer).

use serde_json::{Map, Value};

pub use toolport_plugin::template::{Placeholder, placeholders};

/// Fills `prompt`'s placeholders from `arguments` (variable name → value), the way a SkyDeck
/// client fills a prompt before sending it to the model:
/// - a string is inserted as it is;
/// - an array (a multi-select value) is inserted as its items joined with `", "`
///   (`["risks", "costs"]` → `risks, costs`), string items as they are, others as JSON;
/// - a number or boolean is inserted as its JSON text;
/// - an object is inserted as compact JSON.
///
/// A placeholder whose name has no argument, or whose argument is `null`, is left as it was
/// (`{{name}}` verbatim), so a partly filled prompt shows what is still missing.
pub fn render_prompt(prompt: &str, arguments: &Map<String, Value>) -> String {
    let mut out = String::with_capacity(prompt.len());
    let mut from = 0;
    for placeholder in placeholders(prompt) {
        let Some(value) = arguments.get(&placeholder.name).filter(|v| !v.is_null()) else { continue };
        out.push_str(&prompt[from..placeholder.start]);
        out.push_str(&render_value(value));
        from = placeholder.end;
    }
    out.push_str(&prompt[from..]);
    out
}

fn render_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(items) => items.iter().map(render_value).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// A prompt for a tool that has none (a tool from a format without prompt templates): its
/// description (or title, or name), then one `name: {{name}}` line per parameter.
pub fn generated_prompt(lead: &str, parameter_names: &[&str]) -> String {
    let mut prompt = lead.trim().to_owned();
    if !parameter_names.is_empty() {
        if !prompt.is_empty() {
            prompt.push_str("\n\n");
        }
        let lines: Vec<String> = parameter_names.iter().map(|name| format!("{name}: {{{{{name}}}}}")).collect();
        prompt.push_str(&lines.join("\n"));
    }
    prompt
}
