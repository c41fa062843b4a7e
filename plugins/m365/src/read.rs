//! A plugin folder → the model, mirrored by [`crate::write`]: the spec the manifest's `OpenApi`
//! runtime names, read by the `openapi` format (one tool per operation); each function merged
//! into the tool whose operationId it names (its description, its confirmation); the manifest's
//! own names and descriptions as the tool set's; everything else kept under `extras["m365"]`.
//! A plugin whose runtimes are MCP servers (`RemoteMCPServer`, no `OpenApi` runtime) has no
//! spec: each function a runtime runs is a tool, its `parameters` (else the input schema of the
//! runtime's static tool description) its input.

use std::collections::HashMap;

use serde_json::{Map, Value};
use toolport_format_openapi::OpenApi;
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::function_tools::schema;
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::source::child;
use toolport_plugin::suggest::did_you_mean;
use toolport_plugin::{Bundle, Confirmation, Diagnostic, Format, Options, Outcome, Severity, Tool, ToolSet, codes};

use crate::ID;
use crate::manifest::{FUNCTION_MAPPED, MANIFEST_OPTION, MAPPED, MCP_RUNTIME, kept, manifests, spec_path};

/// What a manifest must look like, for errors that find none.
const EXPECTED: &str = "a plugin manifest {\"schema_version\": \"v2.4\", \"name_for_human\", \"namespace\", \"description_for_human\", \"functions\": [...], \"runtimes\": [{\"type\": \"OpenApi\", \"auth\": {...}, \"spec\": {\"url\": \"openapi.json\"}}]}";

/// Reads the plugin folder `input`.
pub fn folder(input: &Bundle, options: &Options) -> Outcome<ToolSet> {
    let (file, text) = match the_manifest(input, options) {
        Ok(found) => found,
        Err(error) => return Outcome::fail(error),
    };
    let manifest_file = Bundle::single(file, text);
    let source = match Source::parse(&manifest_file, ID, options) {
        Ok(source) => source,
        Err(error) => return Outcome::fail(error),
    };
    let mut diagnostics = source.tolerated.clone();
    let manifest = source.value.as_object().cloned().unwrap_or_default();
    let spec = match the_spec(&source, &manifest, input, &mut diagnostics) {
        Ok(spec) => spec,
        Err(error) => {
            diagnostics.push(error);
            return Outcome::failed(diagnostics);
        }
    };
    let mut parameters_kept = HashMap::new();
    let mut model = match &spec {
        Some(spec) => {
            // The spec is written back by the openapi format when this format is the target: its
            // reader keeps what it read as written, as it does for its own round trip.
            let mut spec_options = options.clone();
            if options.may_target(&[ID]) {
                spec_options.set(Options::TARGET_FORMAT, "openapi");
            }
            let read = OpenApi.read(&Bundle::single(spec.name.as_str(), spec.text), &spec_options);
            diagnostics.extend(read.diagnostics);
            let Some(model) = read.value else { return Outcome::failed(diagnostics) };
            model
        }
        None => mcp_tools(&source, &manifest, input, &mut parameters_kept, &mut diagnostics),
    };

    let mut merge = Merge {
        source: &source,
        model: &mut model,
        spec_values: Map::new(),
        diagnostics: &mut diagnostics,
        mcp: spec.is_none(),
    };
    let mut kept_manifest = Map::new();
    let mut unbound = Vec::new();
    for (key, value) in &manifest {
        let read = MAPPED.contains(&key.as_str()) && merge.manifest_key(key, value, &mut unbound);
        kept_manifest.insert(key.clone(), if read { Value::Null } else { value.clone() });
    }
    let spec_values = std::mem::take(&mut merge.spec_values);
    for tool in &mut model.tools {
        let Some(kept_input) = parameters_kept.remove(&tool.name) else { continue };
        let Some(Value::Object(ext)) = tool.extras.get_mut(ID) else { continue };
        if let Some(Value::Object(function)) = ext.get_mut(kept::FUNCTION) {
            function.insert("parameters".into(), Value::Null);
        }
        ext.extend(kept_input);
    }

    let mut set_extras = Map::new();
    set_extras.insert(kept::MANIFEST.into(), Value::Object(kept_manifest));
    set_extras.insert(kept::MANIFEST_FILE.into(), Value::from(file));
    match &spec {
        Some(Spec { file: Some(path), .. }) => {
            drop(set_extras.insert(kept::SPEC_FILE.into(), Value::from(path.as_str())))
        }
        Some(_) => {}
        None => drop(set_extras.insert(kept::MCP_SERVER.into(), Value::Bool(true))),
    }
    // Without a spec there is nothing to give the model's values back to.
    if !spec_values.is_empty() && spec.is_some() {
        set_extras.insert(kept::SPEC_VALUES.into(), Value::Object(spec_values));
    }
    if !unbound.is_empty() {
        set_extras.insert(kept::UNBOUND_FUNCTIONS.into(), Value::Array(unbound));
    }
    // The folder's other files (a Teams app manifest, icons, adaptive card templates): given
    // back by this format's writer, named as lost by any other.
    let mut others = input.clone();
    others.entry = None;
    let spec_file = spec.as_ref().and_then(|spec| spec.file.as_ref());
    others.files.retain(|path, _| path != file && Some(path) != spec_file);
    if !others.files.is_empty() || !others.binary_files.is_empty() {
        set_extras.insert(kept::FOLDER_FILES.into(), serde_json::to_value(&others).unwrap_or_default());
    }
    model.extras.insert(ID.into(), Value::Object(set_extras));
    Outcome::ok(model, diagnostics)
}

