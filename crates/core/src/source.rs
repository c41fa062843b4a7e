//! Helpers for reading source text: positions, JSON parsing with file:line:column errors,
//! and JSON pointers. Shared by every reader so errors look the same everywhere.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;

use serde_json::Value;

use crate::{Diagnostic, codes};

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line as u32, column as u32)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A parsed document and what its parser tolerated: located `input/tolerated` warnings (a
/// repeated key, an integer read as the nearest float), which a reader adds to its diagnostics.
#[derive(Debug)]
pub struct Parsed {
    pub value: Value,
    pub tolerated: Vec<Diagnostic>,
}

/// Parses JSON, turning a syntax error into a diagnostic with the file, line and column.
/// What JSON parsers accept without a word is said in [`Parsed::tolerated`], each at its line
/// and column: a key repeated in one object (the later value is used), and an integer too
/// large for 64 bits (read as the nearest float). Numbers beyond a float's range are errors.
pub fn parse_json(file: &str, text: &str) -> Result<Parsed, Diagnostic> {
    let mut suspicious = false;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = serde::de::DeserializeSeed::deserialize(Watch { suspicious: &mut suspicious }, &mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|e| json_error(file, &e))?;
    // Finding where requires a second pass: only over the rare document that needs it.
    let tolerated = if suspicious { tolerated::find(file, text) } else { Vec::new() };
    Ok(Parsed { value, tolerated })
}

/// Builds a [`Value`] as serde_json does, noting whether the text may hold what
/// [`tolerated::find`] reports: a key repeated in an object, or a float as large as an
/// integer beyond 64 bits becomes.
struct Watch<'s> {
    suspicious: &'s mut bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for Watch<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Watch<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // Integers beyond u64 and i64 arrive here, rounded.
        if v.abs() >= 9.2e18 && v.fract() == 0.0 {
            *self.suspicious = true;
        }
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(Watch { suspicious: &mut *self.suspicious })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Watch { suspicious: &mut *self.suspicious })?;
            if members.insert(key, value).is_some() {
                *self.suspicious = true;
            }
        }
        Ok(Value::Object(members))
    }
}

/// Where a JSON text holds what parsers accept silently, found by one pass over a text that
/// parsed (so strict JSON): an explicit stack, no recursion.
mod tolerated {
    use std::collections::HashMap;

    use super::{Locator, child, scalar_end, scan_string, skip_space};
    use crate::{Diagnostic, codes};

    /// Each kind past this many is counted in one last warning, not listed: a hostile document
    /// of a million repeated keys gives a hundred lines.
    const LISTED: usize = 100;

    enum Open {
        /// Its pointer, where each key was first seen, and the key of the member being read.
        Object {
            pointer: String,
            keys: HashMap<String, usize>,
            key: Option<String>,
        },
        Array {
            pointer: String,
            index: usize,
        },
    }

    impl Open {
        /// The pointer of the value read next in this container, and moves past it.
        fn next(&mut self) -> String {
            match self {
                Open::Object { pointer, key, .. } => child(pointer, key.take().unwrap_or_default()),
                Open::Array { pointer, index } => {
                    *index += 1;
                    child(pointer, (*index - 1).to_string())
                }
            }
        }
    }

    /// The pointer of the value that starts next, in the innermost open container.
    fn next(stack: &mut [Open]) -> String {
        stack.last_mut().map_or_else(String::new, Open::next)
    }

