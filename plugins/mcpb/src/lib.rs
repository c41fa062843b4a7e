//! The files an MCP server is published with, written from any tool set:
//!
//! - `mcpb`: an MCP Bundle's `manifest.json` (the MCPB format, formerly DXT; spec MANIFEST.md and
//!   the zod schemas of github.com/modelcontextprotocol/mcpb, manifest version 0.3). Its `tools`
//!   are `{name, description?}`: no input schemas, so each tool's parameters are reported lost
//!   (`loss/schema`, naming them). What the manifest requires and a tool set lacks (`name`,
//!   `version`, `description`, `author.name`, and always `server`: how to start the server, which
//!   a tool set does not describe) is generated and said, as for Raycast's package.json.
//! - `mcp-server`: a folder of the MCP registry's `server.json` (schema
//!   `server.schema.json` of github.com/modelcontextprotocol/registry) and that `manifest.json`.
//!   server.json describes where a server is installed from (packages, remotes), not its tools:
//!   it cannot hold them at all, so the tools travel in the bundle manifest beside it, the file
//!   a registry entry's `mcpb` package points at once the bundle is packed.
//!
//! Both read back what they hold: the manifest's tools (names and descriptions, no
//! parameters) and its metadata; every other manifest key and a read server.json are kept under
//! the format's extras for a same-format write. Built only on the plugin SDK, as a third party's
//! formats would be.

mod metadata;
mod read;
mod server_json;
mod write;

use serde_json::Value;
use toolport_plugin::function_tools::common::{self, json_file_info};
use toolport_plugin::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, InputShape, OptionSpec, Options, Outcome, ToolSet, codes,
};

pub use metadata::{MANIFEST_VERSION, SERVER_SCHEMA};

/// The `mcpb` format's id.
pub const MCPB: &str = "mcpb";
/// The `mcp-server` format's id.
pub const MCP_SERVER: &str = "mcp-server";

/// The bundle manifest's file name (MCPB requires it at the bundle's root).
pub const MANIFEST_FILE: &str = "manifest.json";
/// The registry entry's file name (what `mcp-publisher` reads).
pub const SERVER_FILE: &str = "server.json";

/// The options both formats take: how the bundle's server is started.
fn server_options() -> Vec<OptionSpec> {
    vec![
        OptionSpec::one_of(
            "server_type",
            &metadata::SERVER_TYPES,
            "node",
            "the bundle's server runtime (the manifest's server.type); the tool set does not say",
        ),
        OptionSpec::text(
            "entry_point",
            "server/index.js (node), server/main.py (python), server/<name> (binary)",
            "the server's file in the bundle (server.entry_point, and what mcp_config runs)",
        ),
    ]
}

/// The `mcpb` format: an MCP Bundle's manifest.json.
#[derive(Debug, Default)]
pub struct Mcpb;

impl Format for Mcpb {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["dxt".into(), "mcp-bundle".into()],
            description:
                "MCP Bundle (MCPB, formerly DXT) manifest.json: tool names and descriptions, no parameters (JSON)"
                    .into(),
            options: Some(server_options()),
            ..json_file_info(MCPB, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        match common::detect_value(input) {
            Some(value) if read::is_manifest(&value) => 95,
            _ => 0,
        }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        toolport_plugin::function_tools::read::read_entry(input, options, MCPB, read::document)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let mut diagnostics = Vec::new();
        let manifest = write::manifest(model, MCPB, options, &mut diagnostics);
        Outcome::ok(toolport_plugin::function_tools::write::json_bundle(&manifest, options), diagnostics)
    }
}

/// The `mcp-server` format: a folder of the registry's server.json and the bundle manifest.
#[derive(Debug, Default)]
pub struct McpServer;

impl Format for McpServer {
    fn info(&self) -> FormatInfo {
        let mut options = server_options();
        options.push(OptionSpec::text(
            "namespace",
            "io.github.unknown (a placeholder)",
            "the reverse-DNS namespace of the server's registry name (io.github.<user>, com.example)",
        ));
        FormatInfo {
            aliases: vec!["server-json".into(), "mcp-registry".into()],
            description: "MCP registry server.json with the MCPB manifest.json that lists its tools (a folder)".into(),
            input: InputShape::Directory,
            extensions: Vec::new(),
            options: Some(options),
            ..json_file_info(MCP_SERVER, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let manifest = input.get(MANIFEST_FILE).and_then(|t| serde_json::from_str::<Value>(t).ok());
        let server = input.get(SERVER_FILE).and_then(|t| serde_json::from_str::<Value>(t).ok());
        match (manifest, server) {
            (Some(manifest), Some(server)) if read::is_manifest(&manifest) && server.is_object() => 90,
            _ => 0,
        }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        server_json::read_folder(input, options)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let mut diagnostics = Vec::new();
        let manifest = write::manifest(model, MCP_SERVER, options, &mut diagnostics);
        let server = server_json::server(model, &manifest, options, &mut diagnostics);
        // The source folder's other files (server code, icons) as they were, then the two this
        // format writes.
        let mut bundle = server_json::folder_files(model).unwrap_or_default();
        bundle.insert(MANIFEST_FILE, toolport_plugin::function_tools::write::pretty(&manifest));
        bundle.insert(SERVER_FILE, toolport_plugin::function_tools::write::pretty(&server));
        Outcome::ok(bundle, diagnostics)
    }
}

/// A read that found no manifest: the error names what the format expects.
fn not_a_manifest(path: &str, what: &str) -> Diagnostic {
    Diagnostic::error(
        codes::INPUT_INVALID,
        path,
        format!(
            "expected {what}: an MCPB manifest {{\"manifest_version\": \"0.3\", \"name\", \"version\", \"description\", \"author\", \"server\", \"tools\": [...]}}"
        ),
    )
}
