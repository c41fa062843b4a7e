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
//! In TypeScript a recursive parser also descends without brackets, and those levels count
//! too ([`Syntax::operators`]): `<…>` type arguments (and type assertions), JSX elements
//! ([`Syntax::jsx`]: `<a>` opens a level until `</a>`, `<a/>` none), and chains of
//! right-recursive operators: assignments (`a = b = …`), conditionals (`a ? b : c ? …`, and
//! conditional types through `extends`), arrows (`a => b => …`), `**`, `else if`, and prefix
//! operators in a row (`!!!x`, `typeof typeof x`, `- - x`); a bracket right after them is their
//! operand, so `a = {` or `!(` is one level, `a = b = {` two. A
//! chain's levels last until its expression or statement ends: at `;`, at `,` (not for type
//! arguments, which commas separate), at a keyword that starts a statement, at a line break
//! between two operands (where JavaScript inserts a semicolon), and at the close of the bracket
//! that holds it; a prefix operator's lasts until its operand. Where `<` is also less-than (after
//! a name), it is counted as a type argument until a `>`; so are comparisons, which at worst
//! add levels to one statement.

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
    /// Type arguments and chains of operators nest too (see the module's documentation).
    pub operators: bool,
    /// JSX elements nest (TSX): `<` before a name opens an element.
    pub jsx: bool,
}

impl Syntax {
    /// JSON: `"…"` strings only.
    pub const JSON: Syntax = Syntax {
        name: "JSON",
        single_quotes: false,
        templates: false,
        comments: false,
        regex: false,
        operators: false,
        jsx: false,
    };
    /// JSON5: both quotes and comments.
    pub const JSON5: Syntax = Syntax { name: "JSON5", single_quotes: true, comments: true, ..Syntax::JSON };
    /// TypeScript and JavaScript: quotes, templates, comments, regular expressions, and levels
    /// without brackets.
    pub const TYPESCRIPT: Syntax = Syntax {
        name: "TypeScript",
        single_quotes: true,
        templates: true,
        comments: true,
        regex: true,
        operators: true,
        jsx: false,
    };
    /// TSX: TypeScript with JSX elements.
    pub const TSX: Syntax = Syntax { name: "TSX", jsx: true, ..Syntax::TYPESCRIPT };
}

/// Refuses `text` when it nests deeper than [`MAX_NESTING`]: an `input/syntax` error at the
/// first bracket beyond the limit, in `file`.
pub fn check(file: &str, text: &str, syntax: Syntax) -> Result<(), Diagnostic> {
    match too_deep(text, syntax) {
        None => Ok(()),
        Some(offset) => {
            let (line, column) = line_column(text, offset);
            let what = if syntax.operators {
                "brackets, braces, parentheses, type arguments, JSX elements and chained operators"
            } else {
                "brackets, braces and parentheses"
            };
            Err(Diagnostic::error(
                codes::INPUT_SYNTAX,
                "",
                format!("the {} is nested deeper than {MAX_NESTING} levels of {what}; it is not read", syntax.name),
            )
            .at(file, line, column))
        }
    }
}

/// Byte offset of the first bracket (or construct, see [`Syntax::operators`]) nested deeper
/// than [`MAX_NESTING`], `None` when there is none.
pub fn too_deep(text: &str, syntax: Syntax) -> Option<usize> {
    Scan {
        bytes: text.as_bytes(),
        syntax,
        opens: Vec::with_capacity(MAX_NESTING + 1),
        implicit: Implicit::default(),
        line_done: [0; 3],
    }
    .run()
}

/// An open level: a bracket, or the `${` of a template literal (its `}` returns to the template).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Bracket,
    Template,
}

/// A bracket's level: what it is, the depth it opens (itself included) and the levels without
/// brackets around it, given back when it closes.
struct Level {
    open: Open,
    depth: usize,
    outside: Implicit,
}

