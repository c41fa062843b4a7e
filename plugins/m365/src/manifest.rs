//! What the reader and the writer share: recognising a plugin manifest, the manifest's keys the
//! model maps, where the model keeps the rest, and the one rule for a spec path inside the
//! plugin's folder.

use serde_json::Value;
use toolport_plugin::Bundle;

/// The schema version written (Microsoft recommends the latest for new plugins).
pub const SCHEMA_VERSION: &str = "v2.4";

/// The published JSON schema of that version, written as the manifest's `$schema` (and
/// vendored, with its source, as conformance/schemas/copilot-plugin-v2.4.schema.json).
pub const SCHEMA_URL: &str = "https://developer.microsoft.com/json-schemas/copilot/plugin/v2.4/schema.json";

/// "Unless specified otherwise, all string properties SHOULD be limited to 4K characters."
pub const STRING_MAX: usize = 4096;

/// The manifest's keys the model maps (kept as `null` in the kept manifest, marking their
/// place): `name_for_human` the title, `namespace` the id, `description_for_human` the
/// description, `description_for_model` the instructions, `functions` the tools.
pub const MAPPED: [&str; 5] =
    ["name_for_human", "namespace", "description_for_human", "description_for_model", "functions"];

/// A function's keys the model maps (its name and description); its `capabilities.confirmation`
/// body is the tool's confirmation message.
pub const FUNCTION_MAPPED: [&str; 2] = ["name", "description"];

/// The runtime type of an MCP server, whose functions the manifest itself declares.
pub const MCP_RUNTIME: &str = "RemoteMCPServer";

/// The option naming the manifest to read where a folder holds several.
pub const MANIFEST_OPTION: &str = "manifest";

/// Keys of the tool set's `extras["m365"]`.
pub mod kept {
    /// The manifest as written, its mapped keys `null`.
    pub const MANIFEST: &str = "manifest";
    /// The manifest's file name in the folder.
    pub const MANIFEST_FILE: &str = "manifestFile";
    /// The spec's path in the folder; absent for a spec written inline (`api_description`).
    pub const SPEC_FILE: &str = "specFile";
    /// Model fields as the spec had them where the manifest says otherwise (`title`,
    /// `description`, `id`, `instructions`; a tool's `description`, `confirmation`), so the
    /// spec is written back as it was.
    pub const SPEC_VALUES: &str = "specValues";
    /// The plugin's tools are its MCP runtimes' functions: no spec is read or written, and
    /// each function's `parameters` is its tool's input (kept as `parameters`/`parametersRoot`
    /// beside the function where the canonical form cannot give it back).
    pub const MCP_SERVER: &str = "mcpServer";
    /// Functions naming no operation of the spec, each `{index, function}`.
    pub const UNBOUND_FUNCTIONS: &str = "unboundFunctions";
    /// The folder's other files (a Teams app manifest, icons, other specs), as a bundle.
    pub const FOLDER_FILES: &str = "folderFiles";
    /// A tool's function as written, its mapped keys `null`.
    pub const FUNCTION: &str = "function";
    /// A tool's function's place in `functions`.
    pub const INDEX: &str = "index";
    /// A tool whose operation no function lists (the source's `functions` left it out).
    pub const NOT_A_FUNCTION: &str = "notAFunction";
}

/// Whether `value` is a plugin manifest of schema 2.x: an object whose `schema_version` is
/// `v2`, `v2.1`, … and that has a name for people or a namespace. A ChatGPT plugin's
/// `ai-plugin.json` (`v1`, `name_for_model`) is not one.
pub fn is_manifest(value: &Value) -> bool {
    let Some(map) = value.as_object() else { return false };
    let version = map.get("schema_version").and_then(Value::as_str).unwrap_or_default();
    let v2 = version == "v2" || version.strip_prefix("v2.").is_some_and(|minor| minor.parse::<u32>().is_ok());
    v2 && (map.contains_key("name_for_human") || map.contains_key("namespace"))
}

/// The folder's top-level JSON files that are plugin manifests, with their parsed value.
pub fn manifests(input: &Bundle) -> impl Iterator<Item = (&str, &str)> {
    input.files.iter().filter_map(|(name, text)| {
        let candidate = !name.contains('/') && name.ends_with(".json") && text.contains("schema_version");
        let value = candidate.then(|| serde_json::from_str::<Value>(text).ok()).flatten()?;
        is_manifest(&value).then_some((name.as_str(), text.as_str()))
    })
}

/// The path in the folder of the file that `url` names, relative to the manifest at
/// `manifest_file`: a relative reference that stays inside the folder. Anything else (a URL,
/// an absolute path, a path that climbs out of the folder) is refused with the reason, and no
/// file is looked for.
pub fn spec_path(manifest_file: &str, url: &str) -> Result<String, String> {
    let url = url.split(['?', '#']).next().unwrap_or_default();
    let has_scheme = url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if has_scheme {
        return Err(format!(
            "`{url}` is a URL (or a drive path): toolport reads no network and nothing outside the plugin's folder; put the spec in the folder and name it by a relative path"
        ));
    }
    if url.starts_with(['/', '\\']) {
        return Err(format!("`{url}` is an absolute path: a plugin names its spec relative to its manifest"));
    }
    if url.trim().is_empty() {
        return Err("the spec's url is empty".to_owned());
    }
    let mut segments: Vec<&str> = manifest_file.split('/').collect();
    segments.pop();
    for segment in url.split(['/', '\\']) {
        match segment {
            "" | "." => {}
            ".." => {
                if segments.pop().is_none() {
                    return Err(format!("`{url}` leaves the plugin's folder"));
                }
            }
            name => segments.push(name),
        }
    }
    Ok(segments.join("/"))
}
