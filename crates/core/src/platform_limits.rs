//! A platform's documented limits, as data: what a format declares in
//! [`crate::FormatInfo::limits`] (each with where it is documented), what `convert formats
//! FORMAT` shows, and what the host's fit stage checks a model against ([`crate::fit`]).
//! A format declares limits; it does not enforce them itself, unless its writer already keeps
//! one (renames names, rewrites a schema into the platform's subset, each reported): then the
//! limit says so ([`Limit::kept_by_writer`]) and is shown, not checked twice.

use serde::{Deserialize, Serialize};

use crate::names::NameRules;

/// What a limit bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitKind {
    /// Tools (function declarations) one request may carry.
    ToolsPerRequest,
    /// A tool's name: its length and the characters allowed.
    ToolName,
    /// A top-level parameter's name: its length and the characters allowed.
    ParameterName,
    /// Characters of a tool's description.
    DescriptionChars,
    /// Levels of nesting of a tool's parameters (the parameters object is level 1).
    SchemaDepth,
    /// Object properties in one tool's parameters, all levels together.
    SchemaProperties,
    /// Enum values in one tool's parameters, all enums together.
    EnumValues,
    /// Characters of property names, definition names, enum and const values in one tool's
    /// parameters together.
    SchemaChars,
    /// Characters of one enum's string values, for an enum of more than
    /// [`LARGE_ENUM_VALUES`] values.
    LargeEnumChars,
    /// Servers (base URLs) of the whole tool set.
    Servers,
    /// Characters of the tool set's display name (its title, else its id).
    DisplayName,
    /// A rule about schema keywords or shapes, said in the note (kept by the writer).
    SchemaRules,
    /// A kind a newer plugin declared that this host does not know: shown, not checked.
    #[serde(other)]
    Other,
}

/// OpenAI's per-enum character budget applies to enums of more than this many values.
pub const LARGE_ENUM_VALUES: usize = 250;

impl LimitKind {
    /// Words for tables and messages.
    pub fn label(self) -> &'static str {
        match self {
            LimitKind::ToolsPerRequest => "tools per request",
            LimitKind::ToolName => "tool name",
            LimitKind::ParameterName => "parameter name",
            LimitKind::DescriptionChars => "description characters",
            LimitKind::SchemaDepth => "schema nesting levels",
            LimitKind::SchemaProperties => "schema properties",
            LimitKind::EnumValues => "enum values",
            LimitKind::SchemaChars => "schema characters (names, enum and const values)",
            LimitKind::LargeEnumChars => "characters of one enum of over 250 values",
            LimitKind::Servers => "servers",
            LimitKind::DisplayName => "display name characters",
            LimitKind::SchemaRules => "schema rules",
            LimitKind::Other => "other",
        }
    }
}

/// One documented limit of a platform.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limit {
    pub kind: LimitKind,
    /// The most allowed (a count, or a length for names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// For names: the characters allowed, as ranges and single characters (`A-Za-z0-9_-`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chars: Option<String>,
    /// For names: the characters a name may start with, when narrower than `chars`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_chars: Option<String>,
    /// Applies only with this option set so (`strict=true`); the option's declared default
    /// counts when it is not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// The writer keeps this limit itself (renaming, rewriting, each reported): shown, not
    /// checked again.
    #[serde(default)]
    pub kept_by_writer: bool,
    /// Where the limit is documented: the page's title and its URL.
    pub source: String,
    /// What the number does not say, in a few words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Limit {
    /// A counted limit: at most `max`.
    pub fn at_most(kind: LimitKind, max: u64, source: &str) -> Limit {
        Limit {
            kind,
            max: Some(max),
            chars: None,
            first_chars: None,
            when: None,
            kept_by_writer: false,
            source: source.to_owned(),
            note: String::new(),
        }
    }

    /// A name rule: at most `max` characters of `chars` (`A-Za-z0-9_-`).
    pub fn name(kind: LimitKind, max: u64, chars: &str, source: &str) -> Limit {
        Limit { chars: Some(chars.to_owned()), ..Limit::at_most(kind, max, source) }
    }

    /// A name rule the writer keeps itself with `rules` (renaming, each a `changed/name`): its
    /// length and pattern shown, not checked again.
    pub fn kept_name(kind: LimitKind, rules: &NameRules, source: &str) -> Limit {
        Limit::at_most(kind, rules.max_len as u64, source).note(rules.pattern).kept_by_writer()
    }

    /// A rule the writer keeps and the note states (a schema subset, strict-mode keywords).
    pub fn rule(note: &str, source: &str) -> Limit {
        Limit {
            max: None,
            kept_by_writer: true,
            note: note.to_owned(),
            ..Limit::at_most(LimitKind::SchemaRules, 0, source)
        }
    }

    pub fn first(mut self, chars: &str) -> Limit {
        self.first_chars = Some(chars.to_owned());
        self
    }

    /// Only with this option so (`strict=true`).
    pub fn when(mut self, option: &str) -> Limit {
        self.when = Some(option.to_owned());
        self
    }

    pub fn kept_by_writer(mut self) -> Limit {
        self.kept_by_writer = true;
        self
    }

    pub fn note(mut self, note: &str) -> Limit {
        self.note = note.to_owned();
        self
    }

    /// The value as a table shows it: `128`, `64 of A-Za-z0-9_-`, or the note for a rule.
    pub fn value(&self) -> String {
        let mut text = match (self.max, &self.chars) {
            (Some(max), Some(chars)) => format!("{max} of {chars}"),
            (Some(max), None) => max.to_string(),
            (None, _) => self.note.clone(),
        };
        if let Some(first) = &self.first_chars {
            text.push_str(&format!(", first {first}"));
        }
        if let Some(when) = &self.when {
            text.push_str(&format!(" (with {when})"));
        }
        text
    }

    /// Whether `name` keeps this name rule: its length (in characters) and its characters.
    /// `Err` says what breaks it.
    pub fn check_name(&self, name: &str) -> Result<(), String> {
        let length = name.chars().count() as u64;
        if let Some(max) = self.max
            && (length > max || length == 0)
        {
            return Err(format!("{length} characters, at most {max} allowed"));
        }
        if let Some(chars) = &self.chars
            && let Some(bad) = name.chars().find(|c| !in_class(chars, *c))
        {
            return Err(format!("`{bad}` is not one of {chars}"));
        }
        if let (Some(first), Some(c)) = (&self.first_chars, name.chars().next())
            && !in_class(first, c)
        {
            return Err(format!("it starts with `{c}`, not one of {first}"));
        }
        Ok(())
    }
}