    pub(super) fn find(file: &str, text: &str) -> Vec<Diagnostic> {
        let bytes = text.as_bytes();
        let at = Locator::new(text);
        let mut found = Vec::new();
        let mut unlisted = 0usize;
        let mut report = |diagnostic: Diagnostic, offset: usize| {
            if found.len() < LISTED {
                let (line, column) = at.line_column(offset);
                found.push(diagnostic.at(file, line, column));
            } else {
                unlisted += 1;
            }
        };
        let mut stack: Vec<Open> = Vec::new();
        let mut i = skip_space(bytes, 0);
        while i < bytes.len() {
            match bytes[i] {
                b'{' => {
                    let pointer = next(&mut stack);
                    stack.push(Open::Object { pointer, keys: HashMap::new(), key: None });
                    i += 1;
                }
                b'[' => {
                    let pointer = next(&mut stack);
                    stack.push(Open::Array { pointer, index: 0 });
                    i += 1;
                }
                b'}' | b']' => {
                    stack.pop();
                    i += 1;
                }
                b',' | b':' => i += 1,
                b'"' => {
                    let Some((string, end)) = scan_string(text, i) else { break };
                    if let Some(Open::Object { pointer, keys, key: key @ None }) = stack.last_mut() {
                        if let Some(&first) = keys.get(&string) {
                            let (line, column) = at.line_column(first);
                            let message = format!(
                                "the key `{string}` appears again in this object (first at line {line}, column \
                                 {column}): this later value is used, the earlier one is ignored"
                            );
                            report(Diagnostic::warning(codes::INPUT_TOLERATED, child(pointer, &string), message), i);
                        } else {
                            keys.insert(string.clone(), i);
                        }
                        *key = Some(string);
                    } else {
                        next(&mut stack);
                    }
                    i = end;
                }
                _ => {
                    let end = scalar_end(text, i).unwrap_or(bytes.len()).max(i + 1);
                    let pointer = next(&mut stack);
                    let literal = &text[i..end];
                    if let Some(message) = rounded_integer(literal) {
                        report(Diagnostic::warning(codes::INPUT_TOLERATED, pointer, message), i);
                    }
                    i = end;
                }
            }
            i = skip_space(bytes, i);
        }
        if unlisted > 0 {
            found.push(Diagnostic::warning(
                codes::INPUT_TOLERATED,
                "",
                format!("{unlisted} more repeated keys or rounded integers in {file} are not listed"),
            ));
        }
        found
    }

    /// What became of an integer literal beyond 64 bits; `None` for any other literal.
    fn rounded_integer(literal: &str) -> Option<String> {
        let digits = literal.strip_prefix('-').unwrap_or(literal);
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || literal.parse::<i64>().is_ok()
            || literal.parse::<u64>().is_ok()
        {
            return None;
        }
        let nearest = literal.parse::<f64>().ok()?;
        Some(format!(
            "the integer {literal} does not fit in 64 bits: it is read as the nearest float, {}",
            serde_json::Value::from(nearest)
        ))
    }
}

/// A serde_json error as a diagnostic at its position in `file`.
pub fn json_error(file: &str, error: &serde_json::Error) -> Diagnostic {
    let message = strip_position(&error.to_string());
    let diagnostic = Diagnostic::error(codes::INPUT_SYNTAX, "", format!("invalid JSON: {message}"));
    if error.line() == 0 { diagnostic } else { diagnostic.at(file, error.line() as u32, error.column() as u32) }
}

/// serde's messages end in " at line L column C"; the span already says it.
pub fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// Escapes one JSON-pointer segment (RFC 6901).
pub fn escape_pointer_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    push_segment(&mut out, segment);
    out
}

