//! Pretty JSON exactly as serde_json's `to_string_pretty` prints it (two-space indent, `": "`
//! between key and value, `[]` and `{}` when empty), of a [`Written`] document whose parts may
//! have been printed already ([`Printed`]): a writer prints each tool as soon as it is made and
//! drops its tree, so a large list never holds every tool's `Value` tree at once (for the
//! Stripe spec to mcp that tree was 16 MB, more than the output's text).

use serde_json::{Map, Value};

use super::{Written, in_shape, tool_depth, written_shape};
use crate::common::Shape;

/// A part printed already, as it reads at nesting `depth` (the document itself is 0): its
/// inner lines carry that depth's indent, so it is copied as it is when it lands there.
#[derive(Clone, Debug, PartialEq)]
pub struct Printed {
    depth: usize,
    text: String,
}

impl Printed {
    /// `part` printed at `depth`, where the document will hold it.
    pub fn new(part: &Written, depth: usize) -> Self {
        let mut text = Vec::new();
        written(part, depth, &mut text);
        // Only JSON text and escaped strings were written.
        let text = String::from_utf8(text).unwrap_or_default();
        Printed { depth, text }
    }

    /// The part as a value again, to serialize it through serde (a document is printed by
    /// this module, not through serde): it was printed from one, so it reads back.
    pub fn value(&self) -> serde_json::Result<Value> {
        serde_json::from_str(&self.text)
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    pub fn into_text(self) -> String {
        self.text
    }
}

/// Marks where the tools go in a printed frame: printed JSON never holds a NUL (a string
/// escapes it).
const PLACE: &str = "\0";

/// A tool document ([`by_shape`](super::by_shape)'s) printed as each tool is made, into its
/// one text: the frame of the shape (and envelope) first, up to where the tools go, then each
/// tool as it is pushed, then the rest of the frame. No tool's tree is kept, no tool's text is
/// held apart, and the text is not copied again to make the document.
#[derive(Debug)]
pub struct ToolsPrinter {
    text: Vec<u8>,
    /// The frame after the tools.
    end: String,
    depth: usize,
    pushed: usize,
    /// Whether the frame has a place for the tools (a source's own top-level key of the
    /// tools' name takes it, as in [`wrapped`](super::wrapped)).
    placed: bool,
}

impl ToolsPrinter {
    /// For `count` tools in the shape [`by_shape`](super::by_shape) writes them in.
    pub fn new(count: usize, set_extras: &Map<String, Value>, default: Shape, key: &str) -> Self {
        let shape = written_shape(count, set_extras, default);
        let depth = tool_depth(count, set_extras, default);
        let place = Written::Printed(Printed { depth, text: PLACE.to_owned() });
        let tools = if count == 0 { Vec::new() } else { vec![place] };
        let frame = document(&in_shape(tools, shape, set_extras, key));
        match frame.find(PLACE) {
            Some(at) => {
                let text = frame.as_bytes()[..at].to_vec();
                ToolsPrinter { text, end: frame[at + PLACE.len()..].to_owned(), depth, pushed: 0, placed: true }
            }
            None => ToolsPrinter { text: frame.into_bytes(), end: String::new(), depth, pushed: 0, placed: false },
        }
    }

    /// The nesting each tool is printed at.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Prints `tool` after the tools before it.
    pub fn push(&mut self, tool: &Written) {
        if !self.placed {
            return;
        }
        if self.pushed > 0 {
            self.text.extend_from_slice(b",\n");
            indent(self.depth, &mut self.text);
        }
        written(tool, self.depth, &mut self.text);
        self.pushed += 1;
    }

    /// The document, printed (at depth 0).
    pub fn finish(mut self) -> Written<'static> {
        self.text.reserve_exact(self.end.len() + 1);
        self.text.extend_from_slice(self.end.as_bytes());
        // Only JSON text and escaped strings were written.
        let text = String::from_utf8(self.text).unwrap_or_default();
        Written::Printed(Printed { depth: 0, text })
    }
}