/// Whether `c` is in a class written as ranges and single characters (`A-Za-z0-9_.-`; a `-`
/// first or last is itself).
fn in_class(class: &str, c: char) -> bool {
    let chars: Vec<char> = class.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' {
            if (chars[i]..=chars[i + 2]).contains(&c) {
                return true;
            }
            i += 3;
        } else {
            if chars[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

/// Every limit a format declares for its platform; empty when it declares none (a plugin
/// built before limits were declared, or a format with no platform).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlatformLimits(pub Vec<Limit>);

impl PlatformLimits {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The limits of this kind.
    pub fn of(&self, kind: LimitKind) -> impl Iterator<Item = &Limit> {
        self.0.iter().filter(move |l| l.kind == kind)
    }

    /// The most tools one request carries, if the platform says.
    pub fn tools_per_request(&self) -> Option<u64> {
        self.of(LimitKind::ToolsPerRequest).filter_map(|l| l.max).min()
    }
}

/// Sources, named once: each platform's page a limit is read from.
pub mod sources {
    pub const OPENAI_FUNCTION_CALLING: &str = "OpenAI API reference, Chat Completions `tools` and `function.name` (https://platform.openai.com/docs/api-reference/chat/create)";
    pub const OPENAI_STRUCTURED_OUTPUTS: &str = "OpenAI guide, Structured Outputs: supported schemas and limitations (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas)";
    pub const ANTHROPIC_TOOLS: &str =
        "Anthropic API reference, Messages `tools[].name` (https://docs.anthropic.com/en/api/messages)";
    pub const ANTHROPIC_STRICT: &str = "Anthropic docs, Strict tool use (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/strict-tool-use)";
    pub const GEMINI_FUNCTION_CALLING: &str = "Gemini API docs, Function calling: function declarations (https://ai.google.dev/gemini-api/docs/function-calling)";
    pub const GEMINI_FUNCTION_DECLARATION: &str =
        "Gemini API reference, FunctionDeclaration.name (https://ai.google.dev/api/caching#FunctionDeclaration)";
    pub const VERTEX_EXTENSIONS: &str = "Vertex AI docs, Create and run extensions: the OpenAPI spec and manifest (https://cloud.google.com/vertex-ai/generative-ai/docs/extensions/create-extension)";
    pub const VERTEX_FUNCTION_CALLING: &str = "Vertex AI reference, FunctionDeclaration (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionDeclaration)";
    pub const MCP_TOOLS: &str = "MCP specification, Tools: tool names (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names)";
    pub const CLAUDE_DESKTOP: &str = "Claude Desktop and the Anthropic API it calls: tool names ^[a-zA-Z0-9_-]{1,64}$ (https://docs.anthropic.com/en/api/messages)";
    pub const CURSOR_MCP: &str = "Cursor docs, Model Context Protocol: tool name length (https://docs.cursor.com/context/model-context-protocol)";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_rules_say_what_breaks_them() {
        let rule = Limit::name(LimitKind::ToolName, 8, "A-Za-z0-9_.-", "x").first("A-Za-z_");
        assert_eq!(rule.check_name("get.pet"), Ok(()));
        assert_eq!(rule.check_name("get_pets_now").unwrap_err(), "12 characters, at most 8 allowed");
        assert_eq!(rule.check_name("get pet").unwrap_err(), "` ` is not one of A-Za-z0-9_.-");
        assert_eq!(rule.check_name("1pet").unwrap_err(), "it starts with `1`, not one of A-Za-z_");
        assert!(rule.check_name("").is_err());
        assert_eq!(rule.value(), "8 of A-Za-z0-9_.-, first A-Za-z_");
    }

    #[test]
    fn limits_of_a_newer_kind_still_read() {
        let newer = r#"[{"kind":"tokens-per-tool","max":9,"source":"s"}]"#;
        let limits: PlatformLimits = serde_json::from_str(newer).unwrap();
        assert_eq!(limits.0[0].kind, LimitKind::Other);
        assert_eq!(limits.tools_per_request(), None);
    }
}
