//! `--select` and `--exclude`: which tools of a source are written. A pattern is `KIND:VALUE`:
//!
//! - `name:GLOB` (or a bare `GLOB`): the tool's name in the source (`list*`, `meta/*`);
//! - `tag:GLOB`: one of the OpenAPI operation's tags;
//! - `path:GLOB`: the HTTP binding's path template (`/pets/*`; `*` stays within one segment,
//!   `**` crosses segments);
//! - `method:METHOD[,METHOD]`: the HTTP binding's method, any case.
//!
//! A tool is written when no `--select` is given or one matches it, and no `--exclude`
//! matches it. Globs are globset's (`*`, `?`, `[abc]`, `{a,b}`), case-sensitive.

use globset::{Glob, GlobBuilder, GlobMatcher};
use serde_json::Value;
use toolport_core::{Diagnostic, Tool, ToolSet, codes};

/// One `--select`/`--exclude` pattern, as given and as matched.
#[derive(Clone, Debug)]
pub struct Pattern {
    text: String,
    criterion: Criterion,
}

#[derive(Clone, Debug)]
enum Criterion {
    Name(GlobMatcher),
    Tag(GlobMatcher),
    Path(GlobMatcher),
    Method(Vec<String>),
}

/// The kinds a pattern may start with, as help and errors list them.
pub const KINDS: &str = "name:GLOB, tag:GLOB, path:GLOB, method:METHOD[,METHOD]";

impl Pattern {
    /// Parses `KIND:VALUE` (a bare value is a name glob); the error says what is wrong and
    /// what a pattern may be.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let (kind, value) = match text.split_once(':') {
            Some((kind, value)) if ["name", "tag", "path", "method"].contains(&kind) => (kind, value),
            Some((kind, _)) if !kind.is_empty() && kind.chars().all(|c| c.is_ascii_alphabetic()) => {
                return Err(format!("`{text}`: unknown kind `{kind}` (a pattern is one of {KINDS})"));
            }
            _ => ("name", text),
        };
        if value.is_empty() {
            return Err(format!("`{text}`: nothing to match after `{kind}:` (a pattern is one of {KINDS})"));
        }
        let glob = |literal_separator: bool| {
            GlobBuilder::new(value)
                .literal_separator(literal_separator)
                .build()
                .map(|g: Glob| g.compile_matcher())
                .map_err(|e| format!("`{text}`: {e}"))
        };
        let criterion = match kind {
            "name" => Criterion::Name(glob(false)?),
            "tag" => Criterion::Tag(glob(false)?),
            "path" => Criterion::Path(glob(true)?),
            _ => Criterion::Method(value.split(',').map(|m| m.trim().to_ascii_uppercase()).collect()),
        };
        Ok(Pattern { text: text.to_owned(), criterion })
    }

    /// The pattern as given.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the pattern matches `tool`, whose name in the source is `source_name`.
    pub fn matches(&self, tool: &Tool, source_name: &str) -> bool {
        match &self.criterion {
            Criterion::Name(glob) => glob.is_match(source_name),
            Criterion::Tag(glob) => openapi_tags(tool).any(|tag| glob.is_match(tag)),
            Criterion::Path(glob) => tool.http.as_ref().is_some_and(|h| glob.is_match(&h.path)),
            Criterion::Method(methods) => {
                tool.http.as_ref().is_some_and(|h| methods.iter().any(|m| h.method.eq_ignore_ascii_case(m)))
            }
        }
    }
}

