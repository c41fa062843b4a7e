//! Anthropic tools: `{name, description?, input_schema, input_examples?, strict?, cache_control?}`.
//! A file holds an array of tools, `{"tools": [...]}`, or one tool.
//!
//! `input_examples` become canonical examples: one example per input example, with an empty
//! prompt (Anthropic gives none, and inventing one would be read back as if a user had said it)
//! and one expected call of the tool whose arguments are plain equalities, in order. Any example
//! of that form is written back as an input example of its tool when the tool's schema accepts
//! it (Anthropic refuses one it does not; a missing required value is completed from its
//! default, [`validate`]); other examples and parts of examples are reported as loss.
//!
//! Reading keeps under `extras["anthropic"]` the document's shape, `strict`, `cache_control`,
//! unknown keys, and `input_schema` verbatim when the canonical schema cannot reproduce it.
//! Writing: names follow `^[a-zA-Z0-9_-]{1,64}$`; strict mode (options key `strict=true`, or a
//! tool whose source said `strict: true`) drops numeric and length constraints (reported) and is
//! turned off, with a diagnostic, for a recursive schema.

mod examples;
mod read;
pub mod strict;
mod validate;
mod write;

use serde_json::Value;
use toolport_plugin::function_tools;
use toolport_plugin::function_tools::common::{self, json_file_info};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::names::NameRules;
use toolport_plugin::platform_limits::sources;
use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, Limit, LimitKind, OptionSpec, Options, Outcome, PlatformLimits, ToolSet,
};

const DIALECT: Dialect = Dialect::JsonSchema;

const ID: &str = "anthropic";

/// Anthropic tool names.
pub const NAME_RULES: NameRules = NameRules::WORD_DASH_64;

/// The `anthropic` format.
#[derive(Debug, Default)]
pub struct Anthropic;

impl Format for Anthropic {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["claude".into(), "anthropic-tools".into()],
            description: "Anthropic (Claude) tool definitions with input_schema (JSON)".into(),
            options: Some(vec![OptionSpec::one_of(
                "strict",
                &["true", "false"],
                "the source's own `strict` setting, else false",
                "strict tool use: every property required, no additional properties, schemas inlined (a tool whose schema cannot be strict is written without it, with a warning)",
            )]),
            limits: PlatformLimits(vec![
                Limit::kept_name(LimitKind::ToolName, &NAME_RULES, sources::ANTHROPIC_TOOLS),
                Limit::rule(
                    "strict: no recursive schemas, no numeric, length or array-size bounds",
                    sources::ANTHROPIC_STRICT,
                )
                .when("strict=true"),
            ]),
            ..json_file_info(ID, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        common::detect_tool_list(input, |v: &Value| {
            v.get("name").is_some_and(Value::is_string) && v.get("input_schema").is_some()
        })
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        function_tools::read::read_entry(input, options, ID, read::document)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        function_tools::write::write_entry(model, options, write::document)
    }
}
