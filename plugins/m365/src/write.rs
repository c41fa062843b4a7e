//! The model → a plugin folder, mirroring [`crate::read`]: the spec written by the `openapi`
//! format (each function's operationId its name), and the manifest naming it, with what the
//! manifest requires generated ([`crate::metadata`]); a plugin read before is given back with
//! its own keys, files and order.

use serde_json::{Map, Value, json};
use toolport_format_openapi::OpenApi;
use toolport_plugin::function_tools::common::extras_object;
use toolport_plugin::function_tools::descriptions::{Need, descriptions};
use toolport_plugin::function_tools::names::tool_names;
use toolport_plugin::function_tools::schema::{self, Expansion, SchemaWriter};
use toolport_plugin::function_tools::write::pretty;
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::names::NameRules;
use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Confirmation, Diagnostic, Format, Options, Outcome, Tool, ToolSet, codes};

use crate::manifest::{SCHEMA_URL, SCHEMA_VERSION, kept, spec_path};
use crate::{ID, MANIFEST_SOURCE, metadata, restrictions};

/// Function names: Microsoft's `^[A-Za-z0-9_]+$`, led by a letter or `_` so that the openapi
/// writer takes each as its operationId unchanged (the function must name it).
pub const FUNCTION_NAMES: NameRules = NameRules::PARAMETER;

/// Past this many functions Microsoft notes that answers may get worse.
const FUNCTIONS_ADVISED: usize = 10;

/// Writes the plugin folder of `model`.
pub fn folder(model: &ToolSet, options: &Options) -> Outcome<Bundle> {
    let mut diagnostics = Vec::new();
    let set_extras = extras_object(&model.extras, ID);
    let kept_manifest = set_extras.get(kept::MANIFEST).and_then(Value::as_object).cloned();
    let text = |key: &str| set_extras.get(key).and_then(Value::as_str).map(str::to_owned);
    let name = options.output_name("plugin");
    let manifest_file = text(kept::MANIFEST_FILE).unwrap_or_else(|| format!("{name}-apiplugin.json"));
    let kept_spec_file = text(kept::SPEC_FILE);
    let syntax = match (options.get("syntax"), &kept_spec_file) {
        (Some(given), _) => given,
        (None, Some(file)) if file.ends_with(".yaml") || file.ends_with(".yml") => "yaml",
        _ => "json",
    };
    // A plugin read before names its spec where it was, or has it inline; a new one beside it.
    // An MCP plugin read before has none: its functions carry their parameters.
    let mcp_server = kept_manifest.is_some() && set_extras.get(kept::MCP_SERVER) == Some(&Value::Bool(true));
    let spec_file = match (&kept_manifest, kept_spec_file) {
        (Some(_), file) => file,
        (None, _) => Some(format!("{name}-openapi.{syntax}")),
    };

    let names = tool_names(model, FUNCTION_NAMES, ID, &mut diagnostics);
    let functions = is_function(model);
    let spec_text = match mcp_server {
        true => None,
        false => match spec(model, &names, &functions, syntax, options, &mut diagnostics) {
            Some(text) => Some(text),
            None => return Outcome::failed(diagnostics),
        },
    };

    let mut mapped: Vec<(&str, Value)> = Vec::new();
    if kept_manifest.is_none() {
        mapped.push(("$schema", SCHEMA_URL.into()));
        mapped.push(("schema_version", SCHEMA_VERSION.into()));
    }
    mapped.push(("name_for_human", metadata::name_for_human(model, options, &mut diagnostics).into()));
    let namespace = metadata::namespace(model, options, &mut diagnostics);
    mapped.push(("namespace", namespace.as_str().into()));
    if let Some(text) = metadata::description_for_model(model, kept_manifest.is_some(), &mut diagnostics) {
        mapped.push(("description_for_model", text.into()));
    }
    mapped.push(("description_for_human", metadata::description_for_human(model, &namespace, &mut diagnostics).into()));
    // A manifest without `functions` lets Copilot take every operation as one: given back so.
    if kept_manifest.as_ref().is_none_or(|m| m.contains_key("functions")) {
        let list = function_list(model, &names, &functions, &set_extras, mcp_server, &mut diagnostics);
        mapped.push(("functions", Value::Array(list)));
    }
    if kept_manifest.is_none() {
        let bound: Vec<Value> =
            names.iter().zip(&functions).filter(|(_, f)| **f).map(|(n, _)| Value::from(n.as_str())).collect();
        let spec = json!({"url": spec_file.clone().unwrap_or_default()});
        let runtime = json!({"type": "OpenApi", "auth": metadata::runtime_auth(model, &mut diagnostics), "spec": spec, "run_for_functions": bound});
        mapped.push(("runtimes", Value::Array(vec![runtime])));
    }
    let count = functions.iter().filter(|f| **f).count();
    if count > FUNCTIONS_ADVISED {
        diagnostics.push(Diagnostic::info(
            codes::LIMIT_TOOLS,
            "/tools",
            format!(
                "{count} functions: Microsoft notes that answers may get worse past {FUNCTIONS_ADVISED} functions in a plugin (--select or --split by-tag makes smaller ones) (source: https://learn.microsoft.com/microsoft-365-copilot/extensibility/overview-plugins#limitations)"
            ),
        ));
    }

    let mut manifest = with_kept_keys(kept_manifest.unwrap_or_default(), mapped);
    if let Some(spec_text) = &spec_text {
        point_runtime_at(&mut manifest, &manifest_file, spec_file.as_deref(), spec_text);
    }

    let mut bundle: Bundle = set_extras
        .get(kept::FOLDER_FILES)
        .and_then(|files| serde_json::from_value(files.clone()).ok())
        .unwrap_or_default();
    if let (Some(file), Some(text)) = (&spec_file, spec_text) {
        bundle.insert(file.as_str(), text);
    }
    bundle.insert(manifest_file, pretty(&Value::Object(manifest)));
    Outcome::ok(bundle, diagnostics)
}