/// The OpenAPI operation's tags, which the openapi reader keeps as written under its extras
/// (`extras.openapi.operation.tags`): the model has no field for them, and the tag is the
/// grouping every OpenAPI-to-tools tool selects by.
fn openapi_tags(tool: &Tool) -> impl Iterator<Item = &str> {
    tool.extras
        .get("openapi")
        .and_then(|e| e.get("operation"))
        .and_then(|o| o.get("tags"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The `--select` and `--exclude` patterns of a run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub select: Vec<Pattern>,
    pub exclude: Vec<Pattern>,
}

impl Selection {
    pub fn is_empty(&self) -> bool {
        self.select.is_empty() && self.exclude.is_empty()
    }

    /// Per tool of `model` (named `source_names` in the source), whether it is written. Each
    /// pattern that matches no tool at all is a `curate/unmatched` warning.
    pub fn keep(&self, model: &ToolSet, source_names: &[String], diagnostics: &mut Vec<Diagnostic>) -> Vec<bool> {
        let hits = |patterns: &[Pattern]| -> Vec<Vec<bool>> {
            patterns
                .iter()
                .map(|p| model.tools.iter().zip(source_names).map(|(t, n)| p.matches(t, n)).collect())
                .collect()
        };
        let (selected, excluded) = (hits(&self.select), hits(&self.exclude));
        for (flag, patterns, hits) in [("--select", &self.select, &selected), ("--exclude", &self.exclude, &excluded)] {
            for (pattern, hits) in patterns.iter().zip(hits) {
                if !hits.contains(&true) {
                    diagnostics.push(Diagnostic::warning(
                        codes::CURATE_UNMATCHED,
                        "/tools",
                        format!("{flag} `{}` matches no tool of this input", pattern.as_str()),
                    ));
                }
            }
        }
        (0..model.tools.len())
            .map(|i| (selected.is_empty() || selected.iter().any(|h| h[i])) && !excluded.iter().any(|h| h[i]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_core::HttpBinding;

    use super::*;

    fn tool(name: &str, method: &str, path: &str, tags: &[&str]) -> Tool {
        let mut tool = Tool::new(name);
        tool.http = Some(Box::new(HttpBinding { method: method.into(), path: path.into(), ..HttpBinding::default() }));
        if !tags.is_empty() {
            tool.extras.insert("openapi".into(), json!({"operation": {"tags": tags}}));
        }
        tool
    }

    /// (select, exclude, the tools kept, the unmatched patterns)
    fn check(select: &[&str], exclude: &[&str], kept: &[&str], unmatched: &[&str]) {
        let model = ToolSet {
            tools: vec![
                tool("listPets", "GET", "/pets", &["pets"]),
                tool("createPet", "POST", "/pets", &["pets", "write"]),
                tool("showPet", "GET", "/pets/{petId}", &["pets"]),
                tool("deletePet", "DELETE", "/pets/{petId}", &["admin"]),
                tool("meta/root", "GET", "/", &[]),
                Tool::new("no_http"),
            ],
            ..ToolSet::default()
        };
        let names: Vec<String> = model.tools.iter().map(|t| t.name.clone()).collect();
        let parse = |all: &[&str]| all.iter().map(|p| Pattern::parse(p).unwrap()).collect();
        let selection = Selection { select: parse(select), exclude: parse(exclude) };
        let mut diagnostics = Vec::new();
        let keep = selection.keep(&model, &names, &mut diagnostics);
        let got: Vec<&str> = names.iter().zip(keep).filter(|(_, k)| *k).map(|(n, _)| n.as_str()).collect();
        assert_eq!(got, kept, "select {select:?} exclude {exclude:?}");
        let said: Vec<&str> = diagnostics.iter().map(|d| d.message.split('`').nth(1).unwrap()).collect();
        assert_eq!(said, unmatched);
    }

    #[test]
    fn patterns_select_and_exclude_by_name_tag_path_and_method() {
        check(&["list*"], &[], &["listPets"], &[]);
        check(&["name:*Pet"], &[], &["createPet", "showPet", "deletePet"], &[]);
        check(&["meta/*"], &[], &["meta/root"], &[]);
        check(&["tag:pets"], &["method:post"], &["listPets", "showPet"], &[]);
        check(&["path:/pets/*"], &[], &["showPet", "deletePet"], &[]);
        check(&["path:{/pets,/pets/**}"], &["method:DELETE,post"], &["listPets", "showPet"], &[]);
        check(&[], &["tag:admin", "name:no_*"], &["listPets", "createPet", "showPet", "meta/root"], &[]);
        check(&["tag:nothing", "listPets"], &["method:PATCH"], &["listPets"], &["tag:nothing", "method:PATCH"]);
    }

    #[test]
    fn a_bad_pattern_says_what_a_pattern_may_be() {
        for (text, says) in [
            ("kind:x", "unknown kind `kind`"),
            ("tag:", "nothing to match after `tag:`"),
            ("name:[a", "unclosed character class"),
        ] {
            let err = Pattern::parse(text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
        // A colon after something that is not a plain word is part of a name.
        assert!(Pattern::parse("a/b:c").is_ok());
    }
}
