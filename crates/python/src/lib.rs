//! `toolport._toolport`, the Python extension module under the `toolport` package
//! (python/toolport/): every built-in format linked in ([`linked_formats`]), plus the
//! third-party plugins found where `convert` looks (`--plugin-dir`-like directories given by
//! the caller, `TOOLPORT_PLUGIN_PATH`, the user data directory), which run isolated through
//! the `toolport-plugin-host` shipped in the wheel.
//!
//! The functions here are the thin, untyped layer: they take normalised arguments from
//! python/toolport/__init__.py and return plain tuples, diagnostics and models as JSON text;
//! the Python side builds the typed results and raises the typed exceptions. Loading uses the
//! host's input loader (`toolport_host::input`, same limits and errors as the command line),
//! converting the host's pipeline, writing the host's staging. Conversions run without the
//! GIL, on the stack the documented nesting limit needs, kept per thread between calls
//! (`toolport_host::conversion_stack`); the registry is built once per process (per discovery inputs); a document given as Python
//! objects is written as JSON text in one walk.
#![deny(unsafe_code)]

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use toolport_core::{Bundle, Diagnostic, Format, InputShape, Options, Strictness, codes};
use toolport_function_tools::write::json_string;
use toolport_host::conversion_stack::on_conversion_stack;
use toolport_host::discovery::{DiscoveryConfig, IsolationMode};
use toolport_host::input::{self, Limits};
use toolport_host::output::{self, PlannedFile, Staging};
use toolport_host::pipeline::{self, InputItem, ResolveError, Status};
use toolport_host::registry::{self, FormatEntry, Registry};
use toolport_host::stage::Curate;

/// Every format of this repository, linked into the module (no plugin is loaded for them).
pub fn linked_formats() -> Vec<Arc<dyn Format>> {
    vec![
        Arc::new(toolport_format_gloodata::Gloodata),
        Arc::new(toolport_format_skydeck::SkyDeck),
        Arc::new(toolport_format_raycast::Raycast),
        Arc::new(toolport_format_openapi::Vertex),
        Arc::new(toolport_format_openapi::OpenApi),
        Arc::new(toolport_format_mcp::Mcp),
        Arc::new(toolport_format_mcp_prompts::McpPrompts),
        Arc::new(toolport_format_mcpb::Mcpb),
        Arc::new(toolport_format_mcpb::McpServer),
        Arc::new(toolport_format_openai::OpenAi),
        Arc::new(toolport_format_anthropic::Anthropic),
        Arc::new(toolport_format_bedrock::Bedrock),
        Arc::new(toolport_format_bedrock::BedrockAgent),
        Arc::new(toolport_format_gemini::Gemini),
        Arc::new(toolport_format_adk::Adk),
        Arc::new(toolport_format_m365::M365),
    ]
}

/// What decides which registry a call gets: the caller's discovery arguments and the
/// environment variables discovery reads, compared as given, so a call that finds its registry
/// built does no file-system work.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RegistryKey {
    plugin_dirs: Vec<PathBuf>,
    helper: Option<PathBuf>,
    isolate: String,
    environment: Vec<Option<std::ffi::OsString>>,
}

/// The environment variables [`DiscoveryConfig::from_environment`] reads (beside the
/// executable's place, which is Python's and not ours).
const DISCOVERY_ENVIRONMENT: [&str; 5] = [
    toolport_host::discovery::PLUGIN_PATH_ENV,
    toolport_host::discovery::ALLOW_UNSAFE_ENV,
    "XDG_DATA_HOME",
    "HOME",
    "APPDATA",
];

/// Registries already built, by their discovery inputs: plugins are loaded (and isolated ones
/// started) once per process, as `convert` does once per run.
fn registries() -> &'static Mutex<HashMap<RegistryKey, Arc<Registry>>> {
    static REGISTRIES: OnceLock<Mutex<HashMap<RegistryKey, Arc<Registry>>>> = OnceLock::new();
    REGISTRIES.get_or_init(Default::default)
}

