//! Loading one plugin library and calling it through the C ABI ([`toolport_plugin::abi`]).
//!
//! The handshake reads the table's header alone before anything else, so a plugin built for
//! another ABI major is refused with both versions named instead of being called with the wrong
//! layout; within the major, it reads only the entries the plugin's table has (its size says
//! which), so plugins of an older or newer minor load. Libraries are leaked on purpose: they are never unloaded while the process runs
//! (ABI rule 6), because buffers, threads or statics of a plugin may outlive any one call.
#![allow(unsafe_code)]

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::transport::{CallError, Isolated, IsolationLimits, Op, Transport};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolport_core::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, MODEL_SCHEMA_MAJOR, Options, Outcome, ToolSet, codes,
};
use toolport_plugin::abi::{
    ABI, ABI_MAGIC, ABI_MAJOR, CallFn, DescribeFn, DescribeResponse, DetectRequest, ENTRY_SYMBOL, FreeFn, MODEL_SCHEMA,
    MajorMinor, ModelJson, ModelVersion, PluginDescription, PluginTable, RawBuffer, ReadRequest, TableHeader,
    VersionedRef, WriteRequest, decode_message, decode_model, features,
};

/// Who decodes models on the host's side, in messages.
const HOST: &str = "convert";

/// A model in its versioned JSON form exactly as a plugin's reader produced it. Passing it
/// straight to another plugin's writer saves the host a full decode and re-encode of the
/// model, which for a large API is most of the host's own work.
#[derive(Debug)]
pub struct RawModel(Box<RawValue>);

/// The versions a plugin's table declares (minors are 0 in ABI 1.0 tables, which lack them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginVersions {
    pub abi: MajorMinor,
    pub model: MajorMinor,
}

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
        "{path}: plugin speaks plugin ABI {found}.x, this convert speaks ABI {ABI} and loads plugins of ABI {ABI_MAJOR}.x; rebuild the plugin against toolport-plugin {host_sdk} (or use a convert that speaks ABI {found}.x)"
    )]
    AbiVersion { path: PathBuf, found: u32, host_sdk: &'static str },
    #[error(
        "{path}: plugin table is {found} bytes, but every ABI {ABI_MAJOR}.x table has at least {expected}; the plugin was not built by toolport-plugin; rebuild it"
    )]
    TableSize { path: PathBuf, found: u32, expected: u32 },
    #[error("{path}: plugin table has no `{entry}` function; the plugin was not built by toolport-plugin; rebuild it")]
    NullEntry { path: PathBuf, entry: &'static str },
    #[error(
        "{path}: plugin uses model schema {found}, this convert uses {MODEL_SCHEMA} and loads plugins of model schema {MODEL_SCHEMA_MAJOR}.x; rebuild the plugin against toolport-plugin {host_sdk} (or use a convert of model schema {}.x)", found.major
    )]
    ModelVersion { path: PathBuf, found: MajorMinor, host_sdk: &'static str },
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
    /// The ABI and model versions its table declares.
    pub versions: PluginVersions,
    transport: Box<dyn Transport>,
    /// Why detection failed (a crash, a time-out), if it did: the plugin is not asked to
    /// detect again in this run, so one hanging `detect` cannot stall every input.
    detect_failure: std::sync::Mutex<Option<String>>,
}

/// The functions of a plugin's table, copied out of it once the handshake checked it.
#[derive(Clone, Copy, Debug)]
struct Entries {
    describe: DescribeFn,
    detect: CallFn,
    read: CallFn,
    write: CallFn,
    free: FreeFn,
}

/// A plugin library loaded into this process: calls go straight through its C table.
#[derive(Debug)]
struct InProcess {
    entries: Entries,
}

impl Transport for InProcess {
    fn call(&self, op: Op, index: u32, request: &[u8]) -> Result<Vec<u8>, CallError> {
        let function = match op {
            Op::Detect => self.entries.detect,
            Op::Read => self.entries.read,
            Op::Write => self.entries.write,
        };
        // SAFETY: `function` is an entry of a table the handshake checked, called as
        // `abi::CallFn` requires: `request` is `len` initialised bytes, borrowed (so alive and
        // unchanged) for the whole call.
        let buffer = unsafe { function(index, request.as_ptr(), request.len()) };
        // SAFETY: the buffer was just returned by this table's function and is used nowhere else.
        Ok(unsafe { take(self.entries.free, buffer) })
    }

