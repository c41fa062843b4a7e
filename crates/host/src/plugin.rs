//! Loading one plugin library and calling it through the C ABI ([`toolport_plugin::abi`]).
//!
//! The handshake reads the table's header alone before anything else, so a plugin built for
//! another ABI is refused with both versions named instead of being called with the wrong
//! layout. Libraries are leaked on purpose: they are never unloaded while the process runs
//! (ABI rule 6), because buffers, threads or statics of a plugin may outlive any one call.
#![allow(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::transport::{CallError, Isolated, IsolationLimits, Op, Transport};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolport_core::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, MODEL_SCHEMA_VERSION, Options, Outcome, ToolSet,
    VersionedToolSet, codes,
};
use toolport_plugin::abi::{
    ABI_MAGIC, ABI_VERSION, CallFn, ENTRY_SYMBOL, PluginDescription, PluginTable, RawBuffer, TableHeader,
    decode_message,
};

// Borrowing twins of the SDK's request types: the same JSON, without cloning a (possibly
// multi-megabyte) bundle or model for every call.
#[derive(Serialize)]
struct DetectRequest<'a> {
    bundle: &'a Bundle,
}
#[derive(Serialize)]
struct ReadRequest<'a> {
    bundle: &'a Bundle,
    options: &'a Options,
}
#[derive(Serialize)]
struct WriteRequest<'a> {
    model: VersionedModel<'a>,
    options: &'a Options,
}
#[derive(Serialize)]
struct VersionedModel<'a> {
    schema_version: u32,
    tool_set: &'a ToolSet,
}
#[derive(Serialize)]
struct WriteRawRequest<'a> {
    model: &'a RawValue,
    options: &'a Options,
}
#[derive(Deserialize)]
struct SchemaVersionOnly {
    schema_version: u32,
}

/// A model in its versioned JSON form exactly as a plugin's reader produced it. Passing it
/// straight to another plugin's writer saves the host a full decode and re-encode of the
/// model, which for a large API is most of the host's own work.
#[derive(Debug)]
pub struct RawModel(Box<RawValue>);

/// Why a plugin could not be loaded. Each message names the file and says what to do.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{path}: cannot be loaded as a dynamic library: {reason}")]
    Open { path: PathBuf, reason: String },
    #[error(
        "{path}: not a toolport plugin: it does not export the symbol `toolport_plugin_entry` (build it with toolport_plugin::declare_plugin!)"
    )]
    MissingEntry { path: PathBuf },
    #[error(
        "{path}: not a toolport plugin: its table starts with {found:#018x}, not the toolport magic {ABI_MAGIC:#018x}"
    )]
    WrongMagic { path: PathBuf, found: u64 },
    #[error(
        "{path}: plugin speaks plugin ABI {found}, this convert speaks ABI {ABI_VERSION}; rebuild the plugin against toolport-plugin {host_sdk} (or use a convert that speaks ABI {found})"
    )]
    AbiVersion { path: PathBuf, found: u32, host_sdk: &'static str },
    #[error(
        "{path}: plugin table is {found} bytes, ABI {ABI_VERSION} tables are {expected}; the plugin was built from a different toolport-plugin; rebuild it"
    )]
    TableSize { path: PathBuf, found: u32, expected: u32 },
    #[error(
        "{path}: plugin uses model schema version {found}, this convert uses {MODEL_SCHEMA_VERSION}; rebuild the plugin against the matching toolport-plugin"
    )]
    ModelVersion { path: PathBuf, found: u32 },
    #[error("{path}: plugin failed to describe itself: {reason}")]
    Describe { path: PathBuf, reason: String },
    /// Loading in a child process failed; the message names the file.
    #[error("{0}")]
    Isolated(String),
}