/// The registry for these discovery inputs: third-party plugins from the documented places
/// first (an earlier place wins, as in `convert`), then the linked formats, which a plugin
/// providing the same id shadows, as a plugin in `--plugin-dir` shadows `convert`'s built-ins.
fn registry(plugin_dirs: Vec<PathBuf>, plugin_host: Option<PathBuf>, isolate: &str) -> PyResult<Arc<Registry>> {
    let mode = match isolate {
        "auto" => IsolationMode::Auto,
        "always" => IsolationMode::Always,
        "never" => IsolationMode::Never,
        other => return Err(PyValueError::new_err(format!("isolate must be auto, always or never, not {other:?}"))),
    };
    let key = RegistryKey {
        plugin_dirs,
        helper: plugin_host,
        isolate: isolate.to_owned(),
        environment: DISCOVERY_ENVIRONMENT.iter().map(std::env::var_os).collect(),
    };
    let mut cache = registries().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(found) = cache.get(&key) {
        return Ok(found.clone());
    }
    let mut config = DiscoveryConfig::from_environment(key.plugin_dirs.clone());
    // The running executable is Python: nothing beside it is ours.
    config.exe_dir = None;
    config.isolation.helper = key.helper.clone();
    config.isolation.mode = mode;
    let mut registry = Registry::discover(&config);
    for format in linked_formats() {
        registry.add_linked(format);
    }
    let registry = Arc::new(registry);
    cache.insert(key, registry.clone());
    Ok(registry)
}

/// A document given as Python objects (dicts, lists, tuples, strings, numbers, booleans,
/// None) as JSON text for the readers, written in one walk in Rust: no Python json module, no
/// `serde_json::Value` in between. What JSON cannot hold is a TypeError naming it; a document
/// nested deeper than every input may be ([`MAX_NESTING`]), or one that holds itself, is the
/// `input/syntax` refusal a text nested as deep gets, located by the path of the first level
/// too deep. The walk recurses at most that deep, on a stack of its own when the caller's has
/// less than a mebibyte left (a Python thread may be given 256 KiB).
///
/// [`MAX_NESTING`]: toolport_core::limits::MAX_NESTING
fn document_json(document: &Bound<'_, PyAny>) -> PyResult<Result<Vec<u8>, Refusal>> {
    let mut out = Vec::with_capacity(4096);
    match stacker::maybe_grow(1 << 20, 16 << 20, || write_json(document, 1, &mut out)) {
        Ok(()) => Ok(Ok(out)),
        Err(NotWritten::NotJson(what)) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "the document is not JSON data (dicts with str keys, lists, str, int, float, bool, None): {what}"
        ))),
        Err(NotWritten::TooDeep(mut segments)) => {
            segments.reverse();
            let path =
                segments.iter().fold(String::new(), |path, segment| toolport_core::source::child(&path, segment));
            let limit = toolport_core::limits::MAX_NESTING;
            let message = format!(
                "the document is nested deeper than {limit} levels (or holds itself); it is not read (at {path})"
            );
            Ok(Err(Refusal::input(Diagnostic::error(codes::INPUT_SYNTAX, path, message.clone()), message)))
        }
    }
}

/// Why [`write_json`] stopped.
enum NotWritten {
    /// What JSON cannot hold, said for the TypeError.
    NotJson(String),
    /// A container deeper than the limit: the keys and indices to it, innermost first.
    TooDeep(Vec<String>),
}