/// Appends `segment` escaped (RFC 6901) to `out`, without a temporary string.
pub fn push_segment(out: &mut String, segment: &str) {
    if !segment.contains(['~', '/']) {
        out.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Builds a JSON pointer from segments: `pointer(["tools", "0", "name"])` → `/tools/0/name`.
pub fn pointer<I, S>(segments: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    segments.into_iter().fold(String::new(), |mut out, s| {
        out.push('/');
        push_segment(&mut out, s.as_ref());
        out
    })
}

/// Extends a JSON pointer by one segment.
pub fn child(parent: &str, segment: impl AsRef<str>) -> String {
    let segment = segment.as_ref();
    let mut out = String::with_capacity(parent.len() + 1 + segment.len());
    out.push_str(parent);
    out.push('/');
    push_segment(&mut out, segment);
    out
}

/// Line and column of the value at `pointer` in a JSON `text`; `None` when it cannot be
/// located (callers then report the pointer alone). This scans the whole text: for more than
/// one lookup in the same text, build one [`Locator`].
pub fn locate_json_pointer(text: &str, pointer: &str) -> Option<(u32, u32)> {
    Locator::new(text).locate(pointer)
}

/// Positions in one source text, for as many diagnostics as it has: built once per file, each
/// lookup then takes logarithmic time. The line index is built by the first position asked
/// for, the JSON-pointer index by the first pointer; both in one pass over the text.
#[derive(Debug)]
pub struct Locator<'t> {
    text: Cow<'t, str>,
    lines: OnceCell<Lines>,
    pointers: OnceCell<Pointers>,
}

impl<'t> Locator<'t> {
    /// A locator over `text`, borrowed or owned.
    pub fn new(text: impl Into<Cow<'t, str>>) -> Locator<'t> {
        Locator { text: text.into(), lines: OnceCell::new(), pointers: OnceCell::new() }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based line and column (in characters) of a byte offset, as [`line_column`].
    pub fn line_column(&self, offset: usize) -> (u32, u32) {
        let text: &str = &self.text;
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let (line, line_start) = self.line_of(offset);
        let lines = self.lines();
        let column = lines.chars_before(text, offset) - lines.chars_before(text, line_start) + 1;
        (line as u32, column as u32)
    }

    /// Byte offset where the line holding `offset` starts.
    pub fn line_start(&self, offset: usize) -> usize {
        self.line_of(offset.min(self.text.len())).1
    }

    /// The 1-based line of `offset` and the offset it starts at.
    fn line_of(&self, offset: usize) -> (usize, usize) {
        let starts = &self.lines().starts;
        let line = starts.partition_point(|&start| start <= offset);
        (line, starts[line - 1])
    }

    fn lines(&self) -> &Lines {
        self.lines.get_or_init(|| Lines::new(&self.text))
    }

    /// Byte offset of the value at `pointer` in the JSON text: keys and array indices are
    /// followed; of repeated keys the last wins, as in the value parsers make. The scan tolerates what lenient readers
    /// accept (comments, trailing and missing commas); past anything else nothing is indexed.
    pub fn offset(&self, pointer: &str) -> Option<usize> {
        let pointers = self.pointers.get_or_init(|| Pointers::new(&self.text));
        let mut node = 0u32;
        for raw in pointer.split('/').skip(1) {
            node = match pointers.nodes[node as usize].kind {
                Kind::Object => {
                    let key: Box<str> =
                        if raw.contains('~') { raw.replace("~1", "/").replace("~0", "~").into() } else { raw.into() };
                    *pointers.members.get(&(node, key))?
                }
                Kind::Array => *pointers.elements.get(&(node, raw.parse().ok()?))?,
                Kind::Scalar => return None,
            };
        }
        Some(pointers.nodes[node as usize].offset)
    }

    /// Line and column of the value at `pointer` (see [`Locator::offset`]).
    pub fn locate(&self, pointer: &str) -> Option<(u32, u32)> {
        self.offset(pointer).map(|offset| self.line_column(offset))
    }
}

/// Where lines start, and how many characters precede each block of [`BLOCK`] bytes, so a
/// column is counted over less than one block.
#[derive(Debug)]
struct Lines {
    starts: Vec<usize>,
    blocks: Vec<usize>,
}

const BLOCK: usize = 64;

impl Lines {
    fn new(text: &str) -> Lines {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut blocks = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut chars = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if i % BLOCK == 0 {
                blocks.push(chars);
            }
            if b == b'\n' {
                starts.push(i + 1);
            }
            chars += usize::from(is_char_start(b));
        }
        blocks.push(chars);
        Lines { starts, blocks }
    }

    /// Characters in `text[..offset]`.
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let block = offset / BLOCK;
        let from = block * BLOCK;
        self.blocks[block] + text.as_bytes()[from..offset].iter().filter(|&&b| is_char_start(b)).count()
    }
}

fn is_char_start(byte: u8) -> bool {
    byte & 0xC0 != 0x80
}

/// Every value of a JSON text: where it starts, and how to reach it from its container.
#[derive(Debug)]
struct Pointers {
    nodes: Vec<Node>,
    /// (object node, key) → member node.
    members: HashMap<(u32, Box<str>), u32>,
    /// (array node, index) → element node.
    elements: HashMap<(u32, usize), u32>,
}

#[derive(Debug)]
struct Node {
    offset: usize,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    Scalar,
}

/// An open container while indexing: its node, and the key or next index of its next member.
struct Open {
    node: u32,
    key: Option<Box<str>>,
    index: usize,
}

impl Pointers {
    /// One pass over `text`, with an explicit stack (no recursion, whatever the depth).
    fn new(text: &str) -> Pointers {
        let bytes = text.as_bytes();
        let root = skip_space(bytes, 0);
        let mut pointers = Pointers {
            nodes: vec![Node { offset: root, kind: kind_at(bytes, root) }],
            members: HashMap::new(),
            elements: HashMap::new(),
        };
        if pointers.nodes[0].kind == Kind::Scalar {
            return pointers;
        }
        let mut stack = vec![Open { node: 0, key: None, index: 0 }];
        let mut i = root + 1;
        while let Some(open) = stack.last_mut() {
            i = skip_space(bytes, i);
            let Some(&c) = bytes.get(i) else { break };
            let object = pointers.nodes[open.node as usize].kind == Kind::Object;
            match c {
                b',' => i += 1,
                b'}' | b']' if open.key.is_none() && (c == b'}') == object => {
                    stack.pop();
                    i += 1;
                }
                b'"' if object && open.key.is_none() => {
                    let Some((key, end)) = scan_string(text, i) else { break };
                    let colon = skip_space(bytes, end);
                    if bytes.get(colon) != Some(&b':') {
                        break;
                    }
                    open.key = Some(key.into());
                    i = colon + 1;
                }
                b'}' | b']' | b':' => break,
                _ if object && open.key.is_none() => break,
                _ => {
                    let id = pointers.nodes.len() as u32;
                    let kind = kind_at(bytes, i);
                    pointers.nodes.push(Node { offset: i, kind });
                    match open.key.take() {
                        Some(key) => {
                            pointers.members.insert((open.node, key), id);
                        }
                        None => {
                            pointers.elements.insert((open.node, open.index), id);
                            open.index += 1;
                        }
                    }
                    if kind == Kind::Scalar {
                        let Some(end) = scalar_end(text, i) else { break };
                        i = end;
                    } else {
                        stack.push(Open { node: id, key: None, index: 0 });
                        i += 1;
                    }
                }
            }
        }
        pointers
    }
}

fn kind_at(bytes: &[u8], i: usize) -> Kind {
    match bytes.get(i) {
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        _ => Kind::Scalar,
    }
}

/// Skips whitespace and `//` and `/* */` comments (which JSON5 and lenient readers accept).
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b'/'), Some(b'/')) => {
                i = bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |at| i + at);
            }
            (Some(b'/'), Some(b'*')) => {
                i = bytes[i + 2..].windows(2).position(|w| w == b"*/").map_or(bytes.len(), |at| i + 2 + at + 2);
            }
            _ => return i,
        }
    }
}