/// `document` as pretty JSON.
pub fn document(document: &Written) -> String {
    let mut out = Vec::with_capacity(4096);
    written(document, 0, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

fn written(part: &Written, depth: usize, out: &mut Vec<u8>) {
    match part {
        Written::Value(value) => self::value(value, depth, out),
        Written::Text(text) => json_string(text, out),
        Written::Object(members) => {
            object(members.iter().map(|(key, member)| (key.as_str(), member)), depth, out, written)
        }
        Written::Array(items) => array(items.iter(), depth, out, written),
        Written::Printed(printed) if printed.depth == depth => out.extend_from_slice(printed.text.as_bytes()),
        Written::Printed(printed) => reindented(printed, depth, out),
    }
}

/// `printed` as it reads at `depth`: each line after its first starts with its depth's indent
/// at least (a string holds no line break, escaped), which becomes `depth`'s.
fn reindented(printed: &Printed, depth: usize, out: &mut Vec<u8>) {
    let mut lines = printed.text.split('\n');
    out.extend_from_slice(lines.next().unwrap_or_default().as_bytes());
    let own = "  ".repeat(printed.depth);
    for line in lines {
        out.push(b'\n');
        indent(depth, out);
        out.extend_from_slice(line.strip_prefix(own.as_str()).unwrap_or(line).as_bytes());
    }
}

fn value(value: &Value, depth: usize, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        // serde_json's own text of a number, so each reads as it did.
        Value::Number(number) => {
            let _ = serde_json::to_writer(&mut *out, number);
        }
        Value::String(text) => json_string(text, out),
        Value::Array(items) => array(items.iter(), depth, out, self::value),
        Value::Object(members) => {
            object(members.iter().map(|(key, member)| (key.as_str(), member)), depth, out, self::value)
        }
    }
}

/// `text` as a JSON string, exactly as serde_json writes it. A short text with nothing to
/// escape (most names, types and keys) is copied whole; a long text whose only control
/// character is the line feed (a description, a YAML document) is copied line by line,
/// escaping `\n`, `"` and `\` where memchr finds them, instead of looked at byte by byte;
/// any other text is escaped by serde_json.
pub fn json_string(text: &str, out: &mut Vec<u8>) {
    /// Shorter texts (names, types, keys) are copied whole when nothing in them needs escaping.
    const LONG: usize = 64;
    if text.len() < LONG {
        let bytes = text.as_bytes();
        if bytes.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\') {
            out.reserve(bytes.len() + 2);
            out.push(b'"');
            out.extend_from_slice(bytes);
            out.push(b'"');
            return;
        }
    }
    // In blocks without an early exit, so that the check runs on whole vectors.
    let plain = text.len() >= LONG
        && !text
            .as_bytes()
            .chunks(256)
            .any(|block| block.iter().fold(false, |found, &b| found | (b < 0x20 && b != b'\n')));
    if !plain {
        // Writing a str to a Vec cannot fail; serde_json escapes it.
        let _ = serde_json::to_writer(&mut *out, text);
        return;
    }
    out.reserve(text.len() + 2);
    out.push(b'"');
    let mut rest = text.as_bytes();
    while let Some(i) = memchr::memchr3(b'\n', b'"', b'\\', rest) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(match rest[i] {
            b'\n' => b"\\n",
            b'"' => b"\\\"",
            _ => b"\\\\",
        });
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

fn indent(depth: usize, out: &mut Vec<u8>) {
    for _ in 0..depth {
        out.extend_from_slice(b"  ");
    }
}

fn array<'a, T: 'a>(
    items: impl ExactSizeIterator<Item = &'a T>,
    depth: usize,
    out: &mut Vec<u8>,
    item: fn(&T, usize, &mut Vec<u8>),
) {
    container(b"[]", items, depth, out, item);
}

fn object<'a, T: 'a>(
    members: impl ExactSizeIterator<Item = (&'a str, &'a T)>,
    depth: usize,
    out: &mut Vec<u8>,
    member: fn(&T, usize, &mut Vec<u8>),
) {
    container(b"{}", members, depth, out, |(key, each), depth, out| {
        json_string(key, out);
        out.extend_from_slice(b": ");
        member(each, depth, out);
    });
}

/// An array or object (`brackets`): empty as `[]`/`{}`, else each entry on its own line one
/// level deeper, the closing bracket on a line of its own.
fn container<E>(
    brackets: &[u8; 2],
    entries: impl ExactSizeIterator<Item = E>,
    depth: usize,
    out: &mut Vec<u8>,
    entry: impl Fn(E, usize, &mut Vec<u8>),
) {
    if entries.len() == 0 {
        out.extend_from_slice(brackets);
        return;
    }
    out.push(brackets[0]);
    for (i, each) in entries.enumerate() {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        indent(depth + 1, out);
        entry(each, depth + 1, out);
    }
    out.push(b'\n');
    indent(depth, out);
    out.push(brackets[1]);
}