/// Writes `value`, at nesting `depth` (the document itself is 1), as JSON text to `out`. The
/// path of a refusal is made only when there is one (a key's text is not copied on the way).
fn write_json(value: &Bound<'_, PyAny>, depth: usize, out: &mut Vec<u8>) -> Result<(), NotWritten> {
    use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
    let not_json = |e: PyErr| NotWritten::NotJson(e.to_string());
    let too_deep = || depth > toolport_core::limits::MAX_NESTING;
    // Inside a container, a refusal's path gains the child's key on the way out.
    let within = |segment: String, e: NotWritten| match e {
        NotWritten::TooDeep(mut segments) => {
            segments.push(segment);
            NotWritten::TooDeep(segments)
        }
        other => other,
    };
    if let Ok(text) = value.cast::<PyString>() {
        json_string(&text.to_cow().map_err(not_json)?, out);
    } else if let Ok(dict) = value.cast::<PyDict>() {
        if too_deep() {
            return Err(NotWritten::TooDeep(Vec::new()));
        }
        out.push(b'{');
        for (i, (key, child)) in dict.iter().enumerate() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(NotWritten::NotJson(format!("a dict key is {}, not str", type_name(&key))));
            };
            let key = key.to_cow().map_err(not_json)?;
            if i > 0 {
                out.push(b',');
            }
            json_string(&key, out);
            out.push(b':');
            if let Err(e) = write_json(&child, depth + 1, out) {
                return Err(within(key.into_owned(), e));
            }
        }
        out.push(b'}');
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        if too_deep() {
            return Err(NotWritten::TooDeep(Vec::new()));
        }
        out.push(b'[');
        for (i, child) in value.try_iter().map_err(not_json)?.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            if let Err(e) = write_json(&child.map_err(not_json)?, depth + 1, out) {
                return Err(within(i.to_string(), e));
            }
        }
        out.push(b']');
    } else if value.is_none() {
        out.extend_from_slice(b"null");
    } else if let Ok(flag) = value.cast::<PyBool>() {
        out.extend_from_slice(if flag.is_true() { b"true" } else { b"false" });
    } else if value.is_instance_of::<PyInt>() {
        // Any size: an integer past 64 bits is read as from text (a located warning).
        match value.extract::<i64>() {
            // Writing a number to a Vec cannot fail.
            Ok(n) => drop(serde_json::to_writer(&mut *out, &n)),
            Err(_) => out.extend_from_slice(value.str().map_err(not_json)?.to_cow().map_err(not_json)?.as_bytes()),
        }
    } else if let Ok(number) = value.cast::<PyFloat>() {
        let number = number.value();
        if !number.is_finite() {
            return Err(NotWritten::NotJson(format!("{number} is not a JSON number")));
        }
        // serde_json writes the shortest text that reads back as the same float.
        let _ = serde_json::to_writer(&mut *out, &number);
    } else {
        // Anything else pythonize takes (a Mapping, a Sequence, a dataclass), else the TypeError.
        let converted: serde_json::Value =
            pythonize::depythonize(value).map_err(|e| NotWritten::NotJson(e.to_string()))?;
        let _ = serde_json::to_writer(&mut *out, &converted);
    }
    Ok(())
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "an object".to_owned(), |name| name.to_string())
}

/// One input as the Python side hands it over.
enum Source {
    /// A file or folder, read by the host's input loader.
    Path(PathBuf),
    /// A document's bytes (text is passed encoded; a Python object as its JSON), read like
    /// standard input.
    Data(Vec<u8>),
    /// A document refused before reading (given as Python objects nested too deep).
    Refused(Refusal),
    /// A folder's files (a Raycast extension): relative path → text, and relative path → bytes
    /// for the files that are not text (icons), as the loader keeps them.
    Files(BTreeMap<String, String>, BTreeMap<String, Vec<u8>>),
}

impl Source {
    fn new(
        path: Option<PathBuf>,
        data: Option<&[u8]>,
        document: Option<&Bound<'_, PyAny>>,
        files: Option<BTreeMap<String, String>>,
        binary_files: BTreeMap<String, Vec<u8>>,
    ) -> PyResult<Self> {
        match (path, data, document, files) {
            (Some(path), None, None, None) => Ok(Source::Path(path)),
            (None, Some(data), None, None) => Ok(Source::Data(data.to_vec())),
            (None, None, Some(document), None) => Ok(match document_json(document)? {
                Ok(json) => Source::Data(json),
                Err(refusal) => Source::Refused(refusal),
            }),
            (None, None, None, Some(files)) => Ok(Source::Files(files, binary_files)),
            _ => Err(PyValueError::new_err("give exactly one of path, data, document and files")),
        }
    }

    /// The base name of single-document outputs, as `convert` chooses it: the input's stem,
    /// `stdin` for a document given as text or bytes, `input` for a dict of files.
    fn stem(&self) -> String {
        match self {
            Source::Path(path) => InputItem::given(path).stem(),
            Source::Data(_) | Source::Refused(_) => "stdin".to_owned(),
            Source::Files(..) => "input".to_owned(),
        }
    }
}

/// Why an input was not even read: `usage` (a format name or an option is wrong) or `input`
/// (the input cannot be loaded or recognised), with a message and its diagnostics.
#[derive(Clone)]
struct Refusal {
    kind: &'static str,
    message: String,
    diagnostics: Vec<Diagnostic>,
}

