//! Gemini function declarations: `{"functionDeclarations": [...]}`, a bare array of
//! declarations, `{"tools": [{"functionDeclarations": [...]}, ...]}`, or one declaration; the
//! REST API's snake_case spelling (`function_declarations`, `parameters_json_schema`) is read
//! and written back (`spelling`).
//! A declaration: `name`, `description`, `parameters` (the OpenAPI 3.0 subset) or
//! `parametersJsonSchema`, `response` or `responseJsonSchema`, `behavior`.
//!
//! Reading keeps under `extras["gemini"]` the document's shape, other tool entries
//! (`googleSearch`, …) with their position, which schema keys a declaration used, upper-case
//! type names, unknown keys, and a schema verbatim when the canonical form cannot reproduce it.
//!
//! Writing: names follow `^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`; `parameters` in the Gemini subset
//! (string enums only, `nullable`, `anyOf`, limited `format`), each forced change reported;
//! a declaration without a description or title gets one made from its name, with a warning
//! (the Gemini API's reference marks `description` required).
//! Options: `schema=json` writes `parametersJsonSchema`/`responseJsonSchema` (JSON Schema) instead;
//! `output_schema=full|shallow|none` (default: `full` for a model read from Gemini, else
//! `shallow`: a result's definitions are inlined, so Stripe's responses written whole are 27 MB)
//! says how much of each result schema is written (`function_tools::output`).

mod read;
mod spelling;
pub mod subset;
mod write;

use serde_json::Value;
use toolport_plugin::function_tools;
use toolport_plugin::function_tools::common::{self, json_file_info};
use toolport_plugin::names::NameRules;
use toolport_plugin::platform_limits::sources;
use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, Limit, LimitKind, OptionSpec, Options, Outcome, PlatformLimits, ToolSet,
};

const ID: &str = "gemini";

/// Gemini function names.
pub const NAME_RULES: NameRules = NameRules::FUNCTION;

/// Gemini parameter (property) names.
pub const PARAMETER_RULES: NameRules = NameRules::PARAMETER;

/// The `gemini` format.
#[derive(Debug, Default)]
pub struct Gemini;

impl Format for Gemini {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["gemini-functions".into(), "function-declarations".into()],
            description: "Gemini function declarations (functionDeclarations; JSON)".into(),
            options: Some(vec![
                OptionSpec::one_of(
                    "schema",
                    &["gemini", "json"],
                    "the source's form, else gemini",
                    "gemini: `parameters`/`response` in Gemini's OpenAPI subset; json: `parametersJsonSchema`/`responseJsonSchema` in JSON Schema",
                ),
                function_tools::output::option_spec(
                    "full for a model read from Gemini, else shallow",
                    "each declaration's `response` (or `responseJsonSchema`)",
                ),
            ]),
            limits: PlatformLimits(vec![
                Limit::at_most(LimitKind::ToolsPerRequest, 512, sources::GEMINI_FUNCTION_CALLING),
                Limit::kept_name(LimitKind::ToolName, &NAME_RULES, sources::GEMINI_FUNCTION_DECLARATION),
                Limit::kept_name(LimitKind::ParameterName, &PARAMETER_RULES, sources::GEMINI_FUNCTION_DECLARATION),
                Limit::rule(
                    "parameters: the OpenAPI 3.0 schema subset (string enums, nullable, anyOf; no oneOf, allOf, not)",
                    sources::GEMINI_FUNCTION_DECLARATION,
                ),
            ]),
            ..json_file_info(ID, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some(value) = common::detect_value(input) else { return 0 };
        // Either spelling, of any type: a wrong one is the reader's located error.
        let declares =
            |v: &Value| v.as_object().is_some_and(|m| spelling::spelled(m, spelling::DECLARATIONS).is_some());
        let is_declaration = |v: &Value| {
            v.get("name").is_some_and(Value::is_string)
                && ["parameters", "parametersJsonSchema", "response", "responseJsonSchema"]
                    .iter()
                    .any(|k| v.get(k).is_some())
                && v.get("type").is_none()
                && v.get("inputSchema").is_none()
        };
        match &value {
            v if declares(v) => 95,
            Value::Object(map)
                if map.get("tools").and_then(Value::as_array).is_some_and(|t| t.iter().any(declares)) =>
            {
                95
            }
            // Bare declarations look like other formats' tools: only `parametersJsonSchema` or
            // an upper-case OpenAPI type is specific.
            Value::Array(items) if !items.is_empty() && items.iter().all(is_declaration) => 40,
            v if is_declaration(v) => 30,
            _ => 0,
        }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        function_tools::read::read_entry(input, options, ID, read::document)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        function_tools::write::write_entry(model, options, write::document)
    }
}
