//! MCP tools: the result of a `tools/list` request (`{"tools": [...]}`, alone or in its
//! JSON-RPC response `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}`), a bare array
//! of tools, or one tool. See docs in /work/shared/formats/others.md (spec revision 2026-07-28).
//!
//! Reading keeps everything the canonical model has no place for under `extras["mcp"]`:
//! the document's shape and other top-level keys (`nextCursor`, `_meta`), each tool's `_meta`,
//! rich `icons`, unknown keys, and an input or output schema verbatim when the canonical
//! schema cannot reproduce it exactly (`$ref`/`$defs`, `allOf`, …), so that a same-format round
//! trip gives back the same document. A writer that renames a tool records the original name in
//! the tool's `_meta` under [`ORIGINAL_NAME_META`]; the reader restores it.
//!
//! Writing: every `outputSchema` is an object schema, as MCP's SDKs require ([`output`]);
//! options: `output_schema=full|shallow|none` (default: `full` for a model read from MCP, else
//! `shallow`). A tool without a description gets its title (an OpenAPI summary), else none
//! (MCP's `description` is optional: nothing is made up); an input schema another function format closed (`additionalProperties:
//! false`, OpenAI's strict tools) stays closed.

mod icons;
pub mod output;
mod read;
mod write;

use serde_json::Value;
use toolport_plugin::function_tools;
use toolport_plugin::function_tools::common::{self, json_file_info};
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::names::NameRules;
use toolport_plugin::platform_limits::sources;
use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, Hints, Limit, LimitKind, Options, Outcome, PlatformLimits, ToolSet,
};

const DIALECT: Dialect = Dialect::JsonSchema;

const ID: &str = "mcp";

/// The `_meta` key where a writer that had to rename a tool keeps its original name.
pub const ORIGINAL_NAME_META: &str = "io.toolport/original-name";

fn word_dot_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// MCP tool names: 1 to 128 characters of `[A-Za-z0-9_.-]`.
pub const MCP_NAME: NameRules = NameRules {
    pattern: "^[A-Za-z0-9_.-]{1,128}$",
    max_len: 128,
    first: word_dot_dash,
    rest: word_dot_dash,
    replacement: '_',
    lead: "_",
};

/// A hint's field in the model.
type HintField = fn(&mut Hints) -> &mut Option<bool>;

/// The `annotations` keys of the model's hints, read and written alike.
const HINT_KEYS: &[(&str, HintField)] = &[
    ("readOnlyHint", |h| &mut h.read_only),
    ("destructiveHint", |h| &mut h.destructive),
    ("idempotentHint", |h| &mut h.idempotent),
    ("openWorldHint", |h| &mut h.open_world),
];

/// The `mcp` format.
#[derive(Debug, Default)]
pub struct Mcp;

impl Format for Mcp {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["mcp-tools".into()],
            description: "MCP tools: a tools/list result, an array of tools or one tool (JSON)".into(),
            options: Some(vec![function_tools::output::option_spec(
                "full for a model read from MCP, else shallow",
                "each tool's `outputSchema`",
            )]),
            limits: PlatformLimits(vec![
                Limit::kept_name(LimitKind::ToolName, &MCP_NAME, sources::MCP_TOOLS),
                // Clients refuse what the protocol allows: these are checked, not renamed.
                Limit::name(LimitKind::ToolName, 64, "A-Za-z0-9_-", sources::CLAUDE_DESKTOP)
                    .note("Claude Desktop, whose tools go to the Anthropic API"),
                Limit::at_most(LimitKind::ToolName, 60, sources::CURSOR_MCP)
                    .note("Cursor: the server's name and the tool's together; here the tool's alone"),
            ]),
            ..json_file_info(ID, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some(document) = common::detect_value(input) else { return 0 };
        // A `tools/list` response as sent over the wire holds the result in its envelope.
        let value = common::json_rpc_result(&document).unwrap_or(&document);
        let is_tool = |v: &Value| v.get("name").is_some_and(Value::is_string) && v.get("inputSchema").is_some();
        match value {
            Value::Object(map) => match map.get("tools") {
                Some(Value::Array(tools)) if !tools.is_empty() && tools.iter().all(is_tool) => 90,
                Some(Value::Array(tools)) if tools.iter().any(is_tool) => 70,
                _ if is_tool(value) => 80,
                _ => 0,
            },
            Value::Array(tools) if !tools.is_empty() && tools.iter().all(is_tool) => 85,
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
