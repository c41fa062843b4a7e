//! Writing an MCPB manifest from the model, mirroring [`crate::read`]: the tool set's metadata
//! and each tool's name and description; what the manifest requires and the model lacks is
//! generated ([`crate::metadata`]); a manifest read before is given back with its own keys in
//! its own order.

use serde_json::{Map, Value};
use toolport_plugin::function_tools::common::extras_object;
use toolport_plugin::function_tools::descriptions::{Need, descriptions};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::function_tools::write::give_back_kept;
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::NameRules;
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Icon, Options, Tool, ToolSet, codes};

use crate::metadata::{self, MANIFEST_VERSION, is_web_url};
use crate::{MCP_SERVER, MCPB};

/// Tool names: the manifest gives them no rule, but they name the server's tools, so MCP's.
pub const NAME_RULES: NameRules = NameRules::MCP;

/// What a manifest holds of the model. A tool's parameters (and the definitions their schemas
/// use) are lost whole, reported once per tool by [`parameters_lost`]; the icon is written only
/// where the bundle can show it ([`icon`]).
const CARRIED: Carried = Carried {
    tool_set: &["id", "title", "description", "version", "creator", "icon"],
    tool: &["description"],
    parameter: &[],
    schema: &[],
    example: &[],
};

/// How many parameter names a loss message lists before it counts the rest.
const NAMES_LISTED: usize = 8;

/// The manifest of `model`. `target` is the format written (`mcpb`, or `mcp-server`, whose
/// server.json carries that format's own extras).
pub fn manifest(model: &ToolSet, target: &str, options: &Options, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let mut lost = uncarried(model, MCPB, &CARRIED);
    // Parameters and the definitions they use are said once per tool; an mcp-server target
    // writes its own extras (server.json).
    let carried_extras = format!("/extras/{MCP_SERVER}");
    lost.retain(|d| {
        let said_per_tool = is_parameter_path(&d.path) || d.path.starts_with("/definitions");
        let written_beside = target == MCP_SERVER && d.path == carried_extras;
        !(said_per_tool || written_beside)
    });
    diagnostics.extend(lost);
    let set_extras = extras_object(&model.extras, MCPB);
    let kept = set_extras.get("manifest").and_then(Value::as_object).cloned().unwrap_or_default();

    let name = metadata::name(model, options, diagnostics);
    let version = metadata::version(model, diagnostics);
    let description = metadata::description(model, &name, diagnostics);
    let mut mapped: Vec<(&str, Value)> = Vec::new();
    if !kept.contains_key("manifest_version") && !kept.contains_key("dxt_version") {
        mapped.push(("manifest_version", MANIFEST_VERSION.into()));
    }
    mapped.push(("name", name.as_str().into()));
    if let Some(title) = &model.title {
        mapped.push(("display_name", title.as_str().into()));
    }
    mapped.push(("version", version.into()));
    mapped.push(("description", description.into()));
    mapped.push(("author", metadata::author(model, diagnostics)));
    if let Some(icon) = icon(model, !kept.is_empty(), diagnostics) {
        mapped.push(("icon", icon));
    }
    if kept.get("server").is_none_or(Value::is_null) {
        mapped.push(("server", metadata::server(&name, options, diagnostics)));
    }
    mapped.push(("tools", Value::Array(tools(model, diagnostics))));

    // A manifest read before: its keys in its order, the model's values where it maps them.
    let mut out = Map::new();
    for (key, value) in kept {
        match mapped.iter().position(|(k, _)| *k == key) {
            Some(i) => {
                let (key, value) = mapped.remove(i);
                out.insert(key.into(), value);
            }
            // A key the model maps but no longer has (a title removed) stays out.
            None if value.is_null() => {}
            None => {
                out.insert(key, value);
            }
        }
    }
    out.extend(mapped.into_iter().map(|(k, v)| (k.to_owned(), v)));
    Value::Object(out)
}

/// Whether a diagnostic's model path is inside a tool's parameters.
fn is_parameter_path(path: &str) -> bool {
    let Some(rest) = path.strip_prefix("/tools/") else { return false };
    rest.split_once('/').is_some_and(|(_, tail)| tail.starts_with("parameters"))
}

/// The manifest's `icon`: a path (a manifest read before names its own file) or an https URL,
/// which `mcpb validate` accepts; an image toolport would have to write into the bundle is lost.
fn icon(model: &ToolSet, from_manifest: bool, diagnostics: &mut Vec<Diagnostic>) -> Option<Value> {
    let icon = model.icon.as_ref()?;
    match icon {
        Icon::Url { url } if is_web_url(url) => return Some(url.as_str().into()),
        Icon::Path { path } if from_manifest => return Some(path.as_str().into()),
        _ => {}
    }
    diagnostics.push(Diagnostic::loss(
        codes::LOSS_FIELD,
        "/icon",
        "an MCPB icon is a PNG file in the bundle or an https URL: the tool set's icon is left out; add icon.png to the bundle and name it",
    ));
    None
}

/// Each tool as `{name, description?}`, its parameters said lost.
fn tools(model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> Vec<Value> {
    let names = tool_names(model, NAME_RULES, MCPB, diagnostics);
    let descriptions = descriptions(model, MCPB, Need::Optional, diagnostics);
    let mut out = Vec::with_capacity(model.tools.len());
    for (i, ((tool, name), description)) in model.tools.iter().zip(names).zip(descriptions).enumerate() {
        let mut entry = Map::new();
        entry.insert("name".into(), name.into());
        if let Some(description) = description {
            entry.insert("description".into(), description.into());
        }
        give_back_kept(&mut entry, &extras_object(&tool.extras, MCPB));
        if let Some(lost) = parameters_lost(tool, i) {
            diagnostics.push(lost);
        }
        out.push(Value::Object(entry));
    }
    out
}

/// The one loss of a tool with parameters: the manifest has no place for any of them.
fn parameters_lost(tool: &Tool, index: usize) -> Option<Diagnostic> {
    if tool.parameters.is_empty() {
        return None;
    }
    let mut listed: Vec<String> = tool.parameters.iter().take(NAMES_LISTED).map(|p| format!("`{}`", p.name)).collect();
    if tool.parameters.len() > NAMES_LISTED {
        listed.push(format!("{} more", tool.parameters.len() - NAMES_LISTED));
    }
    Some(Diagnostic::loss(
        codes::LOSS_SCHEMA,
        child(&child("/tools", index.to_string()), "parameters"),
        format!(
            "an MCPB manifest lists a tool by name and description only: the parameters of tool `{}` ({}) are left out; clients learn them from the server's tools/list",
            tool.name,
            listed.join(", ")
        ),
    ))
}
