//! What every function-tool reader shares, in the order it reads: the tool list and the shape
//! it had, the model being read ([`Reading`]: repeated names, the tool set's extras), a tool
//! object and its name, plain string fields, and the tail that keeps the keys a reader does not
//! map ([`keep_unknown`]).

use std::collections::HashSet;

use serde_json::{Map, Value};
use toolport_core::names::NameRules;
use toolport_core::source::child;
use toolport_core::{Bundle, Diagnostic, Options, Outcome, Tool, ToolSet, codes};

use crate::common::{Shape, Source, json_rpc_result};

/// The tools of a document that holds them as `{"tools": [...], ...}`, a bare array, or one
/// tool object (possibly inside a JSON-RPC response), with where they are in the source.
#[derive(Debug)]
pub struct ToolList<'a> {
    pub shape: Shape,
    pub items: Vec<&'a Value>,
    /// The JSON pointer of the document holding the tools: `/result` in a JSON-RPC response.
    root: &'static str,
}

impl ToolList<'_> {
    /// The JSON pointer of item `index` in the source document.
    pub fn path(&self, index: usize) -> String {
        match self.shape {
            Shape::Single => self.root.to_owned(),
            Shape::Array => child(self.root, index.to_string()),
            Shape::Wrapped => child(&child(self.root, "tools"), index.to_string()),
        }
    }
}

/// Finds the tool list in a document and records its shape in `set_extras` (`shape`, a
/// wrapper's other keys under `document`, and a JSON-RPC response around it under `envelope`),
/// so a same-format write gives the document back ([`crate::write::by_shape`]). `is_single`
/// says whether a bare object is one tool; `expected` is the error message.
pub fn tool_list<'a>(
    source: &'a Source,
    is_single: impl Fn(&Map<String, Value>) -> bool,
    expected: &str,
    set_extras: &mut Map<String, Value>,
) -> Result<ToolList<'a>, Diagnostic> {
    let (document, root) = match json_rpc_result(&source.value) {
        Some(result) => {
            let mut envelope = source.value.as_object().cloned().unwrap_or_default();
            // Filled again with the written document.
            envelope.insert("result".into(), Value::Null);
            set_extras.insert("envelope".into(), Value::Object(envelope));
            (result, "/result")
        }
        None => (&source.value, ""),
    };
    let (shape, items) = match document {
        Value::Object(map) if map.get("tools").is_some_and(Value::is_array) => {
            let others = without(map, "tools");
            if !others.is_empty() {
                set_extras.insert("document".into(), Value::Object(others));
            }
            (Shape::Wrapped, map["tools"].as_array().into_iter().flatten().collect())
        }
        Value::Array(items) => (Shape::Array, items.iter().collect()),
        Value::Object(map) if is_single(map) => (Shape::Single, vec![document]),
        Value::Object(map) if map.contains_key("jsonrpc") && map.contains_key("error") => {
            let message = "a JSON-RPC error response holds no tools (its `error` says why the request failed)";
            return Err(source.at(Diagnostic::error(codes::INPUT_INVALID, "/error", message)));
        }
        _ => return Err(source.at(Diagnostic::error(codes::INPUT_INVALID, root, expected))),
    };
    set_extras.insert("shape".into(), shape.as_str().into());
    Ok(ToolList { shape, items, root })
}

/// Reads a document of tools held as [`tool_list`] finds them (`is_single`, `expected` as
/// there): `read_item` reads each item, given its index and path, into the [`Reading`].
pub fn read_tool_list<'s>(
    source: &'s Source,
    format: &str,
    is_single: impl Fn(&Map<String, Value>) -> bool,
    expected: &str,
    mut read_item: impl FnMut(&mut Reading<'s>, &'s Value, usize, String),
) -> Outcome<ToolSet> {
    let mut reading = Reading::new(source);
    let list = match tool_list(source, is_single, expected, &mut reading.set_extras) {
        Ok(list) => list,
        Err(error) => return Outcome::fail(error),
    };
    // Room for every tool at once: grown by doubling, a list of 100,000 holds room for 131,072.
    reading.model.tools.reserve_exact(list.items.len());
    reading.names.reserve(list.items.len());
    for (i, item) in list.items.iter().enumerate() {
        read_item(&mut reading, item, i, list.path(i));
    }
    reading.finish(format)
}

