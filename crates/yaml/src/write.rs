//! `serde_json::Value` to block-style YAML.
//!
//! The layout is the one serde_yaml 0.9 (libyaml) wrote, so that outputs stay byte-identical:
//! two-space indentation, a sequence under a key not indented (`key:\n- a`), `- - a` and
//! `- key: v` compact, empty collections as `[]` and `{}`, keys longer than 128 bytes or
//! spanning lines as explicit `? key` entries, multi-line strings as `|` block scalars, and
//! libyaml's choice between plain, single-quoted and double-quoted scalars. One rule is new:
//! a string is never written plain when a YAML 1.1 reader (PyYAML, SnakeYAML) would read it
//! as something else ([`retyped_when_plain`]), and U+2028/U+2029, which are line breaks in
//! YAML 1.1 but not in 1.2, are always escaped.

use serde_json::{Map, Value};

use crate::scalar::retyped_when_plain;

/// libyaml's (and so serde_yaml's) indentation step.
const INDENT: usize = 2;
/// The longest key (in bytes) written as an implicit `key: value` entry, as in libyaml.
const SIMPLE_KEY_MAX: usize = 128;

pub(crate) fn to_string(value: &Value) -> String {
    let mut writer = Writer { out: String::new() };
    match value {
        Value::Object(map) if !map.is_empty() => writer.mapping(map, 0, false),
        Value::Array(items) if !items.is_empty() => writer.sequence(items, 0, false),
        // A scalar alone: libyaml indents a block scalar's lines by one step.
        scalar => writer.scalar(scalar, 0),
    }
    writer.out
}

struct Writer {
    out: String,
}

impl Writer {
    fn pad(&mut self, column: usize) {
        // Nearly every line: spaces pushed as one slice, not one character at a time.
        const SPACES: &str = "                                                                ";
        let mut left = column;
        while left > 0 {
            let step = left.min(SPACES.len());
            self.out.push_str(&SPACES[..step]);
            left -= step;
        }
    }

    /// A mapping whose keys are at column `indent`; `inline` when the cursor is already there
    /// (after `- ` or `? `/`: `).
    fn mapping(&mut self, map: &Map<String, Value>, indent: usize, inline: bool) {
        for (i, (key, value)) in map.iter().enumerate() {
            if i > 0 || !inline {
                self.pad(indent);
            }
            let analysis = Analysis::of(key);
            if !analysis.line_breaks && key.len() <= SIMPLE_KEY_MAX {
                self.string(key, &analysis, true, indent);
                self.out.push(':');
                self.value_after_key(value, indent);
            } else {
                self.out.push('?');
                self.node_after_indicator(&Value::String(key.clone()), indent);
                self.pad(indent);
                self.out.push(':');
                self.node_after_indicator(value, indent);
            }
        }
    }

    /// A sequence whose dashes are at column `indent`.
    fn sequence(&mut self, items: &[Value], indent: usize, inline: bool) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 || !inline {
                self.pad(indent);
            }
            self.out.push('-');
            self.node_after_indicator(item, indent);
        }
    }

    /// The value of an implicit key, the cursor right after `key:`.
    fn value_after_key(&mut self, value: &Value, indent: usize) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                self.out.push('\n');
                self.mapping(map, indent + INDENT, false);
            }
            Value::Array(items) if !items.is_empty() => {
                self.out.push('\n');
                self.sequence(items, indent, false);
            }
            scalar => {
                self.out.push(' ');
                self.scalar(scalar, indent);
            }
        }
    }

    /// A node after `-`, `?` or `:` in a collection at column `indent`: collections start on
    /// the same line, compact.
    fn node_after_indicator(&mut self, value: &Value, indent: usize) {
        self.out.push(' ');
        match value {
            Value::Object(map) if !map.is_empty() => self.mapping(map, indent + INDENT, true),
            Value::Array(items) if !items.is_empty() => self.sequence(items, indent + INDENT, true),
            scalar => self.scalar(scalar, indent),
        }
    }

    /// A scalar or empty collection in a collection at column `indent`, then a line break.
    fn scalar(&mut self, value: &Value, indent: usize) {
        match value {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => {
                use std::fmt::Write;
                // Writing into a String cannot fail.
                let _ = write!(self.out, "{n}");
            }
            Value::String(s) => {
                if self.string(s, &Analysis::of(s), false, indent) {
                    return;
                }
            }
            Value::Array(_) => self.out.push_str("[]"),
            Value::Object(_) => self.out.push_str("{}"),
        }
        self.out.push('\n');
    }

    /// A string in the style libyaml would choose for serde_yaml's request, plus the YAML 1.1
    /// rule. Returns whether it ended the line (a block scalar does).
    fn string(&mut self, s: &str, analysis: &Analysis, simple_key: bool, indent: usize) -> bool {
        match analysis.style(s, simple_key) {
            Style::Plain => self.out.push_str(s),
            Style::SingleQuoted => {
                self.out.push('\'');
                self.out.push_str(&s.replace('\'', "''"));
                self.out.push('\'');
            }
            Style::DoubleQuoted => double_quoted(&mut self.out, s),
            Style::Literal => {
                self.literal(s, indent + INDENT);
                return true;
            }
        }
        false
    }

    /// `|` with libyaml's hints (indentation indicator when the text starts with a space or a
    /// break, `-` without a final break, `+` with several), then the lines at `indent`.
    fn literal(&mut self, s: &str, indent: usize) {
        self.out.push('|');
        if s.starts_with([' ', '\n']) {
            self.out.push_str(&INDENT.to_string());
        }
        if s == "\n" || s.ends_with("\n\n") {
            self.out.push('+');
        } else if !s.ends_with('\n') {
            self.out.push('-');
        }
        self.out.push('\n');
        // Each line padded and pushed whole; an empty line gets no padding.
        for (i, line) in s.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
            }
            if !line.is_empty() {
                self.pad(indent);
                self.out.push_str(line);
            }
        }
        if !s.ends_with('\n') {
            self.out.push('\n');
        }
    }
}

