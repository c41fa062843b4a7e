//! Fitting a model to a target platform's documented limits ([`crate::platform_limits`]):
//! checking every limit ([`check_limits`]: a `limit/*` warning per breach, with its path and
//! number), cutting descriptions past a length limit at a sentence ([`cut_descriptions`]), and
//! splitting a tool set a request cannot carry into parts that fit ([`split`]). Pure
//! functions: the host's fit stage decides when to run them.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use crate::platform_limits::{LARGE_ENUM_VALUES, Limit, LimitKind, PlatformLimits};
use crate::{Diagnostic, Schema, Tool, ToolSet, codes};

/// The text a target writes as a tool's description: its own, else its title (what an
/// OpenAPI operation's `summary` becomes), as function-tools' writers choose.
fn written_description(tool: &Tool) -> Option<&str> {
    fn present(text: &Option<String>) -> Option<&str> {
        text.as_deref().filter(|t| !t.trim().is_empty())
    }
    present(&tool.description).or_else(|| present(&tool.title))
}

/// Every breach of `limits` by `model` written as `target`, one `limit/*` warning each, with
/// the path, the number and the limit's source. `applies` says whether a limit holds in this
/// conversion (its `when` option is set so); limits the writer keeps itself are not checked.
pub fn check_limits(
    model: &ToolSet,
    limits: &PlatformLimits,
    target: &str,
    applies: impl Fn(&Limit) -> bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let checked: Vec<&Limit> = limits.0.iter().filter(|l| !l.kept_by_writer && applies(l)).collect();
    let mut measures: Option<Vec<Measure>> = None;
    for limit in checked {
        let source = &limit.source;
        match (limit.kind, limit.max) {
            (LimitKind::ToolsPerRequest, Some(max)) if model.tools.len() as u64 > max => {
                let requests = (model.tools.len() as u64).div_ceil(max);
                out.push(Diagnostic::warning(
                    codes::LIMIT_TOOLS,
                    "/tools",
                    format!(
                        "{} tools, and a request to {target} carries at most {max}: they need {requests} requests; \
                         --split by-tag or by-count writes one document per request, or choose fewer tools (source: {source})",
                        model.tools.len()
                    ),
                ));
            }
            (LimitKind::ToolName, _) => {
                for (i, tool) in model.tools.iter().enumerate() {
                    if let Err(why) = limit.check_name(&tool.name) {
                        let path = format!("/tools/{i}/name");
                        let message =
                            format!("tool name `{}` is refused by {target}: {why} (source: {source})", tool.name);
                        out.push(Diagnostic::warning(codes::LIMIT_NAME, path, message));
                    }
                }
            }
            (LimitKind::ParameterName, _) => {
                for (i, tool) in model.tools.iter().enumerate() {
                    for (j, parameter) in tool.parameters.iter().enumerate() {
                        if let Err(why) = limit.check_name(&parameter.name) {
                            let path = format!("/tools/{i}/parameters/{j}/name");
                            let message = format!(
                                "parameter name `{}` of tool `{}` is refused by {target}: {why} (source: {source})",
                                parameter.name, tool.name
                            );
                            out.push(Diagnostic::warning(codes::LIMIT_NAME, path, message));
                        }
                    }
                }
            }
            (LimitKind::DisplayName, Some(max)) => {
                let named = model.title.as_deref().map(|t| ("/title", t)).or(model.id.as_deref().map(|t| ("/id", t)));
                if let Some((path, name)) = named
                    && name.chars().count() as u64 > max
                {
                    let message = format!(
                        "display name of {} characters; {target} takes at most {max} (source: {source})",
                        name.chars().count()
                    );
                    out.push(Diagnostic::warning(codes::LIMIT_NAME, path, message));
                }
            }
            (LimitKind::DescriptionChars, Some(max)) => {
                for (i, tool) in model.tools.iter().enumerate() {
                    let length = written_description(tool).map_or(0, |d| d.chars().count()) as u64;
                    if length > max {
                        let message = format!(
                            "description of tool `{}` has {length} characters; {target} takes at most {max} (source: {source})",
                            tool.name
                        );
                        out.push(Diagnostic::warning(
                            codes::LIMIT_DESCRIPTION,
                            format!("/tools/{i}/description"),
                            message,
                        ));
                    }
                }
            }
            (LimitKind::Servers, Some(max)) if model.servers.len() as u64 > max => {
                let message =
                    format!("{} servers; {target} takes at most {max} (source: {source})", model.servers.len());
                out.push(Diagnostic::warning(codes::LIMIT_SERVERS, "/servers", message));
            }
            (
                kind @ (LimitKind::SchemaDepth
                | LimitKind::SchemaProperties
                | LimitKind::EnumValues
                | LimitKind::SchemaChars
                | LimitKind::LargeEnumChars),
                Some(max),
            ) => {
                let measures = measures.get_or_insert_with(|| measure_all(model));
                for (i, (tool, measure)) in model.tools.iter().zip(measures.iter()).enumerate() {
                    let found = match kind {
                        LimitKind::SchemaDepth if measure.recursive => Some("unbounded (recursive)".to_owned()),
                        LimitKind::SchemaDepth => Some(measure.depth).filter(|d| *d > max).map(|d| d.to_string()),
                        LimitKind::SchemaProperties => {
                            Some(measure.properties).filter(|n| *n > max).map(|n| n.to_string())
                        }
                        LimitKind::EnumValues => Some(measure.enum_values).filter(|n| *n > max).map(|n| n.to_string()),
                        LimitKind::SchemaChars => Some(measure.chars).filter(|n| *n > max).map(|n| n.to_string()),
                        _ => measure.large_enum_chars.iter().copied().max().filter(|n| *n > max).map(|n| n.to_string()),
                    };
                    if let Some(found) = found {
                        let when = limit.when.as_deref().map(|w| format!(" with {w}")).unwrap_or_default();
                        let message = format!(
                            "parameters of tool `{}`: {} {found}; {target}{when} takes at most {max} (source: {source})",
                            tool.name,
                            kind.label()
                        );
                        out.push(Diagnostic::warning(codes::LIMIT_SCHEMA, format!("/tools/{i}/parameters"), message));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Cuts each tool's description longer than the description limit at the last sentence's end
/// that fits (else at a word, with `…`), with a `changed/description` warning saying from and
/// to how many characters. A tool described only by its title gets the cut title as its
/// description.
pub fn cut_descriptions(model: &mut ToolSet, limits: &PlatformLimits, target: &str) -> Vec<Diagnostic> {
    let Some((limit, max)) = description_limit(limits) else { return Vec::new() };
    cut_descriptions_to(model, max, &limit.source, target)
}

/// [`cut_descriptions`] to `max` characters, the limit's `source` and the `target` named in
/// each warning.
fn cut_descriptions_to(model: &mut ToolSet, max: usize, source: &str, target: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, tool) in model.tools.iter_mut().enumerate() {
        let Some(text) = written_description(tool) else { continue };
        let what = format!("description of tool `{}`", tool.name);
        let rule = format!("{target} takes at most {max} (source: {source}); --strict keeps it whole and refuses it");
        let Some((cut, said)) = cut_and_say(text, max, &what, &format!("/tools/{i}/description"), &rule) else {
            continue;
        };
        out.push(said);
        tool.description = Some(cut);
    }
    out
}

/// The value of [`Options::CUT_DESCRIPTIONS`] that asks a reader for the cuts
/// [`cut_descriptions`] would make for `limits`: `None` when they have no description limit.
///
/// [`Options::CUT_DESCRIPTIONS`]: crate::Options::CUT_DESCRIPTIONS
pub fn cut_descriptions_request(limits: &PlatformLimits) -> Option<String> {
    let (limit, max) = description_limit(limits)?;
    Some(format!("{max} {}", limit.source))
}

/// The cuts the host asked of a reader ([`Options::CUT_DESCRIPTIONS`], made by
/// [`cut_descriptions_request`]), made to `model` as [`cut_descriptions`] makes them, for the
/// target [`Options::TARGET_FORMAT`] names. The plugin SDK makes them after each read, so a
/// model the host borrows from the plugin that read it need not be copied to be cut.
///
/// [`Options::CUT_DESCRIPTIONS`]: crate::Options::CUT_DESCRIPTIONS
/// [`Options::TARGET_FORMAT`]: crate::Options::TARGET_FORMAT
pub fn cut_descriptions_as_asked(model: &mut ToolSet, options: &crate::Options) -> Vec<Diagnostic> {
    let asked = options.get(crate::Options::CUT_DESCRIPTIONS).and_then(|value| value.split_once(' '));
    let (Some((max, source)), Some(target)) = (asked, options.get(crate::Options::TARGET_FORMAT)) else {
        return Vec::new();
    };
    match max.parse() {
        Ok(max) => cut_descriptions_to(model, max, source, target),
        Err(_) => Vec::new(),
    }
}

/// `text` cut to at most `max` characters by [`cut_at_sentence`], with the `changed/description`
/// warning at `at` that names `what` was cut, from and to how many characters, and the `rule`
/// that asked for it (who takes at most how many, and the source); `None` when it fits. The one
/// place every writer's "cut and say so" goes through, so the message reads the same everywhere.
pub fn cut_and_say(text: &str, max: usize, what: &str, at: &str, rule: &str) -> Option<(String, Diagnostic)> {
    let length = text.chars().count();
    if length <= max {
        return None;
    }
    let cut = cut_at_sentence(text, max);
    let message =
        format!("{what} cut from {length} to {} characters, at a sentence's end: {rule}", cut.chars().count());
    Some((cut, Diagnostic::warning(codes::CHANGED_DESCRIPTION, at, message)))
}

/// Whether [`cut_descriptions`] would cut a description of `model` (it changes nothing).
pub fn cuts_descriptions(model: &ToolSet, limits: &PlatformLimits) -> bool {
    let Some((_, max)) = description_limit(limits) else { return false };
    model.tools.iter().filter_map(written_description).any(|text| text.chars().count() > max)
}

/// The description limit [`cut_descriptions`] fits to (the lowest the writer leaves), and its
/// maximum in characters.
fn description_limit(limits: &PlatformLimits) -> Option<(&Limit, usize)> {
    let limit = limits
        .of(LimitKind::DescriptionChars)
        .filter(|l| !l.kept_by_writer && l.max.is_some())
        .min_by_key(|l| l.max)?;
    Some((limit, limit.max.unwrap_or(u64::MAX) as usize))
}

/// The longest beginning of `text` of at most `max` characters that ends a sentence (`.`, `!`,
/// `?` or `。` followed by a space or the end, or a blank line); without one, the text cut at
/// the last space that fits and ended with `…`.
pub fn cut_at_sentence(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let end = text.char_indices().nth(max).map_or(text.len(), |(at, _)| at);
    let within = &text[..end];
    let mut best = None;
    let mut chars = within.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        let ends = matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace)
            || c == '。'
            || c == '\n' && next == Some('\n');
        if ends {
            best = Some(at + c.len_utf8());
        }
    }
    match best {
        Some(at) if at > 0 => within[..at].trim_end().to_owned(),
        _ => {
            // Room for the ellipsis.
            let room = text.char_indices().nth(max.saturating_sub(1)).map_or(text.len(), |(at, _)| at);
            let at_space = text[room..].starts_with(char::is_whitespace);
            let word_end = if at_space { Some(room) } else { text[..room].rfind(char::is_whitespace) };
            let word_end = word_end.filter(|at| *at > 0).unwrap_or(room);
            format!("{}…", text[..word_end].trim_end())
        }
    }
}

/// What one tool's parameters measure, as OpenAI's strict mode counts: levels of objects and
/// arrays (the parameters object is level 1), object properties, enum values, and characters of
/// property names, definition names and enum values, each definition reached counted once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    pub depth: u64,
    /// A definition reaches itself: the depth has no bound.
    pub recursive: bool,
    pub properties: u64,
    pub enum_values: u64,
    pub chars: u64,
    /// Characters of each enum's string values, for enums of more than [`LARGE_ENUM_VALUES`].
    pub large_enum_chars: Vec<u64>,
}

/// [`Measure`] of every tool, in tool order. Linear in the model: each definition's depth is
/// computed once.
pub fn measure_all(model: &ToolSet) -> Vec<Measure> {
    let mut depths = Depths { model, memo: HashMap::new(), open: HashSet::new() };
    model.tools.iter().map(|tool| measure_tool(model, tool, &mut depths)).collect()
}

fn measure_tool<'a>(model: &'a ToolSet, tool: &'a Tool, depths: &mut Depths<'a>) -> Measure {
    let mut measure = Measure::default();
    let mut deepest = Some(0);
    let mut reached: IndexMap<&str, ()> = IndexMap::new();
    for parameter in &tool.parameters {
        measure.properties += 1;
        measure.chars += parameter.name.chars().count() as u64;
        count(model, &parameter.schema, &mut measure, &mut reached);
        deepest = max_depth(deepest, depths.of(&parameter.schema));
    }
    // Definitions reached, each once, however often used.
    let mut next = 0;
    while let Some((name, ())) = reached.get_index(next) {
        let name: &str = name;
        next += 1;
        measure.chars += name.chars().count() as u64;
        if let Some(definition) = model.definitions.get(name) {
            count(model, definition, &mut measure, &mut reached);
        }
    }
    match deepest {
        Some(depth) => measure.depth = depth + 1,
        None => measure.recursive = true,
    }
    measure
}

/// Adds what `schema` holds to `measure`, without following references (those are recorded
/// in `reached`).
fn count<'a>(model: &'a ToolSet, schema: &'a Schema, measure: &mut Measure, reached: &mut IndexMap<&'a str, ()>) {
    let mut stack = vec![schema];
    while let Some(schema) = stack.pop() {
        if let Some(name) = &schema.reference {
            reached.entry(name.as_str()).or_insert(());
        }
        let values: Vec<&serde_json::Value> = match (&schema.enumeration, &schema.value_set) {
            (Some(values), _) => values.iter().map(|v| &v.value).collect(),
            (None, Some(set)) => {
                model.value_sets.get(set).map(|s| s.entries.iter().map(|e| &e.value).collect()).unwrap_or_default()
            }
            (None, None) => Vec::new(),
        };
        let text_chars: u64 = values.iter().filter_map(|v| v.as_str()).map(|s| s.chars().count() as u64).sum();
        measure.enum_values += values.len() as u64;
        measure.chars += text_chars;
        if values.len() > LARGE_ENUM_VALUES {
            measure.large_enum_chars.push(text_chars);
        }
        for property in &schema.properties {
            measure.properties += 1;
            measure.chars += property.name.chars().count() as u64;
            stack.push(&property.schema);
        }
        stack.extend(schema.items.as_deref());
        stack.extend(&schema.any_of);
    }
}

