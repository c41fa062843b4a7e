//! The MCP registry's server.json, beside the bundle manifest in an `mcp-server` folder.
//!
//! server.json (`ServerDetail`: `name` as `namespace/name`, `description` of at most 100
//! characters, `version`, and where the server is installed from: `packages`, `remotes`) has
//! no place for tools at all: the folder's manifest.json holds them. Its required keys are made
//! from the manifest (so the two agree), shortened or generated where the registry's schema
//! asks, each said. A server.json read before is given back as written.

use serde_json::{Map, Value};
use toolport_plugin::fit::cut_and_say;
use toolport_plugin::function_tools::common::{Source, extras_object};
use toolport_plugin::names::sanitize;
use toolport_plugin::{Bundle, Diagnostic, Options, Outcome, ToolSet, codes};

use crate::metadata::SERVER_SCHEMA;
use crate::write::NAME_RULES;
use crate::{MANIFEST_FILE, MCP_SERVER, SERVER_FILE, not_a_manifest, read};

/// The namespace written when the `namespace` option does not give one: a placeholder.
const PLACEHOLDER_NAMESPACE: &str = "io.github.unknown";

/// server.json's `description` and `title`: at most this many characters.
const TEXT_MAX: usize = 100;

/// Where the model keeps a server.json read before.
fn kept_path(key: &str) -> String {
    format!("/extras/{MCP_SERVER}/server/{key}")
}

/// The server.json of `model`, whose bundle manifest is `manifest`.
pub fn server(model: &ToolSet, manifest: &Value, options: &Options, diagnostics: &mut Vec<Diagnostic>) -> Value {
    if let Some(kept) = extras_object(&model.extras, MCP_SERVER).get("server") {
        return kept.clone();
    }
    let text = |key: &str| manifest.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut out = Map::new();
    out.insert("$schema".into(), SERVER_SCHEMA.into());
    out.insert("name".into(), registry_name(&text("name"), options, diagnostics).into());
    // The registry takes no empty title.
    if let Some(title) = model.title.as_deref().filter(|t| !t.trim().is_empty()) {
        out.insert("title".into(), shortened(title, "title", "/title", diagnostics).into());
    }
    out.insert(
        "description".into(),
        shortened(&text("description"), "description", "/description", diagnostics).into(),
    );
    out.insert("version".into(), text("version").into());
    diagnostics.push(Diagnostic::warning(
        codes::GENERATED_STUB,
        kept_path("packages"),
        format!(
            "server.json names no package yet (a tool set does not say where its server is published): after `mcpb pack`, add an `mcpb` package with the bundle's release URL and SHA-256, or the server's npm, PyPI or OCI package, before publishing; the tools are in {MANIFEST_FILE}, which server.json has no place for"
        ),
    ));
    Value::Object(out)
}

/// `namespace/name`, as the registry's pattern `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$` takes it:
/// the `namespace` option (else a placeholder, said) and the manifest's name.
fn registry_name(name: &str, options: &Options, diagnostics: &mut Vec<Diagnostic>) -> String {
    let namespace = match options.get("namespace") {
        Some(given) => {
            let valid: String = given
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' })
                .collect();
            if valid != given {
                diagnostics.push(Diagnostic::warning(
                    codes::CHANGED_NAME,
                    kept_path("name"),
                    format!("namespace `{given}` is written as `{valid}` (the registry takes letters, digits, dots and dashes)"),
                ));
            }
            valid
        }
        None => {
            diagnostics.push(Diagnostic::warning(
                codes::GENERATED_PLACEHOLDER,
                kept_path("name"),
                format!(
                    "a registry name starts with the publisher's namespace: `{PLACEHOLDER_NAMESPACE}` is a placeholder; name yours with --option namespace=io.github.<user>"
                ),
            ));
            PLACEHOLDER_NAMESPACE.to_owned()
        }
    };
    let server = sanitize(name, &NAME_RULES);
    if server != name {
        diagnostics.push(Diagnostic::info(
            codes::CHANGED_NAME,
            kept_path("name"),
            format!("server name `{name}` is written as `{server}` in the registry name"),
        ));
    }
    format!("{namespace}/{server}")
}

/// `text` within the registry's 100 characters, cut at a sentence and said.
fn shortened(text: &str, key: &str, path: &str, diagnostics: &mut Vec<Diagnostic>) -> String {
    let what = format!("server.json's {key}");
    let rule = format!("the registry takes at most {TEXT_MAX} (the manifest has it whole)");
    match cut_and_say(text, TEXT_MAX, &what, path, &rule) {
        Some((cut, said)) => {
            diagnostics.push(said);
            cut
        }
        None => text.to_owned(),
    }
}

/// An `mcp-server` folder: the tools and metadata of its manifest.json, its server.json kept.
pub fn read_folder(input: &Bundle, options: &Options) -> Outcome<ToolSet> {
    let file = |name: &str| input.get(name).map(|text| Bundle::single(name, text));
    let (Some(manifest), Some(server)) = (file(MANIFEST_FILE), file(SERVER_FILE)) else {
        return Outcome::fail(Diagnostic::error(
            codes::INPUT_MISSING_FILE,
            "",
            format!("an MCP server folder holds {SERVER_FILE} and the bundle's {MANIFEST_FILE}, which lists its tools"),
        ));
    };
    let manifest = match Source::parse(&manifest, MCP_SERVER, options) {
        Ok(source) if read::is_manifest(&source.value) => source,
        Ok(source) => return Outcome::fail(source.at(not_a_manifest("", MANIFEST_FILE))),
        Err(error) => return Outcome::fail(error),
    };
    let server = match Source::parse(&server, MCP_SERVER, options) {
        Ok(source) if source.value.is_object() => source,
        Ok(source) => {
            let expected =
                "expected server.json: an object {\"name\": \"namespace/name\", \"description\", \"version\", ...}";
            return Outcome::fail(source.at(Diagnostic::error(codes::INPUT_INVALID, "", expected)));
        }
        Err(error) => return Outcome::fail(error),
    };
    let mut outcome = read::manifest(&manifest);
    outcome.diagnostics.splice(0..0, manifest.tolerated.iter().chain(&server.tolerated).cloned());
    if let Some(model) = &mut outcome.value {
        let mut kept = Map::new();
        kept.insert("server".into(), server.value.clone());
        // The folder's other files (the server's code, its icon): given back by this format's
        // writer, named as lost by any other.
        let mut others = input.clone();
        others.entry = None;
        others.files.retain(|path, _| path != MANIFEST_FILE && path != SERVER_FILE);
        if !others.files.is_empty() || !others.binary_files.is_empty() {
            kept.insert(FOLDER_FILES.into(), serde_json::to_value(&others).unwrap_or_default());
        }
        model.extras.insert(MCP_SERVER.into(), Value::Object(kept));
    }
    outcome
}

/// The key, in the tool set's `mcp-server` extras, of the source folder's other files: core's
/// `loss::SOURCE_FILES`, so other targets' losses name each file.
pub const FOLDER_FILES: &str = toolport_plugin::loss::SOURCE_FILES;

/// The source folder's other files, when the model came from an `mcp-server` folder.
pub fn folder_files(model: &ToolSet) -> Option<Bundle> {
    let files = model.extras.get(MCP_SERVER)?.get(FOLDER_FILES)?;
    serde_json::from_value(files.clone()).ok()
}
