//! A plugin folder → the model, mirrored by [`crate::write`]: the spec the manifest's `OpenApi`
//! runtime names, read by the `openapi` format (one tool per operation); each function merged
//! into the tool whose operationId it names (its description, its confirmation); the manifest's
//! own names and descriptions as the tool set's; everything else kept under `extras["m365"]`.

use serde_json::{Map, Value};
use toolport_format_openapi::OpenApi;
use toolport_plugin::function_tools::common::Source;
use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Confirmation, Diagnostic, Format, Options, Outcome, ToolSet, codes};

use crate::ID;
use crate::manifest::{FUNCTION_MAPPED, MAPPED, kept, manifests, spec_path};

/// What a manifest must look like, for errors that find none.
const EXPECTED: &str = "a plugin manifest {\"schema_version\": \"v2.4\", \"name_for_human\", \"namespace\", \"description_for_human\", \"functions\": [...], \"runtimes\": [{\"type\": \"OpenApi\", \"auth\": {...}, \"spec\": {\"url\": \"openapi.json\"}}]}";

/// Reads the plugin folder `input`.
pub fn folder(input: &Bundle, options: &Options) -> Outcome<ToolSet> {
    let found: Vec<(&str, &str)> = manifests(input).collect();
    let (file, text) = match found.as_slice() {
        [one] => *one,
        [] => {
            return Outcome::fail(Diagnostic::error(
                codes::INPUT_MISSING_FILE,
                "",
                format!("an API plugin folder holds, at its top level, {EXPECTED}: none found"),
            ));
        }
        many => {
            let names: Vec<&str> = many.iter().map(|(name, _)| *name).collect();
            return Outcome::fail(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                format!(
                    "the folder holds {} plugin manifests ({}): convert each plugin from a folder of its own",
                    names.len(),
                    names.join(", ")
                ),
            ));
        }
    };
    let source = match Source::parse(&Bundle::single(file, text), ID) {
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
    // The spec is written back by the openapi format when this format is the target: its
    // reader keeps what it read as written, as it does for its own round trip.
    let mut spec_options = options.clone();
    if options.may_target(&[ID]) {
        spec_options.set(Options::TARGET_FORMAT, "openapi");
    }
    let read = OpenApi.read(&Bundle::single(spec.name.as_str(), spec.text), &spec_options);
    diagnostics.extend(read.diagnostics);
    let Some(mut model) = read.value else { return Outcome::failed(diagnostics) };

    let mut merge =
        Merge { source: &source, model: &mut model, spec_values: Map::new(), diagnostics: &mut diagnostics };
    let mut kept_manifest = Map::new();
    let mut unbound = Vec::new();
    for (key, value) in &manifest {
        let read = MAPPED.contains(&key.as_str()) && merge.manifest_key(key, value, &mut unbound);
        kept_manifest.insert(key.clone(), if read { Value::Null } else { value.clone() });
    }
    let spec_values = std::mem::take(&mut merge.spec_values);

    let mut set_extras = Map::new();
    set_extras.insert(kept::MANIFEST.into(), Value::Object(kept_manifest));
    set_extras.insert(kept::MANIFEST_FILE.into(), Value::from(file));
    if let Some(path) = &spec.file {
        set_extras.insert(kept::SPEC_FILE.into(), Value::from(path.as_str()));
    }
    if !spec_values.is_empty() {
        set_extras.insert(kept::SPEC_VALUES.into(), Value::Object(spec_values));
    }
    if !unbound.is_empty() {
        set_extras.insert(kept::UNBOUND_FUNCTIONS.into(), Value::Array(unbound));
    }
    // The folder's other files (a Teams app manifest, icons, adaptive card templates): given
    // back by this format's writer, named as lost by any other.
    let mut others = input.clone();
    others.entry = None;
    others.files.retain(|path, _| path != file && Some(path) != spec.file.as_ref());
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

/// The spec of the manifest's first `OpenApi` runtime; the other runtimes are said and kept.
fn the_spec<'a>(
    source: &'a Source,
    manifest: &'a Map<String, Value>,
    input: &'a Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Spec<'a>, Diagnostic> {
    let runtimes = manifest.get("runtimes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut chosen = None;
    for (i, runtime) in runtimes.iter().enumerate() {
        let at = child("/runtimes", i.to_string());
        let kind = runtime.get("type").and_then(Value::as_str).unwrap_or_default();
        let spec = runtime.get("spec").filter(|s| s.is_object());
        match (kind, spec, chosen) {
            ("OpenApi", Some(spec), None) => chosen = Some((i, spec)),
            ("OpenApi", _, _) => diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_UNSUPPORTED,
                at,
                "a second OpenApi runtime is not read (toolport reads one spec per plugin): it is kept as written, and the functions of its spec name no operation",
            ))),
            (other, _, _) => diagnostics.push(source.at(Diagnostic::warning(
                codes::INPUT_UNSUPPORTED,
                at,
                format!("a runtime of type `{other}` is not read (toolport reads API plugins' OpenApi runtimes): kept as written"),
            ))),
        }
    }
    let Some((i, spec)) = chosen else {
        return Err(source.at(Diagnostic::error(
            codes::INPUT_UNSUPPORTED,
            if manifest.contains_key("runtimes") { "/runtimes" } else { "" },
            "the manifest has no runtime of type OpenApi with a spec: toolport reads API plugins (an MCP server's tools are read with --from mcp)",
        )));
    };
    let at = child(&child("/runtimes", i.to_string()), "spec");
    if let Some(text) = spec.get("api_description").and_then(Value::as_str) {
        let name = format!("{}#{}", source.file, child(&at, "api_description"));
        return Ok(Spec { name, text, file: None });
    }
    let url_at = child(&at, "url");
    let Some(url) = spec.get("url").and_then(Value::as_str) else {
        return Err(source.at(Diagnostic::error(
            codes::INPUT_INVALID,
            at,
            "the OpenApi runtime's spec has neither a `url` nor an `api_description`",
        )));
    };
    let path = spec_path(&source.file, url).map_err(|why| {
        source.at(Diagnostic::error(codes::INPUT_INVALID, url_at.as_str(), format!("the spec is not read: {why}")))
    })?;
    match input.files.get_key_value(&path) {
        Some((file, text)) => Ok(Spec { name: file.clone(), text, file: Some(file.clone()) }),
        None => Err(source.at(Diagnostic::error(
            codes::INPUT_MISSING_FILE,
            url_at,
            format!("the spec `{url}` is not in the plugin's folder (looked for `{path}`)"),
        ))),
    }
}

/// The manifest merged into the model the spec gave.
struct Merge<'a> {
    source: &'a Source,
    model: &'a mut ToolSet,
    /// Model fields as the spec had them, where the manifest says otherwise.
    spec_values: Map<String, Value>,
    diagnostics: &'a mut Vec<Diagnostic>,
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
                let why = match name {
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