/// The larger depth; `None` (unbounded) wins.
fn max_depth(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    Some(a?.max(b?))
}

/// Levels of objects and arrays within schemas, each definition's computed once; `None` for a
/// definition that reaches itself.
struct Depths<'a> {
    model: &'a ToolSet,
    memo: HashMap<&'a str, Option<u64>>,
    open: HashSet<&'a str>,
}

impl<'a> Depths<'a> {
    fn of(&mut self, schema: &'a Schema) -> Option<u64> {
        let mut deepest = Some(0);
        if let Some(name) = schema.reference.as_deref() {
            deepest = self.definition(name);
        }
        let nests = !schema.properties.is_empty() || schema.items.is_some();
        let mut below = Some(0);
        for property in &schema.properties {
            below = max_depth(below, self.of(&property.schema));
        }
        if let Some(items) = &schema.items {
            below = max_depth(below, self.of(items));
        }
        let own = if nests { below.map(|b| b + 1) } else { below };
        deepest = max_depth(deepest, own);
        for member in &schema.any_of {
            deepest = max_depth(deepest, self.of(member));
        }
        deepest
    }

    fn definition(&mut self, name: &'a str) -> Option<u64> {
        if let Some(known) = self.memo.get(name) {
            return *known;
        }
        let Some(definition) = self.model.definitions.get(name) else { return Some(0) };
        if !self.open.insert(name) {
            return None;
        }
        let depth = self.of(definition);
        self.open.remove(name);
        self.memo.insert(name, depth);
        depth
    }
}