/// A model being read from one source, with what the reader said so far.
#[derive(Debug)]
pub struct Reading<'s> {
    pub source: &'s Source<'s>,
    pub model: ToolSet,
    /// The tool set's extras (the document's shape, …), stored under the format at the end.
    pub set_extras: Map<String, Value>,
    pub diagnostics: Vec<Diagnostic>,
    /// The tool names read so far: a set, not a scan of the tools, so a list of thousands
    /// stays linear.
    names: HashSet<String>,
}

impl<'s> Reading<'s> {
    pub fn new(source: &'s Source) -> Self {
        Reading {
            source,
            model: ToolSet::default(),
            set_extras: Map::new(),
            diagnostics: Vec::new(),
            names: HashSet::new(),
        }
    }

    /// Adds a tool read; a name used before is a warning at `path`: "`what` `<name>` is used
    /// more than once".
    pub fn add(&mut self, tool: Tool, what: &str, path: String) {
        if !self.names.insert(tool.name.clone()) {
            self.diagnostics.push(self.source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                path,
                format!("{what} `{}` is used more than once", tool.name),
            )));
        }
        self.model.tools.push(tool);
    }

    /// The model read: the tool set's extras under `format`, and the named schemas the tool
    /// schemas brought (`$defs`, merged across tools).
    pub fn finish(mut self, format: &str) -> Outcome<ToolSet> {
        self.model.extras.insert(format.into(), Value::Object(self.set_extras));
        self.model.definitions = self.source.take_definitions();
        Outcome::ok(self.model, self.diagnostics)
    }
}

/// `map` without `key`: a wrapper's other keys, kept for a same-format write.
pub fn without(map: &Map<String, Value>, key: &str) -> Map<String, Value> {
    map.iter().filter(|(k, _)| *k != key).map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// `value` as a tool object; else `None`, with the error "a `what` must be an object; skipped".
pub fn tool_object<'v>(
    source: &Source,
    value: &'v Value,
    path: &str,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'v Map<String, Value>> {
    let map = value.as_object();
    if map.is_none() {
        diagnostics.push(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            path,
            format!("a {what} must be an object; skipped"),
        )));
    }
    map
}

/// A tool object's `name`; else `None`, with the error "a `what` needs a string `name`".
pub fn tool_name(
    source: &Source,
    map: &Map<String, Value>,
    path: &str,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let name = string(map, "name");
    if name.is_none() {
        diagnostics.push(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            child(path, "name"),
            format!("a {what} needs a string `name`; skipped"),
        )));
    }
    name
}

/// Warns that `name` (of the object at `path`, called `what`) breaks `format`'s `rules`; the
/// name is read as written all the same.
pub fn check_name(
    source: &Source,
    name: &str,
    rules: NameRules,
    what: &str,
    format: &str,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if !rules.is_valid(name) {
        diagnostics.push(source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            child(path, "name"),
            format!("{what} name `{name}` breaks {format}'s rule {}", rules.pattern),
        )));
    }
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

/// A tool's `strict` flag (OpenAI, Anthropic, Bedrock) into `kept`: a boolean (or, where
/// `null_allowed`, `null`) under its extras for a same-format write and for `crate::carry`;
/// anything else kept as written, with a warning.
pub fn read_strict(
    source: &Source,
    map: &Map<String, Value>,
    path: &str,
    null_allowed: bool,
    kept: &mut Kept,
    diagnostics: &mut Vec<Diagnostic>,
) {
    match map.get("strict") {
        Some(flag @ Value::Bool(_)) => {
            kept.extras.insert("strict".into(), flag.clone());
        }
        Some(Value::Null) if null_allowed => {
            kept.extras.insert("strict".into(), Value::Null);
        }
        Some(other) => {
            diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_INVALID,
                child(path, "strict"),
                "`strict` should be a boolean; kept as written",
            )));
            kept.keep.insert("strict".into(), other.clone());
        }
        None => {}
    }
}