/// Levels without brackets within the innermost bracket (TypeScript).
#[derive(Clone, Copy, Default)]
struct Implicit {
    /// Right-recursive operators of the current expression or statement (`=`, `?`, `=>`, `**`,
    /// `extends`).
    chain: usize,
    /// `<` not yet closed by `>`.
    angles: usize,
    /// Prefix operators in a row, until their operand.
    prefix: usize,
    /// `else` of an `if … else if …` chain, until another statement.
    elses: usize,
    /// JSX elements open (TSX), and where in JSX the scan is.
    elements: usize,
    jsx: Jsx,
}

/// Where in JSX the scan is: code, a tag (`<a b="c">`, `</a>`), or an element's children, text
/// whose quotes and brackets are only text (but `{…}` and the next `<`).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Jsx {
    #[default]
    Code,
    Tag,
    Children,
}

impl Implicit {
    fn levels(&self) -> usize {
        self.chain + self.angles + self.prefix + self.elses + self.elements
    }

    /// A statement ends: its chains end with it (JSX elements do not: their text is free).
    fn end_statement(&mut self) {
        *self = Implicit { elements: self.elements, jsx: self.jsx, ..Implicit::default() };
    }

    /// An `if` starts a statement, maybe the next of an `else if` chain.
    fn end_statement_keeping_elses(&mut self) {
        let elses = self.elses;
        self.end_statement();
        self.elses = elses;
    }

    /// Where JSX goes on after a tag closes: the children of an element still open, or code.
    fn after_tag(&mut self) {
        self.jsx = if self.elements > 0 { Jsx::Children } else { Jsx::Code };
    }
}

/// Which of `'`, `"` and a regular expression's `/` failed to close on a line.
const SINGLE: usize = 0;
const DOUBLE: usize = 1;
const REGEX: usize = 2;

struct Scan<'t> {
    bytes: &'t [u8],
    syntax: Syntax,
    opens: Vec<Level>,
    implicit: Implicit,
    /// For each of SINGLE, DOUBLE, REGEX: offsets before this one lie on a line where that
    /// construct did not close, so it is not tried there again (this keeps the scan linear).
    line_done: [usize; 3],
}

