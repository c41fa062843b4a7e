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

use crate::scalar::{approximated, resolve_plain};

/// Nodes that aliases may copy (anchored values are copied once when defined and once per
/// alias): [`ALIAS_EXPANSION_FACTOR`] times the nodes the document itself has written before
/// the alias (aliases not counted), and at least [`ALIAS_NODE_FLOOR`], so small documents may
/// still reuse an anchor generously. Counting the document's own nodes rather than its bytes
/// means neither comments nor long strings buy expansion, while a real spec that reuses a
/// large anchored schema in every operation reads (its expansion is the schema's size over an
/// operation's own nodes, 10 to 30 in practice). A "billion laughs" document stops at the alias
/// that crosses it, after a few hundred milliseconds at most.
const ALIAS_EXPANSION_FACTOR: usize = 64;
const ALIAS_NODE_FLOOR: usize = 1 << 18;

/// Each document lists at most this many tolerated defects; the rest are counted in one more.
const LISTED: usize = 100;

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

/// A defect the reader tolerated: what it did, the JSON pointer of the value and where it is.
#[derive(Debug)]
pub(crate) struct Tolerated {
    pub message: String,
    pub pointer: String,
    pub line: usize,
    pub column: usize,
}

/// Parses the one document in `text` (an empty stream is `null`), with what it tolerated.
pub(crate) fn parse(text: &str) -> Result<(Value, Vec<Tolerated>), ReadError> {
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
    match parse_events(&text[..end]).map(|(value, _)| value) {
        Err(Failure::Build(e)) if e.message.starts_with(TOO_DEEP) => e,
        _ => ReadError::at(*error.marker(), format!("{TOO_DEEP} {MAX_NESTING} levels")),
    }
}

const TOO_DEEP: &str = "collections nested deeper than";

enum Failure {
    Scan(ScanError),
    Build(ReadError),
}

fn parse_events(text: &str) -> Result<(Value, Vec<Tolerated>), Failure> {
    let mut builder = Builder::new();
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
                let (value, note) = scalar(&text, style, tag.as_deref());
                if let Some(note) = note {
                    builder.tolerate(note, span.start);
                }
                builder.own += 1;
                builder.complete(Node { value, nodes: 1, height: 0 }, anchor, span.start)
            }
            Event::Alias(id) => builder.alias(id, span),
            Event::SequenceStart(anchor, tag) => {
                builder.collection_tag(tag.as_deref(), span.start);
                builder.open(Open::Sequence(Vec::new()), anchor, span)
            }
            Event::MappingStart(anchor, tag) => {
                builder.collection_tag(tag.as_deref(), span.start);
                builder.open(Open::Mapping(Map::new(), None), anchor, span)
            }
            Event::SequenceEnd | Event::MappingEnd => builder.close(),
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => Ok(()),
        };
        built.map_err(Failure::Build)?;
    }
    let mut tolerated = builder.tolerated;
    if builder.unlisted > 0 {
        let message = format!("{} more unknown tags or inexact numbers are not listed", builder.unlisted);
        tolerated.push(Tolerated { message, pointer: String::new(), line: 1, column: 1 });
    }
    Ok((builder.root.unwrap_or(Value::Null), tolerated))
}

/// A scalar's value, and what was tolerated reading it. Quoted and block scalars are strings;
/// plain ones are resolved by the core schema (an integer beyond 64 bits or a number with no
/// JSON form is said). Of tags, the core schema's are applied: `!!str` (and the non-specific
/// `!`) keeps a plain scalar a string, `!!int`, `!!float`, `!!bool` and `!!null` resolve even a
/// quoted one; `!!binary` and `!!timestamp` values are their text. Any other tag is said, and
/// the scalar is read as the text it is.
pub(crate) fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> (Value, Option<String>) {
    let resolve = match tag.map(|tag| (known_tag(tag), tag)) {
        None => style == ScalarStyle::Plain,
        Some((Some("str" | "binary" | "timestamp" | "!"), _)) => false,
        Some((Some("int" | "float" | "bool" | "null"), _)) => true,
        Some((_, tag)) => {
            let note = format!(
                "the tag `{}` is not one toolport knows: it is ignored and the scalar read as the text {text:?}",
                shown(tag)
            );
            return (Value::String(text.to_owned()), Some(note));
        }
    };
    match resolve.then(|| resolve_plain(text)).flatten() {
        Some(value) => {
            let note = approximated(text, &value);
            (value, note)
        }
        None => (Value::String(text.to_owned()), None),
    }
}