    fn isolated(&self) -> bool {
        false
    }
}

type EntryFn = unsafe extern "C" fn() -> *const PluginTable;

/// Reads the table's entries that this host knows and the plugin's table has.
///
/// # Safety
///
/// `table` points to a table of ABI major [`ABI_MAJOR`] at least `size` bytes long (and
/// `size` ≥ [`PluginTable::SIZE_1_0`]), alive as long as the process.
unsafe fn read_table(
    table: *const PluginTable,
    size: u32,
    path: &Path,
) -> Result<(Entries, PluginVersions), LoadError> {
    /// The value at `offset` in the current layout, if the plugin's table reaches that far.
    ///
    /// # Safety
    ///
    /// As for `read_table`; `T` is the type of the entry at `offset` in every minor.
    unsafe fn entry<T: Copy>(table: *const PluginTable, size: u32, offset: usize) -> Option<T> {
        // SAFETY: entries are only ever appended, so the first `size` bytes of the plugin's
        // table are laid out as the same bytes of ours; the entry lies within them, aligned
        // as in our layout, and `T` is its type.
        (offset + size_of::<T>() <= size as usize).then(|| unsafe { table.byte_add(offset).cast::<T>().read() })
    }
    macro_rules! function {
        ($name:ident: $ty:ty) => {{
            // SAFETY: our caller's guarantee; an `Option` of a function pointer has its layout,
            // so a null entry reads as `None` instead of an invalid function pointer.
            let found = unsafe { entry::<Option<$ty>>(table, size, std::mem::offset_of!(PluginTable, $name)) };
            found
                .flatten()
                .ok_or_else(|| LoadError::NullEntry { path: path.to_path_buf(), entry: stringify!($name) })?
        }};
    }
    let entries = Entries {
        describe: function!(describe: DescribeFn),
        detect: function!(detect: CallFn),
        read: function!(read: CallFn),
        write: function!(write: CallFn),
        free: function!(free: FreeFn),
    };
    // SAFETY: our caller's guarantee; each field's type is the one named.
    let (model_major, abi_minor, model_minor) = unsafe {
        (
            entry::<u32>(table, size, std::mem::offset_of!(PluginTable, model_schema_major)).unwrap_or_default(),
            // Since 1.1; a 1.0 table lacks them: minor 0.
            entry::<u32>(table, size, std::mem::offset_of!(PluginTable, abi_minor)).unwrap_or(0),
            entry::<u32>(table, size, std::mem::offset_of!(PluginTable, model_schema_minor)).unwrap_or(0),
        )
    };
    let versions = PluginVersions {
        abi: MajorMinor { major: ABI_MAJOR, minor: abi_minor },
        model: MajorMinor { major: model_major, minor: model_minor },
    };
    Ok((entries, versions))
}