/// Scans a JSON string starting at its opening quote; returns its decoded text and the offset after it.
fn scan_string(text: &str, start: usize) -> Option<(String, usize)> {
    let end = string_end(text.as_bytes(), start)?;
    let raw = &text[start + 1..end - 1];
    let decoded = if raw.contains('\\') { serde_json::from_str(&text[start..end]).ok()? } else { raw.to_owned() };
    Some((decoded, end))
}

/// The keys of a JSON text's top-level object, in one linear pass that skips nested values
/// without building them (for detection: a format can rule a multi-megabyte document out by its
/// first-level keys before parsing it). `None` when the text is not an object or is cut short
/// inside the top level; escaped keys are returned as written.
pub fn top_level_keys(text: &str) -> Option<Vec<&str>> {
    Some(top_level_members(text)?.into_iter().map(|member| member.key).collect())
}

/// A member of a JSON text's top-level object, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopLevelMember<'a> {
    /// The key between its quotes, escapes kept.
    pub key: &'a str,
    /// The value's text, without the space and the comma around it (of a malformed text, what
    /// lies between the key's colon and the next key).
    pub value: &'a str,
}

/// The members of a JSON text's top-level object, by the linear pass of [`top_level_keys`].
pub fn top_level_members(text: &str) -> Option<Vec<TopLevelMember<'_>>> {
    let bytes = text.as_bytes();
    let mut i = skip_space(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let mut members = Vec::new();
    // The member whose value is being passed: its key and where its value starts.
    let mut open: Option<(&str, usize)> = None;
    let value_until = |start: usize, end: usize| {
        let value = text[start..end.max(start)].trim_end();
        value.strip_suffix(',').unwrap_or(value).trim_end()
    };
    // Objects open inside the top level. Arrays need no count: in JSON a string followed by a
    // colon is a key, and a key belongs to the innermost object. So only quotes and braces
    // matter, and the bytes between them (a pretty document's indentation, numbers, commas,
    // brackets) are skipped a vector at a time.
    let mut depth = 0usize;
    while let Some(found) = memchr::memchr3(b'"', b'{', b'}', &bytes[i..]) {
        i += found;
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                // A key is a string at depth 0 followed by a colon.
                let colon = skip_space(bytes, end);
                if depth == 0 && bytes.get(colon) == Some(&b':') {
                    if let Some((key, start)) = open.take() {
                        members.push(TopLevelMember { key, value: value_until(start, i) });
                    }
                    open = Some((&text[i + 1..end - 1], skip_space(bytes, colon + 1)));
                }
                i = end;
            }
            b'{' => {
                depth += 1;
                i += 1;
            }
            _ if depth == 0 => {
                if let Some((key, start)) = open {
                    members.push(TopLevelMember { key, value: value_until(start, i) });
                }
                return Some(members);
            }
            _ => {
                depth -= 1;
                i += 1;
            }
        }
    }
    None
}