impl Refusal {
    fn usage(message: impl Into<String>) -> Self {
        Refusal { kind: "usage", message: message.into(), diagnostics: Vec::new() }
    }

    fn input(diagnostic: Diagnostic, message: impl Into<String>) -> Self {
        Refusal { kind: "input", message: message.into(), diagnostics: vec![diagnostic] }
    }
}

impl From<ResolveError> for Refusal {
    fn from(e: ResolveError) -> Self {
        Refusal::input(e.diagnostic(), e.to_string())
    }
}

/// Loads the input and settles its format: `from` if given, else the most confident detection
/// (the same rules as `convert`, through `pipeline::load` for paths).
fn load<'r>(registry: &'r Registry, source: &Source, from: Option<&str>) -> Result<(&'r FormatEntry, Bundle), Refusal> {
    let from = from.map(|f| registry.format(f)).transpose().map_err(|e| Refusal::usage(e.to_string()))?;
    let limits = Limits::default();
    let (bundle, is_dir) = match source {
        Source::Path(path) => return Ok(pipeline::load(registry, &InputItem::given(path), from, &limits)?),
        Source::Data(data) => {
            let bundle = input::load_stdin(&mut &data[..], &limits).map_err(ResolveError::from)?;
            (bundle, false)
        }
        Source::Files(files, binary_files) => (files_bundle(files, binary_files, &limits)?, true),
        Source::Refused(refusal) => return Err(refusal.clone()),
    };
    let format = match from {
        Some(format) if format.info.input == InputShape::Directory && !is_dir => {
            return Err(Refusal::usage(format!(
                "format {} reads a folder: give a path to it or a dict of its files",
                format.info.id
            )));
        }
        Some(format) => format,
        None => match registry.detect(&bundle, is_dir).first() {
            Some((format, _)) => *format,
            None => return Err(undetected(registry, &bundle)),
        },
    };
    if !format.info.reads {
        return Err(Refusal::usage(format!("format {} cannot read (it only writes)", format.info.id)));
    }
    Ok((format, bundle))
}

/// A dict of files as a folder's bundle, within the loader's limits.
fn files_bundle(
    files: &BTreeMap<String, String>,
    binary_files: &BTreeMap<String, Vec<u8>>,
    limits: &Limits,
) -> Result<Bundle, Refusal> {
    let refuse =
        |message: String| Refusal::input(Diagnostic::error(codes::INPUT_INVALID, "", message.clone()), message);
    if files.is_empty() {
        return Err(refuse("the dict of files is empty".to_owned()));
    }
    if files.len() + binary_files.len() > limits.max_files {
        return Err(refuse(format!("has more than {} files; is this the right folder?", limits.max_files)));
    }
    let mut bundle = Bundle::default();
    let mut total = 0u64;
    let texts = files.iter().map(|(path, text)| (path, text.as_bytes(), true));
    for (path, bytes, is_text) in texts.chain(binary_files.iter().map(|(path, bytes)| (path, bytes.as_slice(), false)))
    {
        // The same rule as written paths: plain relative segments only.
        if output::safe_join(Path::new("."), path).is_err() {
            return Err(refuse(format!("`{path}` is not a plain relative path")));
        }
        let size = bytes.len() as u64;
        total += size;
        if size > limits.max_file_bytes || total > limits.max_total_bytes {
            return Err(refuse(format!("{path}: is {size} bytes, over the limit for one input")));
        }
        if is_text {
            bundle.insert(path.as_str(), &files[path]);
        } else {
            bundle.binary_files.insert(path.clone(), bytes.to_vec());
        }
    }
    Ok(bundle)
}

/// No format recognised a document: its syntax error if it has one (JSON if it looks like
/// JSON, else YAML), located; otherwise the formats there are.
fn undetected(registry: &Registry, bundle: &Bundle) -> Refusal {
    if let Some((name, text)) = bundle.entry_file() {
        let json = text.trim_start().starts_with(['{', '[']);
        let error = if json {
            toolport_core::source::parse_json(name, text).err()
        } else {
            toolport_yaml::parse(name, text).err()
        };
        if let Some(diagnostic) = error {
            let message = diagnostic.message.clone();
            return Refusal::input(diagnostic, message);
        }
    }
    let known: Vec<&str> = registry.formats().iter().filter(|f| f.info.reads).map(|f| f.info.id.as_str()).collect();
    let message = format!("no format recognises this input; name one with from_ ({})", known.join(", "));
    Refusal::input(Diagnostic::error(codes::INPUT_INVALID, "", message.clone()), message)
}

