//! Parsing SkyDeck files the way people write them: the spec's own sample is not valid JSON
//! (a trailing comma after a variable's last field, a missing comma between `default` and
//! `allowed_values`), so files copied from it carry the same defects.
//!
//! Strict JSON is tried first. When it fails, a light scan repairs exactly two defects, each
//! reported as an `input/tolerated` warning with its place:
//! - a trailing comma before `}` or `]`;
//! - a missing comma at a line break between two members (`"default": ["a"]⏎"allowed_values": …`).
//!
//! A missing comma on the same line is not guessed at: the file fails with the strict parser's
//! file:line:column. Whatever else JSON5 allows (comments, single quotes) is accepted through
//! `json5` with one warning. Everything else fails with the strict parser's position.

use serde_json::Value;
use toolport_plugin::limits::MAX_NESTING;
use toolport_plugin::nesting::{self, Syntax};
use toolport_plugin::source::{self, Locator, child, escape_pointer_segment, string_end};
use toolport_plugin::{Diagnostic, codes};

/// A parsed document and the defects that were tolerated to parse it.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub value: Value,
    pub diagnostics: Vec<Diagnostic>,
}

pub(crate) fn parse(file: &str, text: &str) -> Result<Parsed, Diagnostic> {
    let mut diagnostics = Vec::new();
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            diagnostics.push(
                Diagnostic::info(codes::INPUT_TOLERATED, "", "a byte order mark starts the file; it was skipped")
                    .at(file, 1, 1),
            );
            rest
        }
        None => text,
    };
    // What strict JSON tolerates (repeated keys, rounded integers) is said by the shared parser.
    let strict_error = match source::parse_json(file, text) {
        Ok(parsed) => {
            diagnostics.extend(parsed.tolerated);
            return Ok(Parsed { value: parsed.value, diagnostics });
        }
        Err(error) => error,
    };
    // json5 (below) recurses once per level: refuse what nests too deeply before it runs.
    nesting::check(file, text, Syntax::JSON5)?;
    let (repairs, complete) = scan(text);
    let candidate = apply(text, &repairs);
    // Repairs keep every later position where it was (a comma goes at the end of a line, a
    // trailing comma becomes a space), so the repaired text's first error is at the right
    // place in the original: the first defect that is not tolerated.
    let at = Locator::new(text);
    let candidate_error = match source::parse_json(file, &candidate) {
        Ok(parsed) if complete => {
            diagnostics.extend(repairs.iter().map(|r| r.diagnostic(file, &at)));
            diagnostics.extend(parsed.tolerated);
            return Ok(Parsed { value: parsed.value, diagnostics });
        }
        Ok(_) => strict_error,
        Err(error) => error,
    };
    let strict_error = candidate_error;
    match json5::from_str::<Value>(&candidate) {
        Ok(value) => {
            diagnostics.extend(repairs.iter().map(|r| r.diagnostic(file, &at)));
            let mut warning = Diagnostic::warning(
                codes::INPUT_TOLERATED,
                "",
                format!("the file is not strict JSON ({}); it was read as JSON5", strict_error.message),
            );
            warning.span = strict_error.span;
            diagnostics.push(warning);
            Ok(Parsed { value, diagnostics })
        }
        Err(_) => Err(strict_error),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum RepairKind {
    /// Remove the comma at `offset`.
    TrailingComma,
    /// Insert a comma at `offset` (the end of the previous value).
    MissingComma,
}

#[derive(Clone, Debug)]
struct Repair {
    kind: RepairKind,
    offset: usize,
    /// JSON pointer of the container (trailing comma) or of the member before the gap (missing comma).
    path: String,
}

impl Repair {
    fn diagnostic(&self, file: &str, at: &Locator) -> Diagnostic {
        let (line, column) = at.line_column(self.offset);
        let message = match self.kind {
            RepairKind::TrailingComma => "a trailing comma (not allowed in JSON) was ignored".to_owned(),
            RepairKind::MissingComma => {
                "a comma is missing at the end of this line (as in the spec's sample); it was read as if present"
                    .to_owned()
            }
        };
        Diagnostic::warning(codes::INPUT_TOLERATED, self.path.clone(), message).at(file, line, column)
    }
}

fn apply(text: &str, repairs: &[Repair]) -> String {
    let mut out = String::with_capacity(text.len() + repairs.len());
    let mut from = 0;
    for repair in repairs {
        out.push_str(&text[from..repair.offset]);
        match repair.kind {
            // A space keeps every later position where it was.
            RepairKind::TrailingComma => {
                out.push(' ');
                from = repair.offset + 1;
            }
            RepairKind::MissingComma => {
                out.push(',');
                from = repair.offset;
            }
        }
    }
    out.push_str(&text[from..]);
    out
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// Just after `{`: a key or `}`.
    KeyOrEnd,
    /// After a comma in an object.
    Key,
    Colon,
    /// Just after `[`: a value or `]`.
    ValueOrEnd,
    /// After a colon or a comma in an array.
    Value,
    CommaOrEnd,
}

/// An open container. Its pointer is the first `base` bytes of the scan's one path string,
/// which holds the pointer of the innermost container: no frame holds a copy of a path, and
/// a path is only copied when a repair is reported.
#[derive(Debug)]
struct Frame {
    object: bool,
    expect: Expect,
    /// Length of this container's pointer in the scan's path.
    base: usize,
    /// Current key (object).
    key: String,
    /// Current index (array).
    index: usize,
    /// Offset of the last comma seen, for reporting a trailing one.
    last_comma: usize,
}

impl Frame {
    fn new(object: bool, base: usize) -> Frame {
        Frame {
            object,
            expect: if object { Expect::KeyOrEnd } else { Expect::ValueOrEnd },
            base,
            key: String::new(),
            index: 0,
            last_comma: 0,
        }
    }

    /// This container's pointer.
    fn path(&self, path: &str) -> String {
        path[..self.base].to_owned()
    }

    /// The pointer of the current member.
    fn member_path(&self, path: &str) -> String {
        if self.object {
            child(&path[..self.base], &self.key)
        } else {
            child(&path[..self.base], self.index.to_string())
        }
    }

    /// Makes `path` the pointer of the current member, for a container opening there.
    fn enter_member(&self, path: &mut String) {
        path.truncate(self.base);
        path.push('/');
        if self.object {
            path.push_str(&escape_pointer_segment(&self.key));
        } else {
            path.push_str(&self.index.to_string());
        }
    }
}

#[derive(Debug, PartialEq)]
enum Token {
    Open(bool),
    Close(bool),
    Colon,
    Comma,
    Text(String),
    Scalar,
}

/// Finds the repairable defects, up to the first problem the repairs cannot fix; the flag
/// says whether the scan reached the end without one.
fn scan(text: &str) -> (Vec<Repair>, bool) {
    let mut repairs = Vec::new();
    let complete = scan_into(text, &mut repairs).is_some();
    (repairs, complete)
}

/// The tokens of `text`, each with where it starts and ends and whether a line break comes
/// before it; the last item is `None` where a string does not decode.
struct Tokens<'t> {
    text: &'t str,
    /// Where the next token is looked for.
    at: usize,
}