/// A loaded plugin library and the formats it exports, reached through a [`Transport`].
#[derive(Debug)]
pub struct LoadedPlugin {
    pub path: PathBuf,
    pub description: PluginDescription,
    transport: Box<dyn Transport>,
    /// Why detection failed (a crash, a time-out), if it did: the plugin is not asked to
    /// detect again in this run, so one hanging `detect` cannot stall every input.
    detect_failure: std::sync::Mutex<Option<String>>,
}

/// A plugin library loaded into this process: calls go straight through its C table.
#[derive(Debug)]
struct InProcess {
    table: &'static PluginTable,
}

impl Transport for InProcess {
    fn call(&self, op: Op, index: u32, request: &[u8]) -> Result<Vec<u8>, CallError> {
        let function: CallFn = match op {
            Op::Detect => self.table.detect,
            Op::Read => self.table.read,
            Op::Write => self.table.write,
        };
        Ok(take(self.table, function(index, request.as_ptr(), request.len())))
    }

    fn isolated(&self) -> bool {
        false
    }
}

type EntryFn = unsafe extern "C" fn() -> *const PluginTable;

impl LoadedPlugin {
    /// Loads the library at `path` and checks its handshake.
    pub fn load(path: &Path) -> Result<Arc<LoadedPlugin>, LoadError> {
        let path_buf = path.to_path_buf();
        // SAFETY: loading a library runs its initialisers; plugins are trusted native code
        // by design (documented in README and discovery).
        let library = unsafe { libloading::Library::new(path) }
            .map_err(|e| LoadError::Open { path: path_buf.clone(), reason: e.to_string() })?;
        let library: &'static libloading::Library = Box::leak(Box::new(library));
        // SAFETY: the symbol's type is fixed by the ABI (abi::ENTRY_SYMBOL).
        let entry = unsafe { library.get::<EntryFn>(ENTRY_SYMBOL) }
            .map_err(|_| LoadError::MissingEntry { path: path_buf.clone() })?;
        // SAFETY: calling the entry point declared by the ABI; it takes nothing and returns
        // a pointer to a static table.
        let table_ptr = unsafe { entry() };
        if table_ptr.is_null() {
            return Err(LoadError::WrongMagic { path: path_buf, found: 0 });
        }
        // SAFETY: every ABI version starts its table with a TableHeader; we read only that
        // much before checking the version and size.
        let header: TableHeader = unsafe { std::ptr::read(table_ptr.cast::<TableHeader>()) };
        if header.magic != ABI_MAGIC {
            return Err(LoadError::WrongMagic { path: path_buf, found: header.magic });
        }
        if header.abi_version != ABI_VERSION {
            return Err(LoadError::AbiVersion {
                path: path_buf,
                found: header.abi_version,
                host_sdk: env!("CARGO_PKG_VERSION"),
            });
        }
        let expected = std::mem::size_of::<PluginTable>() as u32;
        if header.table_size != expected {
            return Err(LoadError::TableSize { path: path_buf, found: header.table_size, expected });
        }
        // SAFETY: magic, version and size match: the pointer is to a static PluginTable of
        // this layout, alive as long as the (leaked) library.
        let table: &'static PluginTable = unsafe { &*table_ptr };
        if table.model_schema_version != MODEL_SCHEMA_VERSION {
            return Err(LoadError::ModelVersion { path: path_buf, found: table.model_schema_version });
        }
        let buffer = (table.describe)();
        let bytes = take(table, buffer);
        let outcome: Outcome<PluginDescription> = serde_json::from_slice(&bytes)
            .map_err(|e| LoadError::Describe { path: path_buf.clone(), reason: format!("invalid JSON: {e}") })?;
        let description = match outcome.value {
            Some(d) => d,
            None => {
                let reason = outcome.diagnostics.first().map_or("no reason given".to_owned(), |d| d.message.clone());
                return Err(LoadError::Describe { path: path_buf, reason });
            }
        };
        Ok(Arc::new(LoadedPlugin {
            path: path_buf,
            description,
            transport: Box::new(InProcess { table }),
            detect_failure: Default::default(),
        }))
    }