/// How `--split` groups tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitBy {
    /// By each tool's first OpenAPI tag (`untagged` for none); a tag with more tools than a
    /// request carries is split further by count.
    Tag,
    /// Consecutive runs of at most the cap, in source order.
    Count,
}

impl std::str::FromStr for SplitBy {
    type Err = String;

    /// `by-tag` or `by-count`, as `--split` and the Python API's `split=` spell them.
    fn from_str(text: &str) -> Result<SplitBy, String> {
        match text {
            "by-tag" => Ok(SplitBy::Tag),
            "by-count" => Ok(SplitBy::Count),
            _ => Err(format!("expected by-tag or by-count, got `{text}`")),
        }
    }
}

/// One document of a split: its name (a plain file-name segment) and its tools.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub name: String,
    pub tool_set: ToolSet,
}

/// A tool's OpenAPI tags. The one place outside the OpenAPI format that reads its extras
/// (`extras["openapi"]["operation"]["tags"]`): tags have no model field yet.
pub fn tags(tool: &Tool) -> Vec<&str> {
    let tags = tool.extras.get("openapi").and_then(|o| o.get("operation")).and_then(|o| o.get("tags"));
    tags.and_then(|t| t.as_array()).map(|t| t.iter().filter_map(|t| t.as_str()).collect()).unwrap_or_default()
}

