//! MCP prompts: the result of a `prompts/list` request (`{"prompts": [...]}`, alone or in its
//! JSON-RPC response), each prompt `{name, title?, description?, arguments?: [{name, title?,
//! description?, required?}], icons?, _meta?}`. A prompt is the protocol's counterpart of a
//! prompt template (SkyDeck's `model_prompt` with `{{variables}}`): its arguments are what the
//! template asks for, and `prompts/get` answers with the template's messages filled in.
//!
//! The list alone does not carry the messages, so each prompt written keeps its template in
//! `_meta` under [`MESSAGES_META`], as `prompts/get` messages whose text holds the `{{argument}}`
//! placeholders; a server fills them in (the names match its arguments, which the writer
//! checks). Reading takes the template back as the tool's `prompt`.
//!
//! Arguments are strings: a parameter of another type is written as a string argument with a
//! `changed/schema` warning; what a string argument cannot say (enums, defaults, bounds, nested
//! objects), and what a prompt is not (HTTP bindings, output schemas, strictness), is reported
//! as lost. Built only on the plugin SDK, as a third party's format would be.

mod read;
mod write;

use serde_json::Value;
use toolport_plugin::function_tools;
use toolport_plugin::function_tools::common::{self, json_file_info};
use toolport_plugin::names::NameRules;
use toolport_plugin::{Bundle, Detection, Format, FormatInfo, Options, Outcome, ToolSet};

const ID: &str = "mcp-prompts";

/// The `_meta` key of a prompt that holds its message template (`prompts/get` messages with
/// `{{argument}}` placeholders). MCP reserves `_meta` for such data under a prefixed key.
pub const MESSAGES_META: &str = "dev.toolporter/messages";

/// Prompt names: MCP gives them no pattern; toolport keeps them within its tool-name rule
/// (1 to 128 of `[A-Za-z0-9_.-]`), which every client takes.
pub const NAME_RULES: NameRules = NameRules::MCP;

/// The `mcp-prompts` format.
#[derive(Debug, Default)]
pub struct McpPrompts;

impl Format for McpPrompts {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["mcp-prompt".into()],
            description: "MCP prompts: a prompts/list result, each prompt's message template in its _meta (JSON)"
                .into(),
            ..json_file_info(ID, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some(document) = common::detect_value(input) else { return 0 };
        let value = common::json_rpc_result(&document).unwrap_or(&document);
        match value.get("prompts") {
            Some(Value::Array(prompts)) if !prompts.is_empty() && prompts.iter().all(read::is_prompt) => 90,
            Some(Value::Array(prompts)) if prompts.iter().any(read::is_prompt) => 70,
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
