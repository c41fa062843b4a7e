//! `{{variable}}` placeholders in a SkyDeck `model_prompt`.
//!
//! A variable name is a display string: it may contain spaces, capitals and any script
//! (`{{focus areas}}`, `{{idioma de destino}}`). Whitespace just inside the braces is not part
//! of the name (`{{ text }}` names `text`). Text between `{{` and `}}` that is empty or holds a
//! brace or a line break is not a placeholder and stays literal text.

use serde_json::{Map, Value};

/// One placeholder in a prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// The variable name, without the braces and the whitespace inside them.
    pub name: String,
    /// Byte range of the whole `{{ … }}` in the prompt.
    pub start: usize,
    pub end: usize,
}

/// Every placeholder of `prompt`, in order (a name appears once per use).
pub fn placeholders(prompt: &str) -> Vec<Placeholder> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = prompt[from..].find("{{").map(|i| from + i) {
        let inner_start = open + 2;
        let Some(close) = prompt[inner_start..].find("}}").map(|i| inner_start + i) else { break };
        let inner = &prompt[inner_start..close];
        let name = inner.trim();
        if name.is_empty() || name.contains(['{', '}', '\n', '\r']) {
            // Not a placeholder here; a later `{` may start one (`{{{x}}}` holds `{{x}}`).
            from = open + 1;
            continue;
        }
        found.push(Placeholder { name: name.to_owned(), start: open, end: close + 2 });
        from = close + 2;
    }
    found
}

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
