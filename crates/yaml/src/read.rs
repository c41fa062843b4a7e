//! YAML text to `serde_json::Value`, built from saphyr-parser's events on an explicit stack.
//!
//! The builder never recurses, so depth is checked as collections open, at the node that
//! crosses [`MAX_NESTING`]. Aliases are copies of the anchored value, paid for from a node
//! budget. Anchors may be redefined: saphyr-parser gives every definition its own id and an
//! alias the id of the latest definition of its name, as YAML 1.2 says.

use std::collections::HashMap;

use saphyr_parser::{Event, Marker, Parser, ScalarStyle, ScanError, Span, Tag};
use serde_json::{Map, Value};
use toolport_core::limits::MAX_NESTING;

use crate::scalar::resolve_plain;

/// Nodes that aliases may copy (anchored values are copied once when defined and once per
/// alias): at most one per byte of input, so the expanded document is at most about twice
/// what its text could hold, and at least this floor, so small documents may still reuse an
/// anchor generously. A "billion laughs" document stops at the alias that crosses it, after a
/// few hundred milliseconds at most.
const ALIAS_NODE_FLOOR: usize = 1 << 18;

/// A parse failure: a message and its 1-based line and column (in characters).
#[derive(Debug)]
pub(crate) struct ReadError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl ReadError {
    fn at(marker: Marker, message: impl Into<String>) -> Self {
        ReadError { message: message.into(), line: marker.line(), column: marker.col() + 1 }
    }
}

/// Parses the one document in `text` (an empty stream is `null`).
pub(crate) fn parse(text: &str) -> Result<Value, ReadError> {
    parse_events(text).map_err(|error| match error {
        Failure::Scan(e) if e.info() == SCANNER_FLOW_LIMIT => flow_too_deep(text, &e),
        Failure::Scan(e) => ReadError::at(*e.marker(), e.info()),
        Failure::Build(e) => e,
    })
}

/// saphyr-parser counts flow levels in a `u8` and fails at the 256th with this message. That
/// failure comes before any event of the outermost flow collection (the scanner looks ahead
/// to its end to know whether it is a key), so our builder never saw the 129th level.
const SCANNER_FLOW_LIMIT: &str = "recursion limit exceeded";

/// Locates a flow nesting the scanner refused: the text up to the scanner's position ends
/// inside 255 open collections, so parsing that prefix alone lets the builder report the
/// level that crosses [`MAX_NESTING`] (the cut-off input fails only later, at its end). When
/// the prefix fails first (the collection stands where a block mapping needs a key, which the
/// scanner insists on at the end of input), the error stays at the scanner's position.
fn flow_too_deep(text: &str, error: &ScanError) -> ReadError {
    let end = text.char_indices().nth(error.marker().index()).map_or(text.len(), |(at, _)| at);
    match parse_events(&text[..end]) {
        Err(Failure::Build(e)) if e.message.starts_with(TOO_DEEP) => e,
        _ => ReadError::at(*error.marker(), format!("{TOO_DEEP} {MAX_NESTING} levels")),
    }
}

const TOO_DEEP: &str = "collections nested deeper than";

enum Failure {
    Scan(ScanError),
    Build(ReadError),
}

fn parse_events(text: &str) -> Result<Value, Failure> {
    let mut builder = Builder::new(text.len());
    let mut documents = 0;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(Failure::Scan)?;
        let built = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(Failure::Build(ReadError::at(
                        span.start,
                        "a second document starts here; toolport reads one document per file",
                    )));
                }
                Ok(())
            }
            Event::Scalar(text, style, anchor, tag) => {
                let value = scalar(&text, style, tag.as_deref());
                builder.complete(Node { value, nodes: 1, height: 0 }, anchor, span.start)
            }
            Event::Alias(id) => builder.alias(id, span),
            Event::SequenceStart(anchor, _) => builder.open(Open::Sequence(Vec::new()), anchor, span),
            Event::MappingStart(anchor, _) => builder.open(Open::Mapping(Map::new(), None), anchor, span),
            Event::SequenceEnd | Event::MappingEnd => builder.close(),
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => Ok(()),
        };
        built.map_err(Failure::Build)?;
    }
    Ok(builder.root.unwrap_or(Value::Null))
}

