//! The `skydeck` format: SkyDeck's "JSON format for LLM tools", one tool per file: a
//! `model_prompt` with `{{variable}}` placeholders and a `metadata` object (name, description,
//! usage notes, model versions and parameters, creator, variables, expected output, avatar,
//! timestamp).
//!
//! # Mapping
//!
//! | SkyDeck | model |
//! |---|---|
//! | `version` (string or integer, kept as it was) | `ToolSet.version` |
//! | `model_prompt` | `Tool.prompt` |
//! | `metadata.prompt_name` | `Tool.title`; `Tool.name` is its file-safe slug (`Audience Summarizer` → `audience-summarizer`), or the file stem's slug without one |
//! | `metadata.description`, `usage_notes` | `Tool.description`, `Tool.usage_notes` |
//! | `metadata.model_version` (array, or one string) | `Tool.model_settings.models` |
//! | `metadata.parameters` | `Tool.model_settings` (temperature, max_tokens, top_p, penalties) |
//! | `metadata.creator` | `ToolSet.creator` |
//! | `metadata.variables` | `Tool.parameters`: text → string, single-select → string enum, multi-select → array of string enum; a variable without `default` is required |
//! | `metadata.expected_output` | `Tool.output` (`type` → kind, format, language, allowed_values) |
//! | `metadata.avatar_type` + `avatar`, or `avatar: {avatar_type, avatar}` | `ToolSet.icon` (URL or base64) |
//! | `metadata.timestamp` (verbatim) | `ToolSet.timestamps.updated` |
//!
//! Anything else (unknown keys, values of the wrong type, which spelling an optional form took)
//! is kept under `extras["skydeck"]` (keys in [`kept`]), so reading and writing a file gives
//! back the same document. The writer writes the flat avatar form unless the file it came from
//! used the object form.
//!
//! # Diagnostics of this format
//!
//! Besides the core codes: `input/tolerated` for the spec's JSON defects (trailing comma, a
//! comma missing at a line break; see [`lenient`]), translated variable types and avatar key
//! spellings; `input/unresolved` at `/model_prompt` for a placeholder that names no variable;
//! [`UNUSED_VARIABLE`] at `/metadata/variables/N` for a variable no placeholder uses.
//!
//! [`render_prompt`] fills a prompt from arguments, as a SkyDeck client would.

mod lenient;
pub mod placeholder;
mod read;
mod shape;
mod write;

pub use placeholder::{Placeholder, generated_prompt, placeholders, render_prompt};

use toolport_plugin::names::{NameRules, sanitize};
use toolport_plugin::{Bundle, Detection, Format, FormatInfo, InputShape, Options, Outcome, ToolSet};

/// This format's id, also its key in `extras`.
pub const FORMAT_ID: &str = "skydeck";

/// A variable that no `{{placeholder}}` of `model_prompt` uses (warning).
pub const UNUSED_VARIABLE: &str = "input/unused-variable";