impl LoadedPlugin {
    /// Loads the library at `path` and checks its handshake: the magic, the ABI major, a table
    /// at least as long as ABI 1.0's, the model schema major. Minors may differ either way: the
    /// host reads only the entries both know.
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
        // much before checking the magic, the major and the size.
        let header: TableHeader = unsafe { std::ptr::read(table_ptr.cast::<TableHeader>()) };
        if header.magic != ABI_MAGIC {
            return Err(LoadError::WrongMagic { path: path_buf, found: header.magic });
        }
        if header.abi_major != ABI_MAJOR {
            return Err(LoadError::AbiVersion {
                path: path_buf,
                found: header.abi_major,
                host_sdk: env!("CARGO_PKG_VERSION"),
            });
        }
        if header.table_size < PluginTable::SIZE_1_0 {
            return Err(LoadError::TableSize {
                path: path_buf,
                found: header.table_size,
                expected: PluginTable::SIZE_1_0,
            });
        }
        // SAFETY: the header says ABI major 1 and at least the 1.0 entries; the table is a
        // static of the (leaked, never unloaded) library.
        let (entries, versions) = unsafe { read_table(table_ptr, header.table_size, path)? };
        if versions.model.major != MODEL_SCHEMA_MAJOR {
            return Err(LoadError::ModelVersion {
                path: path_buf,
                found: versions.model,
                host_sdk: env!("CARGO_PKG_VERSION"),
            });
        }
        // SAFETY: `describe` is an entry of the checked table; it takes nothing.
        let buffer = unsafe { (entries.describe)() };
        // SAFETY: the buffer was just returned by this table's `describe`, used nowhere else.
        let bytes = unsafe { take(entries.free, buffer) };
        let outcome: DescribeResponse = decode_message(&bytes)
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
            versions,
            transport: Box::new(InProcess { entries }),
            detect_failure: Default::default(),
        }))
    }

    /// Loads the library at `path` in a child process started from `helper` (the plugin
    /// host executable), which runs the same handshake there.
    pub fn load_isolated(path: &Path, helper: &Path, limits: IsolationLimits) -> Result<Arc<LoadedPlugin>, LoadError> {
        let (transport, description, versions) = Isolated::start(helper, path, limits).map_err(|reason| {
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
            versions,
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

    /// Whether the plugin keeps model fields it does not know ([`features::MODEL_UNKNOWN_FIELDS`]);
    /// plugins built with SDK 1.0 refuse them.
    pub fn keeps_unknown_fields(&self) -> bool {
        self.description.has_feature(features::MODEL_UNKNOWN_FIELDS)
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
///
/// # Safety
///
/// `buffer` was just returned by a function of the table `free` belongs to, unchanged, and is
/// used nowhere else.
unsafe fn take(free: FreeFn, buffer: RawBuffer) -> Vec<u8> {
    let bytes = if buffer.ptr.is_null() || buffer.len == 0 {
        Vec::new()
    } else {
        // SAFETY: the plugin returned `len` initialised bytes at `ptr`, owned by it until we
        // call its `free`, which we do right after copying.
        unsafe { std::slice::from_raw_parts(buffer.ptr, buffer.len) }.to_vec()
    };
    // SAFETY: by our caller's guarantee the buffer is this table's, returned once, freed once.
    unsafe { free(buffer) };
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
    /// Like [`Format::read`], but keeps the model as the plugin's JSON (its schema major
    /// checked) for [`PluginFormat::write_raw`].
    pub fn read_raw(&self, input: &Bundle, options: &Options) -> Outcome<RawModel> {
        let request = ReadRequest { bundle: Cow::Borrowed(input), options: Cow::Borrowed(options) };
        let outcome: Outcome<Box<RawValue>> = self.plugin.call(Op::Read, self.index, &request);
        let Outcome { value, diagnostics } = self.name_plugin(outcome, "read");
        let Some(raw) = value else { return Outcome { value: None, diagnostics } };
        let failure = match ModelVersion::of(raw.get()) {
            Ok(v) if v.schema_version == MODEL_SCHEMA_MAJOR => {
                return Outcome { value: Some(RawModel(raw)), diagnostics };
            }
            Ok(v) => format!(
                "returned model schema version {}, this convert reads {MODEL_SCHEMA_MAJOR}.x (it speaks {MODEL_SCHEMA})",
                v.version()
            ),
            Err(e) => format!("returned a model without a schema version: {e}"),
        };
        let mut diagnostics = diagnostics;
        diagnostics.push(self.plugin.failure("read", &failure));
        Outcome { value: None, diagnostics }
    }

    /// Writes a model read by [`PluginFormat::read_raw`] (possibly of another plugin).
    pub fn write_raw(&self, model: &RawModel, options: &Options) -> Outcome<Bundle> {
        if !self.plugin.keeps_unknown_fields() {
            // A plugin built with SDK 1.0 refuses fields it does not know, `schema_minor`
            // included: send it the model re-encoded through this host's model, where fields
            // unknown here sit under extras. (Model 1.1 adds no field to 1.0; a minor that adds
            // fields must move them under extras here too.)
            return match decode_model(model.0.get().as_bytes(), HOST) {
                Ok((versioned, mut diagnostics)) => {
                    let outcome = self.write(&versioned.tool_set, options);
                    diagnostics.extend(outcome.diagnostics);
                    Outcome { value: outcome.value, diagnostics }
                }
                Err(e) => Outcome::fail(self.plugin.failure("write", &e)),
            };
        }
        let request = WriteRequest { model: ModelJson::Raw(&model.0), options: Cow::Borrowed(options) };
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
        let request = DetectRequest { bundle: Cow::Borrowed(input) };
        let outcome: Outcome<Detection> = self.plugin.call(Op::Detect, self.index, &request);
        if let Some(problem) = outcome.diagnostics.iter().find(|d| d.code.starts_with("plugin/")) {
            failure = self.plugin.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            failure.get_or_insert_with(|| format!("{} (not asked to detect again)", problem.message));
        }
        outcome.value.unwrap_or(0)
    }

    /// Reads through the plugin and decodes its model: fields of a newer minor are kept under
    /// `extras["toolport-unknown"]` and reported, another major is refused.
    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        let Outcome { value, mut diagnostics } = self.read_raw(input, options);
        let Some(raw) = value else { return Outcome { value: None, diagnostics } };
        match decode_model(raw.0.get().as_bytes(), HOST) {
            Ok((model, unknown)) => {
                diagnostics.extend(unknown);
                Outcome { value: Some(model.tool_set), diagnostics }
            }
            Err(e) => {
                diagnostics.push(self.plugin.failure("read", &e));
                Outcome { value: None, diagnostics }
            }
        }
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let model = VersionedRef::new(model, self.plugin.keeps_unknown_fields());
        let request = WriteRequest { model: ModelJson::Decoded(model), options: Cow::Borrowed(options) };
        let outcome = self.plugin.call(Op::Write, self.index, &request);
        self.name_plugin(outcome, "write")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test plugin built as an example of toolport-test-plugins.
    fn test_plugin(name: &str) -> PathBuf {
        let file =
            format!("{}toolport_testplugin_{name}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
        // target/debug/deps/toolport_host-… → target/debug/examples/
        let exe = std::env::current_exe().unwrap();
        let path = exe.parent().and_then(Path::parent).unwrap().join("examples").join(file);
        assert!(path.exists(), "{} is not built; run `cargo build --workspace --examples`", path.display());
        path
    }

    fn v(major: u32, minor: u32) -> MajorMinor {
        MajorMinor { major, minor }
    }

    /// Each test plugin: the versions and features the handshake finds, or what its refusal says.
    #[test]
    fn the_handshake_reads_only_what_each_minor_has() {
        let features: &[&str] = features::SDK;
        /// ABI, model, features.
        type Loaded<'a> = (MajorMinor, MajorMinor, &'a [&'a str]);
        let cases: [(&str, Result<Loaded, &str>); 6] = [
            ("old_minor", Ok((v(1, 0), v(1, 0), &[]))),
            ("new_minor", Ok((v(1, 2), v(1, 2), &["model-unknown-fields", "validate"]))),
            ("panics", Ok((ABI, MODEL_SCHEMA, features))),
            (
                "other_abi",
                Err("plugin speaks plugin ABI 99.x, this convert speaks ABI 1.1 and loads plugins of ABI 1.x"),
            ),
            ("other_model", Err("plugin uses model schema 2.0, this convert uses 1.1")),
            ("wrong_magic", Err("not the toolport magic")),
        ];
        for (name, expected) in cases {
            let path = test_plugin(name);
            match (LoadedPlugin::load(&path), expected) {
                (Ok(plugin), Ok((abi, model, features))) => {
                    assert_eq!(plugin.versions, PluginVersions { abi, model }, "{name}");
                    assert_eq!(plugin.description.features, features, "{name}");
                    assert_eq!(plugin.keeps_unknown_fields(), !features.is_empty(), "{name}");
                }
                (Err(e), Err(says)) => {
                    let message = e.to_string();
                    assert!(message.contains(says) && message.contains(&*path.to_string_lossy()), "{name}: {message}");
                }
                (got, expected) => panic!("{name}: got {got:?}, expected {expected:?}"),
            }
        }
    }

    /// The model a newer minor's reader returns reaches the host with its unknown fields kept.
    #[test]
    fn a_newer_minors_model_is_read_with_its_unknown_fields_kept() {
        let plugin = LoadedPlugin::load(&test_plugin("new_minor")).unwrap();
        let format = &plugin.formats()[0];
        let outcome = format.read(&Bundle::single("in.new", "{}"), &Options::default());
        let model = outcome.value.unwrap();
        assert_eq!(model.tools.len(), 2);
        let kept = &model.extras[toolport_core::UNKNOWN_FIELDS];
        assert_eq!(kept["/tools/0/parameters/0/schema/const"], "x");
        let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["input/unknown-key", "input/unknown-key"]);
        // Written back through the same plugin, and through a 1.0 plugin that refuses what it
        // does not know in the envelope.
        for to in ["new_minor", "old_minor"] {
            let writer = LoadedPlugin::load(&test_plugin(to)).unwrap();
            let written = writer.formats()[0].write(&model, &Options::default());
            assert_eq!(written.value.unwrap().files["tools.txt"], "from_new_minor\nalso_new\n", "{to}");
        }
    }
}
