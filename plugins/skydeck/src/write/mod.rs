//! Model → SkyDeck files: one `{slug}.json` per tool, part by part; each part mirrors the one of
//! the same name in `read/`: `document`, `prompt` (`model_prompt`, generated when a tool has
//! none), `metadata`, `variables`, `output` and `avatar`. The tool set's version, creator, icon
//! and timestamp go into every file. Output is always strict JSON (never the spec's defects),
//! 2-space indented with a trailing newline, keys in the spec's order.
//!
//! What SkyDeck cannot say is reported: model fields through [`uncarried`], and in the parts
//! the partial losses (a creator's URL, an icon path, output schemas, enum labels), the changes
//! SkyDeck forces (every parameter becomes text, a single-select or a multi-select) and the
//! prompts made up for tools that had none (`generated/content`).

mod avatar;
mod document;
mod metadata;
mod output;
mod prompt;
mod variables;

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};
use toolport_plugin::definitions::Budget;
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::{NameMap, NameRules};
use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Diagnostic, Options, Outcome, Severity, Tool, ToolSet, codes};

use crate::FORMAT_ID;

/// What [`uncarried`] should not report: everything below is written (partial losses inside
/// these are reported here).
const CARRIED: Carried = Carried {
    tool_set: &["version", "creator", "icon", "timestamps"],
    tool: &["title", "description", "usage_notes", "icon", "output", "prompt", "model_settings"],
    parameter: &["required"],
    schema: &["type", "description", "default", "enum", "items", "value_set"],
    example: &[],
};

pub(crate) fn write(model: &ToolSet, options: &Options) -> Outcome<Bundle> {
    if model.tools.is_empty() {
        return Outcome::fail(Diagnostic::error(
            codes::INPUT_INVALID,
            "/tools",
            "the tool set has no tools; SkyDeck writes one file per tool, so there is nothing to write",
        ));
    }
    // SkyDeck schemas cannot refer to others: references are inlined first, so only real
    // losses (a recursive definition cut short) are reported. Only where the writer reads: a
    // parameter schema's own level and its `items` (a multi-select's values).
    let (resolved, cuts) = toolport_plugin::definitions::resolve_carried(model, &CARRIED);
    let model = &resolved;
    let mut diagnostics: Vec<Diagnostic> = uncarried(model, FORMAT_ID, &CARRIED)
        .into_iter()
        .chain(cuts)
        // An output schema is reported whole below; its keywords need no report each.
        .filter(|d| !is_output_schema_detail(&d.path))
        .collect();
    let mut writer = Writer {
        model,
        diagnostics: Vec::new(),
        noted: HashSet::new(),
        set_icon_used: false,
        budget: Budget::for_model(model),
    };
    let mut bundle = Bundle::default();
    let mut names = NameMap::new(NameRules::FILE_SLUG);
    // The names tools read back under so far: SkyDeck names a tool after its `prompt_name`, so
    // two tools of one title would come back as one name.
    let mut read_back_names = HashSet::new();
    let single = model.tools.len() == 1;
    for (index, tool) in model.tools.iter().enumerate() {
        let tool_path = child("/tools", index.to_string());
        let mut slug = names.assign(&tool.name);
        if bundle.files.contains_key(&format!("{slug}.json")) {
            // Two tools with the same name still get two files.
            slug = names.assign(&format!("{}#{index}", tool.name));
        }
        let base = if single { safe_base(options.output_name(&slug)).unwrap_or(&slug) } else { &slug };
        let file = format!("{base}.json");
        let asked = metadata::prompt_name(tool, &own_extras(tool));
        let prompt_name = unique_prompt_name(tool, asked, &file, &mut read_back_names);
        let document = writer.tool_document(tool, prompt_name.as_deref(), &tool_path);
        let read_back = crate::tool_name(prompt_name.as_deref(), &file);
        // A warning: the tool comes back under another name, which callers of it do not know.
        if read_back != tool.name {
            let why = match (asked, &prompt_name) {
                (Some(asked), Some(written)) if asked != written => format!(
                    "and another tool is named `{asked}`: tool `{}` is written to `{file}` with the prompt_name `{written}`",
                    tool.name
                ),
                _ => format!("tool `{}` is written to `{file}`", tool.name),
            };
            let message = format!(
                "SkyDeck names a tool after its prompt_name or file, {why}, and reading it back names it `{read_back}`"
            );
            writer.diagnostics.push(
                Diagnostic::warning(codes::CHANGED_NAME, child(&tool_path, "name"), message)
                    .renaming(&tool.name, &read_back, None),
            );
        }
        let mut text = serde_json::to_string_pretty(&Value::Object(document)).unwrap_or_default();
        text.push('\n');
        bundle.insert(file, text);
    }
    writer.set_level();
    diagnostics.extend(writer.diagnostics);
    Outcome::ok(bundle, diagnostics)
}