/// A scalar's value. Quoted and block scalars are strings; plain ones are resolved by the core
/// schema. Tags are ignored (the value is kept as written) except the core schema's own:
/// `!!str` keeps a plain scalar a string, `!!int`, `!!float`, `!!bool` and `!!null` resolve
/// even a quoted one.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Value {
    let core = tag.filter(|t| t.is_yaml_core_schema()).map(|t| t.suffix.as_str());
    let resolve = match core {
        Some("str") => false,
        Some("int" | "float" | "bool" | "null") => true,
        _ => style == ScalarStyle::Plain,
    };
    resolve.then(|| resolve_plain(text)).flatten().unwrap_or_else(|| Value::String(text.to_owned()))
}

/// A finished value, with what it cost: `nodes` in it and its `height` (0 for a scalar, one
/// more than its deepest child for a collection).
struct Node {
    value: Value,
    nodes: usize,
    height: usize,
}

enum Open {
    Sequence(Vec<Value>),
    /// The entries so far and, between a key and its value, the key.
    Mapping(Map<String, Value>, Option<String>),
}

struct Frame {
    open: Open,
    anchor: usize,
    start: Marker,
    nodes: usize,
    height: usize,
}

struct Builder {
    stack: Vec<Frame>,
    /// Anchored values by anchor id (ids are never reused; a redefined name gets a new one).
    anchors: HashMap<usize, Node>,
    copied: usize,
    budget: usize,
    root: Option<Value>,
}

impl Builder {
    fn new(text_len: usize) -> Self {
        Builder {
            stack: Vec::new(),
            anchors: HashMap::new(),
            copied: 0,
            budget: text_len.max(ALIAS_NODE_FLOOR),
            root: None,
        }
    }

    fn open(&mut self, open: Open, anchor: usize, span: Span) -> Result<(), ReadError> {
        if self.stack.len() >= MAX_NESTING {
            return Err(ReadError::at(span.start, format!("{TOO_DEEP} {MAX_NESTING} levels")));
        }
        self.stack.push(Frame { open, anchor, start: span.start, nodes: 1, height: 0 });
        Ok(())
    }

    fn close(&mut self) -> Result<(), ReadError> {
        let Some(frame) = self.stack.pop() else { return Ok(()) };
        let value = match frame.open {
            Open::Sequence(mut items) => {
                // Nested one-item sequences would otherwise hold room for four values each.
                items.shrink_to_fit();
                Value::Array(items)
            }
            Open::Mapping(map, _) => Value::Object(map),
        };
        self.complete(Node { value, nodes: frame.nodes, height: frame.height + 1 }, frame.anchor, frame.start)
    }

    fn alias(&mut self, id: usize, span: Span) -> Result<(), ReadError> {
        let Some(anchored) = self.anchors.get(&id) else {
            return Err(ReadError::at(span.start, "an alias refers to a node that contains it"));
        };
        if self.stack.len() + anchored.height > MAX_NESTING {
            return Err(ReadError::at(
                span.start,
                format!("{TOO_DEEP} {MAX_NESTING} levels once this alias is expanded"),
            ));
        }
        let node = Node { value: anchored.value.clone(), nodes: anchored.nodes, height: anchored.height };
        self.spend(node.nodes, span.start)?;
        self.complete(node, 0, span.start)
    }

    fn spend(&mut self, nodes: usize, at: Marker) -> Result<(), ReadError> {
        self.copied = self.copied.saturating_add(nodes);
        if self.copied > self.budget {
            return Err(ReadError::at(
                at,
                format!("aliases expand to more than {} nodes (a \"billion laughs\" document?)", self.budget),
            ));
        }
        Ok(())
    }

    /// Puts a finished node where it belongs: the root, the next item, a key or a value.
    fn complete(&mut self, node: Node, anchor: usize, start: Marker) -> Result<(), ReadError> {
        if anchor != 0 {
            self.spend(node.nodes, start)?;
            self.anchors.insert(anchor, Node { value: node.value.clone(), nodes: node.nodes, height: node.height });
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(node.value);
            return Ok(());
        };
        frame.nodes += node.nodes;
        frame.height = frame.height.max(node.height);
        match &mut frame.open {
            Open::Sequence(items) => items.push(node.value),
            Open::Mapping(map, pending @ None) => {
                let key = match node.value {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                if map.contains_key(&key) {
                    return Err(ReadError::at(start, format!("duplicate key {key:?}")));
                }
                *pending = Some(key);
            }
            Open::Mapping(map, pending) => {
                if let Some(key) = pending.take() {
                    map.insert(key, node.value);
                }
            }
        }
        Ok(())
    }
}
