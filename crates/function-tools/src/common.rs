//! Pieces every JSON tool-list format needs: finding the tool list in a document and
//! remembering its shape, locating diagnostics in the source, deterministic names, pretty output.
//!

use indexmap::IndexMap;
use serde_json::{Map, Value};
use toolport_core::names::{NameMap, NameRules};
use toolport_core::source::{Locator, child, parse_json};
use toolport_core::{Bundle, Detection, Diagnostic, Options, ToolSet, codes};

/// The tools of a document that holds them as `{"tools": [...], ...}`, a bare array, or one
/// tool object, with their JSON-pointer base.
#[derive(Debug)]
pub struct ToolList<'a> {
    pub shape: Shape,
    pub items: Vec<&'a Value>,
    base: &'static str,
}

impl ToolList<'_> {
    /// The JSON pointer of item `index` in the source document.
    pub fn path(&self, index: usize) -> String {
        if self.shape == Shape::Single { String::new() } else { child(self.base, index.to_string()) }
    }
}

/// Finds the tool list in a document and records its shape in `set_extras` (`shape`, and a
/// wrapper's other keys under `document`), so a same-format write gives the document back.
/// `is_single` says whether a bare object is one tool; `expected` is the error message.
pub fn tool_list<'a>(
    source: &'a Source,
    is_single: impl Fn(&Map<String, Value>) -> bool,
    expected: &str,
    set_extras: &mut Map<String, Value>,
) -> Result<ToolList<'a>, Diagnostic> {
    let list = match &source.value {
        Value::Object(map) if map.get("tools").is_some_and(Value::is_array) => {
            let others: Map<String, Value> =
                map.iter().filter(|(k, _)| *k != "tools").map(|(k, v)| (k.clone(), v.clone())).collect();
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            ToolList {
                shape: Shape::Wrapped,
                items: map["tools"].as_array().into_iter().flatten().collect(),
                base: "/tools",
            }
        }
        Value::Array(items) => ToolList { shape: Shape::Array, items: items.iter().collect(), base: "" },
        Value::Object(map) if is_single(map) => ToolList { shape: Shape::Single, items: vec![&source.value], base: "" },
        _ => return Err(source.at(Diagnostic::error(codes::INPUT_INVALID, "", expected))),
    };
    set_extras.insert("shape".into(), list.shape.as_str().into());
    Ok(list)
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
pub struct Source {
    pub file: String,
    /// The text, indexed once for locating every diagnostic.
    pub locator: Locator<'static>,
    pub value: Value,
    pub definitions: std::cell::RefCell<IndexMap<String, toolport_core::Schema>>,
}

