//! Names that must satisfy a target's rules (Vertex and Gemini function names, OpenAI tool
//! names, parameter names, file names): sanitising, deterministic shortening with a hash
//! suffix, and collision handling, with a map back to the original names.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

/// A target's naming rule: allowed first and later characters and a maximum length.
#[derive(Clone, Copy, Debug)]
pub struct NameRules {
    /// For messages: the rule as a pattern, e.g. `^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`.
    pub pattern: &'static str,
    pub max_len: usize,
    pub first: fn(char) -> bool,
    pub rest: fn(char) -> bool,
    /// What replaces a character that is not allowed.
    pub replacement: char,
    /// Prepended when the first character is not allowed (after replacement).
    pub lead: &'static str,
}

fn ascii_letter_or_underscore(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}
fn word_dot_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}
fn word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}
fn word_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}
fn lower_dash(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
}
fn lower_alnum(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

impl NameRules {
    /// Vertex and Gemini function names.
    pub const FUNCTION: NameRules = NameRules {
        pattern: "^[A-Za-z_][A-Za-z0-9_.-]{0,63}$",
        max_len: 64,
        first: ascii_letter_or_underscore,
        rest: word_dot_dash,
        replacement: '_',
        lead: "_",
    };
    /// Vertex parameter names (no dots or dashes).
    pub const PARAMETER: NameRules = NameRules {
        pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$",
        max_len: 64,
        first: ascii_letter_or_underscore,
        rest: word,
        replacement: '_',
        lead: "_",
    };
    /// OpenAI and Anthropic tool names.
    pub const WORD_DASH_64: NameRules = NameRules {
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
        max_len: 64,
        first: word_dash,
        rest: word_dash,
        replacement: '_',
        lead: "",
    };
    /// MCP tool names.
    pub const MCP: NameRules = NameRules {
        pattern: "^[A-Za-z0-9_.-]{1,128}$",
        max_len: 128,
        first: word_dot_dash,
        rest: word_dot_dash,
        replacement: '_',
        lead: "",
    };
    /// File names safe everywhere: lower-case kebab case (Raycast tool files, SkyDeck files).
    pub const FILE_SLUG: NameRules = NameRules {
        pattern: "^[a-z0-9][a-z0-9-]{0,79}$",
        max_len: 80,
        first: lower_alnum,
        rest: lower_dash,
        replacement: '-',
        lead: "x",
    };

    pub fn is_valid(&self, name: &str) -> bool {
        let mut chars = name.chars();
        match chars.next() {
            Some(c) if (self.first)(c) => {}
            _ => return false,
        }
        name.chars().count() <= self.max_len && chars.all(self.rest)
    }
}

/// FNV-1a, 64 bits: a stable hash for suffixes (the same on every machine and release).
pub fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn hash_suffix(text: &str) -> String {
    format!("{:08x}", stable_hash(text) as u32)
}

/// What a tool set's name was made from when it had no id ([`tool_set_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadeFrom {
    Title,
    OutputName,
}

impl std::fmt::Display for MadeFrom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MadeFrom::Title => "the title",
            MadeFrom::OutputName => "the output's name",
        })
    }
}

/// A description for the whole tool set where a target requires one (an MCP bundle, a Copilot
/// plugin): its own; else its title; else one naming `name` and its tools. With how it was
/// made, for the writer's `generated` warning (`None`: the tool set's own). A blank text counts
/// as none.
pub fn tool_set_description(set: &crate::ToolSet, name: &str) -> (String, Option<String>) {
    if let Some(description) = set.description.as_deref().filter(|d| !d.trim().is_empty()) {
        return (description.to_owned(), None);
    }
    match set.title.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(title) => (title.to_owned(), Some("the title is used".to_owned())),
        None => {
            let made = match set.tools.as_slice() {
                [one] => format!("{name}: the {} tool", one.name),
                tools => format!("{name}: {} tools", tools.len()),
            };
            let how = format!("`{made}` is written");
            (made, Some(how))
        }
    }
}

/// A name for the whole tool set where a target needs one (a Vertex manifest, an MCP server):
/// its id as written, else one made by `rules` from its title, else from `output_name`; with
/// what it was made from, for the writer's `generated` diagnostic (`None`: the id). A blank id
/// or title counts as none.
pub fn tool_set_name(
    id: Option<&str>,
    title: Option<&str>,
    output_name: &str,
    rules: &NameRules,
) -> (String, Option<MadeFrom>) {
    let blank = |t: &&str| t.trim().is_empty();
    if let Some(id) = id.filter(|t| !blank(t)) {
        return (id.to_owned(), None);
    }
    match title.filter(|t| !blank(t)) {
        Some(title) => (sanitize(title, rules), Some(MadeFrom::Title)),
        None => (sanitize(output_name, rules), Some(MadeFrom::OutputName)),
    }
}

