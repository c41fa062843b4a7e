//! One linear pre-scan for nesting depth, run before any recursive parser (json5 is
//! pest-based, oxc is recursive descent) so that deep input is a located error instead of a
//! stack overflow.
//!
//! The scan counts `[`, `{` and `(` (and `${` in template literals) and their closes, and
//! skips what a [`Syntax`] says holds no brackets: strings, comments, template text and
//! regular-expression literals. `<` is never counted: it is also less-than.
//!
//! The scan must never refuse real input under [`MAX_NESTING`], so where it cannot tell it
//! under-counts:
//! - every close pops a level, whatever it closes, and a close at depth 0 is ignored;
//! - a `'…'` or `"…"` that reaches the end of its line unclosed was no string (JSX text such
//!   as `Don't`): the quote is read as code, and so is every later quote of that kind on the
//!   same line (there is no closing one), which keeps the scan linear;
//! - a `/` starts a regular expression where an expression is expected: at the start, after
//!   an operator (but `<`: `</b>` closes a JSX element) or an opening bracket, or after a keyword such as `return` or `typeof`; after
//!   a name, a number, a string or a closing bracket it is division. A regular expression ends
//!   at its line (it cannot span lines): one that does not close there was division, and the
//!   rest of that line is scanned as code. A misread regular expression therefore hides at most
//!   the rest of one line, and the conversion thread's large stack
//!   ([`crate::limits::CONVERSION_STACK_BYTES`]) absorbs what such a line could hold;
//!   a regular expression the heuristic misses (one that starts a statement after `}` or `)`)
//!   has its brackets counted, which in practice adds a level or two, never 128.
//!
//! What is not counted: JSX element nesting, `<…>` type arguments and operator chains
//! (`!!!x`, `a ? b : c ? …`, `else if`) nest without brackets; they rely on that stack.

use crate::limits::MAX_NESTING;
use crate::source::line_column;
use crate::{Diagnostic, codes};

/// What a syntax has besides brackets, for [`too_deep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Syntax {
    /// Its name in messages.
    pub name: &'static str,
    /// `'…'` strings (JSON5, JavaScript).
    pub single_quotes: bool,
    /// `` `…${…}…` `` template literals.
    pub templates: bool,
    /// `//` and `/* */` comments.
    pub comments: bool,
    /// `/…/` regular-expression literals.
    pub regex: bool,
}

impl Syntax {
    /// JSON: `"…"` strings only.
    pub const JSON: Syntax =
        Syntax { name: "JSON", single_quotes: false, templates: false, comments: false, regex: false };
    /// JSON5: both quotes and comments.
    pub const JSON5: Syntax =
        Syntax { name: "JSON5", single_quotes: true, templates: false, comments: true, regex: false };
    /// TypeScript and JavaScript (TSX included): quotes, templates, comments, regular expressions.
    pub const TYPESCRIPT: Syntax =
        Syntax { name: "TypeScript", single_quotes: true, templates: true, comments: true, regex: true };
}

/// Refuses `text` when it nests deeper than [`MAX_NESTING`]: an `input/syntax` error at the
/// first bracket beyond the limit, in `file`.
pub fn check(file: &str, text: &str, syntax: Syntax) -> Result<(), Diagnostic> {
    match too_deep(text, syntax) {
        None => Ok(()),
        Some(offset) => {
            let (line, column) = line_column(text, offset);
            Err(Diagnostic::error(
                codes::INPUT_SYNTAX,
                "",
                format!(
                    "the {} is nested deeper than {MAX_NESTING} levels of brackets, braces and parentheses; \
                     it is not read",
                    syntax.name
                ),
            )
            .at(file, line, column))
        }
    }
}

/// Byte offset of the first bracket nested deeper than [`MAX_NESTING`], `None` when there is none.
pub fn too_deep(text: &str, syntax: Syntax) -> Option<usize> {
    Scan { bytes: text.as_bytes(), syntax, opens: Vec::with_capacity(MAX_NESTING + 1), line_done: [0; 3] }.run()
}

/// An open level: a bracket, or the `${` of a template literal (its `}` returns to the template).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Bracket,
    Template,
}

/// Which of `'`, `"` and a regular expression's `/` failed to close on a line.
const SINGLE: usize = 0;
const DOUBLE: usize = 1;
const REGEX: usize = 2;

struct Scan<'t> {
    bytes: &'t [u8],
    syntax: Syntax,
    opens: Vec<Open>,
    /// For each of SINGLE, DOUBLE, REGEX: offsets before this one lie on a line where that
    /// construct did not close, so it is not tried there again (this keeps the scan linear).
    line_done: [usize; 3],
}

