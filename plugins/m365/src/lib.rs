//! Microsoft 365 Copilot API plugins: a folder of the plugin manifest (schema 2.x, written as
//! v2.4: `schema_version`, `name_for_human`, `namespace`, `description_for_human`,
//! `description_for_model`, `functions`, `runtimes`) and the OpenAPI document its `OpenApi`
//! runtime names (`spec.url`, relative to the manifest).
//!
//! - Read (`read.rs`): the folder's manifest, the spec it names read by the `openapi` format's
//!   own reader (one tool per operation), and each function merged into the tool whose
//!   operationId it names: its description, its confirmation (the model's `Confirmation`).
//!   Everything else of the manifest (response semantics, security info, the runtime's auth,
//!   logo and legal URLs, …) and the folder's other files are kept under `extras["m365"]`, so
//!   a same-format write gives the folder back as it was. A plugin whose runtimes are MCP
//!   servers (`RemoteMCPServer`) has no spec: its functions are its tools, their `parameters`
//!   (or the runtime's static tool description) their input schemas. A folder holding several
//!   manifests (an app package's plugins side by side) is read by `--option manifest=FILE`.
//! - Write (`write.rs`): the spec by the `openapi` format's writer (operationId = function
//!   name; none for an MCP plugin read before, whose functions carry their `parameters`), and
//!   the manifest beside it with what it requires and a tool set may lack
//!   generated and said (`metadata.rs`), as for Raycast's package.json and MCPB's manifest.
//!   What Microsoft documents that Copilot cannot take (nested objects, polymorphic and
//!   circular schemas, unsupported auth) is said per tool (`restrictions.rs`).
//!
//! `manifest.rs` holds what both sides share: the manifest's recognition, its file names and
//! the one rule for a spec path inside the folder (a path that leaves it is refused, never
//! read). Built only on the plugin SDK and the `openapi` format's library, as a third party's
//! format would be.

mod manifest;
mod metadata;
mod read;
mod restrictions;
mod write;

use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, InputShape, Limit, LimitKind, OptionSpec, Options, Outcome, PlatformLimits,
    ToolSet,
};

pub use manifest::{SCHEMA_URL, SCHEMA_VERSION};

/// The format's id, and the key of its extras.
pub const ID: &str = "m365";

/// Where Microsoft documents the manifest: its keys, their lengths and names.
pub const MANIFEST_SOURCE: &str = "Microsoft Learn, Plugin manifest schema 2.4 for Microsoft 365 Copilot \
    (https://learn.microsoft.com/microsoft-365-copilot/extensibility/plugin-manifest-2.4)";
/// Where Microsoft lists the OpenAPI features API plugins do not support.
pub const KNOWN_ISSUES_SOURCE: &str = "Microsoft Learn, Known issues in Microsoft 365 Copilot extensibility: \
    API plugins, Some OpenAPI features aren't supported \
    (https://learn.microsoft.com/microsoft-365-copilot/extensibility/known-issues)";

/// The `m365` format.
#[derive(Debug, Default)]
pub struct M365;

impl Format for M365 {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: ID.into(),
            aliases: vec!["copilot-plugin".into(), "m365-copilot".into(), "api-plugin".into()],
            description: "Microsoft 365 Copilot API plugin: the plugin manifest (schema 2.x) beside the OpenAPI \
                          document its runtime names (a folder)"
                .into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::Directory,
            extensions: Vec::new(),
            options: Some(vec![
                OptionSpec::one_of(
                    "syntax",
                    &["json", "yaml"],
                    "the m365 source's spec syntax, else json",
                    "the syntax of the written OpenAPI document (and its file name's extension)",
                ),
                toolport_plugin::function_tools::output::option_spec("full", "each operation's response schema"),
                OptionSpec::text(
                    manifest::MANIFEST_OPTION,
                    "the folder's only manifest",
                    "reading: which plugin manifest of the folder to read, where an app package holds several (ai-plugin-outlook.json)",
                ),
            ]),
            limits: PlatformLimits(limits()),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        if manifest::manifests(input).next().is_some() { 90 } else { 0 }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        read::folder(input, options)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        write::folder(model, options)
    }
}

/// What Microsoft documents of a plugin's limits, as `convert formats m365` shows them.
fn limits() -> Vec<Limit> {
    vec![
        Limit::kept_name(LimitKind::ToolName, &write::FUNCTION_NAMES, MANIFEST_SOURCE)
            .note("a function's name: ^[A-Za-z0-9_]+$, equal to its operation's operationId; the 64 and a letter or _ first are toolport's, so the openapi writer keeps the name"),
        Limit::at_most(LimitKind::DescriptionChars, manifest::STRING_MAX as u64, MANIFEST_SOURCE)
            .note("every string of the manifest SHOULD stay within 4K characters"),
        Limit::rule(
            "description_for_model: characters past 2,048 may be ignored; description_for_human: past 100; \
             name_for_human: past 20 (the descriptions cut at a sentence, a longer name kept; each said)",
            MANIFEST_SOURCE,
        ),
        Limit::rule(
            "flat parameters: no nested objects in request bodies or parameters, no oneOf/anyOf/allOf, no \
             circular references (each said per parameter, the spec keeps them)",
            KNOWN_ISSUES_SOURCE,
        ),
    ]
}
