//! What the reader and the writer agree a Raycast extension looks like: the tool-entry and
//! eval keys the model has a place for, which tool names can be file names, the forms an
//! eval's argument matcher can take, and what the reader records of the extension's own files
//! so the writer can give them back (`ToolSource`, `Fingerprints`, the extras keys). Both sides
//! use this module; neither uses the other.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolport_plugin::nesting::{self, Syntax};
use toolport_plugin::source::{Parsed, parse_json};
use toolport_plugin::{Diagnostic, Tool, codes};

/// The set's extras key holding every file of the source extension (a serialized `Bundle`,
/// binary files in base64), which a Raycast writer gives back as they were and no other
/// format's writer carries (core's `loss::SOURCE_FILES`).
pub const EXTENSION_FILES: &str = toolport_plugin::loss::SOURCE_FILES;

/// A tool's extras key holding its `ToolSource`.
pub const TOOL_SOURCE: &str = "source";

/// How a request the writer makes from an HTTP binding ends: this call with the request's
/// method and path as a string literal (`readResponse(response, "POST /pets")`). The reader
/// finds it to say that the binding stays in the code ([`written_request`]).
pub const REQUEST_CALL: &str = "readResponse(response, ";

/// The method and path of the request the writer made in a tool file's `text`, and where its
/// call is (a byte offset); `None` in a file the writer did not make a request in.
pub fn written_request(text: &str) -> Option<(String, usize)> {
    let at = text.find(REQUEST_CALL)?;
    let rest = &text[at + REQUEST_CALL.len()..];
    // The literal is a JSON string (the writer's `json_string`) closed by `);`.
    let literal = &rest[..rest.find(");")?];
    let request = serde_json::from_str::<String>(literal).ok()?;
    Some((request, at))
}

/// A tool's TypeScript file as the reader found it: where it is, what the model held when it was
/// read, and where each part the model describes sits in its text. The writer carries the file
/// as it is while those parts are unchanged, and rewrites only a part whose model changed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolSource {
    /// The file's path in the extension's folder.
    pub file: String,
    /// The tool's parts as read.
    pub read: Fingerprints,
    /// Where the parts are; `None` when the file has no default-exported function to rewrite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<SourceParts>,
}

/// Where a tool file holds each part the model describes (byte offsets into its text).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceParts {
    pub input: InputPlace,
    /// The default export's JSDoc, or an empty range where one goes.
    pub doc: TextRange,
    /// The `confirmation` export, or an empty range where one goes.
    pub confirmation: TextRange,
    /// Names the file imports from `@raycast/api` (a rewritten confirmation may need more).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raycast_imports: Vec<String>,
}

/// Where the tool's input type is written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "form")]
pub enum InputPlace {
    /// `type Name = …` or `interface Name …` in the tool file: rewritten as `type Name = {…}`.
    Declaration { name: String, range: TextRange },
    /// The input parameter's type, written inline or imported: rewritten as a type literal.
    Annotation { range: TextRange },
    /// The function's parameter list, when it has no typed input: rewritten as `(input: {…})`.
    Parameters { range: TextRange },
}

impl Default for InputPlace {
    fn default() -> Self {
        InputPlace::Parameters { range: TextRange::default() }
    }
}

/// A range of bytes in a file's text; empty for a place where something goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

/// What the model held of a tool's file, each part hashed: equal fingerprints mean the part the
/// file says is still what the model says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprints {
    pub input: String,
    pub description: String,
    pub confirmation: String,
}

impl Fingerprints {
    pub fn of(tool: &Tool) -> Fingerprints {
        Fingerprints {
            input: fingerprint(&tool.parameters),
            description: fingerprint(&tool.description),
            // A destructive hint alone makes the writer add a confirmation.
            confirmation: fingerprint(&(&tool.confirmation, tool.hints.destructive)),
        }
    }
}

/// A stable hash (64-bit FNV-1a) of a value's JSON form, the same in every process.
fn fingerprint(value: &impl Serialize) -> String {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    let hash =
        bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

/// Tool entry keys that map into the model.
pub const TOOL_KEYS: [&str; 5] = ["name", "title", "description", "icon", "instructions"];

/// Keys of an eval the model has a place for, in the order the writer puts them.
pub const EVAL_KEYS: [&str; 4] = ["input", "mocks", "expected", "usedAsExample"];

/// A tool name that can be a file name as it is (no path separators or dots).
pub fn is_safe_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.len() <= 80
}

/// One level of an argument matcher written as an object with one key (`{"eq": …}`,
/// `{"and": […]}`, …), its operand not yet read.
#[derive(Debug)]
pub enum MatcherForm<'v> {
    Eq(&'v Value),
    Includes(&'v Value),
    Matches(&'v str),
    And(&'v [Value]),
    Or(&'v [Value]),
    Not(&'v Value),
}

/// The matcher form `value` is written in, or `None` when it is a plain value. The reader reads
/// a form as that matcher; the writer wraps a value that looks like one in `eq`.
pub fn matcher_form(value: &Value) -> Option<MatcherForm<'_>> {
    let object = value.as_object().filter(|o| o.len() == 1)?;
    let (key, inner) = object.iter().next()?;
    Some(match (key.as_str(), inner) {
        ("eq", v) => MatcherForm::Eq(v),
        ("includes", v) => MatcherForm::Includes(v),
        ("matches", Value::String(s)) => MatcherForm::Matches(s),
        ("and", Value::Array(items)) => MatcherForm::And(items),
        ("or", Value::Array(items)) => MatcherForm::Or(items),
        ("not", v) => MatcherForm::Not(v),
        _ => return None,
    })
}

/// Parses an AI file (or any JSON, JSON5 or YAML file of the extension) by its name.
pub fn parse_ai_file(file: &str, path: &str, text: &str) -> Result<Parsed, Diagnostic> {
    if file.ends_with(".yaml") {
        toolport_plugin::yaml::parse(path, text)
    } else if file.ends_with(".json5") {
        parse_json5(path, text).map(|value| Parsed { value, tolerated: Vec::new() })
    } else {
        parse_json(path, text)
    }
}

/// Parses a JSON5 file, refusing nesting deeper than the limit first (json5 recurses once per
/// level); errors are located in `path`.
pub fn parse_json5(path: &str, text: &str) -> Result<Value, Diagnostic> {
    nesting::check(path, text, Syntax::JSON5)?;
    json5::from_str::<Value>(text).map_err(|error| {
        let json5::Error::Message { msg, location } = &error;
        let diagnostic = Diagnostic::error(
            codes::INPUT_SYNTAX,
            "",
            format!("invalid JSON5: {}", msg.lines().last().unwrap_or(msg).trim()),
        );
        match location {
            Some(at) => diagnostic.at(path, at.line as u32, at.column as u32),
            None => diagnostic,
        }
    })
}
