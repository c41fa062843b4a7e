//! OpenAI function tools: the Chat Completions form
//! `{"type": "function", "function": {name, description, parameters, strict}}` and the Responses
//! API's flat form `{"type": "function", name, description, parameters, strict}`. A file holds
//! an array of tools, `{"tools": [...]}`, or one tool.
//!
//! Reading keeps under `extras["openai"]` the document's shape, each tool's form and `strict`
//! flag, tools of other types (`web_search`, …) with their position, unknown keys, and the
//! `parameters` verbatim when the canonical schema cannot reproduce them exactly.
//!
//! Writing: names follow `^[a-zA-Z0-9_-]{1,64}$`; strict mode (options key `strict=true`, or a
//! tool whose source said `strict: true`) rewrites each schema as strict mode demands and reports
//! every rewrite. Options: `strict=true|false`, `form=chat|responses` (default: as read, else chat).

mod read;
pub mod strict;
mod write;

use serde_json::Value;
use toolport_plugin::function_tools;
use toolport_plugin::function_tools::common::{self, json_file_info};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::names::NameRules;
use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, Limit, LimitKind, OptionSpec, Options, Outcome, PlatformLimits, ToolSet,
};

const DIALECT: Dialect = Dialect::JsonSchema;

const ID: &str = "openai";

/// OpenAI tool names.
pub const NAME_RULES: NameRules = NameRules::WORD_DASH_64;

/// OpenAI's documented limits: per request, and strict mode's schema budgets.
fn limits() -> PlatformLimits {
    use toolport_plugin::platform_limits::sources::{
        OPENAI_FUNCTION_CALLING as API, OPENAI_STRUCTURED_OUTPUTS as STRICT,
    };
    let strict = |kind, max| Limit::at_most(kind, max, STRICT).when("strict=true");
    PlatformLimits(vec![
        Limit::at_most(LimitKind::ToolsPerRequest, 128, API),
        Limit::kept_name(LimitKind::ToolName, &NAME_RULES, API),
        Limit::at_most(LimitKind::DescriptionChars, 1024, API),
        strict(LimitKind::SchemaProperties, 5000),
        strict(LimitKind::SchemaDepth, 10),
        strict(LimitKind::EnumValues, 1000),
        strict(LimitKind::SchemaChars, 120_000),
        strict(LimitKind::LargeEnumChars, 15_000),
        Limit::rule(
            "strict: an object root, every property required, additionalProperties false, no allOf, not or if/then",
            STRICT,
        )
        .when("strict=true"),
    ])
}

/// The `openai` format.
#[derive(Debug, Default)]
pub struct OpenAi;

impl Format for OpenAi {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["openai-tools".into(), "openai-functions".into()],
            description: "OpenAI function tools (Chat Completions or Responses form; JSON)".into(),
            options: Some(vec![
                OptionSpec::one_of(
                    "strict",
                    &["true", "false"],
                    "the source's own `strict` setting, else false",
                    "strict mode: every property required, no additional properties (a tool whose schema cannot be strict is written without it, with a warning)",
                ),
                OptionSpec::one_of(
                    "form",
                    &["chat", "responses"],
                    "the source's form, else chat",
                    "chat: Chat Completions tools (`{type, function: {...}}`); responses: the Responses API's flat tools",
                ),
            ]),
            limits: limits(),
            ..json_file_info(ID, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        common::detect_tool_list(input, |v: &Value| {
            v.get("type").is_some_and(|t| t == "function")
                && (v.get("function").is_some_and(|f| f.get("name").is_some()) || v.get("name").is_some())
        })
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        function_tools::read::read_entry(input, options, ID, read::document)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        function_tools::write::write_entry(model, options, write::document)
    }
}
