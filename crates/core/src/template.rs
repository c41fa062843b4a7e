//! `{{variable}}` placeholders in a tool's prompt template (the model's `Tool::prompt`:
//! SkyDeck's `model_prompt`, an MCP prompt's messages).
//!
//! A variable name is a display string: it may contain spaces, capitals and any script
//! (`{{focus areas}}`, `{{idioma de destino}}`). Whitespace just inside the braces is not part
//! of the name (`{{ text }}` names `text`). Text between `{{` and `}}` that is empty or holds a
//! brace or a line break is not a placeholder and stays literal text.

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