/// The caller's options, checked as `convert` checks `--option`s against what the formats
/// declare (`formats`: the run's), then the output name `convert` would give.
fn options(pairs: Vec<(String, String)>, formats: &[&FormatEntry], stem: String) -> Result<Options, Refusal> {
    let mut options = Options::default();
    for (key, value) in pairs {
        options.set(key, value);
    }
    registry::check_options(&options, formats).map_err(|e| Refusal::usage(e.to_string()))?;
    if options.get(Options::OUTPUT_NAME).is_none() {
        options.set(Options::OUTPUT_NAME, stem);
    }
    Ok(options)
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Converted => "converted",
        Status::ConvertedWithLosses => "converted_with_losses",
        Status::Failed => "failed",
        Status::LossRefused => "loss_refused",
        Status::Skipped => "skipped",
    }
}

/// What `convert` returns to Python: status (`converted`, `converted_with_losses`, `failed`,
/// `loss_refused`, or `usage`/`input` when the input was not read), the source format's id,
/// the written text files and binary files in path order, the diagnostics as JSON, and a
/// message when not converted, and the names map as JSON when asked for.
type Converted<'py> = (
    String,
    Option<String>,
    Vec<(String, String)>,
    Vec<(String, Bound<'py, PyBytes>)>,
    String,
    Option<String>,
    Option<String>,
);

/// Converts one input to format `to`.
#[pyfunction]
#[pyo3(signature = (to, *, path=None, data=None, document=None, files=None, binary_files=BTreeMap::new(), from_=None, options=Vec::new(), strict="off", plugin_dirs=Vec::new(), plugin_host=None, isolate="auto", select=Vec::new(), exclude=Vec::new(), overlay=None, names_map=false, split=None))]
#[allow(clippy::too_many_arguments)]
fn convert<'py>(
    py: Python<'py>,
    to: &str,
    path: Option<PathBuf>,
    data: Option<&[u8]>,
    document: Option<Bound<'_, PyAny>>,
    files: Option<BTreeMap<String, String>>,
    binary_files: BTreeMap<String, Vec<u8>>,
    from_: Option<&str>,
    options: Vec<(String, String)>,
    strict: &str,
    plugin_dirs: Vec<PathBuf>,
    plugin_host: Option<PathBuf>,
    isolate: &str,
    select: Vec<String>,
    exclude: Vec<String>,
    overlay: Option<PathBuf>,
    names_map: bool,
    split: Option<&str>,
) -> PyResult<Converted<'py>> {
    let source = Source::new(path, data, document.as_ref(), files, binary_files)?;
    let overlay_text = overlay
        .as_ref()
        .map(|p| std::fs::read_to_string(p).map(|text| (p.display().to_string(), text)))
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("overlay: {e}")))?;
    let strict = Strictness::parse(strict).map_err(PyValueError::new_err)?;
    let split = split.map(str::parse).transpose().map_err(|e: String| PyValueError::new_err(format!("split: {e}")))?;
    let fit = pipeline::FitSettings { split };
    let registry = self::registry(plugin_dirs, plugin_host, isolate)?;
    type Ran = (Status, String, Option<Bundle>, Vec<Diagnostic>, Option<String>);
    let (to, from_) = (to.to_owned(), from_.map(str::to_owned));
    let run = move || -> Result<Ran, Refusal> {
        let overlay = overlay_text.as_ref().map(|(file, text)| (file.as_str(), text.as_str()));
        let curate = Curate::new(&select, &exclude, overlay, names_map).map_err(|errors| Refusal {
            kind: "usage",
            message: errors
                .iter()
                .map(|d| match &d.span {
                    Some(s) => format!("{}:{}:{}: {}", s.file, s.line, s.column, d.message),
                    None => d.message.clone(),
                })
                .collect::<Vec<_>>()
                .join("\n"),
            diagnostics: errors,
        })?;
        let to = registry.format(&to).map_err(|e| Refusal::usage(e.to_string()))?;
        let named =
            from_.as_deref().map(|f| registry.format(f)).transpose().map_err(|e| Refusal::usage(e.to_string()))?;
        let named_by_user = options.iter().any(|(key, _)| key == Options::OUTPUT_NAME);
        let options =
            self::options(options, &[Some(to), named].into_iter().flatten().collect::<Vec<_>>(), source.stem())?;
        let (from, bundle) = load(&registry, &source, from_.as_deref())?;
        let conversion =
            pipeline::convert_staged(from, to, std::borrow::Cow::Owned(bundle), &options, strict, &curate, &fit);
        let map = conversion.names_map.map(|m| m.to_value().to_string());
        // Named as the command line names them in a folder, unless the user named them.
        let output = match named_by_user {
            true => conversion.output,
            false => {
                conversion.output.map(|written| pipeline::name_documents(&registry, written, &source.stem(), &to.info))
            }
        };
        Ok((conversion.status, from.info.id.clone(), output, conversion.diagnostics, map))
    };
    let outcome = py.detach(|| on_conversion_stack(run)).map_err(PyRuntimeError::new_err)?;
    Ok(match outcome {
        Ok((status, from, output, diagnostics, map)) => {
            let output = output.unwrap_or_default();
            let binary = output.binary_files.iter().map(|(p, b)| (p.clone(), PyBytes::new(py, b))).collect();
            let files = output.files.into_iter().collect();
            let message = match status {
                Status::Failed => Some(first_error(&diagnostics, "the conversion failed")),
                Status::LossRefused => Some("something would be lost, and strict is set".to_owned()),
                _ => None,
            };
            (status_name(status).to_owned(), Some(from), files, binary, json(&diagnostics)?, message, map)
        }
        Err(refusal) => (
            refusal.kind.to_owned(),
            None,
            Vec::new(),
            Vec::new(),
            json(&refusal.diagnostics)?,
            Some(refusal.message),
            None,
        ),
    })
}