/// The core schema's name of a tag (`int` for `!!int`; `!` for the non-specific tag), `None`
/// for a tag of another schema or application (`!custom`, `!!python/object`).
fn known_tag(tag: &Tag) -> Option<&str> {
    const CORE: [&str; 13] =
        ["str", "int", "float", "bool", "null", "binary", "timestamp", "seq", "map", "omap", "set", "pairs", "merge"];
    if tag.handle.is_empty() && tag.suffix == "!" {
        return Some("!");
    }
    (tag.is_yaml_core_schema() && CORE.contains(&tag.suffix.as_str())).then_some(tag.suffix.as_str())
}

/// A tag as it is written: `!!int`, `!local`, `!<tag:example.com,2000:app>`.
fn shown(tag: &Tag) -> String {
    if tag.is_yaml_core_schema() {
        format!("!!{}", tag.suffix)
    } else if tag.handle == "!" {
        format!("!{}", tag.suffix)
    } else {
        format!("!<{}{}>", tag.handle, tag.suffix)
    }
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
    /// Nodes the document has written so far (aliases not counted), and nodes aliases copied.
    own: usize,
    copied: usize,
    root: Option<Value>,
    tolerated: Vec<Tolerated>,
    /// Tolerated defects past [`LISTED`].
    unlisted: usize,
}

impl Builder {
    fn new() -> Self {
        Builder {
            stack: Vec::new(),
            anchors: HashMap::new(),
            own: 0,
            copied: 0,
            root: None,
            tolerated: Vec::new(),
            unlisted: 0,
        }
    }

    /// Notes a defect tolerated at `at`, in the value read next.
    fn tolerate(&mut self, message: String, at: Marker) {
        if self.tolerated.len() >= LISTED {
            self.unlisted += 1;
            return;
        }
        let pointer = self.stack.iter().fold(String::new(), |pointer, frame| match &frame.open {
            Open::Sequence(items) => toolport_core::source::child(&pointer, items.len().to_string()),
            Open::Mapping(_, Some(key)) => toolport_core::source::child(&pointer, key),
            // A key: the mapping is the place.
            Open::Mapping(_, None) => pointer,
        });
        self.tolerated.push(Tolerated { message, pointer, line: at.line(), column: at.col() + 1 });
    }

    /// Says so when a collection's tag is not the core schema's: the collection is read as it is.
    fn collection_tag(&mut self, tag: Option<&Tag>, at: Marker) {
        if let Some(tag) = tag.filter(|tag| known_tag(tag).is_none()) {
            let message = format!(
                "the tag `{}` is not one toolport knows: it is ignored and the collection read as it is",
                shown(tag)
            );
            self.tolerate(message, at);
        }
    }

    fn open(&mut self, open: Open, anchor: usize, span: Span) -> Result<(), ReadError> {
        if self.stack.len() >= MAX_NESTING {
            return Err(ReadError::at(span.start, format!("{TOO_DEEP} {MAX_NESTING} levels")));
        }
        self.stack.push(Frame { open, anchor, start: span.start, nodes: 1, height: 0 });
        self.own += 1;
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
        let budget = self.own.saturating_mul(ALIAS_EXPANSION_FACTOR).max(ALIAS_NODE_FLOOR);
        if self.copied > budget {
            return Err(ReadError::at(
                at,
                format!(
                    "aliases expand to more than {budget} nodes, {ALIAS_EXPANSION_FACTOR} times the {} the document \
                     has written so far (a \"billion laughs\" document?)",
                    self.own
                ),
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