struct Lexed {
    token: Token,
    start: usize,
    end: usize,
    /// A line break between the previous token and this one.
    newline: bool,
}

impl Iterator for Tokens<'_> {
    type Item = Option<Lexed>;

    fn next(&mut self) -> Option<Option<Lexed>> {
        let bytes = self.text.as_bytes();
        let mut i = self.at;
        let mut newline = false;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            newline |= bytes[i] == b'\n';
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        let token = match bytes[i] {
            b'{' => {
                i += 1;
                Token::Open(true)
            }
            b'[' => {
                i += 1;
                Token::Open(false)
            }
            b'}' => {
                i += 1;
                Token::Close(true)
            }
            b']' => {
                i += 1;
                Token::Close(false)
            }
            b':' => {
                i += 1;
                Token::Colon
            }
            b',' => {
                i += 1;
                Token::Comma
            }
            b'"' => {
                let string = string_end(bytes, i)
                    .and_then(|end| Some((end, serde_json::from_str::<String>(&self.text[i..end]).ok()?)));
                let Some((end, decoded)) = string else {
                    // The scan stops here: nothing after it is read.
                    self.at = bytes.len();
                    return Some(None);
                };
                i = end;
                Token::Text(decoded)
            }
            _ => {
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !b",:{}[]\"".contains(&bytes[i]) {
                    i += 1;
                }
                Token::Scalar
            }
        };
        self.at = i;
        Some(Some(Lexed { token, start, end: i, newline }))
    }
}