/// The spec an `OpenApi` runtime names: its text, the name its diagnostics give it, and its
/// path in the folder (none for one written inline as `api_description`).
struct Spec<'a> {
    name: String,
    text: &'a str,
    file: Option<String>,
}

/// The plugin manifest of the folder: its only one, or the one `--option manifest=FILE` names
/// where an app package holds several (a declarative agent's plugins side by side).
fn the_manifest<'a>(input: &'a Bundle, options: &Options) -> Result<(&'a str, &'a str), Diagnostic> {
    let found: Vec<(&str, &str)> = manifests(input).collect();
    let names: Vec<&str> = found.iter().map(|(name, _)| *name).collect();
    if let Some(wanted) = options.get(MANIFEST_OPTION) {
        return found.iter().find(|(name, _)| *name == wanted).copied().ok_or_else(|| {
            let hint = match did_you_mean(wanted, names.iter().copied()) {
                Some(near) => format!("; did you mean `{near}`?"),
                None if names.is_empty() => String::new(),
                None => format!("; its manifests: {}", names.join(", ")),
            };
            Diagnostic::error(
                codes::INPUT_MISSING_FILE,
                "",
                format!("--option {MANIFEST_OPTION}={wanted}: the folder holds no plugin manifest of that name at its top level{hint}"),
            )
        });
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(Diagnostic::error(
            codes::INPUT_MISSING_FILE,
            "",
            format!("an API plugin folder holds, at its top level, {EXPECTED}: none found"),
        )),
        many => Err(Diagnostic::error(
            codes::INPUT_INVALID,
            "",
            format!(
                "the folder holds {} plugin manifests ({}): choose one with --option {MANIFEST_OPTION}={}",
                many.len(),
                names.join(", "),
                names[0]
            ),
        )),
    }
}