/// Offset of the first `[` or `{` of a JSON text nested deeper than `limit`; `None` when none
/// is. One pass, strings skipped, for text that may be too deep for a recursive decoder.
pub fn json_deeper_than(bytes: &[u8], limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = string_end(bytes, i)?;
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Offset just after the JSON string starting at `start` (its opening quote); `None` when it
/// is not closed.
pub fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    // Strings are most of a document's bytes: jump between quotes and escapes.
    while let Some(found) = memchr::memchr2(b'"', b'\\', bytes.get(i..)?) {
        i += found;
        if bytes[i] == b'"' {
            return Some(i + 1);
        }
        i += 2;
    }
    None
}

/// Offset just after the scalar starting at `start`: a string, or a literal up to a
/// delimiter or whitespace.
fn scalar_end(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes[start] == b'"' {
        return string_end(bytes, start);
    }
    let mut i = start;
    while i < bytes.len() && !matches!(bytes[i], b',' | b'}' | b']' | b'"') && !bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_segments_are_escaped() {
        assert_eq!(child("/paths", "/pets/{id}"), "/paths/~1pets~1{id}");
        assert_eq!(child("", "a~b"), "/a~0b");
        assert_eq!(child("/x", "plain"), "/x/plain");
        assert_eq!(pointer(["a/b", "~", "0"]), "/a~1b/~0/0");
        assert_eq!(escape_pointer_segment("~/"), "~0~1");
    }

    #[test]
    fn top_level_keys_skip_nested_values() {
        let text = r#" {"a": {"b": [1, {"c": "}"}]}, "d\"e": "x", "f": [], "g": {"tools": 1}} "#;
        assert_eq!(top_level_keys(text), Some(vec!["a", r#"d\"e"#, "f", "g"]));
        assert_eq!(top_level_keys("[1, 2]"), None);
        assert_eq!(top_level_keys(r#"{"a": [1, 2"#), None);
        assert_eq!(top_level_keys("{}"), Some(vec![]));
        // Strings in arrays are never keys, however the arrays nest; a colon in a string is text.
        let arrays = r#"{"a": [["x", "y:"], [{"k": "v"}, "z"]], "b:c": [] ,"d"  :  null}"#;
        assert_eq!(top_level_keys(arrays), Some(vec!["a", "b:c", "d"]));
        // A pretty document's indentation between keys.
        assert_eq!(top_level_keys("{\n    \"a\": 1,\n\n        \"b\": {\n  }\n}"), Some(vec!["a", "b"]));
    }

    /// Every cut of a text with multi-byte characters, escapes, comments and nesting, and every
    /// one with a character replaced by a quote or a brace, is answered without a panic, and a
    /// whole member list only for a text whose top level closes.
    #[test]
    fn top_level_members_take_any_text() {
        let text = "{ \"é🙂\": {\"a\": [\"}\", \"\\\"\"]}, /* c */ \"b\": \"x\\u00e9🙂\" // d\n, \"c\": -1 }";
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for &(at, _) in &chars {
            let cut = &text[..at];
            assert!(top_level_members(cut).is_none_or(|_| cut.trim_end().ends_with('}')), "{cut:?}");
            for replacement in ['"', '{', '}', ':', '\\'] {
                let mut changed = text.to_owned();
                let width = text[at..].chars().next().map_or(0, char::len_utf8);
                changed.replace_range(at..at + width, &replacement.to_string());
                let _ = top_level_members(&changed);
            }
        }
        assert_eq!(top_level_members(text).map(|m| m.len()), Some(3));
    }

    #[test]
    fn top_level_members_hold_their_values_as_written() {
        let members = |text| top_level_members(text).map(|m| m.iter().map(|m| (m.key, m.value)).collect::<Vec<_>>());
        let text = "{\"a\": {\"b\": [1, {\"c\": \"}\"}]} , \"d\\\"e\":\"x, y\",\n  \"f\": [] ,\"g\" : -1.5e3\n}";
        assert_eq!(
            members(text),
            Some(vec![("a", r#"{"b": [1, {"c": "}"}]}"#), (r#"d\"e"#, r#""x, y""#), ("f", "[]"), ("g", "-1.5e3")])
        );
        assert_eq!(members("{}"), Some(vec![]));
        assert_eq!(members(r#"{"a": 1"#), None);
        assert_eq!(members("[{\"a\": 1}]"), None);
    }

    /// The value at `pointer` in `text` is at `expect`, by one lookup and by a shared locator.
    fn check(text: &str, pointer: &str, expect: Option<(u32, u32)>) {
        assert_eq!(locate_json_pointer(text, pointer), expect, "pointer {pointer}");
        let locator = Locator::new(text);
        assert_eq!(locator.locate(pointer), expect, "pointer {pointer}");
        assert_eq!(locator.locate(pointer), expect, "pointer {pointer}, again");
    }

    #[test]
    fn locates_pointers() {
        let text = "{\n  \"a\": 1,\n  \"b/c\": {\"x\": [10, {\"y\": \"é\"}]}\n}";
        check(text, "", Some((1, 1)));
        check(text, "/a", Some((2, 8)));
        check(text, "/b~1c/x/1/y", Some((3, 27)));
        check(text, "/b~1c/x/2", None);
        check(text, "/missing", None);
        check(text, "/a/0", None);
        check(text, "/b~1c/x/first", None);
    }

    #[test]
    fn locates_in_what_lenient_readers_accept() {
        // Escaped keys, repeated keys (the last wins), a key holding a slash and a tilde.
        let text = "{\"k\\u0065y\": 1, \"d\": [1], \"d\": [2, 3], \"~/\": true}";
        check(text, "/key", Some((1, 14)));
        check(text, "/d/0", Some((1, 33)));
        check(text, "/d/1", Some((1, 36)));
        check(text, "/~0~1", Some((1, 46)));
        // Comments, trailing commas and a missing comma at a line break.
        let text = "{\n  // note\n  \"a\": [1, 2,],\n  /* b */ \"b\": {\"c\": [{}\n{\"d\": 4}]}\n  \"e\": null,\n}";
        check(text, "/a/1", Some((3, 12)));
        check(text, "/b/c/1/d", Some((5, 7)));
        check(text, "/e", Some((6, 8)));
        // Past a defect it cannot read, nothing more is indexed; what came before still is.
        let text = "{\"a\": 1, b: 2, \"c\": 3}";
        check(text, "/a", Some((1, 7)));
        check(text, "/c", None);
        check("", "", Some((1, 1)));
        check("  7", "", Some((1, 3)));
        check("[1, 2", "/1", Some((1, 5)));
    }

    #[test]
    fn deep_documents_are_indexed_without_recursion() {
        let depth = 200_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let pointer = "/0".repeat(depth - 1);
        check(&text, &pointer, Some((1, depth as u32)));
    }

    #[test]
    fn locator_positions_agree_with_line_column() {
        let text = "aé\r\n\n\t€x\nlast line with ünïcödé ".repeat(40);
        let locator = Locator::new(text.as_str());
        for offset in 0..=text.len() + 2 {
            assert_eq!(locator.line_column(offset), line_column(&text, offset), "offset {offset}");
            let start =
                text.as_bytes()[..offset.min(text.len())].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            assert_eq!(locator.line_start(offset), start, "offset {offset}");
        }
    }

    #[test]
    fn json_errors_carry_positions() {
        let error = parse_json("doc.json", "{\n  \"a\": 1,\n  oops\n}").unwrap_err();
        let span = error.span.expect("span");
        assert_eq!((span.file.as_str(), span.line, span.column), ("doc.json", 3, 3));
        assert!(!error.message.contains("at line"), "{}", error.message);
    }

    /// `text` parses, and what it tolerated is `expect`: (line, column, JSON pointer, part of
    /// the message), in order.
    fn check_tolerated(text: &str, expect: &[(u32, u32, &str, &str)]) {
        let parsed = parse_json("doc.json", text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let got: Vec<(u32, u32, &str, &str)> = parsed
            .tolerated
            .iter()
            .map(|d| {
                let span = d.span.as_ref().expect("located");
                assert_eq!((span.file.as_str(), d.code.as_str()), ("doc.json", codes::INPUT_TOLERATED));
                let fragment = expect.iter().map(|e| e.3).find(|f| d.message.contains(f)).unwrap_or(&d.message);
                (span.line, span.column, d.path.as_str(), fragment)
            })
            .collect();
        assert_eq!(got, expect, "{text}");
    }

    #[test]
    fn repeated_keys_are_located_warnings_and_the_later_value_is_used() {
        let text = "{\"a\": 1,\n \"b\": {\"x\": [1], \"y/\": 0, \"x\": [2], \"y/\": {}},\n \"a\": 3}";
        check_tolerated(
            text,
            &[
                (2, 27, "/b/x", "the key `x` appears again in this object (first at line 2, column 8)"),
                (2, 37, "/b/y~1", "the key `y/` appears again"),
                (3, 2, "/a", "the key `a` appears again in this object (first at line 1, column 2)"),
            ],
        );
        assert_eq!(parse_json("doc.json", text).unwrap().value, serde_json::json!({"a": 3, "b": {"x": [2], "y/": {}}}));
        // The same key in different objects, escaped keys that differ, arrays of objects: fine.
        check_tolerated(r#"[{"a": 1}, {"a": {"a": 2}}, {"k\u0065y": 1, "kEy": 2}]"#, &[]);
        // An escaped key equal to a plain one is the same key.
        check_tolerated(
            r#"[{"key": 1}, {"key": 2, "k\u0065y": 3}]"#,
            &[(1, 25, "/1/key", "the key `key` appears again")],
        );
    }

    #[test]
    fn integers_beyond_64_bits_are_located_warnings() {
        let text = "[18446744073709551615, -9223372036854775808, 1e19, 1.5e300,\n 18446744073709551616, \
                    {\"min\": -9223372036854775809}, 123456789012345678901234567890]";
        check_tolerated(
            text,
            &[
                (
                    2,
                    2,
                    "/4",
                    "the integer 18446744073709551616 does not fit in 64 bits: it is read as the nearest float, 1.8446744073709552e+19",
                ),
                (2, 32, "/5/min", "the integer -9223372036854775809 does not fit"),
                (2, 55, "/6", "the integer 123456789012345678901234567890 does not fit"),
            ],
        );
        // Beyond a float's range it is an error at the number.
        let error = parse_json("doc.json", "{\"max\":\n 1e400}").unwrap_err();
        let span = error.span.expect("located");
        assert_eq!((span.line, span.column), (2, 6));
        assert!(error.message.contains("number out of range"), "{}", error.message);
    }

    #[test]
    fn a_flood_of_repeats_is_listed_up_to_a_limit() {
        let members: Vec<String> = (0..1000).map(|i| format!("\"k\": {i}")).collect();
        let text = format!("{{{}}}", members.join(", "));
        let tolerated = parse_json("doc.json", &text).unwrap().tolerated;
        assert_eq!(tolerated.len(), 101);
        assert!(tolerated[100].message.contains("899 more repeated keys or rounded integers"), "{}", tolerated[100]);
    }

    #[test]
    fn json_depth_is_found_past_strings() {
        let deeper = |text: &str, limit| json_deeper_than(text.as_bytes(), limit);
        assert_eq!(deeper(&format!("{}{}", "[".repeat(4), "]".repeat(4)), 4), None);
        assert_eq!(deeper(&format!("{}{}", "[".repeat(5), "]".repeat(5)), 4), Some(4));
        assert_eq!(deeper(r#"{"a": "[[[[[[", "b\"{{{{": [{}, {}], "c": {"d": [1]}}"#, 3), None);
        assert_eq!(deeper(r#"{"a": "[[", "c": {"d": [{}]}}"#, 3), Some(24));
        assert_eq!(deeper(&"[{}]".repeat(10_000), 2), None);
    }

    #[test]
    fn line_column_counts_characters() {
        assert_eq!(line_column("é\néa", 5), (2, 2));
    }
}