/// Follows the containers token by token, recording the repairs; `None` at the first problem
/// the repairs cannot fix.
fn scan_into(text: &str, repairs: &mut Vec<Repair>) -> Option<()> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut path = String::new();
    let mut root_done = false;
    let mut previous_end = 0;
    for lexed in (Tokens { text, at: 0 }) {
        let Lexed { token, start, end, newline } = lexed?;
        let depth = stack.len();
        let Some(frame) = stack.last_mut() else {
            // Top level: exactly one value.
            if root_done {
                return None;
            }
            match token {
                Token::Open(object) => stack.push(Frame::new(object, 0)),
                Token::Text(_) | Token::Scalar => root_done = true,
                _ => return None,
            }
            previous_end = end;
            continue;
        };
        let mut expect = frame.expect;
        let starts_value = matches!(token, Token::Open(_) | Token::Text(_) | Token::Scalar);
        if expect == Expect::CommaOrEnd && starts_value && newline {
            repairs.push(Repair {
                kind: RepairKind::MissingComma,
                offset: previous_end,
                path: frame.member_path(&path),
            });
            expect = if frame.object { Expect::Key } else { Expect::Value };
            if !frame.object {
                frame.index += 1;
            }
        }
        match (expect, token) {
            (Expect::KeyOrEnd | Expect::Key, Token::Text(key)) => {
                frame.key = key;
                frame.expect = Expect::Colon;
            }
            (Expect::Colon, Token::Colon) => frame.expect = Expect::Value,
            (Expect::Value | Expect::ValueOrEnd, Token::Text(_) | Token::Scalar) => frame.expect = Expect::CommaOrEnd,
            (Expect::Value | Expect::ValueOrEnd, Token::Open(object)) => {
                // The nesting check ran first; this only bounds the scan whatever it is given.
                if depth >= MAX_NESTING {
                    return None;
                }
                frame.expect = Expect::CommaOrEnd;
                frame.enter_member(&mut path);
                stack.push(Frame::new(object, path.len()));
            }
            (Expect::CommaOrEnd, Token::Comma) => {
                frame.last_comma = start;
                if frame.object {
                    frame.expect = Expect::Key;
                } else {
                    frame.index += 1;
                    frame.expect = Expect::Value;
                }
            }
            // After a comma: `}` in an object, `]` in an array (an object's `Value` follows a colon).
            (Expect::Key, Token::Close(true)) | (Expect::Value, Token::Close(false))
                if (expect == Expect::Key) == frame.object =>
            {
                repairs.push(Repair {
                    kind: RepairKind::TrailingComma,
                    offset: frame.last_comma,
                    path: frame.path(&path),
                });
                stack.pop();
            }
            (Expect::KeyOrEnd | Expect::ValueOrEnd | Expect::CommaOrEnd, Token::Close(object))
                if object == frame.object =>
            {
                stack.pop();
            }
            _ => return None,
        }
        if stack.is_empty() {
            root_done = true;
        }
        previous_end = end;
    }
    (stack.is_empty() && root_done).then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tolerated defect: its path, line and column.
    type Defect<'a> = (&'a str, u32, u32);

    /// `expect`: Ok(the tolerated defects) or Err((line, column)) of the error.
    fn check(text: &str, expect: Result<&[Defect], (u32, u32)>) {
        match (parse("t.json", text), expect) {
            (Ok(parsed), Ok(want)) => {
                let got: Vec<(String, u32, u32)> = parsed
                    .diagnostics
                    .iter()
                    .map(|d| {
                        let span = d.span.clone().expect("a span");
                        (d.path.clone(), span.line, span.column)
                    })
                    .collect();
                let want: Vec<(String, u32, u32)> = want.iter().map(|(p, l, c)| (p.to_string(), *l, *c)).collect();
                assert_eq!(got, want, "{text}");
            }
            (Err(error), Err((line, column))) => {
                let span = error.span.expect("a span");
                assert_eq!((span.line, span.column), (line, column), "{text}");
                assert_eq!(error.code, codes::INPUT_SYNTAX);
            }
            (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn repairs_only_the_spec_defects() {
        check(r#"{"a": 1}"#, Ok(&[]));
        check("{\"a\": [1, 2,],\n \"b\": {\"c\": 1,}}", Ok(&[("/a", 1, 12), ("/b", 2, 14)]));
        check("{\"a\": [\"x\"]\n \"b\": 2}", Ok(&[("/a", 1, 12)]));
        check("[{\"a\": 1}\n{\"a\": 2}]", Ok(&[("/0", 1, 10)]));
        // Same line: not guessed.
        check(r#"{"a": 1 "b": 2}"#, Err((1, 9)));
        check("{\"a\": 1,\n\n}", Ok(&[("", 1, 8)]));
        check("{\"a\" 1}", Err((1, 6)));
        check("{\"a\": 1}}", Err((1, 9)));
        check("", Err((1, 0)));
    }

    #[test]
    fn other_json5_is_read_with_one_warning() {
        let parsed = parse("t.json", "{\"a\": 1 // note\n}").unwrap();
        assert_eq!(parsed.value, serde_json::json!({"a": 1}));
        assert_eq!(parsed.diagnostics.len(), 1);
        assert!(parsed.diagnostics[0].message.contains("JSON5"));
    }
}