fn first_error(diagnostics: &[Diagnostic], fallback: &str) -> String {
    diagnostics.iter().find(|d| d.is_error()).map_or_else(|| fallback.to_owned(), |d| d.message.clone())
}

/// What `inspect` returns to Python: status (`read`, `failed`, or `usage`/`input` when the
/// input was not read), the format's id, the versioned model as JSON, the diagnostics as JSON,
/// and a message when it could not be read.
type Inspected = (String, Option<String>, Option<String>, String, Option<String>);

/// Reads one input into the canonical model.
#[pyfunction]
#[pyo3(signature = (*, path=None, data=None, document=None, files=None, binary_files=BTreeMap::new(), from_=None, options=Vec::new(), plugin_dirs=Vec::new(), plugin_host=None, isolate="auto"))]
#[allow(clippy::too_many_arguments)]
fn inspect(
    py: Python<'_>,
    path: Option<PathBuf>,
    data: Option<&[u8]>,
    document: Option<Bound<'_, PyAny>>,
    files: Option<BTreeMap<String, String>>,
    binary_files: BTreeMap<String, Vec<u8>>,
    from_: Option<&str>,
    options: Vec<(String, String)>,
    plugin_dirs: Vec<PathBuf>,
    plugin_host: Option<PathBuf>,
    isolate: &str,
) -> PyResult<Inspected> {
    let source = Source::new(path, data, document.as_ref(), files, binary_files)?;
    let registry = self::registry(plugin_dirs, plugin_host, isolate)?;
    let from_ = from_.map(str::to_owned);
    let run = move || -> Result<_, Refusal> {
        let (format, bundle) = load(&registry, &source, from_.as_deref())?;
        let options = self::options(options, &[format], source.stem())?;
        let outcome = format.format.read(&bundle, &options);
        let model = match outcome.value {
            Some(model) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => {
                Some(serde_json::to_string(&model.into_versioned()).map_err(|e| Refusal::usage(e.to_string()))?)
            }
            _ => None,
        };
        Ok((format.info.id.clone(), model, outcome.diagnostics))
    };
    let outcome = py.detach(|| on_conversion_stack(run)).map_err(PyRuntimeError::new_err)?;
    Ok(match outcome {
        Ok((from, Some(model), diagnostics)) => ("read".to_owned(), Some(from), Some(model), json(&diagnostics)?, None),
        Ok((from, None, diagnostics)) => {
            let message = first_error(&diagnostics, "the input could not be read");
            ("failed".to_owned(), Some(from), None, json(&diagnostics)?, Some(message))
        }
        Err(refusal) => (refusal.kind.to_owned(), None, None, json(&refusal.diagnostics)?, Some(refusal.message)),
    })
}