/// The spec of the manifest's first `OpenApi` runtime; the other runtimes are said and kept.
/// `None` for a plugin whose runtimes are MCP servers only: its functions are its tools.
fn the_spec<'a>(
    source: &'a Source,
    manifest: &'a Map<String, Value>,
    input: &'a Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Option<Spec<'a>>, Diagnostic> {
    let runtimes = manifest.get("runtimes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    fn kind(runtime: &Value) -> &str {
        runtime.get("type").and_then(Value::as_str).unwrap_or_default()
    }
    let has_openapi = runtimes.iter().any(|r| kind(r) == "OpenApi" && r.get("spec").is_some_and(Value::is_object));
    let has_mcp = runtimes.iter().any(|r| kind(r) == MCP_RUNTIME);
    let mut chosen = None;
    for (i, runtime) in runtimes.iter().enumerate() {
        let at = child("/runtimes", i.to_string());
        let spec = runtime.get("spec").filter(|s| s.is_object());
        match (kind(runtime), spec, chosen) {
            ("OpenApi", Some(spec), None) => chosen = Some((i, spec)),
            ("OpenApi", _, _) => diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_UNSUPPORTED,
                at,
                "a second OpenApi runtime is not read (toolport reads one spec per plugin): it is kept as written, and the functions of its spec name no operation",
            ))),
            (MCP_RUNTIME, _, _) if !has_openapi => {}
            (other, _, _) => diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_UNSUPPORTED,
                at,
                if has_openapi && other == MCP_RUNTIME {
                    format!("a runtime of type `{other}` beside an OpenApi runtime is not read (toolport reads one runtime's functions per plugin): kept as written")
                } else {
                    format!("a runtime of type `{other}` is not read (toolport reads OpenApi and RemoteMCPServer runtimes): kept as written")
                },
            ))),
        }
    }
    let Some((i, spec)) = chosen else {
        if has_mcp {
            return Ok(None);
        }
        return Err(source.at(Diagnostic::error(
            codes::INPUT_UNSUPPORTED,
            if manifest.contains_key("runtimes") { "/runtimes" } else { "" },
            "the manifest has no runtime of type OpenApi with a spec, nor one of type RemoteMCPServer: toolport reads the functions of those two",
        )));
    };
    let at = child(&child("/runtimes", i.to_string()), "spec");
    if let Some(text) = spec.get("api_description").and_then(Value::as_str) {
        let name = format!("{}#{}", source.file, child(&at, "api_description"));
        return Ok(Some(Spec { name, text, file: None }));
    }
    let url_at = child(&at, "url");
    let Some(url) = spec.get("url").and_then(Value::as_str) else {
        return Err(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            at,
            "the OpenApi runtime's spec has neither a `url` nor an `api_description`",
        )));
    };
    let (file, text) = folder_file(source, input, url, &url_at, "spec")?;
    Ok(Some(Spec { name: file.to_owned(), text, file: Some(file.to_owned()) }))
}

/// The file of the folder that `url`, written at `at` in the manifest, names: refused, located,
/// when it leaves the folder or is not there (with the nearest file's name, a `.yaml` for a
/// `.yml`).
fn folder_file<'a>(
    source: &Source,
    input: &'a Bundle,
    url: &str,
    at: &str,
    what: &str,
) -> Result<(&'a str, &'a str), Diagnostic> {
    let path = spec_path(&source.file, url).map_err(|why| {
        source.at(Diagnostic::error(codes::INPUT_INVALID, at, format!("the {what} is not read: {why}")))
    })?;
    match input.files.get_key_value(&path) {
        Some((file, text)) => Ok((file.as_str(), text.as_str())),
        None => {
            let near = did_you_mean(&path, input.files.keys().map(String::as_str))
                .map(|near| format!("; did you mean `{near}`?"))
                .unwrap_or_default();
            Err(source.at(Diagnostic::error(
                codes::INPUT_MISSING_FILE,
                at,
                format!("the {what} `{url}` is not in the plugin's folder (looked for `{path}`){near}"),
            )))
        }
    }
}

