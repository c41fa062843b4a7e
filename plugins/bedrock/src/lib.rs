//! Amazon Bedrock Converse tools: a `toolConfig` (`ToolConfiguration`) of `tools`, each a union
//! holding one member: `toolSpec` (`{name, description?, inputSchema: {json}, strict?}`),
//! `cachePoint` or `systemTool`. A file holds a whole Converse request (`{"modelId", "messages",
//! "toolConfig": {...}}`), a tool configuration `{"tools": [...], "toolChoice"?}`, an array of
//! tools, or one tool.
//!
//! Reading keeps under `extras["bedrock"]` the document's shape, the request and
//! `toolChoice` around the tools, `cachePoint` and `systemTool` items with their positions
//! (`function_tools::other_tools`), each tool's `strict` and unknown keys, and `inputSchema.json`
//! verbatim when the canonical schema cannot reproduce it. Writing gives a tool configuration
//! (what boto3's `converse(toolConfig=...)` takes) unless the source was a request. Names follow
//! `[a-zA-Z0-9_-]{1,64}`; a description is never empty (Bedrock requires at least one
//! character); Bedrock has no examples or output schemas (reported as lost).
//!
//! The crate's second format, `bedrock-agent` ([`agent`]), is an Amazon Bedrock Agents action
//! group defined by function details (`functionSchema`).
//!
//! Built only on the plugin SDK (`toolport_plugin`), as a third party's formats would be.

pub mod agent;
mod read;
mod write;

pub use agent::BedrockAgent;

use serde_json::Value;
use toolport_plugin::function_tools;
use toolport_plugin::function_tools::common::{self, json_file_info};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::names::NameRules;
use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, Limit, LimitKind, Options, Outcome, PlatformLimits, ToolSet,
};

const DIALECT: Dialect = Dialect::JsonSchema;

const ID: &str = "bedrock";

/// The key of a tool's extras that keeps `inputSchema.json` (verbatim, or its root's other
/// keys under `inputSchemaJsonRoot`), as function_tools' `carry::INPUT_KEYS` lists it: what
/// strictness other formats carry is read there.
const SCHEMA_KEY: &str = "inputSchemaJson";

/// Bedrock Converse tool names (`ToolSpecification.name`: 1 to 64 of `[a-zA-Z0-9_-]`).
pub const NAME_RULES: NameRules = NameRules::WORD_DASH_64;

/// Where Bedrock's limits are documented.
const TOOL_SPECIFICATION: &str = "Amazon Bedrock API reference, Runtime ToolSpecification \
    (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html)";

/// The `bedrock` format.
#[derive(Debug, Default)]
pub struct Bedrock;

impl Format for Bedrock {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["bedrock-converse".into(), "aws-bedrock".into()],
            description: "Amazon Bedrock Converse API tool configuration: toolConfig.tools[].toolSpec (JSON)".into(),
            limits: PlatformLimits(vec![Limit::kept_name(LimitKind::ToolName, &NAME_RULES, TOOL_SPECIFICATION)]),
            ..json_file_info(ID, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some(value) = common::detect_value(input) else { return 0 };
        // A Converse request: its tool configuration decides.
        if let Some(config) = value.get("toolConfig") {
            return if config.get("tools").is_some_and(Value::is_array) { 95 } else { 0 };
        }
        common::detect_tool_list(input, read::is_tool)
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        function_tools::read::read_entry(input, options, ID, read::document)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        if let Some(refusal) = write::refusal(model) {
            return Outcome::fail(refusal);
        }
        function_tools::write::write_entry(model, options, write::document)
    }
}
