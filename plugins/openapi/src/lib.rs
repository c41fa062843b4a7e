//! Vertex AI Extension import bodies (`vertex`) and plain OpenAPI 3.0/3.1 documents
//! (`openapi`).
//!
//! Reading gives one tool per operation (see `read/`); writing regenerates operations from
//! the model, and writes an unchanged operation exactly as its source had it (see `write/` and
//! `verbatim.rs`). The Vertex import body around such a spec is `vertex/`.
//!
//! Output choices:
//! - `openapi` writes `<name>.yaml`, or `<name>.json` when the source document was JSON; the
//!   option `syntax=json|yaml` overrides. The OpenAPI version is the source's, else 3.0.3.
//! - `vertex` writes `<name>.json`, a complete `extensions:import` body (camelCase keys) with
//!   the spec inline as OpenAPI 3.0 YAML in `manifest.apiSpec.openApiYaml`, following Vertex's
//!   rules (a 3.1 source without what only 3.1 has, see `write/downgrade.rs`). From tools without an HTTP binding it synthesizes `POST /<name>` operations under
//!   the option `base_url` (default `https://example.invalid`).
//! - Model fields OpenAPI has no place for (other formats' extras, display hints, value-set
//!   names, enum labels, Vertex's renames) never sit in the operations, parameters and
//!   schemas a model reads: they are kept, for the round trip, in one top-level `x-toolport`
//!   section keyed by JSON pointer (see `bookkeeping.rs`), which the reader puts back first.

use serde_json::Value;
use toolport_plugin::source::Parsed;
use toolport_plugin::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, InputShape, OptionSpec, Options, Outcome, ToolSet, codes,
};

mod bedrock_agent;
mod bookkeeping;
mod gpt_actions;
mod http;
mod read;
mod verbatim;
mod vertex;
mod write;

pub use vertex::Vertex;

pub(crate) const ID: &str = "openapi";

/// The `openapi` format: a plain OpenAPI 3.0 or 3.1 document.
#[derive(Debug, Default)]
pub struct OpenApi;

impl Format for OpenApi {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: ID.into(),
            aliases: vec!["oas".into(), "openapi3".into()],
            description: "OpenAPI 3.0/3.1 document (JSON or YAML): one tool per operation".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into(), "yaml".into(), "yml".into()],
            options: Some(vec![
                OptionSpec::one_of(
                    "syntax",
                    &["yaml", "json"],
                    "the source's syntax, else yaml",
                    "the syntax of the written document (and its file name's extension)",
                ),
                toolport_plugin::function_tools::output::option_spec("full", "each operation's response schema"),
                OptionSpec::one_of(
                    gpt_actions::OPTION,
                    &["plain", gpt_actions::VALUE, bedrock_agent::VALUE],
                    "plain",
                    "gpt-actions: as ChatGPT's GPT Actions take it (summaries and descriptions cut to their limits, x-openai-isConsequential on each operation, 3.1.0 unless the source had a version); bedrock-agent: as an Amazon Bedrock Agents action group's apiSchema takes it (OpenAPI 3.0.0, a description on every operation, enum values moved into descriptions, x-requireConfirmation)",
                ),
            ]),
            limits: toolport_plugin::PlatformLimits(
                gpt_actions::limits().into_iter().chain(bedrock_agent::limits(gpt_actions::OPTION)).collect(),
            ),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some((_, text)) = input.entry_file() else { return 0 };
        let head: String = text.chars().take(8192).collect();
        if head.contains("manifest") && (head.contains("apiSpec") || head.contains("api_spec")) {
            return 0;
        }
        // A top-level key may come late in a large JSON document (Slack's `swagger` is on
        // line 27,439); a substring scan is cheap next to parsing.
        if top_level_version(text, "openapi", "3.") {
            95
        } else if top_level_version(text, "swagger", "2.") {
            // Claimed so the user gets the clear "Swagger 2.0 is not OpenAPI 3" error.
            70
        } else {
            0
        }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        let (file, text, doc, syntax) = match parse_entry(input) {
            Ok(parsed) => parsed,
            Err(e) => return Outcome::fail(e),
        };
        match read::read_document(doc.value, options) {
            Ok((mut set, diagnostics)) => {
                if let Some(Value::Object(ext)) = set.extras.get_mut(ID) {
                    ext.insert("syntax".into(), Value::from(syntax));
                }
                let mut diagnostics = locate_all(diagnostics, file, text, syntax);
                diagnostics.splice(0..0, doc.tolerated);
                Outcome::ok(set, diagnostics)
            }
            Err(e) => Outcome::fail(locate(e, file, &toolport_plugin::source::Locator::new(text), syntax)),
        }
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let gpt_actions = options.get(gpt_actions::OPTION) == Some(gpt_actions::VALUE);
        self.write_document(model, options, gpt_actions.then_some(gpt_actions::VERSION), false)
    }
}

impl OpenApi {
    /// [`Format::write`] for a platform that reads every schema as OpenAPI 3.1's (ADK parses
    /// specs with FastAPI's 3.1 models, where a 3.0 boolean `exclusiveMinimum` makes the
    /// response unreadable): a source without a version, or a 3.0 one, is written as 3.1.0.
    pub fn write_as_openapi_31(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        self.write_document(model, options, Some("3.1.0"), true)
    }

