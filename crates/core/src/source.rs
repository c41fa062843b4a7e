//! Helpers for reading source text: positions, JSON parsing with file:line:column errors,
//! and JSON pointers. Shared by every reader so errors look the same everywhere.

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

/// Parses JSON, turning a syntax error into a diagnostic with the file, line and column.
pub fn parse_json(file: &str, text: &str) -> Result<Value, Diagnostic> {
    serde_json::from_str(text).map_err(|e| json_error(file, &e))
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
    segment.replace('~', "~0").replace('/', "~1")
}

/// Builds a JSON pointer from segments: `pointer(["tools", "0", "name"])` → `/tools/0/name`.
pub fn pointer<I, S>(segments: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    segments.into_iter().fold(String::new(), |mut out, s| {
        out.push('/');
        out.push_str(&escape_pointer_segment(s.as_ref()));
        out
    })
}

/// Extends a JSON pointer by one segment.
pub fn child(parent: &str, segment: impl AsRef<str>) -> String {
    format!("{parent}/{}", escape_pointer_segment(segment.as_ref()))
}

/// Line and column of the value at `pointer` in a JSON `text`, found by a light scan of the
/// text (keys and array indices). `None` when it cannot be located; callers then report the
/// pointer alone. Meant for diagnostics, not for hot paths.
pub fn locate_json_pointer(text: &str, pointer: &str) -> Option<(u32, u32)> {
    let mut offset = skip_ws(text, 0);
    if pointer.is_empty() {
        return Some(line_column(text, offset));
    }
    for raw in pointer.split('/').skip(1) {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        let bytes = text.as_bytes();
        match bytes.get(offset)? {
            b'{' => {
                let mut i = skip_ws(text, offset + 1);
                loop {
                    if bytes.get(i)? == &b'}' {
                        return None;
                    }
                    let (key, after_key) = scan_string(text, i)?;
                    let colon = skip_ws(text, after_key);
                    let value_start = skip_ws(text, colon + 1);
                    if key == segment {
                        offset = value_start;
                        break;
                    }
                    i = skip_ws(text, skip_value(text, value_start)?);
                    if bytes.get(i)? == &b',' {
                        i = skip_ws(text, i + 1);
                    }
                }
            }
            b'[' => {
                let index: usize = segment.parse().ok()?;
                let mut i = skip_ws(text, offset + 1);
                for _ in 0..index {
                    i = skip_ws(text, skip_value(text, i)?);
                    if bytes.get(i)? != &b',' {
                        return None;
                    }
                    i = skip_ws(text, i + 1);
                }
                offset = i;
            }
            _ => return None,
        }
    }
    Some(line_column(text, offset))
}

fn skip_ws(text: &str, mut i: usize) -> usize {
    let bytes = text.as_bytes();
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Scans a JSON string starting at its opening quote; returns its decoded text and the offset after it.
fn scan_string(text: &str, start: usize) -> Option<(String, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(start)? != &b'"' {
        return None;
    }
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                let decoded: String = serde_json::from_str(&text[start..=i]).ok()?;
                return Some((decoded, i + 1));
            }
            _ => i += 1,
        }
    }
    None
}

/// Offset just after the JSON value starting at `start`.
fn skip_value(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    match bytes.get(start)? {
        b'"' => scan_string(text, start).map(|(_, end)| end),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            while i < bytes.len() {
                match bytes[i] {
                    b'"' => {
                        i = scan_string(text, i)?.1;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = start;
            while i < bytes.len() && !matches!(bytes[i], b',' | b'}' | b']') && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, pointer: &str, expect: Option<(u32, u32)>) {
        assert_eq!(locate_json_pointer(text, pointer), expect, "pointer {pointer}");
    }

    #[test]
    fn locates_pointers() {
        let text = "{\n  \"a\": 1,\n  \"b/c\": {\"x\": [10, {\"y\": \"é\"}]}\n}";
        check(text, "", Some((1, 1)));
        check(text, "/a", Some((2, 8)));
        check(text, "/b~1c/x/1/y", Some((3, 27)));
        check(text, "/b~1c/x/2", None);
        check(text, "/missing", None);
    }

    #[test]
    fn json_errors_carry_positions() {
        let error = parse_json("doc.json", "{\n  \"a\": 1,\n  oops\n}").unwrap_err();
        let span = error.span.expect("span");
        assert_eq!((span.file.as_str(), span.line, span.column), ("doc.json", 3, 3));
        assert!(!error.message.contains("at line"), "{}", error.message);
    }

    #[test]
    fn line_column_counts_characters() {
        assert_eq!(line_column("é\néa", 5), (2, 2));
    }
}