    /// Loads the library at `path` in a child process started from `helper` (the plugin
    /// host executable), which runs the same handshake there.
    pub fn load_isolated(path: &Path, helper: &Path, limits: IsolationLimits) -> Result<Arc<LoadedPlugin>, LoadError> {
        let (transport, description) = Isolated::start(helper, path, limits).map_err(|reason| {
            // The child's own load errors name the file already; its crashes and time-outs do not.
            if reason.contains(&*path.to_string_lossy()) {
                LoadError::Isolated(reason)
            } else {
                LoadError::Isolated(format!("{}: {reason}", path.display()))
            }
        })?;
        Ok(Arc::new(LoadedPlugin {
            path: path.to_path_buf(),
            description,
            transport: Box::new(transport),
            detect_failure: Default::default(),
        }))
    }

    /// Why this plugin's detection failed in this run, if it did.
    pub fn detect_failure(&self) -> Option<String> {
        self.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Whether the plugin runs in its own process.
    pub fn isolated(&self) -> bool {
        self.transport.isolated()
    }

    /// Calls one function with a JSON request and returns its JSON response, unread: for the
    /// plugin host executable, which relays calls to a library it loaded in process.
    pub fn call_raw(&self, op: Op, index: u32, request: &[u8]) -> Result<Vec<u8>, CallError> {
        self.transport.call(op, index, request)
    }

    /// The plugin's formats as [`Format`] values.
    pub fn formats(self: &Arc<Self>) -> Vec<PluginFormat> {
        (0..self.description.formats.len())
            .map(|index| PluginFormat { plugin: Arc::clone(self), index: index as u32 })
            .collect()
    }

    /// Calls one table function with a JSON request and decodes its JSON outcome. A response
    /// that is not valid JSON of the expected shape becomes a failed outcome naming the plugin.
    fn call<Req: Serialize, T: DeserializeOwned>(&self, op: Op, index: u32, request: &Req) -> Outcome<T> {
        let request = match serde_json::to_vec(request) {
            Ok(bytes) => bytes,
            Err(e) => return Outcome::fail(self.failure(op.name(), &format!("could not encode the request: {e}"))),
        };
        match self.transport.call(op, index, &request) {
            Ok(bytes) => decode_message(&bytes)
                .unwrap_or_else(|e| Outcome::fail(self.failure(op.name(), &format!("returned invalid JSON: {e}")))),
            Err(e) => {
                let code = match e {
                    CallError::TimedOut(_) => codes::PLUGIN_TIMEOUT,
                    CallError::Crashed(_) => codes::PLUGIN_CRASHED,
                    CallError::Spawn(_) => codes::PLUGIN_FAILED,
                };
                let mut failure = self.failure(op.name(), &e.to_string());
                failure.code = code.to_owned();
                Outcome::fail(failure)
            }
        }
    }

    fn failure(&self, op: &str, message: &str) -> Diagnostic {
        Diagnostic::error(
            codes::PLUGIN_FAILED,
            "",
            format!("plugin {} ({}) {op}: {message}", self.description.name, self.path.display()),
        )
    }
}

/// Copies a buffer the plugin returned and gives it back to the plugin to free (ABI rule 4).
fn take(table: &PluginTable, buffer: RawBuffer) -> Vec<u8> {
    let bytes = if buffer.ptr.is_null() || buffer.len == 0 {
        Vec::new()
    } else {
        // SAFETY: the plugin returned `len` initialised bytes at `ptr`, owned by it until we
        // call its `free`, which we do right after copying.
        unsafe { std::slice::from_raw_parts(buffer.ptr, buffer.len) }.to_vec()
    };
    (table.free)(buffer);
    bytes
}

/// One format of a loaded plugin, usable through the safe [`Format`] trait.
#[derive(Debug, Clone)]
pub struct PluginFormat {
    plugin: Arc<LoadedPlugin>,
    index: u32,
}

impl PluginFormat {
    /// The plugin library this format comes from.
    pub fn plugin(&self) -> &LoadedPlugin {
        &self.plugin
    }