/// The formats available, as JSON: `{formats: [FormatInfo + plugin], plugin_errors, shadowed}`.
#[pyfunction]
#[pyo3(signature = (*, plugin_dirs=Vec::new(), plugin_host=None, isolate="auto"))]
fn formats(plugin_dirs: Vec<PathBuf>, plugin_host: Option<PathBuf>, isolate: &str) -> PyResult<String> {
    let registry = self::registry(plugin_dirs, plugin_host, isolate)?;
    let mut formats = Vec::new();
    for entry in registry.formats() {
        let mut info = serde_json::to_value(&entry.info).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        if let Some(object) = info.as_object_mut() {
            object.insert("plugin".into(), serde_json::json!(entry.plugin_path));
            if let Some(version) = &entry.plugin_version {
                object.insert("version".into(), serde_json::json!(version));
            }
        }
        formats.push(info);
    }
    let errors: Vec<String> = registry.load_errors.iter().map(ToString::to_string).collect();
    let shadowed: Vec<String> = registry.shadowed.iter().filter_map(|s| registry.shadowing_warning(&s.id)).collect();
    json(&serde_json::json!({"formats": formats, "plugin_errors": errors, "shadowed": shadowed}))
}

/// Writes converted files below `dir` the way `convert -o DIR` does: every path checked
/// (`output::safe_join`, no link written through, no input overwritten, existing files only
/// with `force`), staged in `dir` and renamed into place, all or none. Returns (the paths
/// written, the problems); nothing is written when there is a problem.
#[pyfunction]
#[pyo3(signature = (dir, files, binary_files=Vec::new(), *, inputs=Vec::new(), force=false))]
fn write(
    py: Python<'_>,
    dir: PathBuf,
    files: Vec<(String, String)>,
    binary_files: Vec<(String, Bound<'_, PyBytes>)>,
    inputs: Vec<PathBuf>,
    force: bool,
) -> (Vec<PathBuf>, Vec<String>) {
    let mut files: Vec<(String, Vec<u8>)> = files.into_iter().map(|(p, t)| (p, t.into_bytes())).collect();
    files.extend(binary_files.iter().map(|(p, b)| (p.clone(), b.as_bytes().to_vec())));
    py.detach(|| {
        let owner = "result".to_owned();
        let mut planned = Vec::with_capacity(files.len());
        for (relative, _) in &files {
            match output::safe_join(&dir, relative) {
                Ok(path) => planned.push(PlannedFile { path, owner: owner.clone(), root: dir.clone() }),
                Err(e) => return (Vec::new(), vec![e.to_string()]),
            }
        }
        let problems = output::check_plan(&planned, &output::PlanInputs::unknown(&inputs), force);
        if !problems.is_empty() {
            return (Vec::new(), problems.into_iter().map(|p| p.error.to_string()).collect());
        }
        let staging = match Staging::new(&dir) {
            Ok(staging) => staging,
            Err(e) => return (Vec::new(), vec![e.to_string()]),
        };
        let staged: Vec<(PlannedFile, &[u8])> =
            planned.into_iter().zip(&files).map(|(file, (_, bytes))| (file, bytes.as_slice())).collect();
        if let Err(e) = staging.stage_all(&staged) {
            return (Vec::new(), vec![e.to_string()]);
        }
        let committed = staging.commit(force);
        let errors = committed.failed.iter().map(|f| f.error.to_string()).collect();
        (committed.placed, errors)
    })
}

#[pymodule]
fn _toolport(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(convert, module)?)?;
    module.add_function(wrap_pyfunction!(inspect, module)?)?;
    module.add_function(wrap_pyfunction!(formats, module)?)?;
    module.add_function(wrap_pyfunction!(write, module)?)?;
    module.add("MODEL_SCHEMA_MAJOR", toolport_core::MODEL_SCHEMA_MAJOR)?;
    module.add("MODEL_SCHEMA_MINOR", toolport_core::MODEL_SCHEMA_MINOR)?;
    Ok(())
}