impl Scan<'_> {
    fn run(&mut self) -> Option<usize> {
        let bytes = self.bytes;
        let mut i = 0;
        // Whether a `/` here would start a regular expression (an expression is expected).
        let mut expression_expected = true;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b'[' | b'{' | b'(' => {
                    if self.push(Open::Bracket) {
                        return Some(i);
                    }
                    expression_expected = true;
                    i += 1;
                }
                b']' | b')' | b'}' => {
                    let closed = self.opens.pop();
                    i += 1;
                    if c == b'}' && closed == Some(Open::Template) {
                        match self.template(i) {
                            Ok(next) => i = next,
                            Err(at) => return Some(at),
                        }
                    }
                    expression_expected = false;
                }
                b'"' | b'\'' => {
                    let kind = if c == b'"' { DOUBLE } else { SINGLE };
                    if (c == b'"' || self.syntax.single_quotes) && i >= self.line_done[kind] {
                        match self.string_end(i, c) {
                            Ok(end) => {
                                i = end;
                                expression_expected = false;
                                continue;
                            }
                            Err(eol) => self.line_done[kind] = eol,
                        }
                    }
                    i += 1;
                }
                b'`' if self.syntax.templates => {
                    match self.template(i + 1) {
                        Ok(next) => i = next,
                        Err(at) => return Some(at),
                    }
                    expression_expected = false;
                }
                b'/' if self.syntax.comments && bytes.get(i + 1) == Some(&b'/') => {
                    i = memchr(bytes, i, b'\n');
                }
                b'/' if self.syntax.comments && bytes.get(i + 1) == Some(&b'*') => {
                    i = find(bytes, i + 2, b"*/").map_or(bytes.len(), |at| at + 2);
                }
                b'/' if self.syntax.regex && expression_expected && i >= self.line_done[REGEX] => {
                    match self.regex_end(i) {
                        Ok(end) => {
                            i = end;
                            expression_expected = false;
                        }
                        Err(eol) => {
                            self.line_done[REGEX] = eol;
                            i += 1;
                        }
                    }
                }
                _ if is_word(c) => {
                    let start = i;
                    while i < bytes.len() && is_word(bytes[i]) {
                        i += 1;
                    }
                    let member = start > 0 && bytes[start - 1] == b'.';
                    expression_expected = !member && REGEX_AFTER.contains(&&bytes[start..i]);
                }
                _ if c.is_ascii_whitespace() => i += 1,
                // After `<` a `/` is a JSX closing tag (`</b>`), not a regular expression.
                _ => {
                    expression_expected = c != b'<';
                    i += 1;
                }
            }
        }
        None
    }

    /// Opens a level; true when that goes beyond the limit.
    fn push(&mut self, open: Open) -> bool {
        self.opens.push(open);
        self.opens.len() > MAX_NESTING
    }

    /// Offset after the string opened by `quote` at `start`, or `Err(end of its line)` when
    /// the line ends first (it was no string).
    fn string_end(&self, start: usize, quote: u8) -> Result<usize, usize> {
        let bytes = self.bytes;
        let mut i = start + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => {
                    // An escaped line break continues the string (JSON5, JavaScript).
                    i += if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') { 3 } else { 2 };
                }
                b'\n' => return Err(i),
                b if b == quote => return Ok(i + 1),
                _ => i += 1,
            }
        }
        Err(bytes.len())
    }

    /// Scans template text from `i` (after `` ` `` or the `}` that closes a `${`): the offset
    /// after its closing `` ` ``, or after a `${` (a level is opened). `Err(offset)` when that
    /// `${` goes beyond the limit.
    fn template(&mut self, mut i: usize) -> Result<usize, usize> {
        let bytes = self.bytes;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'`' => return Ok(i + 1),
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    return if self.push(Open::Template) { Err(i + 1) } else { Ok(i + 2) };
                }
                _ => i += 1,
            }
        }
        Ok(bytes.len())
    }

    /// Offset after the regular expression starting at `start` (its flags are read as a word
    /// afterwards), or `Err(end of its line)` when the line ends first.
    fn regex_end(&self, start: usize) -> Result<usize, usize> {
        let bytes = self.bytes;
        let mut i = start + 1;
        let mut class = false;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' | b'\r' => return Err(i),
                b'\\' if matches!(bytes.get(i + 1), Some(b'\n' | b'\r')) => return Err(i + 1),
                b'\\' => i += 2,
                b'[' => {
                    class = true;
                    i += 1;
                }
                b']' => {
                    class = false;
                    i += 1;
                }
                b'/' if !class => return Ok(i + 1),
                _ => i += 1,
            }
        }
        Err(bytes.len())
    }
}

/// Keywords after which a `/` starts a regular expression, not a division.
const REGEX_AFTER: [&[u8]; 13] = [
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
];