/// The name used for tools without a tag.
pub const UNTAGGED: &str = "untagged";

/// Splits `model` into parts of at most `cap` tools each, named by tag or by number. Every
/// part keeps the whole tool set's other fields (servers, auth, definitions); an example goes
/// with the part holding every tool it calls (one calling none goes with the first part).
pub fn split(model: &ToolSet, by: SplitBy, cap: usize) -> Vec<Part> {
    let cap = cap.max(1);
    let groups: Vec<(String, Vec<usize>)> = match by {
        SplitBy::Count => {
            let indices: Vec<usize> = (0..model.tools.len()).collect();
            let chunks: Vec<Vec<usize>> = indices.chunks(cap).map(<[usize]>::to_vec).collect();
            let width = chunks.len().to_string().len();
            chunks.into_iter().enumerate().map(|(n, tools)| (format!("part-{:0width$}", n + 1), tools)).collect()
        }
        SplitBy::Tag => {
            let mut by_tag: IndexMap<String, Vec<usize>> = IndexMap::new();
            for (i, tool) in model.tools.iter().enumerate() {
                let tag = tags(tool).first().map(|t| plain_segment(t)).unwrap_or_else(|| UNTAGGED.to_owned());
                by_tag.entry(tag).or_default().push(i);
            }
            let mut groups = Vec::new();
            for (tag, tools) in by_tag {
                if tools.len() <= cap {
                    groups.push((tag, tools));
                } else {
                    for (n, chunk) in tools.chunks(cap).enumerate() {
                        groups.push((format!("{tag}-{}", n + 1), chunk.to_vec()));
                    }
                }
            }
            groups
        }
    };
    let mut base = model.clone();
    base.tools.clear();
    base.examples.clear();
    let mut names_taken = HashSet::new();
    let mut parts = Vec::with_capacity(groups.len());
    for (n, (name, indices)) in groups.into_iter().enumerate() {
        let mut name = name;
        let wanted = name.clone();
        let mut k = 2;
        while !names_taken.insert(name.to_ascii_lowercase()) {
            name = format!("{wanted}-{k}");
            k += 1;
        }
        let mut tool_set = base.clone();
        let names: HashSet<&str> = indices.iter().map(|i| model.tools[*i].name.as_str()).collect();
        tool_set.tools = indices.iter().map(|i| model.tools[*i].clone()).collect();
        tool_set.examples = model
            .examples
            .iter()
            .filter(|e| {
                let mut called = e.called_tools().peekable();
                if called.peek().is_none() { n == 0 } else { called.all(|c| names.contains(c.tool.as_str())) }
            })
            .cloned()
            .collect();
        parts.push(Part { name, tool_set });
    }
    parts
}