/// The `prompt_name` written for a tool: the one it asks for, unless a tool written before reads
/// back under the same name (a blank one reads back as its file, which is unique); then its title followed by its name in parentheses (`Get a commit
/// (git/get-commit)`), counted on should that be taken too. Records the name it reads back under.
fn unique_prompt_name(
    tool: &Tool,
    asked: Option<&str>,
    file: &str,
    read_back_names: &mut HashSet<String>,
) -> Option<String> {
    let mut prompt_name = asked.map(str::to_owned);
    if let Some(asked) = asked.filter(|a| !a.trim().is_empty())
        && read_back_names.contains(&crate::tool_name(Some(asked), file))
    {
        let qualified = format!("{asked} ({})", tool.name);
        let mut candidate = qualified.clone();
        let mut counter = 2;
        while read_back_names.contains(&crate::tool_name(Some(&candidate), file)) {
            candidate = format!("{qualified} {counter}");
            counter += 1;
        }
        prompt_name = Some(candidate);
    }
    read_back_names.insert(crate::tool_name(prompt_name.as_deref(), file));
    prompt_name
}

fn is_output_schema_detail(path: &str) -> bool {
    let mut segments = path.split('/').skip(1);
    segments.next() == Some("tools")
        && segments.next().is_some()
        && segments.next() == Some("output")
        && segments.next() == Some("schema")
        && segments.next().is_some()
}

/// The host's suggested base name, when it is a plain file name.
fn safe_base(name: &str) -> Option<&str> {
    let plain = !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\', '\0']);
    plain.then_some(name)
}

struct Writer<'a> {
    model: &'a ToolSet,
    diagnostics: Vec<Diagnostic>,
    /// Code and path of every diagnostic in `diagnostics`.
    noted: HashSet<(&'static str, String)>,
    set_icon_used: bool,
    /// The document's expansion budget, charged for each value set listed in a variable.
    budget: Budget,
}

impl Writer<'_> {
    /// Adds a diagnostic, once: the set's fields go into every file but are reported once.
    fn note(&mut self, severity: Severity, code: &'static str, path: String, message: String) {
        if self.noted.insert((code, path.clone())) {
            self.diagnostics.push(Diagnostic::new(severity, code, path, message));
        }
    }

    /// Partial losses of the tool set's own fields, reported once.
    fn set_level(&mut self) {
        let model = self.model;
        if model.creator.as_ref().is_some_and(|c| c.url.is_some()) {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                "/creator/url".into(),
                "a SkyDeck creator has a name, an email and an organization, no URL; the URL was left out".into(),
            );
        }
        if model.icon.is_some() && !self.set_icon_used {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                "/icon".into(),
                "every tool has its own icon, so the tool set's icon was left out".into(),
            );
        }
        if let (Some(created), Some(updated)) = (&model.timestamps.created, &model.timestamps.updated)
            && created != updated
        {
            self.note(
                Severity::Warning,
                codes::LOSS_FIELD,
                "/timestamps/created".into(),
                format!(
                    "SkyDeck has one timestamp: the last update `{updated}` is written, the creation time `{created}` was left out"
                ),
            );
        }
    }
}

/// What the reader kept of a SkyDeck source in a tool's `extras["skydeck"]`, or nothing.
fn own_extras(tool: &Tool) -> Cow<'_, Map<String, Value>> {
    match tool.extras.get(FORMAT_ID) {
        Some(Value::Object(own)) => Cow::Borrowed(own),
        _ => Cow::Owned(Map::new()),
    }
}

/// The object the reader kept under `key` in a tool's `extras["skydeck"]`, or an empty one.
fn kept_map(own: &Map<String, Value>, key: &str) -> Map<String, Value> {
    own.get(key).and_then(Value::as_object).cloned().unwrap_or_default()
}

/// A flag the reader kept in a tool's `extras["skydeck"]`.
fn flag(own: &Map<String, Value>, key: &str) -> bool {
    own.get(key).and_then(Value::as_bool).unwrap_or(false)
}