    /// The document, with the version written when the source had none (`default_version`;
    /// 3.0.3 when `None`), rewritten as 3.1.0 if it came out 3.0 and `as_31`.
    fn write_document(
        &self,
        model: &ToolSet,
        options: &Options,
        default_version: Option<&'static str>,
        as_31: bool,
    ) -> Outcome<Bundle> {
        let gpt_actions = options.get(gpt_actions::OPTION) == Some(gpt_actions::VALUE);
        let bedrock_agent = options.get(gpt_actions::OPTION) == Some(bedrock_agent::VALUE);
        let parts = write::VertexParts {
            fallback_title: Some(options.output_title("API")),
            default_version,
            required_version: bedrock_agent.then_some(bedrock_agent::VERSION),
            ..write::VertexParts::default()
        };
        let mut diagnostics = Vec::new();
        let model = write::output_schemas(model, options, &mut diagnostics);
        let model = &*model;
        let mut written = write::document(model, write::Mode::OpenApi, &parts);
        diagnostics.extend(written.diagnostics);
        if as_31
            && let Value::Object(doc) = &mut written.document
            && doc.get("openapi").and_then(Value::as_str).is_some_and(|v| v.starts_with("3.0"))
        {
            write::upgrade::to_openapi_31(doc, &mut diagnostics);
        }
        if gpt_actions {
            gpt_actions::apply(&mut written.document, model, &written.names, &mut diagnostics);
        }
        if bedrock_agent {
            bedrock_agent::apply(&mut written.document, model, &written.names, &mut diagnostics);
        }
        let source_syntax = model.extras.get(ID).and_then(|e| e.get("syntax")).and_then(Value::as_str);
        let syntax = options.get("syntax").or(source_syntax).unwrap_or("yaml");
        let name = options.output_name("openapi");
        let (file, text) = if syntax == "json" {
            (format!("{name}.json"), pretty_json(&written.document))
        } else {
            (format!("{name}.yaml"), toolport_plugin::yaml::value_to_string(&written.document))
        };
        options.free(written.document);
        Outcome::ok(Bundle::single(file, text), diagnostics)
    }
}

/// Whether `key: "<version>…"` appears as a JSON key or an unindented YAML key.
fn top_level_version(text: &str, key: &str, version: &str) -> bool {
    let value_starts = |rest: &str| {
        let rest = rest.trim_start_matches([' ', '\t']);
        let Some(rest) = rest.strip_prefix(':') else { return false };
        rest.trim_start().trim_start_matches(['"', '\'']).starts_with(version)
    };
    let quoted = format!("\"{key}\"");
    let json = text.match_indices(&quoted).any(|(i, _)| value_starts(&text[i + quoted.len()..]));
    json || text.lines().any(|line| line.strip_prefix(key).is_some_and(value_starts))
}

/// 2-space pretty JSON with a trailing newline.
pub(crate) fn pretty_json(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The entry file of `input`, parsed: its name, its text, the document (with what parsing
/// tolerated) and its syntax.
pub(crate) fn parse_entry(input: &Bundle) -> Result<(&str, &str, Parsed, &'static str), Diagnostic> {
    let Some((file, text)) = input.entry_file() else {
        return Err(Diagnostic::error(codes::INPUT_MISSING_FILE, "", "no input file"));
    };
    let (doc, syntax) = parse_any(file, text)?;
    Ok((file, text, doc, syntax))
}

/// Parses JSON or YAML (by content: YAML is a superset, but JSON errors are clearer).
pub(crate) fn parse_any(file: &str, text: &str) -> Result<(Parsed, &'static str), Diagnostic> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') || file.ends_with(".json") {
        match toolport_plugin::source::parse_json(file, trimmed) {
            Ok(value) => return Ok((value, "json")),
            // Flow-style YAML also starts with `{`; give YAML a chance before failing.
            Err(e) => return toolport_plugin::yaml::parse(file, text).map(|v| (v, "yaml")).map_err(|_| e),
        }
    }
    toolport_plugin::yaml::parse(file, text).map(|v| (v, "yaml"))
}

/// Locates the first diagnostics (a huge document may have hundreds of tolerated defects, and
/// their JSON pointers still say where they are).
pub(crate) fn locate_all(diagnostics: Vec<Diagnostic>, file: &str, text: &str, syntax: &str) -> Vec<Diagnostic> {
    let at = toolport_plugin::source::Locator::new(text);
    diagnostics.into_iter().enumerate().map(|(i, d)| if i < 20 { locate(d, file, &at, syntax) } else { d }).collect()
}

/// Adds file:line:column to a diagnostic that points into a JSON document.
pub(crate) fn locate(
    mut diagnostic: Diagnostic,
    file: &str,
    at: &toolport_plugin::source::Locator,
    syntax: &str,
) -> Diagnostic {
    if diagnostic.span.is_none() && syntax == "json" && diagnostic.severity != toolport_plugin::Severity::Info {
        if let Some((line, column)) = at.locate(&diagnostic.path) {
            diagnostic = diagnostic.at(file, line, column);
        }
    } else if diagnostic.span.is_none() && diagnostic.path.is_empty() {
        diagnostic = diagnostic.at(file, 1, 1);
    }
    diagnostic
}
