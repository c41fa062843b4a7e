//! The `vertex` format: a Vertex AI Extension resource as sent to `extensions:import`.
//!
//! The OpenAPI spec is read from `manifest.apiSpec.openApiYaml`, or for `openApiGcsUri` from a
//! file of the same name beside the import body, else (a placeholder URI) the only OpenAPI
//! document beside it (the converter never fetches from Cloud Storage). Body fields map onto the tool set: `manifest.name` → id, `displayName` → title,
//! `description` → description, `manifest.description` (shown to the model) → instructions,
//! `authConfig` → the first auth entry, `runtimeConfig.defaultParams` → runtime defaults,
//! `toolUseExamples` → examples. Everything else is kept in `extras["vertex"]`. Bodies are
//! written with camelCase keys, as `extensions:import` documents them, whatever the source's
//! key style (protobuf JSON reads both).
//!
//! `read.rs` reads a body and `write.rs` writes one (`print.rs` prints it); `auth.rs` maps
//! `authConfig` and `examples.rs` maps `toolUseExamples`, each both ways side by side.

use serde_json::{Map, Value};
use toolport_plugin::names::NameRules;
use toolport_plugin::platform_limits::sources;
use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, InputShape, Limit, LimitKind, OptionSpec, Options, Outcome, PlatformLimits,
    ToolSet,
};

use crate::{locate_all, parse_entry};

mod auth;
mod examples;
mod print;
mod read;
mod write;

pub(crate) const VX: &str = "vertex";

/// The `vertex` format.
#[derive(Debug, Default)]
pub struct Vertex;

impl Format for Vertex {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: VX.into(),
            aliases: vec!["vertex-extension".into()],
            description: "Vertex AI Extension import body (JSON or YAML) with its OpenAPI spec inline or beside it"
                .into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::FileWithSiblings,
            extensions: vec!["json".into(), "yaml".into(), "yml".into()],
            options: Some(vec![
                OptionSpec::url(
                    "base_url",
                    "the source's server, else the first tool's, else https://example.invalid",
                    "the API's server URL, written when the source names no server (a skydeck or MCP source, say)",
                ),
                toolport_plugin::function_tools::output::option_spec("full", "each operation's response schema"),
            ]),
            limits: PlatformLimits(vec![
                Limit::at_most(LimitKind::ToolsPerRequest, 128, sources::VERTEX_FUNCTION_CALLING)
                    .note("functions the operations become"),
                Limit::kept_name(LimitKind::ToolName, &NameRules::FUNCTION, sources::VERTEX_FUNCTION_CALLING),
                Limit::kept_name(LimitKind::ParameterName, &NameRules::PARAMETER, sources::VERTEX_FUNCTION_CALLING),
                Limit::at_most(LimitKind::Servers, 1, sources::VERTEX_EXTENSIONS).kept_by_writer(),
                Limit::at_most(LimitKind::DisplayName, 128, sources::VERTEX_EXTENSIONS)
                    .note("the manifest's name, from the title"),
                Limit::rule(
                    "the OpenAPI 3.0 schema subset (string enums; no oneOf, allOf, not)",
                    sources::VERTEX_FUNCTION_CALLING,
                ),
            ]),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some((_, text)) = input.entry_file() else { return 0 };
        let head: String = text.chars().take(8192).collect();
        let manifest = head.contains("manifest");
        if manifest && (head.contains("apiSpec") || head.contains("api_spec")) {
            95
        } else if manifest && (head.contains("authConfig") || head.contains("auth_config")) {
            60
        } else {
            0
        }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        let (file, text, body, syntax) = match parse_entry(input) {
            Ok(parsed) => parsed,
            Err(e) => return Outcome::fail(e),
        };
        match read::read_body(&body.value, file, input, options) {
            Ok((set, diagnostics)) => {
                let mut diagnostics = locate_all(diagnostics, file, text, syntax);
                diagnostics.splice(0..0, body.tolerated);
                Outcome::ok(set, diagnostics)
            }
            Err(diagnostics) => Outcome::failed(locate_all(diagnostics, file, text, syntax)),
        }
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let (body, diagnostics) = match write::write_body(model, options) {
            Ok(written) => written,
            Err(diagnostics) => return Outcome::failed(diagnostics),
        };
        let name = options.output_name("extension");
        Outcome::ok(Bundle::single(format!("{name}.json"), print::print_body(body)), diagnostics)
    }
}

/// A key in camelCase or its snake_case form (protobuf JSON parsers accept both).
fn get<'a>(object: &'a Value, camel: &str) -> Option<&'a Value> {
    object.get(camel).or_else(|| object.get(snake(camel).as_str()))
}

/// `camelCase` → `snake_case`.
fn snake(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `snake_case` → `camelCase`.
fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The text under a key (either case style).
fn text(object: &Value, key: &str) -> Option<String> {
    get(object, key).and_then(Value::as_str).map(str::to_owned)
}

/// The keys of `object` not in `known` (compared in camelCase), as written.
fn others(object: &Value, known: &[&str]) -> Map<String, Value> {
    object
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !known.contains(&camel(k).as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}