/// The tools of a plugin whose runtimes are MCP servers: each function a runtime runs, named
/// and described by the function, its input its `parameters`, else the input schema of the
/// runtime's static tool description (inline `tools`, or a file of the folder holding a
/// `tools/list` result). What a write needs to give `parameters` back exactly goes to
/// `kept_inputs`, by tool name.
fn mcp_tools(
    source: &Source,
    manifest: &Map<String, Value>,
    input: &Bundle,
    kept_inputs: &mut HashMap<String, Map<String, Value>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> ToolSet {
    let runtimes: Vec<(usize, &Value)> = (manifest.get("runtimes").and_then(Value::as_array).into_iter().flatten())
        .enumerate()
        .filter(|(_, r)| r.get("type").and_then(Value::as_str) == Some(MCP_RUNTIME))
        .collect();
    // Each statically described tool's input schema, with where it is written.
    let mut described: HashMap<String, (Value, String)> = HashMap::new();
    for (i, runtime) in &runtimes {
        let at = format!("/runtimes/{i}/spec/mcp_tool_description");
        let Some(description) = runtime.get("spec").and_then(|s| s.get("mcp_tool_description")) else { continue };
        let (tools, tools_at) = match (description.get("tools"), description.get("file").and_then(Value::as_str)) {
            (Some(tools), _) => (Some(tools.clone()), format!("{at}/tools")),
            (None, Some(file)) => {
                match folder_file(source, input, file, &format!("{at}/file"), "tool description file") {
                    Ok((name, text)) => {
                        let value: Option<Value> = serde_json::from_str(text).ok();
                        let tools =
                            value.as_ref().map(|v| v.get("result").unwrap_or(v)).and_then(|v| v.get("tools")).cloned();
                        if tools.is_none() {
                            diagnostics.push(Diagnostic::warning(
                            codes::INPUT_INVALID,
                            "",
                            format!("{name}: the tool description file should be a JSON tools/list result ({{\"tools\": [...]}}); its schemas are not read"),
                        ));
                        }
                        (tools, format!("{name}#/tools"))
                    }
                    Err(mut error) => {
                        // The functions' own parameters may still say everything: not fatal.
                        error.severity = Severity::Warning;
                        diagnostics.push(error);
                        (None, String::new())
                    }
                }
            }
            (None, None) => (None, String::new()),
        };
        for (k, tool) in tools.as_ref().and_then(Value::as_array).into_iter().flatten().enumerate() {
            if let (Some(name), Some(schema)) = (tool.get("name").and_then(Value::as_str), tool.get("inputSchema")) {
                described
                    .entry(name.to_owned())
                    .or_insert_with(|| (schema.clone(), format!("{tools_at}/{k}/inputSchema")));
            }
        }
    }
    let runs = |name: &str| {
        runtimes.iter().any(|(_, runtime)| match runtime.get("run_for_functions").and_then(Value::as_array) {
            None => true,
            Some(names) => names.iter().any(|n| n.as_str().is_some_and(|n| n == "*" || n == name)),
        })
    };
    let mut model = ToolSet::default();
    let functions = manifest.get("functions").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (i, function) in functions.iter().enumerate() {
        let Some(name) = function.get("name").and_then(Value::as_str) else { continue };
        if !runs(name) || model.tools.iter().any(|t| t.name == name) {
            continue;
        }
        let at = child(&child("/functions", i.to_string()), "parameters");
        let mut kept_input = Map::new();
        let parameters = match (function.get("parameters"), described.get(name)) {
            (Some(value), _) => {
                schema::read_input(source, value, Dialect::JsonSchema, &at, "parameters", &mut kept_input, diagnostics)
            }
            (None, Some((value, schema_at))) => {
                // The runtime's own description is kept with the runtime, as written.
                schema::read_parameters(source, value, Dialect::JsonSchema, schema_at, diagnostics)
            }
            (None, None) => {
                diagnostics.push(source.at(Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    child("/functions", i.to_string()),
                    format!(
                        "function `{name}` has no `parameters`, and its MCP runtime describes no tools statically: Copilot asks the server (tools/list), which toolport does not (no network); read without parameters"
                    ),
                )));
                Vec::new()
            }
        };
        // Recorded even when empty: the function's `parameters` were read into the tool.
        if function.get("parameters").is_some() {
            kept_inputs.insert(name.to_owned(), kept_input);
        }
        model.tools.push(Tool { name: name.to_owned(), parameters, ..Tool::default() });
    }
    model
}

/// The manifest merged into the model the spec gave.
struct Merge<'a> {
    source: &'a Source<'a>,
    model: &'a mut ToolSet,
    /// Model fields as the spec had them, where the manifest says otherwise.
    spec_values: Map<String, Value>,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// The tools are an MCP runtime's functions, not a spec's operations.
    mcp: bool,
}

