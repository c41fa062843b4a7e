//! The bits of Python syntax the agent module is written with.

/// `text` as a Python string literal. A JSON string is one: its escapes (`\"`, `\\`, `\n`,
/// `\uXXXX`, …) mean the same in Python, and serde_json never writes `\/`, the one JSON escape
/// Python lacks.
pub(crate) fn string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Python's reserved words: not a module or agent name.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// `name` as a Python identifier of ASCII letters, digits and `_` (what ADK requires of an
/// agent's name and what its loader imports a folder as): other characters become `_`, a
/// leading digit, a reserved word and ADK's reserved `user` get `agent` around them; empty
/// gives `fallback`.
pub(crate) fn identifier(name: &str, fallback: &str) -> String {
    let mut out: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        return fallback.to_owned();
    }
    out = trimmed.to_owned();
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "agent_");
    }
    if KEYWORDS.contains(&out.as_str()) || out == "user" {
        out.push_str("_agent");
    }
    out
}

/// An upper-case environment variable name: the agent's name and `suffix`.
pub(crate) fn env_var(agent: &str, suffix: &str) -> String {
    format!("{}_{suffix}", agent.to_ascii_uppercase())
}

/// `text` as `#` comment lines (each of its lines one comment line).
pub(crate) fn comment(text: &str) -> String {
    text.lines().map(|line| if line.is_empty() { "#\n".to_owned() } else { format!("# {line}\n") }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_importable_agent_names() {
        let cases = [
            ("weather", "weather"),
            ("my-extension v2", "my_extension_v2"),
            ("2fa", "agent_2fa"),
            ("import", "import_agent"),
            ("user", "user_agent"),
            ("Météo", "M_t_o"),
            ("--", "agent"),
            ("", "agent"),
        ];
        for (name, expect) in cases {
            assert_eq!(identifier(name, "agent"), expect, "{name:?}");
        }
    }

    #[test]
    fn strings_are_python_literals() {
        assert_eq!(string("say \"hi\"\n{city} \\ é"), "\"say \\\"hi\\\"\\n{city} \\\\ é\"");
    }
}