    /// Adds the plugin's name to plugin failures so the user knows which library misbehaved.
    fn name_plugin<T>(&self, mut outcome: Outcome<T>, op: &str) -> Outcome<T> {
        for d in &mut outcome.diagnostics {
            if d.code.starts_with("plugin/") && !d.message.contains(&*self.plugin.path.to_string_lossy()) {
                d.message = format!(
                    "plugin {} ({}) {op}: {}",
                    self.plugin.description.name,
                    self.plugin.path.display(),
                    d.message
                );
            }
        }
        outcome
    }
}

impl PluginFormat {
    /// Like [`Format::read`], but keeps the model as the plugin's JSON (its schema version
    /// checked) for [`PluginFormat::write_raw`].
    pub fn read_raw(&self, input: &Bundle, options: &Options) -> Outcome<RawModel> {
        let request = ReadRequest { bundle: input, options };
        let outcome: Outcome<Box<RawValue>> = self.plugin.call(Op::Read, self.index, &request);
        let Outcome { value, diagnostics } = self.name_plugin(outcome, "read");
        let Some(raw) = value else { return Outcome { value: None, diagnostics } };
        let failure = match decode_message::<SchemaVersionOnly>(raw.get().as_bytes()) {
            Ok(v) if v.schema_version == MODEL_SCHEMA_VERSION => {
                return Outcome { value: Some(RawModel(raw)), diagnostics };
            }
            Ok(v) => format!("returned model schema version {}, expected {MODEL_SCHEMA_VERSION}", v.schema_version),
            Err(e) => format!("returned a model without a schema version: {e}"),
        };
        let mut diagnostics = diagnostics;
        diagnostics.push(self.plugin.failure("read", &failure));
        Outcome { value: None, diagnostics }
    }

    /// Writes a model read by [`PluginFormat::read_raw`] (possibly of another plugin).
    pub fn write_raw(&self, model: &RawModel, options: &Options) -> Outcome<Bundle> {
        let request = WriteRawRequest { model: &model.0, options };
        let outcome = self.plugin.call(Op::Write, self.index, &request);
        self.name_plugin(outcome, "write")
    }
}

impl Format for PluginFormat {
    fn info(&self) -> FormatInfo {
        self.plugin.description.formats[self.index as usize].clone()
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let mut failure = self.plugin.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if failure.is_some() {
            return 0;
        }
        drop(failure);
        let request = DetectRequest { bundle: input };
        let outcome: Outcome<Detection> = self.plugin.call(Op::Detect, self.index, &request);
        if let Some(problem) = outcome.diagnostics.iter().find(|d| d.code.starts_with("plugin/")) {
            failure = self.plugin.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            failure.get_or_insert_with(|| format!("{} (not asked to detect again)", problem.message));
        }
        outcome.value.unwrap_or(0)
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        let request = ReadRequest { bundle: input, options };
        let outcome: Outcome<VersionedToolSet> = self.plugin.call(Op::Read, self.index, &request);
        let outcome = self.name_plugin(outcome, "read");
        match outcome.value {
            Some(v) if v.schema_version != MODEL_SCHEMA_VERSION => Outcome::fail(self.plugin.failure(
                "read",
                &format!("returned model schema version {}, expected {MODEL_SCHEMA_VERSION}", v.schema_version),
            )),
            value => Outcome { value: value.map(|v| v.tool_set), diagnostics: outcome.diagnostics },
        }
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let request =
            WriteRequest { model: VersionedModel { schema_version: MODEL_SCHEMA_VERSION, tool_set: model }, options };
        let outcome = self.plugin.call(Op::Write, self.index, &request);
        self.name_plugin(outcome, "write")
    }
}