/// An object read before (`kept`, its mapped keys `null`) with the model's values: its keys in
/// its order, each mapped key's value from `mapped`, the mapped keys it lacked after them. A
/// key the model maps but no longer has (instructions removed) stays out.
fn with_kept_keys(kept: Map<String, Value>, mut mapped: Vec<(&str, Value)>) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in kept {
        match mapped.iter().position(|(k, _)| *k == key) {
            Some(at) => {
                let (key, value) = mapped.remove(at);
                out.insert(key.into(), value);
            }
            None if value.is_null() => {}
            None => {
                out.insert(key, value);
            }
        }
    }
    out.extend(mapped.into_iter().map(|(k, v)| (k.to_owned(), v)));
    out
}

/// Which tools are functions: all but those a source manifest left out of its `functions`.
fn is_function(model: &ToolSet) -> Vec<bool> {
    model
        .tools
        .iter()
        .map(|t| extras_object(&t.extras, ID).get(kept::NOT_A_FUNCTION) != Some(&Value::Bool(true)))
        .collect()
}

/// The spec's text, by the `openapi` format's writer, from the model as the spec holds it:
/// each function's operationId its name; the manifest's own values (names, descriptions,
/// confirmations) put back as the spec had them, and this format's extras left out.
fn spec(
    model: &ToolSet,
    names: &[String],
    functions: &[bool],
    syntax: &str,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let mut spec_model = model.clone();
    let set_values = extras_object(&spec_model.extras, ID).get(kept::SPEC_VALUES).cloned();
    spec_model.extras.shift_remove(ID);
    for (field, value) in set_values.as_ref().and_then(Value::as_object).into_iter().flatten() {
        let value = value.as_str().map(str::to_owned);
        match field.as_str() {
            "title" => spec_model.title = value,
            "id" => spec_model.id = value,
            "description" => spec_model.description = value,
            "instructions" => spec_model.instructions = value,
            _ => {}
        }
    }
    for ((tool, name), function) in spec_model.tools.iter_mut().zip(names).zip(functions) {
        let ext = tool.extras.shift_remove(ID);
        let values = ext.as_ref().and_then(|e| e.get(kept::SPEC_VALUES)).and_then(Value::as_object);
        // The manifest holds the confirmation; the spec holds one only where it had its own.
        tool.confirmation = None;
        for (field, value) in values.into_iter().flatten() {
            match field.as_str() {
                "description" => tool.description = value.as_str().map(str::to_owned),
                "confirmation" => {
                    tool.confirmation =
                        serde_json::from_value::<Option<Box<Confirmation>>>(value.clone()).ok().flatten()
                }
                _ => {}
            }
        }
        if *function {
            tool.name = name.clone();
            if let Some(id) = tool.http.as_mut().and_then(|http| http.operation_id.as_mut()) {
                id.clone_from(name);
            }
            // A function names its operation: one the source left without an operationId gets it.
            if let Some(Value::Object(openapi)) = tool.extras.get_mut("openapi") {
                openapi.shift_remove("noOperationId");
            }
        }
    }
    let mut spec_options = options.clone();
    spec_options.set("syntax", syntax);
    let written = OpenApi.write(&spec_model, &spec_options);
    diagnostics.extend(written.diagnostics);
    let text = written.value?.files.into_values().next();
    if text.is_none() {
        diagnostics.push(Diagnostic::error(codes::PLUGIN_FAILED, "", "the openapi format wrote no spec"));
    }
    text
}