impl Merge<'_> {
    /// Reads one mapped key of the manifest; `false` (with a warning) when its value is not of
    /// the kind the schema gives it, so it is kept as written.
    fn manifest_key(&mut self, key: &str, value: &Value, unbound: &mut Vec<Value>) -> bool {
        if key == "functions" {
            let Some(functions) = value.as_array() else {
                return self.not_read(key, "a list of function objects");
            };
            self.functions(functions, unbound);
            return true;
        }
        let Some(text) = value.as_str() else { return self.not_read(key, "a string") };
        let (field, slot) = match key {
            "name_for_human" => ("title", &mut self.model.title),
            "namespace" => ("id", &mut self.model.id),
            "description_for_human" => ("description", &mut self.model.description),
            _ => ("instructions", &mut self.model.instructions),
        };
        if slot.as_deref() != Some(text) {
            self.spec_values.insert(field.into(), slot.as_deref().map_or(Value::Null, Value::from));
            *slot = Some(text.to_owned());
        }
        true
    }

    fn not_read(&mut self, key: &str, shape: &str) -> bool {
        self.diagnostics.push(self.source.at(Diagnostic::warning(
            codes::INPUT_INVALID,
            child("", key),
            format!("`{key}` should be {shape}; kept as written"),
        )));
        false
    }

    /// Each function merged into the tool of its operation; one that names none is kept.
    fn functions(&mut self, functions: &[Value], unbound: &mut Vec<Value>) {
        let mut bound = vec![false; self.model.tools.len()];
        for (i, function) in functions.iter().enumerate() {
            let at = child("/functions", i.to_string());
            let name = function.get("name").and_then(Value::as_str);
            let tool = name.and_then(|name| {
                self.model.tools.iter().enumerate().position(|(j, tool)| {
                    let operation_id = tool.http.as_ref().and_then(|h| h.operation_id.as_deref());
                    !bound[j] && (operation_id == Some(name) || (operation_id.is_none() && tool.name == name))
                })
            });
            let Some(j) = tool else {
                let repeated = name.is_some_and(|name| self.model.tools.iter().any(|t| t.name == name));
                let why = match name {
                    Some(name) if self.mcp && repeated => format!("a second function named `{name}`"),
                    Some(name) if self.mcp => {
                        format!("function `{name}` is run by no MCP runtime (its `run_for_functions`)")
                    }
                    Some(name) => format!("function `{name}` names no operation of the spec (its operationId)"),
                    None => "a function without a string `name`".to_owned(),
                };
                let path = if name.is_some() { child(&at, "name") } else { at };
                self.diagnostics.push(self.source.at(Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    path,
                    format!("{why}: kept as written for a same-format write, no tool read"),
                )));
                unbound.push(serde_json::json!({kept::INDEX: i, kept::FUNCTION: function}));
                continue;
            };
            bound[j] = true;
            let (record, spec_values) = self.function(function, j, &at);
            let mut extras = Map::new();
            extras.insert(kept::FUNCTION.into(), Value::Object(record));
            extras.insert(kept::INDEX.into(), Value::from(i));
            if !spec_values.is_empty() {
                extras.insert(kept::SPEC_VALUES.into(), Value::Object(spec_values));
            }
            self.model.tools[j].extras.insert(ID.into(), Value::Object(extras));
        }
        for (j, tool) in self.model.tools.iter_mut().enumerate().filter(|(j, _)| !bound[*j]) {
            self.diagnostics.push(Diagnostic::info(
                codes::INPUT_UNSUPPORTED,
                child("/tools", j.to_string()),
                format!(
                    "operation `{}` is not one of the plugin's functions: Copilot does not call it; read as a tool",
                    tool.name
                ),
            ));
            tool.extras.insert(ID.into(), serde_json::json!({kept::NOT_A_FUNCTION: true}));
        }
    }

    /// One function merged into tool `j`: its description and confirmation. Returns the
    /// function as written, its mapped keys `null`, and the tool's fields as the spec had them
    /// where the function says otherwise.
    fn function(&mut self, function: &Value, j: usize, at: &str) -> (Map<String, Value>, Map<String, Value>) {
        let mut record = function.as_object().cloned().unwrap_or_default();
        let mut spec_values = Map::new();
        let tool = &mut self.model.tools[j];
        for key in FUNCTION_MAPPED {
            match (key, record.get(key)) {
                ("name", Some(_)) => {}
                ("description", Some(Value::String(text))) => {
                    if tool.description.as_deref() != Some(text) {
                        spec_values
                            .insert("description".into(), tool.description.as_deref().map_or(Value::Null, Value::from));
                        tool.description = Some(text.clone());
                    }
                }
                ("description", Some(_)) => {
                    self.diagnostics.push(self.source.at(Diagnostic::warning(
                        codes::INPUT_INVALID,
                        child(at, "description"),
                        "a function's `description` should be a string; kept as written",
                    )));
                    continue;
                }
                _ => continue,
            }
            record.insert(key.into(), Value::Null);
        }
        let confirmation = record.get("capabilities").and_then(|c| c.get("confirmation")).and_then(Value::as_object);
        let asks = confirmation.filter(|c| c.get("type").and_then(Value::as_str) != Some("None"));
        let read = asks.map(|c| {
            Box::new(Confirmation {
                message: c.get("body").and_then(Value::as_str).map(str::to_owned),
                ..Confirmation::default()
            })
        });
        if tool.confirmation != read {
            let before = tool.confirmation.as_ref().map(|c| serde_json::to_value(c).unwrap_or_default());
            spec_values.insert("confirmation".into(), before.unwrap_or(Value::Null));
            tool.confirmation = read;
        }
        (record, spec_values)
    }
}