/// A byte of a name or a number (any non-ASCII byte is part of a name).
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// The offset of the first `needle` at or after `from`, or the end.
fn memchr(bytes: &[u8], from: usize, needle: u8) -> usize {
    bytes[from..].iter().position(|&b| b == needle).map_or(bytes.len(), |at| from + at)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|at| from + at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `expect`: `None` when `text` passes, else the line and column of the refused bracket.
    fn check(syntax: Syntax, text: &str, expect: Option<(u32, u32)>) {
        let got = too_deep(text, syntax).map(|offset| line_column(text, offset));
        assert_eq!(got, expect, "{}: {text:.200}", syntax.name);
        let checked = super::check("f", text, syntax);
        match (checked, expect) {
            (Ok(()), None) => {}
            (Err(error), Some((line, column))) => {
                let span = error.span.expect("a span");
                assert_eq!((span.file.as_str(), span.line, span.column), ("f", line, column));
                assert_eq!(error.code, codes::INPUT_SYNTAX);
                assert!(error.message.contains("nested deeper than 128 levels"), "{}", error.message);
            }
            (got, want) => panic!("{text:.200}: got {got:?}, want {want:?}"),
        }
    }

    fn nested(open: &str, close: &str, depth: usize) -> String {
        format!("{}{}", open.repeat(depth), close.repeat(depth))
    }

    const TS: Syntax = Syntax::TYPESCRIPT;
    const JSON5: Syntax = Syntax::JSON5;
    const JSON: Syntax = Syntax::JSON;

    #[test]
    fn the_limit_is_exact() {
        for syntax in [JSON, JSON5, TS] {
            check(syntax, &nested("[", "]", 128), None);
            check(syntax, &nested("[", "]", 129), Some((1, 129)));
            check(syntax, &nested("{(", ")}", 64), None);
            check(syntax, &format!("x\n  {}", nested("([{", "}])", 43)), Some((2, 131)));
            // Closes are counted: many shallow levels in a row pass.
            check(syntax, &nested("[", "]", 100).repeat(1000), None);
            check(syntax, &"[".repeat(20_000), Some((1, 129)));
        }
        // Columns count characters, not bytes.
        check(TS, &format!("é{}", "(".repeat(200)), Some((1, 130)));
    }

    #[test]
    fn strings_and_comments_hide_brackets() {
        let deep = "[".repeat(200);
        check(JSON, &format!("[\"{deep}\", \"\\\"{deep}\"]"), None);
        check(JSON5, &format!("['{deep}', \"{deep}\", 'it\\'s {deep}'] // {deep}\n/* {deep}\n{deep} */"), None);
        check(TS, &format!("const a = '{deep}'; // {deep}\n/* {deep} */ const b = \"{deep}\";"), None);
        // JSON has neither single quotes nor comments.
        check(JSON, &format!("['{deep}']"), Some((1, 130)));
        check(JSON, &format!("// {deep}"), Some((1, 132)));
        // A line continuation stays in the string.
        check(JSON5, &format!("['a\\\n{deep}']"), None);
        check(JSON5, &format!("['a\\\r\n{deep}']"), None);
    }

    #[test]
    fn templates_nest_through_their_expressions() {
        let deep = "{".repeat(200);
        check(TS, &format!("const t = `{deep} ${{a}} {deep}`;"), None);
        check(TS, &format!("const t = `${{ `inner ${{ [1] }} {deep}` }} {deep}`;"), None);
        // Each `${` is a level.
        let templates = format!("{}x{}", "`${".repeat(128), "}`".repeat(128));
        check(TS, &templates, None);
        let templates = format!("{}x{}", "`${".repeat(129), "}`".repeat(129));
        check(TS, &templates, Some((1, 387)));
        // Brackets inside `${…}` count.
        check(TS, &format!("`${{{}}}`", "(".repeat(128)), Some((1, 131)));
    }

    #[test]
    fn unclosed_quotes_are_text_not_strings() {
        // JSX text with an apostrophe: the rest of the line is still scanned as code.
        let jsx = "const a = () => <p>{x && <b>Don't</b>}</p>;\n".repeat(300);
        check(TS, &jsx, None);
        let quotes = "a = ' b ' c ' {\n".repeat(100) + &"}".repeat(100);
        check(TS, &quotes, None);
        check(TS, &format!("x = \"{}", "(".repeat(129)), Some((1, 134)));
    }

    #[test]
    fn regular_expressions_are_skipped_where_an_expression_is_expected() {
        let re = "const r = /[(]\\(/g; if (/\\[[{]/.test(s)) { s.replace(/[\\/(]+/, '') }\n".repeat(200);
        check(TS, &re, None);
        check(TS, "return /(((/.source", None);
        // After a name, a number or a closing bracket, `/` divides and brackets count.
        check(TS, &format!("a / {}", "(".repeat(129)), Some((1, 133)));
        check(TS, &format!("x.return / ({}", "(".repeat(128)), Some((1, 140)));
        // A `/` that does not close on its line was division.
        check(TS, &format!("x = 1 + /\n{}", "(".repeat(129)), Some((2, 129)));
        check(TS, &format!("f(/ {}", "(".repeat(128)), Some((1, 132)));
        // Comments win over regular expressions.
        check(TS, &format!("x = // {}\n1", "(".repeat(200)), None);
    }

    #[test]
    fn real_code_passes() {
        let code = r#"
import { showToast } from "@raycast/api";
/** The input. {[( */
type Input = { /** Where to */ path: string; tags?: Array<{ name: string }>; };
export default async function tool(input: Input) {
  const re = /^[a-z]+(?:\/[a-z]+)*$/i;
  const message = `Saved ${input.path} with ${input.tags?.map((t) => `#${t.name}`).join(", ") ?? "no tags"}`;
  if (!re.test(input.path)) throw new Error("bad path: '(' or ')'");
  return { message, ratio: 3 / 4 / (input.path.length || 1) };
}
"#;
        check(TS, &code.repeat(100), None);
    }
}