/// The manifest's `functions`: one per function tool (its name, description and confirmation,
/// with what a source manifest had besides; an MCP plugin's, its parameters too), and the
/// functions a source named no operation with, each in its source place.
fn function_list(
    model: &ToolSet,
    names: &[String],
    functions: &[bool],
    set_extras: &Map<String, Value>,
    mcp_server: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Value> {
    let texts = descriptions(model, ID, Need::Optional, diagnostics);
    let expansion = Expansion::for_model(model);
    let writer = SchemaWriter::for_model(Dialect::JsonSchema, model, &expansion).inlined();
    let mut placed: Vec<(u64, Value)> = Vec::new();
    for (i, tool) in model.tools.iter().enumerate().filter(|(i, _)| functions[*i]) {
        restrictions::check(model, tool, i, diagnostics);
        let ext = extras_object(&tool.extras, ID);
        let kept_function = ext.get(kept::FUNCTION).and_then(Value::as_object).cloned();
        let mut mapped: Vec<(&str, Value)> = vec![("name", names[i].as_str().into())];
        // A source's function without a description leaves it to its operation's.
        let described = kept_function.as_ref().is_none_or(|f| f.contains_key("description"));
        if let Some(text) = texts[i].as_ref().filter(|_| described) {
            mapped.push(("description", text.as_str().into()));
        }
        // A source's function without parameters left them to its runtime's tool description.
        if mcp_server && kept_function.as_ref().is_none_or(|f| f.contains_key("parameters")) {
            let at = child(&child("/tools", i.to_string()), "parameters");
            mapped.push((
                "parameters",
                schema::write_input(writer, &tool.parameters, &ext, "parameters", &at, diagnostics),
            ));
        }
        let mut function = with_kept_keys(kept_function.unwrap_or_default(), mapped);
        confirmation(tool, i, &mut function, diagnostics);
        let place = ext.get(kept::INDEX).and_then(Value::as_u64).unwrap_or(u64::MAX);
        placed.push((place, Value::Object(function)));
    }
    let unbound = set_extras.get(kept::UNBOUND_FUNCTIONS).and_then(Value::as_array);
    for entry in unbound.into_iter().flatten() {
        let place = entry.get(kept::INDEX).and_then(Value::as_u64).unwrap_or(u64::MAX);
        placed.push((place, entry.get(kept::FUNCTION).cloned().unwrap_or_default()));
    }
    // Stable: new functions keep their tool order after those placed by a source.
    placed.sort_by_key(|(place, _)| *place);
    placed.into_iter().map(|(_, f)| f).collect()
}

/// The function's `capabilities.confirmation` from the tool's: a source's confirmation object
/// with the message as its body, else an Adaptive Card one titled by the tool, said. What the
/// object has no place for (information rows, a style) is said lost; a confirmation the model
/// no longer has is taken out.
fn confirmation(tool: &Tool, index: usize, function: &mut Map<String, Value>, out: &mut Vec<Diagnostic>) {
    let path = child(&child("/tools", index.to_string()), "confirmation");
    let capabilities = function.entry("capabilities").or_insert_with(|| Value::Object(Map::new()));
    let Some(capabilities) = capabilities.as_object_mut() else { return };
    let asks = |c: &Value| c.get("type").and_then(Value::as_str) != Some("None");
    let kept = capabilities.get("confirmation").filter(|c| c.is_object() && asks(c)).cloned();
    match (&tool.confirmation, kept) {
        (None, Some(_)) => drop(capabilities.shift_remove("confirmation")),
        (None, None) => {}
        (Some(confirmation), kept) => {
            let mut object = match kept {
                Some(Value::Object(object)) => object,
                _ => {
                    let title = tool.title.clone().unwrap_or_else(|| tool.name.clone());
                    out.push(Diagnostic::info(
                        codes::GENERATED,
                        path.as_str(),
                        format!(
                            "tool `{}` asks before it runs: an Adaptive Card confirmation titled `{title}` is written",
                            tool.name
                        ),
                    ));
                    let mut object = Map::new();
                    object.insert("type".into(), "AdaptiveCard".into());
                    object.insert("title".into(), title.into());
                    object
                }
            };
            if let Some(message) = &confirmation.message {
                object.insert("body".into(), message.as_str().into());
            }
            if !confirmation.info.is_empty() || confirmation.style.as_deref().is_some_and(|s| s != "regular") {
                out.push(Diagnostic::loss(
                    codes::LOSS_CONFIRMATION,
                    path.as_str(),
                    format!(
                        "a plugin's confirmation is a title and a body: the information rows and style of tool `{}`'s confirmation are left out (source: {MANIFEST_SOURCE})",
                        tool.name
                    ),
                ));
            }
            capabilities.insert("confirmation".into(), Value::Object(object));
        }
    }
    if capabilities.is_empty() {
        function.shift_remove("capabilities");
    }
}

/// Points the manifest's first `OpenApi` runtime at the written spec, where it does not name
/// that file already: its `url`, or its inline `api_description`.
fn point_runtime_at(manifest: &mut Map<String, Value>, manifest_file: &str, spec_file: Option<&str>, text: &str) {
    let runtimes = manifest.get_mut("runtimes").and_then(Value::as_array_mut);
    let runtime = runtimes.into_iter().flatten().find(|r| {
        r.get("type").and_then(Value::as_str) == Some("OpenApi") && r.get("spec").is_some_and(Value::is_object)
    });
    let Some(spec) = runtime.and_then(|r| r.get_mut("spec")).and_then(Value::as_object_mut) else { return };
    match spec_file {
        None => drop(spec.insert("api_description".into(), text.into())),
        Some(file) => {
            let names_it = spec
                .get("url")
                .and_then(Value::as_str)
                .is_some_and(|url| spec_path(manifest_file, url).as_deref() == Ok(file));
            if !names_it {
                spec.insert("url".into(), file.into());
            }
        }
    }
}
