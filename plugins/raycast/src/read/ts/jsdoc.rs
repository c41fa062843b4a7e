//! Doc comments: the comment that documents a declaration or a member, its text without
//! delimiters, and the `@default` / `@example` tags mapped into a schema.

use oxc_ast::Comment;
use oxc_span::{GetSpan, Span};
use serde_json::Value;
use toolport_plugin::Schema;

use super::modules::Module;

/// A comment's text with its delimiters and JSDoc stars removed.
#[derive(Clone, Debug)]
pub(super) struct Doc {
    pub(super) text: String,
    pub(super) is_jsdoc: bool,
}

fn comment_text(module: &Module, comment: &Comment) -> String {
    let content = comment.content_span();
    let raw = &module.text[content.start as usize..content.end as usize];
    if comment.is_line() {
        return raw.strip_prefix(' ').unwrap_or(raw).trim_end().to_owned();
    }
    let raw = raw.strip_prefix('*').unwrap_or(raw);
    let lines: Vec<&str> = raw
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            match trimmed.strip_prefix('*') {
                Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
                None => trimmed,
            }
            .trim_end()
        })
        .collect();
    lines.join("\n").trim_matches('\n').trim().to_owned()
}

/// Whether only white space precedes `offset` on its line. Reads back from `offset` to the
/// first other character, not from the line's start: a minified file is one long line, and
/// each comment on it would otherwise rescan it.
fn starts_own_line(module: &Module, offset: usize) -> bool {
    whitespace_before(module.text, offset).1
}

/// The white space right before `offset` on its line, and whether it reaches the line's
/// start (or the text's).
fn whitespace_before(text: &str, offset: usize) -> (&str, bool) {
    let before = &text[..offset];
    let start = before.trim_end_matches(|c: char| c.is_whitespace() && c != '\n').len();
    (&before[start..], start == 0 || before[..start].ends_with('\n'))
}

/// The comment(s) right before the token at `at`: the last JSDoc block if there is one,
/// else the other comments joined.
pub(super) fn leading_doc(module: &Module, at: u32) -> Option<Doc> {
    let comments = own_line_comments(module, at);
    if let Some(jsdoc) = comments.iter().rev().find(|c| c.is_jsdoc()) {
        return Some(Doc { text: comment_text(module, jsdoc), is_jsdoc: true });
    }
    let text: Vec<String> = comments.iter().map(|c| comment_text(module, c)).collect();
    let text = text.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(Doc { text, is_jsdoc: false })
}

/// The comments before the token at `at` that start their own lines.
fn own_line_comments<'m>(module: &'m Module, at: u32) -> Vec<&'m Comment> {
    module
        .leading
        .get(&at)
        .into_iter()
        .flatten()
        .map(|&index| &module.program.comments[index])
        .filter(|c| starts_own_line(module, c.span.start as usize))
        .collect()
}

/// The span of the JSDoc block `leading_doc` reads at `at`, if the doc there is one.
pub(super) fn leading_jsdoc_span(module: &Module, at: u32) -> Option<Span> {
    own_line_comments(module, at).into_iter().rev().find(|c| c.is_jsdoc()).map(|c| c.span)
}

/// A member's doc: its leading comment, else a comment on the same line after it (only the
/// first comment after the member can be: anything between them would be the first one).
pub(super) fn member_doc(module: &Module, span: Span) -> Option<Doc> {
    leading_doc(module, span.start).or_else(|| {
        let end = span.end as usize;
        let comments = &module.program.comments;
        let c = comments.get(comments.partition_point(|c| (c.span.start as usize) < end))?;
        let between = module.text.get(end..c.span.start as usize)?;
        (!between.contains('\n')
            && between.trim_matches(|ch: char| ch.is_whitespace() || ch == ';' || ch == ',').is_empty())
        .then(|| Doc { text: comment_text(module, c), is_jsdoc: false })
        .filter(|d| !d.text.is_empty())
    })
}

/// Start of the statement containing `span` (where an `export` keyword and its JSDoc sit).
pub(super) fn statement_start(module: &Module, span: Span) -> u32 {
    module
        .program
        .body
        .iter()
        .map(GetSpan::span)
        .find(|s| s.start <= span.start && span.end <= s.end)
        .map_or(span.start, |s| s.start)
}

/// Applies a doc comment to a schema: `@default` and `@example` tags become the default and
/// examples; everything else (other tags included) is the description, kept as written.
pub(super) fn apply_doc(schema: &mut Schema, doc: Option<Doc>) {
    let Some(doc) = doc else { return };
    let parsed = parse_doc(&doc.text);
    if let Some(description) = parsed.description {
        schema.description = Some(description);
    }
    if let Some(default) = parsed.default
        && schema.default.is_none()
    {
        schema.default = Some(Box::new(default));
    }
    schema.examples.extend(parsed.examples.into_iter().map(Value::String));
}

#[derive(Debug, Default, PartialEq)]
pub struct ParsedDoc {
    pub description: Option<String>,
    pub default: Option<Value>,
    pub examples: Vec<String>,
}

/// Splits doc text into its description and the `@default` / `@example` tags we map.
pub fn parse_doc(text: &str) -> ParsedDoc {
    let mut out = ParsedDoc::default();
    let mut description: Vec<&str> = Vec::new();
    // Which tag the current line continues: None = description.
    let mut current: Option<(&str, Vec<&str>)> = None;
    let finish = |tag: Option<(&str, Vec<&str>)>, out: &mut ParsedDoc| {
        if let Some((name, lines)) = tag {
            let body = lines.join("\n").trim().to_owned();
            if name == "default" {
                out.default = Some(doc_value(&body));
            } else {
                out.examples.push(body);
            }
        }
    };
    for line in text.lines() {
        let trimmed = line.trim_start();
        let tag = ["@defaultValue", "@default", "@example"]
            .into_iter()
            .find(|t| trimmed.starts_with(t) && !trimmed[t.len()..].starts_with(|c: char| c.is_alphanumeric()));
        if let Some(tag) = tag {
            finish(current.take(), &mut out);
            let name = if tag == "@example" { "example" } else { "default" };
            current = Some((name, vec![trimmed[tag.len()..].trim_start()]));
        } else if trimmed.starts_with('@') {
            finish(current.take(), &mut out);
            description.push(line);
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        } else {
            description.push(line);
        }
    }
    finish(current.take(), &mut out);
    let description = description.join("\n").trim().to_owned();
    out.description = (!description.is_empty()).then_some(description);
    out
}

/// A `@default` value: JSON when it parses, a single-quoted or bare word as a string.
fn doc_value(text: &str) -> Value {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return value;
    }
    let unquoted = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or(text);
    let unquoted = unquoted.strip_prefix('`').and_then(|t| t.strip_suffix('`')).unwrap_or(unquoted);
    Value::from(unquoted)
}

#[cfg(test)]
mod tests {
    use super::whitespace_before;

    #[test]
    fn a_comment_starts_its_own_line_after_white_space_only_and_nothing_further_is_read() {
        let text = "a;\n  \t/** x */ b; /** y */";
        assert_eq!(whitespace_before(text, 6), ("  \t", true));
        assert_eq!(whitespace_before(text, 0), ("", true));
        assert_eq!(whitespace_before(text, text.rfind("/**").unwrap()), (" ", false));
        // A minified file is one line: what is read back from a comment is its white space
        // run, not the megabyte of members before it (each comment rescanned it before).
        let line = format!("{}  /** doc */", "p?:string;".repeat(100_000));
        assert_eq!(whitespace_before(&line, line.find("/**").unwrap()), ("  ", false));
    }
}