/// `text` as one plain file-name segment: characters other than letters, digits, `_` and `-`
/// become `-`; nothing left is [`UNTAGGED`].
fn plain_segment(text: &str) -> String {
    let plain: String =
        text.chars().map(|c| if c.is_alphanumeric() || matches!(c, '_' | '-') { c } else { '-' }).collect();
    let plain = plain.trim_matches('-');
    if plain.is_empty() { UNTAGGED.to_owned() } else { plain.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform_limits::sources;
    use crate::{EnumValue, Parameter, Property, SchemaType};

    fn tool(name: &str, description: &str) -> Tool {
        Tool { name: name.into(), description: Some(description.into()), ..Tool::default() }
    }

    fn tagged(name: &str, tag: &str) -> Tool {
        let mut tool = tool(name, "d");
        tool.extras.insert("openapi".into(), serde_json::json!({"operation": {"tags": [tag]}}));
        tool
    }

    fn codes_and_paths(diagnostics: &[Diagnostic]) -> Vec<String> {
        diagnostics.iter().map(|d| format!("{} {}", d.code, d.path)).collect()
    }

    /// One check per limit kind: what breaks it is reported at its path with the number.
    #[test]
    fn each_limit_reports_its_breaches() {
        let source = sources::OPENAI_FUNCTION_CALLING;
        let check = |model: &ToolSet, limit: Limit| check_limits(model, &PlatformLimits(vec![limit]), "t", |_| true);
        let three = ToolSet { tools: vec![tool("a", "x"), tool("b", "x"), tool("c", "x")], ..ToolSet::default() };
        let over = check(&three, Limit::at_most(LimitKind::ToolsPerRequest, 2, source));
        assert_eq!(codes_and_paths(&over), ["limit/tools /tools"]);
        assert!(over[0].message.starts_with("3 tools, and a request to t carries at most 2: they need 2 requests"));
        assert!(check(&three, Limit::at_most(LimitKind::ToolsPerRequest, 3, source)).is_empty());

        let mut named = ToolSet { tools: vec![tool("ok", "x"), tool("not ok", "x")], ..ToolSet::default() };
        named.tools[0].parameters.push(Parameter::new("a.b", Schema::of(SchemaType::String)));
        let rule = Limit::name(LimitKind::ToolName, 64, "A-Za-z0-9_-", source);
        assert_eq!(codes_and_paths(&check(&named, rule)), ["limit/name /tools/1/name"]);
        let rule = Limit::name(LimitKind::ParameterName, 64, "A-Za-z0-9_", source);
        assert_eq!(codes_and_paths(&check(&named, rule)), ["limit/name /tools/0/parameters/0/name"]);
        assert!(check(&named, Limit::name(LimitKind::ToolName, 64, "a-z", source).kept_by_writer()).is_empty());

        let long = ToolSet { tools: vec![tool("a", "12345"), tool("b", "123456")], ..ToolSet::default() };
        let found = check(&long, Limit::at_most(LimitKind::DescriptionChars, 5, source));
        assert_eq!(codes_and_paths(&found), ["limit/description /tools/1/description"]);
        assert!(found[0].message.contains("6 characters; t takes at most 5"));

        let titled = ToolSet { title: Some("x".repeat(10)), ..ToolSet::default() };
        assert_eq!(
            codes_and_paths(&check(&titled, Limit::at_most(LimitKind::DisplayName, 9, source))),
            ["limit/name /title"]
        );
        let servers = ToolSet {
            servers: vec![crate::Server { url: "https://a".into(), ..Default::default() }; 2],
            ..ToolSet::default()
        };
        assert_eq!(
            codes_and_paths(&check(&servers, Limit::at_most(LimitKind::Servers, 1, source))),
            ["limit/servers /servers"]
        );
    }

    /// The cuts a reader makes when asked (`Options::CUT_DESCRIPTIONS`) are the ones the host's
    /// fitting makes: the same descriptions and the same warnings; nothing without the request
    /// or the target.
    #[test]
    fn cuts_asked_of_a_reader_are_the_hosts_cuts() {
        let source = sources::OPENAI_FUNCTION_CALLING;
        let limits = PlatformLimits(vec![
            Limit::at_most(LimitKind::DescriptionChars, 40, source),
            Limit::at_most(LimitKind::DescriptionChars, 20, source).kept_by_writer(),
        ]);
        let long = "First sentence is here. Second one runs past the limit of forty.";
        let model = ToolSet { tools: vec![tool("a", long), tool("b", "short")], ..ToolSet::default() };
        let (mut by_host, mut by_reader) = (model.clone(), model.clone());
        let said_by_host = cut_descriptions(&mut by_host, &limits, "openai");
        let mut options = crate::Options::default();
        options.set(crate::Options::TARGET_FORMAT, "openai");
        assert!(cut_descriptions_as_asked(&mut by_reader.clone(), &options).is_empty(), "not asked");
        options.set(crate::Options::CUT_DESCRIPTIONS, cut_descriptions_request(&limits).unwrap());
        let said_by_reader = cut_descriptions_as_asked(&mut by_reader, &options);
        assert_eq!(by_reader, by_host);
        assert_eq!(by_reader.tools[0].description.as_deref(), Some("First sentence is here."));
        assert_eq!(said_by_reader, said_by_host);
        assert_eq!(codes_and_paths(&said_by_reader), ["changed/description /tools/0/description"]);
        assert_eq!(cut_descriptions_request(&PlatformLimits(Vec::new())), None, "no description limit");
    }

    fn object(properties: Vec<(&str, Schema)>) -> Schema {
        let properties =
            properties.into_iter().map(|(n, s)| Property { name: n.into(), required: false, schema: s }).collect();
        Schema { kind: Some(SchemaType::Object), properties, ..Schema::default() }
    }

    fn reference(name: &str) -> Schema {
        Schema { reference: Some(name.into()), ..Schema::default() }
    }

    /// Depth counts levels of objects and arrays through definitions; a definition reaching
    /// itself is unbounded; definitions count once however often used.
    #[test]
    fn schemas_are_measured_through_definitions_once() {
        let colour = Schema {
            enumeration: Some((0..300).map(|n| EnumValue::new(format!("c{n}"))).collect()),
            ..Schema::of(SchemaType::String)
        };
        let mut model = ToolSet::default();
        model.definitions.insert("Colour".into(), colour);
        model.definitions.insert("Box".into(), object(vec![("inner", object(vec![("colour", reference("Colour"))]))]));
        model.definitions.insert("Node".into(), object(vec![("next", reference("Node"))]));
        let mut paint = tool("paint", "d");
        paint.parameters.push(Parameter::new("box", reference("Box")));
        paint.parameters.push(Parameter::new("again", reference("Box")));
        let mut walk = tool("walk", "d");
        walk.parameters.push(Parameter::new("node", reference("Node")));
        model.tools = vec![paint, walk];
        let measures = measure_all(&model);
        // parameters object, Box, inner: 3 levels; 2 parameters + inner + colour properties.
        assert_eq!(measures[0].depth, 3);
        assert!(!measures[0].recursive && measures[1].recursive);
        assert_eq!(measures[0].properties, 4);
        assert_eq!(measures[0].enum_values, 300);
        let enum_chars: u64 = (0..300).map(|n| format!("c{n}").len() as u64).sum();
        assert_eq!(measures[0].large_enum_chars, [enum_chars]);
        // "box" + "again" + "inner" + "colour" + "Box" + "Colour" + the enum's values.
        assert_eq!(measures[0].chars, 3 + 5 + 5 + 6 + 3 + 6 + enum_chars);

        let source = sources::OPENAI_STRUCTURED_OUTPUTS;
        let limits = PlatformLimits(vec![
            Limit::at_most(LimitKind::SchemaDepth, 2, source).when("strict=true"),
            Limit::at_most(LimitKind::SchemaProperties, 3, source),
            Limit::at_most(LimitKind::EnumValues, 299, source),
            Limit::at_most(LimitKind::SchemaChars, 100, source),
            Limit::at_most(LimitKind::LargeEnumChars, 100, source),
        ]);
        let found = check_limits(&model, &limits, "t", |_| true);
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(found.len(), 6, "{messages:#?}");
        assert!(messages[0].contains("schema nesting levels 3; t with strict=true takes at most 2"));
        assert!(messages[1].contains("tool `walk`: schema nesting levels unbounded (recursive)"));
        assert!(found.iter().all(|d| d.code == codes::LIMIT_SCHEMA));
        assert!(check_limits(&model, &limits, "t", |l| l.when.is_none()).len() == 4);
    }

    #[test]
    fn descriptions_are_cut_at_a_sentence() {
        let check = |text: &str, max: usize, expect: &str| {
            let cut = cut_at_sentence(text, max);
            assert_eq!(cut, expect, "{text:?} at {max}");
            assert!(cut.chars().count() <= max);
        };
        check("One. Two. Three.", 12, "One. Two.");
        check("One. Two. Three.", 16, "One. Two. Three.");
        check("Version 1.2 is out. Next", 20, "Version 1.2 is out.");
        check("Para one\n\nPara two", 12, "Para one");
        check("no sentence end here at all", 12, "no sentence…");
        check("ééééé. ééé", 8, "ééééé.");

        let mut model = ToolSet { tools: vec![tool("a", "Short."), tool("b", "First. Second.")], ..ToolSet::default() };
        model.tools.push(Tool { name: "c".into(), title: Some("A title. Long.".into()), ..Tool::default() });
        let limits =
            PlatformLimits(vec![Limit::at_most(LimitKind::DescriptionChars, 8, sources::OPENAI_FUNCTION_CALLING)]);
        let changed = cut_descriptions(&mut model, &limits, "t");
        assert_eq!(
            codes_and_paths(&changed),
            ["changed/description /tools/1/description", "changed/description /tools/2/description"]
        );
        assert!(changed[0].message.contains("cut from 14 to 6 characters"));
        assert_eq!(model.tools[1].description.as_deref(), Some("First."));
        assert_eq!(model.tools[2].description.as_deref(), Some("A title."));
        assert!(check_limits(&model, &limits, "t", |_| true).is_empty());
    }

    #[test]
    fn splits_keep_each_part_within_the_cap() {
        let tools = vec![
            tagged("a", "pets"),
            tagged("b", "users"),
            tagged("c", "pets"),
            tagged("d", "pets"),
            tool("e", "d"),
            tagged("f", "Pets & more"),
        ];
        let mut model = ToolSet { tools, ..ToolSet::default() };
        let calls = |tool: &str| crate::Example {
            prompt: tool.into(),
            expected: vec![crate::Expectation::CallsTool(crate::ToolCall {
                tool: tool.into(),
                arguments: None,
                long_form: false,
            })],
            ..Default::default()
        };
        model.examples = vec![calls("b"), calls("d")];
        let summary = |parts: &[Part]| -> Vec<String> {
            parts
                .iter()
                .map(|p| {
                    let tools: Vec<&str> = p.tool_set.tools.iter().map(|t| t.name.as_str()).collect();
                    let examples: Vec<&str> = p.tool_set.examples.iter().map(|e| e.prompt.as_str()).collect();
                    format!("{}: {} [{}]", p.name, tools.join(","), examples.join(","))
                })
                .collect()
        };
        assert_eq!(
            summary(&split(&model, SplitBy::Tag, 2)),
            ["pets-1: a,c []", "pets-2: d [d]", "users: b [b]", "untagged: e []", "Pets---more: f []"]
        );
        assert_eq!(summary(&split(&model, SplitBy::Count, 4)), ["part-1: a,b,c,d [b,d]", "part-2: e,f []"]);
        let many = ToolSet { tools: (0..10).map(|n| tool(&format!("t{n}"), "d")).collect(), ..ToolSet::default() };
        let names: Vec<String> = split(&many, SplitBy::Count, 1).into_iter().map(|p| p.name).collect();
        assert_eq!(names.first().map(String::as_str), Some("part-01"));
        assert_eq!(names.last().map(String::as_str), Some("part-10"));
    }
}