#[derive(Debug, PartialEq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// What libyaml's `yaml_emitter_analyze_scalar` finds in a string (block context only).
#[derive(Debug, Default, PartialEq)]
struct Analysis {
    line_breaks: bool,
    /// A `\n` among the line breaks.
    newline: bool,
    block_plain: bool,
    single_quoted: bool,
    block: bool,
}

impl Analysis {
    fn of(s: &str) -> Self {
        if s.is_empty() {
            return Analysis {
                line_breaks: false,
                newline: false,
                block_plain: true,
                single_quoted: true,
                block: false,
            };
        }
        if s.is_ascii() {
            let analysis = Self::ascii(s.as_bytes());
            // The tests' debug builds hold the shortcut to the full scan on every string.
            debug_assert_eq!(analysis, Self::scanned(s), "{s:?}");
            return analysis;
        }
        Self::scanned(s)
    }

    /// [`Analysis::of`] a non-empty ASCII string: only `:`, `#`, breaks and control bytes are
    /// looked at one by one (letters, digits and most punctuation sort above `:`), the
    /// space-and-break pairs found as substrings.
    fn ascii(b: &[u8]) -> Self {
        let is_break = |c: u8| is_break(char::from(c));
        let blank_at = |i: usize| b.get(i).is_none_or(|&c| c == b' ' || c == b'\t' || is_break(c));
        let (first, last) = (b[0], b[b.len() - 1]);
        let mut found = Findings {
            indicators: b.starts_with(b"---")
                || b.starts_with(b"...")
                || first_indicator(char::from(first), blank_at(1)),
            leading: first == b' ' || is_break(first),
            trailing_space: last == b' ',
            trailing_break: is_break(last),
            ..Findings::default()
        };
        let mut look_at = |i: usize, c: u8| {
            if c > b':' {
                // DEL is the one byte above `:` outside the printable set.
                found.special |= c == 0x7F;
                return;
            }
            match c {
                b':' if i > 0 => found.indicators |= blank_at(i + 1),
                b'#' if i > 0 => found.indicators |= blank_at(i - 1),
                b'\n' => (found.line_breaks, found.newline) = (true, true),
                b'\r' => (found.line_breaks, found.special) = (true, true),
                c if c < b' ' => found.special = true,
                _ => {}
            }
        };
        // Eight bytes at a time: most words of a text hold none of the bytes looked at.
        let mut words = b.chunks_exact(8);
        for (w, word) in (&mut words).enumerate() {
            if holds_a_byte_looked_at(u64::from_le_bytes(<[u8; 8]>::try_from(word).unwrap_or_default())) {
                for (j, &c) in word.iter().enumerate() {
                    look_at(w * 8 + j, c);
                }
            }
        }
        let tail = b.len() - words.remainder().len();
        for (j, &c) in words.remainder().iter().enumerate() {
            look_at(tail + j, c);
        }
        if found.line_breaks {
            let contains = |pair: &[u8]| b.windows(2).any(|w| w == pair);
            (found.break_space, found.space_break) = (contains(b"\n "), contains(b" \n"));
        }
        found.analysis()
    }