/// Makes `name` satisfy `rules` without regard to other names: disallowed characters
/// replaced (runs collapsed), an invalid first character led, and an over-long name cut with a
/// hash of the original appended so different long names stay different.
pub fn sanitize(name: &str, rules: &NameRules) -> String {
    let folding_case = rules.replacement == '-';
    let mut out = String::with_capacity(name.len());
    let mut last_replaced = false;
    let mut prev_lower = false;
    for c in name.chars() {
        // Kebab case: split camelCase words before lower-casing them.
        if folding_case && c.is_ascii_uppercase() && prev_lower && !last_replaced {
            out.push(rules.replacement);
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        let c = if folding_case { c.to_ascii_lowercase() } else { c };
        if (rules.rest)(c) {
            out.push(c);
            last_replaced = c == rules.replacement;
        } else if !last_replaced {
            out.push(rules.replacement);
            last_replaced = true;
        }
    }
    if folding_case {
        out = out.trim_matches(rules.replacement).to_owned();
    }
    if out.is_empty() || out.chars().all(|c| c == rules.replacement) {
        out.clear();
    } else if !out.chars().next().is_some_and(rules.first) {
        out.insert_str(0, rules.lead);
    }
    if out.is_empty() || !out.chars().next().is_some_and(rules.first) {
        out = format!("{}{}", rules.lead, hash_suffix(name));
        if !out.chars().next().is_some_and(rules.first) {
            out.insert(0, 'x');
        }
    }
    if out.chars().count() > rules.max_len {
        let suffix = hash_suffix(name);
        let keep = rules.max_len - suffix.len() - 1;
        out = out.chars().take(keep).collect::<String>();
        out.push(rules.replacement);
        out.push_str(&suffix);
    }
    out
}

/// Assigns target names to source names in a fixed order, so the same input always gives the
/// same names. Keeps the map back to the originals for `x-` keys and diagnostics.
#[derive(Clone, Debug)]
pub struct NameMap {
    rules: NameRules,
    used: HashSet<String>,
    /// For a hash-suffixed name that was taken, the counter to try next: names that share a
    /// hash suffix do not each count up from 2 again.
    counters: HashMap<String, usize>,
    /// Original → assigned, in assignment order.
    pub assigned: IndexMap<String, String>,
    /// Applied to a name that is not plain ASCII before it is sanitised (a transliteration to
    /// ASCII, so `áreas` becomes `areas` rather than `_reas`); core has none of its own.
    transliterate: Option<fn(&str) -> String>,
}

impl NameMap {
    pub fn new(rules: NameRules) -> Self {
        NameMap {
            rules,
            used: HashSet::new(),
            counters: HashMap::new(),
            assigned: IndexMap::new(),
            transliterate: None,
        }
    }

    /// The same map, passing every name that is not plain ASCII through `transliterate` before
    /// sanitising it. Hash suffixes are still taken from the original, so two originals that
    /// transliterate alike stay apart.
    pub fn with_transliteration(mut self, transliterate: fn(&str) -> String) -> Self {
        self.transliterate = Some(transliterate);
        self
    }

    /// The target name for `original`. The first taker of a name keeps it; a later name that
    /// would collide gets a hash suffix (and, failing that, a counter).
    pub fn assign(&mut self, original: &str) -> String {
        if let Some(name) = self.assigned.get(original) {
            return name.clone();
        }
        let mut name = match self.transliterate {
            Some(transliterate) if !original.is_ascii() => sanitize(&transliterate(original), &self.rules),
            _ => sanitize(original, &self.rules),
        };
        if self.used.contains(&name) {
            let suffix = hash_suffix(original);
            let base: String = name.chars().take(self.rules.max_len - suffix.len() - 1).collect();
            name = format!("{base}{}{suffix}", self.rules.replacement);
            if self.used.contains(&name) {
                let hashed = name.clone();
                let mut counter = self.counters.get(&hashed).copied().unwrap_or(2);
                while self.used.contains(&name) {
                    let tail = format!("{}{suffix}{counter}", self.rules.replacement);
                    let base: String = name.chars().take(self.rules.max_len - tail.len()).collect();
                    name = format!("{base}{tail}");
                    counter += 1;
                }
                self.counters.insert(hashed, counter);
            }
        }
        self.used.insert(name.clone());
        self.assigned.insert(original.to_owned(), name.clone());
        name
    }

    /// Target names for `originals`, in their order, where a name that is already valid keeps
    /// itself whatever comes before it: the valid names are claimed first (in order), then
    /// every other name is [`assign`](Self::assign)ed, so on a collision the name that had to
    /// change is the one that gets a suffix (`list/items` becomes `list_items_<hash>` when
    /// `list_items` is also in the list, wherever it is). Deterministic for the same list.
    pub fn assign_all<'o>(&mut self, originals: impl IntoIterator<Item = &'o str> + Clone) -> Vec<String> {
        for original in originals.clone() {
            if self.rules.is_valid(original) && !self.assigned.contains_key(original) && !self.used.contains(original) {
                self.used.insert(original.to_owned());
                self.assigned.insert(original.to_owned(), original.to_owned());
            }
        }
        originals.into_iter().map(|original| self.assign(original)).collect()
    }

    pub fn rules(&self) -> &NameRules {
        &self.rules
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(rules: &NameRules, input: &str, expect: &str) {
        let got = sanitize(input, rules);
        assert_eq!(got, expect, "sanitize({input:?})");
        assert!(rules.is_valid(&got), "{got:?} breaks {}", rules.pattern);
    }

    #[test]
    fn sanitizes_function_names() {
        check(&NameRules::FUNCTION, "repos/get-content", "repos_get-content");
        check(&NameRules::FUNCTION, "List all pets", "List_all_pets");
        check(&NameRules::FUNCTION, "1password", "_1password");
        check(&NameRules::FUNCTION, "", "_84222325");
        check(&NameRules::PARAMETER, "user.name", "user_name");
        check(&NameRules::FILE_SLUG, "createTask", "create-task");
        check(&NameRules::FILE_SLUG, "../../x", "x");
        check(&NameRules::FILE_SLUG, "Get Weather!", "get-weather");
    }

    #[test]
    fn a_tool_set_is_named_by_its_id_else_its_title_else_the_output() {
        let rules = &NameRules::FUNCTION;
        assert_eq!(tool_set_name(Some("weather"), Some("Weather"), "out", rules), ("weather".into(), None));
        // A blank id is no id; a blank title no title.
        assert_eq!(
            tool_set_name(Some(" "), Some("My Tools"), "out", rules),
            ("My_Tools".into(), Some(MadeFrom::Title))
        );
        assert_eq!(tool_set_name(None, Some(""), "my-file", rules), ("my-file".into(), Some(MadeFrom::OutputName)));
    }

    #[test]
    fn long_names_are_cut_with_a_hash() {
        let long = "a".repeat(100);
        let got = sanitize(&long, &NameRules::FUNCTION);
        assert_eq!(got.len(), 64);
        assert_ne!(got, sanitize(&format!("{long}b"), &NameRules::FUNCTION));
    }

    #[test]
    fn valid_names_keep_themselves_and_the_changed_name_is_suffixed() {
        // (originals in order, the names they get)
        let cases: &[(&[&str], &[&str])] = &[
            (&["list/items", "list_items"], &["list_items_a871c476", "list_items"]),
            (&["list_items", "list/items"], &["list_items", "list_items_a871c476"]),
            (&["a b", "a.b", "a_b"], &["a_b_04833892", "a.b", "a_b"]),
            (&["x", "x", "x y"], &["x", "x", "x_y"]),
        ];
        for (originals, expect) in cases {
            let mut map = NameMap::new(NameRules::MCP);
            let got = map.assign_all(originals.iter().copied());
            assert_eq!(&got, expect, "{originals:?}");
            let mut again = NameMap::new(NameRules::MCP);
            assert_eq!(again.assign_all(originals.iter().copied()), got, "deterministic");
        }
    }

    #[test]
    fn collisions_get_distinct_stable_names() {
        let mut map = NameMap::new(NameRules::FUNCTION);
        let a = map.assign("get/user");
        let b = map.assign("get-user".replace('-', "_").as_str());
        let c = map.assign("get user");
        assert_eq!(a, "get_user");
        assert_ne!(a, b);
        assert_ne!(b, c);
        assert_eq!(map.assign("get/user"), a, "stable for a repeated original");
        for name in [&a, &b, &c] {
            assert!(NameRules::FUNCTION.is_valid(name), "{name}");
        }
    }
}