/// What a reader keeps of one tool for a same-format write, stored as the tool's
/// `extras[<format>]` by [`keep_unknown`].
#[derive(Debug, Default)]
pub struct Kept {
    /// How the source spelled the tool (its form, flags) and schemas kept verbatim.
    pub extras: Map<String, Value>,
    /// Keys written back as the source had them (`keep` in the extras,
    /// [`crate::write::give_back_kept`]): unknown keys, and values of the wrong type.
    pub keep: Map<String, Value>,
}

/// The keys a format's reader maps in a tool object, and what it calls the object.
#[derive(Clone, Copy, Debug)]
pub struct ToolKeys<'a> {
    /// The format's id, the key of the tool's extras.
    pub format: &'a str,
    /// The object in diagnostics: `tool`, `function`, `function declaration`.
    pub what: &'a str,
    /// Keys with a place in the model or in the tool's extras.
    pub known: &'a [&'a str],
    /// Keys kept as written without a diagnostic: the format's own settings that only a
    /// same-format write gives back (Anthropic's `cache_control`, Gemini's `behavior`).
    pub quiet: &'a [&'a str],
}

/// The tail of every function-tool reader: each key of `map` (the tool object at `path`) that
/// `keys` neither knows nor keeps quietly is kept as written, with an `input/unknown-key`
/// diagnostic, unless it holds another function format's input schema, which is an error
/// naming that format (`foreign_schema_key`); then what `kept` holds becomes the tool's `extras[<format>]` (`keep` inside it),
/// neither written when empty.
pub fn keep_unknown(
    source: &Source,
    map: &Map<String, Value>,
    keys: &ToolKeys,
    path: &str,
    kept: Kept,
    tool: &mut Tool,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Kept { mut extras, mut keep } = kept;
    for (key, value) in map {
        if keys.quiet.contains(&key.as_str()) {
            keep.insert(key.clone(), value.clone());
        } else if keys.known.contains(&key.as_str()) {
            // The format's reader read it.
        } else if let Some(error) = foreign_schema_key(key, keys, path) {
            diagnostics.push(source.at(error));
        } else {
            diagnostics.push(source.at(Diagnostic::info(
                codes::INPUT_UNKNOWN_KEY,
                child(path, key),
                format!("unknown {} key `{key}`; kept as written", keys.what),
            )));
            keep.insert(key.clone(), value.clone());
        }
    }
    if !keep.is_empty() {
        extras.insert("keep".into(), Value::Object(keep));
    }
    if !extras.is_empty() {
        tool.extras.insert(keys.format.into(), Value::Object(extras));
    }
}

/// The error for a key that holds the input schema in other function formats (Anthropic's
/// `input_schema` read as OpenAI, …): the document is of another format, and keeping its
/// schema as an unknown key would write every tool with no parameters. Names the formats
/// whose key it is, so the user can name the right `--from`; `None` for any other key.
fn foreign_schema_key(key: &str, keys: &ToolKeys, path: &str) -> Option<Diagnostic> {
    let owners: Vec<&str> = crate::carry::INPUT_KEYS
        .iter()
        .filter(|(format, schema_keys)| *format != keys.format && schema_keys.contains(&key))
        .map(|(format, _)| *format)
        .collect();
    if owners.is_empty() {
        return None;
    }
    let froms: Vec<String> = owners.iter().map(|f| format!("--from {f}")).collect();
    Some(Diagnostic::error(
        codes::INPUT_INVALID,
        child(path, key),
        format!(
            "`{key}` holds the input schema of {} tools, not of {} {}s: this document looks like {}; read it with {}",
            owners.join(" and "),
            keys.format,
            keys.what,
            owners.join(" or "),
            froms.join(" or ")
        ),
    ))
}

/// A function-tool format's `Format::read`: its entry file parsed (a located error if it is not
/// JSON), then read by the format's own `document`; schemas are kept as written only toward
/// this format or an unnamed target ([`Source::keeps_as_written`]).
pub fn read_entry(
    input: &Bundle,
    options: &Options,
    format_id: &str,
    document: fn(&Source) -> Outcome<ToolSet>,
) -> Outcome<ToolSet> {
    match Source::parse(input, format_id, options) {
        Ok(source) => {
            let mut outcome = document(&source);
            outcome.diagnostics.splice(0..0, source.tolerated);
            outcome
        }
        Err(error) => Outcome::fail(error),
    }
}