    /// [`Analysis::of`] a non-empty string, character by character.
    fn scanned(s: &str) -> Self {
        let is_blank = |c: Option<char>| c.is_none_or(|c| matches!(c, ' ' | '\t') || is_break(c));
        let mut found = Findings { indicators: s.starts_with("---") || s.starts_with("..."), ..Findings::default() };
        let (mut previous_space, mut previous_break) = (false, false);
        // One pass, each character seen with its neighbours (no copy of the string: this runs
        // for every key and string of a document).
        let mut chars = s.chars().peekable();
        let mut before: Option<char> = None;
        let mut first = true;
        while let Some(c) = chars.next() {
            let next = chars.peek().copied();
            let followed_by_blank = is_blank(next);
            let last = next.is_none();
            found.indicators |= if first {
                first_indicator(c, followed_by_blank)
            } else {
                (c == ':' && followed_by_blank) || (c == '#' && is_blank(before))
            };
            // U+2028 and U+2029 are not libyaml's special characters; they are here, so that
            // they are escaped: YAML 1.1 reads them as line breaks, YAML 1.2 as text.
            found.special |= !is_printable(c) || matches!(c, '\u{2028}' | '\u{2029}');
            if c == ' ' {
                found.leading |= first;
                found.trailing_space |= last;
                found.break_space |= previous_break;
                (previous_space, previous_break) = (true, false);
            } else if is_break(c) {
                found.line_breaks = true;
                found.newline |= c == '\n';
                found.leading |= first;
                found.trailing_break |= last;
                found.space_break |= previous_space;
                (previous_space, previous_break) = (false, true);
            } else {
                (previous_space, previous_break) = (false, false);
            }
            before = Some(c);
            first = false;
        }
        found.analysis()
    }

    /// serde_yaml asked for a literal block when the string has a `\n`, single quotes when it
    /// would read back as another type, and let libyaml choose otherwise; libyaml falls back
    /// from plain to single to double quotes, and from a block to double quotes.
    fn style(&self, s: &str, simple_key: bool) -> Style {
        if self.newline {
            return if self.block && !simple_key { Style::Literal } else { Style::DoubleQuoted };
        }
        if self.block_plain && !retyped_when_plain(s) {
            Style::Plain
        } else if self.single_quoted {
            Style::SingleQuoted
        } else {
            Style::DoubleQuoted
        }
    }
}

/// Whether the ASCII bytes of `word` hold one that [`Analysis::ascii`] looks at: a control
/// byte, `:`, `#` or DEL (each test exact for ASCII bytes, which are below 0x80).
fn holds_a_byte_looked_at(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below = |n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS != 0;
    let holds = |byte: u8| {
        let zeroed = word ^ (ONES * u64::from(byte));
        zeroed.wrapping_sub(ONES) & !zeroed & HIGHS != 0
    };
    below(b' ') || holds(b':') || holds(b'#') || holds(0x7F)
}

/// What a scan of a string finds, before libyaml's rules make an [`Analysis`] of it.
#[derive(Default)]
struct Findings {
    indicators: bool,
    newline: bool,
    special: bool,
    line_breaks: bool,
    leading: bool,
    trailing_space: bool,
    trailing_break: bool,
    /// A space right after a line break.
    break_space: bool,
    /// A line break right after a space.
    space_break: bool,
}

impl Findings {
    fn analysis(&self) -> Analysis {
        let ruined = self.space_break || self.special;
        Analysis {
            line_breaks: self.line_breaks,
            newline: self.newline,
            block_plain: !(self.leading
                || self.trailing_space
                || self.trailing_break
                || self.break_space
                || ruined
                || self.line_breaks
                || self.indicators),
            single_quoted: !(self.break_space || ruined),
            block: !(self.trailing_space || ruined),
        }
    }
}

/// Whether `c`, a string's first character, is an indicator there (`followed_by_blank`: the
/// next character is a space, a tab, a break or the end).
fn first_indicator(c: char, followed_by_blank: bool) -> bool {
    matches!(c, '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%' | '@' | '`')
        || (matches!(c, '?' | ':' | '-') && followed_by_blank)
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// libyaml's printable set: `\n`, ASCII 0x20-0x7E, U+00A0-U+D7FF, U+E000-U+FFFD except the BOM,
/// and U+10000 up.
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..) && c != '\u{FEFF}'
}

fn double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        if is_printable(c) && !is_break(c) && !matches!(c, '\u{FEFF}' | '"' | '\\') {
            out.push(c);
            continue;
        }
        out.push('\\');
        match c {
            '\0' => out.push('0'),
            '\u{7}' => out.push('a'),
            '\u{8}' => out.push('b'),
            '\t' => out.push('t'),
            '\n' => out.push('n'),
            '\u{B}' => out.push('v'),
            '\u{C}' => out.push('f'),
            '\r' => out.push('r'),
            '\u{1B}' => out.push('e'),
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '\u{85}' => out.push('N'),
            '\u{A0}' => out.push('_'),
            '\u{2028}' => out.push('L'),
            '\u{2029}' => out.push('P'),
            c if u32::from(c) <= 0xFF => out.push_str(&format!("x{:02X}", u32::from(c))),
            c if u32::from(c) <= 0xFFFF => out.push_str(&format!("u{:04X}", u32::from(c))),
            c => out.push_str(&format!("U{:08X}", u32::from(c))),
        }
    }
    out.push('"');
}