/// Keys of `extras["skydeck"]`: what the reader keeps for an exact round trip.
pub mod kept {
    /// On a tool: unknown or unreadable top-level keys, as written.
    pub const TOP: &str = "keys";
    /// On a tool: unknown or unreadable keys of `metadata`.
    pub const METADATA: &str = "metadata_keys";
    /// On a tool: unknown or unreadable keys of `metadata.creator`.
    pub const CREATOR: &str = "creator_keys";
    /// On a tool: unknown or unreadable keys of `metadata.parameters` (the spec's sample has
    /// `"temperature": "float"`).
    pub const PARAMETERS: &str = "parameters_keys";
    /// On a tool: unknown or unreadable keys of `metadata.expected_output`.
    pub const OUTPUT: &str = "expected_output_keys";
    /// On a tool: `"string"` when `model_version` was one string, `"array"` when an empty array.
    pub const MODEL_VERSION_FORM: &str = "model_version_form";
    /// On a tool: the avatar was an object: `{type_key, data_key, keys}` (its key names and
    /// unknown keys).
    pub const AVATAR_FORM: &str = "avatar_form";
    /// On a tool: the avatar had no `avatar_type`.
    pub const AVATAR_TYPE_MISSING: &str = "avatar_type_missing";
    /// On a tool: containers present but empty (`"metadata"`, `"parameters"`, `"variables"`).
    pub const EMPTY: &str = "empty";
    /// On a tool: `metadata.prompt_name` was absent (the writer otherwise writes the tool name).
    pub const NO_PROMPT_NAME: &str = "no_prompt_name";
    /// On a tool: `metadata.prompt_name` was blank, so the tool was named after its file (the
    /// writer otherwise writes a blank title as the tool name: other formats' blank titles,
    /// such as an OpenAPI `summary: ""`, are no name).
    pub const BLANK_PROMPT_NAME: &str = "blank_prompt_name";
    /// On a tool: `model_prompt` was absent (the writer otherwise generates one).
    pub const NO_MODEL_PROMPT: &str = "no_model_prompt";
    /// On a parameter: the variable's `type` as written (`null`: absent), present when the
    /// standard mapping would not give the variable back as it was; the writer then writes
    /// type, default and allowed values verbatim.
    pub const VARIABLE_TYPE: &str = "type";
    /// On a parameter: unknown or unreadable keys of the variable.
    pub const VARIABLE: &str = "keys";
}

/// The `skydeck` format.
#[derive(Debug, Default)]
pub struct SkyDeck;

impl Format for SkyDeck {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: FORMAT_ID.into(),
            aliases: vec![],
            description: "SkyDeck JSON for LLM tools: one tool per file, model_prompt with {{variables}} and metadata"
                .into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into(), "jsonish".into()],
            options: Some(vec![]),
            limits: Default::default(),
        }
    }

    /// High when the document is an object with a string `model_prompt` and/or a `metadata`
    /// holding `variables` or `prompt_name`; the spec's JSON defects are tolerated here too.
    fn detect(&self, input: &Bundle) -> Detection {
        let Some((file, text)) = input.entry_file() else { return 0 };
        if !text.contains("model_prompt") && !text.contains("prompt_name") {
            return 0;
        }
        let Ok(parsed) = lenient::parse(file, text) else { return 0 };
        let Some(root) = parsed.value.as_object() else { return 0 };
        let prompt = root.get("model_prompt").is_some_and(|p| p.is_string());
        let metadata = root
            .get("metadata")
            .and_then(|m| m.as_object())
            .is_some_and(|m| m.contains_key("variables") || m.contains_key("prompt_name"));
        match (prompt, metadata) {
            (true, true) => 95,
            (true, false) => 85,
            (false, true) => 70,
            (false, false) => 0,
        }
    }

    fn read(&self, input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        read::read(input)
    }

    /// Writes one `{slug}.json` per tool; a single tool is written to
    /// `{options.output_name(slug)}.json`.
    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        write::write(model, options)
    }
}

/// The tool's stable name as the reader gives it: a slug of `prompt_name`, or of the file's
/// stem when it is absent or blank. A stem ending in `.skydeck` is named without it: that is the
/// format's mark in a file name (convert names what it writes `NAME.skydeck.json`), not part of
/// the tool's name. The writer predicts the name a tool comes back under with it.
pub(crate) fn tool_name(prompt_name: Option<&str>, file: &str) -> String {
    let stem = file.rsplit('/').next().unwrap_or(file);
    let stem = stem.rsplit_once('.').map_or(stem, |(base, _)| base);
    let stem = stem.strip_suffix(".skydeck").filter(|base| !base.is_empty()).unwrap_or(stem);
    match prompt_name.filter(|t| !t.trim().is_empty()) {
        Some(title) => sanitize(title, &NameRules::FILE_SLUG),
        None => sanitize(stem, &NameRules::FILE_SLUG),
    }
}