impl Scan<'_> {
    fn run(&mut self) -> Option<usize> {
        let bytes = self.bytes;
        let operators = self.syntax.operators;
        let mut i = 0;
        // Whether a `/` here would start a regular expression (an expression is expected).
        let mut expression_expected = true;
        // Whether a line break came since the last token (a statement may end there).
        let mut line_break = false;
        while i < bytes.len() {
            let c = bytes[i];
            let next = bytes.get(i + 1).copied().unwrap_or(0);
            if c.is_ascii_whitespace() {
                line_break |= c == b'\n';
                i += 1;
                continue;
            }
            let after_break = std::mem::take(&mut line_break);
            let before = i;
            if self.implicit.jsx != Jsx::Code && !matches!(c, b'{' | b'}') {
                match self.jsx(i) {
                    Ok(next) => i = next,
                    Err(at) => return Some(at),
                }
                expression_expected = false;
                continue;
            }
            match c {
                b'[' | b'{' | b'(' => {
                    if self.push(Open::Bracket) {
                        return Some(i);
                    }
                    expression_expected = true;
                    i += 1;
                }
                b']' | b')' | b'}' => {
                    let closed = self.pop();
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
                                self.implicit.prefix = 0;
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
                b'/' if self.syntax.comments && next == b'/' => {
                    i = memchr(bytes, i, b'\n');
                    line_break = after_break;
                }
                b'/' if self.syntax.comments && next == b'*' => {
                    i = find(bytes, i + 2, b"*/").map_or(bytes.len(), |at| at + 2);
                    line_break = after_break;
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
                    let word = &bytes[start..i];
                    let member = start > 0 && bytes[start - 1] == b'.';
                    if operators && !member {
                        if after_break && !expression_expected && !CONTINUE_A_STATEMENT.contains(&word) {
                            // Two operands across a line break: JavaScript ends the statement there.
                            self.implicit.end_statement();
                        }
                        if self.word(word) {
                            return Some(start);
                        }
                    }
                    expression_expected = !member && REGEX_AFTER.contains(&word);
                    if !expression_expected {
                        self.implicit.prefix = 0;
                    }
                }
                _ if operators => {
                    let (length, deeper) = self.operator(i, expression_expected);
                    if deeper && self.too_deep() {
                        return Some(i);
                    }
                    // After `<` a `/` is a JSX closing tag (`</b>`), not a regular expression.
                    expression_expected = c != b'<';
                    i += length;
                }
                // After `<` a `/` is a JSX closing tag (`</b>`), not a regular expression.
                _ => {
                    expression_expected = c != b'<';
                    i += 1;
                }
            }
            debug_assert!(i > before);
        }
        None
    }

    /// Reads JSX from `i` in a tag or children: the offset after what it read, `Err` at an
    /// element beyond the limit.
    fn jsx(&mut self, i: usize) -> Result<usize, usize> {
        let bytes = self.bytes;
        let next = bytes.get(i + 1).copied().unwrap_or(0);
        let implicit = &mut self.implicit;
        match (implicit.jsx, bytes[i]) {
            (Jsx::Children, b'<') if next == b'/' => {
                implicit.elements = implicit.elements.saturating_sub(1);
                implicit.jsx = Jsx::Tag;
                Ok(i + 2)
            }
            (Jsx::Children, b'<') => {
                implicit.elements += 1;
                implicit.jsx = Jsx::Tag;
                if self.too_deep() { Err(i) } else { Ok(i + 1) }
            }
            (Jsx::Tag, b'>') => {
                implicit.after_tag();
                Ok(i + 1)
            }
            (Jsx::Tag, b'/') if next == b'>' => {
                implicit.elements = implicit.elements.saturating_sub(1);
                implicit.after_tag();
                Ok(i + 2)
            }
            (Jsx::Tag, quote @ (b'"' | b'\'')) => Ok(self.string_end(i, quote).unwrap_or(i + 1)),
            _ => Ok(i + 1),
        }
    }

    /// Reads a name or keyword outside a member access; true when it goes beyond the limit.
    fn word(&mut self, word: &[u8]) -> bool {
        let implicit = &mut self.implicit;
        if word == b"else" {
            implicit.elses += 1;
        } else if word == b"if" {
            implicit.end_statement_keeping_elses();
        } else if STATEMENT_KEYWORDS.contains(&word) {
            implicit.end_statement();
        } else if PREFIX_KEYWORDS.contains(&word) {
            implicit.prefix += 1;
        } else if word == b"extends" {
            implicit.chain += 1;
        } else {
            return false;
        }
        self.too_deep()
    }

    /// Reads the operator or punctuation at `i`: how many bytes it takes, and whether it opened
    /// a level.
    fn operator(&mut self, i: usize, expression_expected: bool) -> (usize, bool) {
        let bytes = self.bytes;
        let at = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
        let implicit = &mut self.implicit;
        let jsx = self.syntax.jsx;
        match (at(0), at(1)) {
            (b';', _) => {
                implicit.end_statement();
                (1, false)
            }
            (b',', _) => {
                implicit.chain = 0;
                implicit.prefix = 0;
                (1, false)
            }
            // Comparisons.
            (b'=', b'=') | (b'!', b'=') | (b'<', b'=') | (b'>', b'=') => (2, false),
            (b'=', b'>') => {
                implicit.chain += 1;
                (2, true)
            }
            (b'=', _) => {
                implicit.chain += 1;
                (1, true)
            }
            (b'*', b'*') => {
                implicit.chain += 1;
                (2, true)
            }
            // `??`, and `?.` (not `? .5`): no level.
            (b'?', b'?') => (2, false),
            (b'?', b'.') if !at(2).is_ascii_digit() => (2, false),
            (b'?', _) => {
                // `a?: T`, `(a?)`, `(a?, b)`, `a?=`: an optional name, not a conditional.
                let after = bytes[i + 1..].iter().find(|b| !b.is_ascii_whitespace()).copied().unwrap_or(0);
                if matches!(after, b':' | b')' | b',' | b'=') {
                    (1, false)
                } else {
                    implicit.chain += 1;
                    (1, true)
                }
            }
            (b'!' | b'~', _) if expression_expected => {
                implicit.prefix += 1;
                (1, true)
            }
            (b'-', b'-') | (b'+', b'+') => (2, false),
            (b'-' | b'+', _) if expression_expected => {
                implicit.prefix += 1;
                (1, true)
            }
            // Where an expression starts, `<a` or `<>` opens an element.
            (b'<', next)
                if jsx
                    && expression_expected
                    && (next == b'>' || next.is_ascii_alphabetic() || matches!(next, b'_' | b'$')) =>
            {
                implicit.elements += 1;
                implicit.jsx = Jsx::Tag;
                (1, true)
            }
            (b'<', b'<') if !expression_expected => (2, false),
            // After a name (spaces between or not) or where an expression starts: `Array<T>`, `<T>x`.
            (b'<', _)
                if expression_expected
                    || bytes[..i].iter().rfind(|b| !b.is_ascii_whitespace()).is_some_and(|&b| is_word(b)) =>
            {
                implicit.angles += 1;
                (1, true)
            }
            (b'>', _) => {
                implicit.angles = implicit.angles.saturating_sub(1);
                (1, false)
            }
            _ => (1, false),
        }
    }

    /// Whether the levels open now go beyond the limit.
    fn too_deep(&self) -> bool {
        self.depth() > MAX_NESTING
    }

    fn depth(&self) -> usize {
        self.opens.last().map_or(0, |level| level.depth) + self.implicit.levels()
    }

    /// Opens a level; true when that goes beyond the limit. A bracket right after operators is
    /// the operand they wait for, so it counts only past them (`a = {`, `!(` are one level).
    fn push(&mut self, open: Open) -> bool {
        let outer = self.opens.last().map_or(0, |level| level.depth);
        let depth = outer + self.implicit.levels().max(1);
        let outside = std::mem::take(&mut self.implicit);
        self.opens.push(Level { open, depth, outside });
        depth > MAX_NESTING
    }

    /// Closes the innermost level, if any: what was open around it is again, but for prefix
    /// operators, whose operand it was.
    fn pop(&mut self) -> Option<Open> {
        let level = self.opens.pop()?;
        self.implicit = Implicit { prefix: 0, ..level.outside };
        Some(level.open)
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

/// Keywords that start a statement: every chain of the one before has ended.
const STATEMENT_KEYWORDS: [&[u8]; 27] = [
    b"const",
    b"let",
    b"var",
    b"function",
    b"class",
    b"return",
    b"for",
    b"while",
    b"do",
    b"switch",
    b"case",
    b"default",
    b"break",
    b"continue",
    b"throw",
    b"try",
    b"catch",
    b"finally",
    b"import",
    b"export",
    b"type",
    b"interface",
    b"enum",
    b"namespace",
    b"declare",
    b"module",
    b"debugger",
];

/// Keywords that apply to the operand after them, and may repeat (`typeof typeof x`).
const PREFIX_KEYWORDS: [&[u8]; 10] =
    [b"typeof", b"void", b"delete", b"await", b"new", b"yield", b"keyof", b"readonly", b"unique", b"infer"];

/// Words that continue a statement on a new line rather than start one.
const CONTINUE_A_STATEMENT: [&[u8]; 9] =
    [b"else", b"catch", b"finally", b"in", b"instanceof", b"as", b"satisfies", b"extends", b"of"];

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
    const TSX: Syntax = Syntax::TSX;
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

    /// `expect` for `depth` levels of `one(depth)`, and the same at the limit passes.
    fn check_deep(syntax: Syntax, text: impl Fn(usize) -> String, refused_at: impl Fn(&str) -> (u32, u32)) {
        check(syntax, &text(MAX_NESTING), None);
        let deep = text(MAX_NESTING + 1);
        check(syntax, &deep, Some(refused_at(&deep)));
    }

    /// Line 1, at the column of the last `needle`.
    fn last(needle: &'static str) -> impl Fn(&str) -> (u32, u32) {
        move |text| line_column(text, text.rfind(needle).unwrap())
    }

    #[test]
    fn type_arguments_nest() {
        for syntax in [TS, TSX] {
            check_deep(syntax, |n| format!("{}string{}", "Array<".repeat(n), ">".repeat(n)), last("<"));
            check_deep(syntax, |n| format!("x: {}string{}", "Map <string, ".repeat(n), " >".repeat(n)), last("<"));
            check(syntax, &"let a: Array<Array<Map<string, number>>> = [];\n".repeat(1000), None);
        }
        // Type assertions in TypeScript close at their `>`.
        check(TS, &"x = <any>y;\nf(<T>(a: T) => a, <any>z);\n".repeat(500), None);
        // Comparisons count until their statement ends.
        check(TS, &"for (let i = 0; i<n; i++) { if (a<b && c <d) x = e<f; }\ng = h<i\n".repeat(500), None);
    }

    #[test]
    fn chains_of_operators_nest() {
        for syntax in [TS, TSX] {
            check_deep(syntax, |n| format!("x = {}c;", "a ? b : ".repeat(n - 1)), last("?"));
            check_deep(syntax, |n| format!("{}1", "a = ".repeat(n)), last("="));
            check_deep(syntax, |n| format!("const f = {}1", "a =>\n".repeat(n - 1)), last("=>"));
            check_deep(syntax, |n| format!("x = 2{}", " ** 2".repeat(n - 1)), last("**"));
            check_deep(syntax, |n| format!("{}x", "!".repeat(n)), last("!"));
            check_deep(syntax, |n| format!("{}x", "typeof ".repeat(n)), last("typeof"));
            check_deep(syntax, |n| format!("x = {}y", "- ".repeat(n - 1)), last("-"));
            check_deep(syntax, |n| format!("if (a) {{}}{}", " else if (a) {}".repeat(n)), last("else"));
            // Two levels for each conditional type, one more for `=`.
            let conditional = |n: usize| format!("type T<X> = {}never", "X extends 1 ? 1 :\n".repeat(n));
            check(syntax, &conditional(63), None);
            let deep = conditional(64);
            check(syntax, &deep, Some(last("?")(&deep)));
            // A bracket after operators is their operand: one level with them, more inside.
            check_deep(syntax, |n| format!("{}{}", "a = (".repeat(n), ")".repeat(n)), last("="));
            check_deep(syntax, |n| format!("f(a = b = c, {}{})", "!(".repeat(n - 1), ")".repeat(n - 1)), last("!"));
        }
        // Chains end with their statement, expression or operand.
        let code = "const a = b ? c : d;\nx = y = z\nlet f = (a = 1, b = c ? d : e) => g ** 2\nif (!p) q = !r && !s\nelse t = u\nv = -w + -w\n";
        check(TS, &code.repeat(1000), None);
        check(TS, &"if (a) { b() } else if (c) { d() } else { e() }\nf()\n".repeat(1000), None);
        check(TS, &format!("x = [{}]", "!a, ".repeat(1000)), None);
    }

    #[test]
    fn jsx_elements_nest() {
        check_deep(TSX, |n| format!("{}{}", "<a>".repeat(n), "</a>".repeat(n)), last("<a"));
        // Text between the elements, whatever it holds, does not end them.
        let text = "<p x='1' y=\"2 > 1\" z={a > b}>a, b; c = d\nreturn x it's ( if (a > b) { x } ";
        check_deep(TSX, |n| format!("{}{}", text.repeat(n), "</p>".repeat(n)), last("<p"));
        check_deep(TSX, |n| format!("{}{}", "<a>x".repeat(n), "</a>".repeat(n)), last("<a"));
        check_deep(TSX, |n| format!("{}{}", "<>".repeat(n), "</>".repeat(n)), last("<>"));
        // Type arguments in TSX close at their `>`.
        check(TSX, &"const [a, b] = useState<Array<string>>([]);\nlet c: Map<string, number>\n".repeat(1000), None);
        let component = "export const C = () => (\n  <List isLoading={loading}>\n    <List.Item title=\"a > b\" />\n    {items.map((i) => <Item key={i.id} {...i} />)}\n  </List>\n);\n";
        check(TSX, &component.repeat(1000), None);
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
