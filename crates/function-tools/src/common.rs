//! What both sides of every JSON tool-list format use: the format's info, the source document
//! (parsed once, diagnostics located in it), the shape it held its tools in, detection, and a
//! tool's or tool set's extras as an object.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::source::{Locator, parse_json};
use toolport_core::{Bundle, Detection, Diagnostic, FormatInfo, InputShape, Options, codes};

/// What the info of every function-tool format says alike: it reads and writes one JSON file.
/// Each format sets its aliases, description and options over it.
pub fn json_file_info(id: &str, version: &str) -> FormatInfo {
    FormatInfo {
        id: id.into(),
        aliases: Vec::new(),
        description: String::new(),
        version: version.into(),
        reads: true,
        writes: true,
        input: InputShape::File,
        extensions: vec!["json".into()],
        options: Some(Vec::new()),
        limits: Default::default(),
    }
}

/// How a document holds its tools, so a same-format write gives back the same shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `{ "<key>": [ ... ], ... }`
    Wrapped,
    /// `[ ... ]`
    Array,
    /// One tool object.
    Single,
}

impl Shape {
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Wrapped => "wrapped",
            Shape::Array => "array",
            Shape::Single => "single",
        }
    }

    pub fn parse(text: &str) -> Option<Shape> {
        Some(match text {
            "wrapped" => Shape::Wrapped,
            "array" => Shape::Array,
            "single" => Shape::Single,
            _ => return None,
        })
    }
}

/// The entry file of a bundle, parsed as JSON, and the named schemas (`$defs`,
/// `definitions`) its tool schemas brought, collected while reading them
/// (`crate::schema::read_input`, `crate::schema::read_single`).
#[derive(Debug)]
pub struct Source<'t> {
    pub file: String,
    /// The text, borrowed from the bundle (a copy of a large list was its size again while
    /// reading), indexed once for locating every diagnostic.
    pub locator: Locator<'t>,
    pub value: Value,
    /// What parsing tolerated (repeated keys, rounded integers), for the reader's diagnostics.
    pub tolerated: Vec<Diagnostic>,
    pub definitions: std::cell::RefCell<IndexMap<String, toolport_core::Schema>>,
    /// Whether the schemas are kept as written when the model cannot give them back
    /// ([`crate::schema::read_input`]): only this format's writer uses them, so a conversion
    /// to another format (`Options::TARGET_FORMAT`) keeps only what the model lacks.
    pub keeps_as_written: bool,
}

impl<'t> Source<'t> {
    /// Parses the bundle's entry file, read as `format` toward the target `options` name; the
    /// error is ready to return as a failed read.
    pub fn parse(input: &'t Bundle, format: &str, options: &Options) -> Result<Source<'t>, Diagnostic> {
        let Some((file, text)) = input.entry_file() else {
            return Err(Diagnostic::error(codes::INPUT_INVALID, "", format!("{format} reads one JSON file")));
        };
        let parsed = parse_json(file, text)?;
        Ok(Source {
            file: file.to_owned(),
            locator: Locator::new(text),
            value: parsed.value,
            tolerated: parsed.tolerated,
            definitions: Default::default(),
            keeps_as_written: options.may_target(&[format]),
        })
    }

    /// The definitions the schemas read so far brought, for `ToolSet::definitions`.
    pub fn take_definitions(&self) -> IndexMap<String, toolport_core::Schema> {
        self.definitions.take()
    }

    /// A diagnostic about the value at `path` in this source, with its line and column.
    /// A missing key is located at the object that lacks it.
    pub fn at(&self, diagnostic: Diagnostic) -> Diagnostic {
        let mut pointer = diagnostic.path.as_str();
        loop {
            if let Some((line, column)) = self.locator.locate(pointer) {
                return diagnostic.at(&self.file, line, column);
            }
            match pointer.rfind('/') {
                Some(i) => pointer = &pointer[..i],
                None => return diagnostic,
            }
        }
    }
}

/// The `result` of a JSON-RPC response (`{"jsonrpc": "2.0", "id": 1, "result": {...}}`), as
/// an MCP `tools/list` request is answered on the wire; `None` for any other document.
pub fn json_rpc_result(value: &Value) -> Option<&Value> {
    let map = value.as_object()?;
    map.get("jsonrpc").and(map.get("result"))
}

/// The JSON of the bundle's entry file, for `detect`; `None` when it is not JSON.
pub fn detect_value(input: &Bundle) -> Option<Value> {
    let (_, text) = input.entry_file()?;
    // Only an object or an array is a tool document, and a JSON text that is one ends with its
    // closing bracket: the start of a large file, detection's first view of it, is ruled out
    // without being parsed by every function format.
    if !text.trim_end().ends_with(['}', ']']) {
        return None;
    }
    // An object is a tool document only with one of these keys at its top: a linear scan rules
    // out a multi-megabyte API description (Stripe's) without parsing it.
    const TOOL_DOCUMENT_KEYS: [&str; 10] = [
        "tools",
        "name",
        "type",
        "function",
        "functionDeclarations",
        "function_declarations",
        "jsonrpc",
        "toolConfig",
        "toolSpec",
        "prompts",
    ];
    // A key written with escapes (`"\u0074ools"`) may still be one of them: only plain keys rule out.
    if let Some(keys) = toolport_core::source::top_level_keys(text)
        && !keys.iter().any(|k| TOOL_DOCUMENT_KEYS.contains(k) || k.contains('\\'))
    {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// How sure a reader is that the bundle's entry is a list of its tools: 90 when every item of
/// a `{"tools": [...]}` or a bare array is one (`is_tool`), 70 when some are, 85 for a single
/// tool object, else 0.
pub fn detect_tool_list(input: &Bundle, is_tool: impl Fn(&Value) -> bool) -> Detection {
    let Some(value) = detect_value(input) else { return 0 };
    let tools = match &value {
        Value::Array(items) => items.as_slice(),
        Value::Object(map) => match map.get("tools") {
            Some(Value::Array(items)) => items.as_slice(),
            _ => return if is_tool(&value) { 85 } else { 0 },
        },
        _ => return 0,
    };
    match tools.iter().filter(|t| is_tool(t)).count() {
        0 => 0,
        n if n == tools.len() => 90,
        _ => 70,
    }
}

/// Converts an object's extras entry to a JSON object (an absent or non-object entry is empty).
pub fn extras_object(extras: &IndexMap<String, Value>, format: &str) -> Map<String, Value> {
    match extras.get(format) {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expect: Option<Value>) {
        assert_eq!(detect_value(&Bundle::single("tools.json", text)), expect, "{text:?}");
    }

    /// A tool document is read for detection whole or not at all: the start of a large file
    /// (detection's first view of it) and a scalar are ruled out before parsing (the scalar
    /// only by the closing-bracket rule), a whole object or list with trailing whitespace is
    /// read, a document without a tool key is not.
    #[test]
    fn detection_reads_whole_tool_documents_only() {
        let list = r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#;
        check(list, Some(serde_json::from_str(list).unwrap()));
        check(&format!("{list} \n\t"), Some(serde_json::from_str(list).unwrap()));
        check(&list[..list.len() - 3], None);
        check(r#"[{"name": "a"}]"#, Some(serde_json::json!([{"name": "a"}])));
        check(r#"[{"name": "a"}"#, None);
        check(r#"{"openapi": "3.0.0", "paths": {}}"#, None);
        check("\"a tool\"", None);
    }
}