impl Source {
    /// Parses the bundle's entry file; the error is ready to return as a failed read.
    pub fn parse(input: &Bundle, format: &str) -> Result<Source, Diagnostic> {
        let Some((file, text)) = input.entry_file() else {
            return Err(Diagnostic::error(codes::INPUT_INVALID, "", format!("{format} reads one JSON file")));
        };
        let value = parse_json(file, text)?;
        Ok(Source {
            file: file.to_owned(),
            locator: Locator::new(text.to_owned()),
            value,
            definitions: Default::default(),
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

/// The JSON of the bundle's entry file, for `detect`; `None` when it is not JSON.
pub fn detect_value(input: &Bundle) -> Option<Value> {
    let (_, text) = input.entry_file()?;
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

/// A written document as a one-file bundle, `<output name>.json`, pretty-printed.
pub fn json_bundle(document: &Value, options: &Options) -> Bundle {
    let mut bundle = Bundle::default();
    bundle.insert(format!("{}.json", options.output_name("tools")), pretty(document));
    bundle
}

/// Pretty JSON, 2-space indented, with a trailing newline.
pub fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// Deterministic target names for every tool of `model`, in tool order, with a `changed/name`
/// diagnostic for each change that states the way back. A name that already follows the
/// rules keeps itself; on a collision the name that had to change gets the suffix
/// ([`NameMap::assign_all`]). Names are transliterated to ASCII before they are sanitised.
pub fn tool_names(model: &ToolSet, rules: NameRules, format: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut map = name_map(rules);
    let names = map.assign_all(model.tools.iter().map(|t| t.name.as_str()));
    for (i, (tool, name)) in model.tools.iter().zip(&names).enumerate() {
        if *name != tool.name {
            diagnostics.push(Diagnostic::warning(
                codes::CHANGED_NAME,
                child(&child("/tools", i.to_string()), "name"),
                format!(
                    "{format} tool names must match {}: `{}` was written as `{name}` (map back: `{name}` -> `{}`)",
                    rules.pattern, tool.name, tool.name
                ),
            ));
        }
    }
    names
}

/// A [`NameMap`] under `rules` that transliterates names to ASCII before sanitising them.
pub fn name_map(rules: NameRules) -> NameMap {
    NameMap::new(rules).with_transliteration(ascii)
}

/// `text` in ASCII: letters transliterated (`áreas de enfoque` -> `areas de enfoque`, `東京` ->
/// `Dong Jing`), what has no transliteration left as `_`.
pub fn ascii(text: &str) -> String {
    deunicode::deunicode_with_tofu(text, "_").trim().to_owned()
}

/// The description each tool is written with, in tool order: its own; else its title (what
/// an OpenAPI operation's `summary` becomes); else one made from its name and HTTP binding,
/// with a `generated/content` diagnostic. Empty texts count as none. A model read from the
/// format being written (`model.extras` has its id) is written as it was read, so a
/// same-format round trip gives the same document. A title used as the description is no
/// longer reported as lost (its `loss/*` diagnostic at `/tools/<i>/title` is removed).
pub fn descriptions(model: &ToolSet, format: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<Option<String>> {
    let same_format = model.extras.contains_key(format);
    let present = |text: &Option<String>| text.as_deref().filter(|t| !t.trim().is_empty()).map(str::to_owned);
    let mut titles_used = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(model.tools.len());
    for (i, tool) in model.tools.iter().enumerate() {
        let own = present(&tool.description);
        if own.is_some() || same_format {
            out.push(own.or_else(|| tool.description.clone()));
            continue;
        }
        let path = child("/tools", i.to_string());
        if let Some(title) = present(&tool.title) {
            titles_used.insert(child(&path, "title"));
            out.push(Some(title));
            continue;
        }
        let text = generated_description(tool);
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            child(&path, "description"),
            format!(
                "tool `{}` has no description or summary; {format} was given one made from its name: \"{text}\"",
                tool.name
            ),
        ));
        out.push(Some(text));
    }
    if !titles_used.is_empty() {
        diagnostics.retain(|d| !(d.code.starts_with("loss/") && titles_used.contains(&d.path)));
    }
    out
}

/// A description made from a tool's name (its words, `listPetsByOwner` -> "List pets by
/// owner") and its HTTP binding (`GET /pets`).
pub fn generated_description(tool: &toolport_core::Tool) -> String {
    let words = words(&ascii(&tool.name));
    let mut text = match words.split_first() {
        Some((first, rest)) => {
            let mut first: Vec<char> = first.chars().collect();
            if let Some(c) = first.first_mut() {
                *c = c.to_ascii_uppercase();
            }
            std::iter::once(first.into_iter().collect::<String>())
                .chain(rest.iter().cloned())
                .collect::<Vec<_>>()
                .join(" ")
        }
        None => format!("Calls `{}`", tool.name),
    };
    if let Some(http) = &tool.http {
        text.push_str(&format!(" ({} {})", http.method, http.path));
    }
    text.push('.');
    text
}

/// The words of an identifier, lower-cased: split at `_`, `-`, `.`, `/`, spaces and camelCase.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        } else {
            let boundary =
                c.is_ascii_uppercase() && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            if boundary && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        previous = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// A JSON object's value at `key` when it is a string.
pub fn string(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// Reads an optional string field, reporting a wrong type; the value then stays in `keep`.
pub fn optional_string(
    source: &Source,
    map: &Map<String, Value>,
    key: &str,
    path: &str,
    keep: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    match map.get(key) {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, key),
                format!("`{key}` should be a string; kept as written"),
            )));
            keep.insert(key.to_owned(), other.clone());
            None
        }
    }
}

/// Converts an object's extras entry to a JSON object (an absent or non-object entry is empty).
pub fn extras_object(extras: &IndexMap<String, Value>, format: &str) -> Map<String, Value> {
    match extras.get(format) {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    }
}
