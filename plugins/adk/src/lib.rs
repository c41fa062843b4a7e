//! Google's Agent Development Kit (ADK): an agent folder, the way off Vertex AI Extensions
//! (shut down after 2026-11-26; Google points custom extensions to ADK).
//!
//! Written from any tool set: `<package>/openapi.json`, the tools as an OpenAPI document made
//! by the `openapi` format's own writer; `<package>/agent.py`, a `root_agent` whose tools are
//! ADK's `OpenAPIToolset` over that spec, with the first auth entry (a Vertex extension's
//! `authConfig`) as the toolset's auth scheme and credential (`auth.rs`), and the tool set's
//! instructions (Vertex's `manifest.description`, shown to the model) as its instruction; and
//! `<package>/__init__.py`, which ADK's loader imports. `adk run <package>` runs it.
//!
//! Write only: an agent is Python code, which toolport does not read. Its tools are the spec,
//! which the `openapi` format reads back (`--from openapi <package>/openapi.json`).
//!
//! Built only on the plugin SDK and the `openapi` format's library (its public `Format`), as a
//! third party's format would be.

mod auth;
mod python;
mod write;

use toolport_plugin::function_tools;
use toolport_plugin::{Bundle, Detection, Format, FormatInfo, InputShape, OptionSpec, Options, Outcome, ToolSet};

const ID: &str = "adk";

/// The model an agent is written with unless `--option model=` says otherwise.
pub const DEFAULT_MODEL: &str = "gemini-2.5-flash";

/// The `adk` format.
#[derive(Debug, Default)]
pub struct Adk;

impl Format for Adk {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: ID.into(),
            aliases: vec!["google-adk".into(), "adk-agent".into()],
            description: "Google ADK agent folder: agent.py with an OpenAPIToolset over openapi.json (write only: \
                          an agent is Python code; its spec reads back with --from openapi)"
                .into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: false,
            writes: true,
            input: InputShape::Directory,
            extensions: Vec::new(),
            options: Some(vec![
                OptionSpec::text(
                    "model",
                    DEFAULT_MODEL,
                    "the model the agent runs on (Agent(model=...)); the ADK_MODEL environment variable overrides it at run time",
                ),
                function_tools::output::option_spec("full", "each operation's response schema"),
            ]),
            limits: Default::default(),
        }
    }

    fn detect(&self, _input: &Bundle) -> Detection {
        0
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::fail(toolport_plugin::Diagnostic::error(
            toolport_plugin::codes::INPUT_UNSUPPORTED,
            "",
            "adk is write only (an agent is Python code): read its spec with --from openapi <folder>/openapi.json",
        ))
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        write::agent_folder(model, options)
    }
}
