//! Loading a plugin library into this process, and calling it straight through its C table.
//!
//! The handshake reads the table's header alone before anything else, so a plugin built for
//! another ABI major is refused with both versions named instead of being called with the wrong
//! layout; within the major, it reads only the entries the plugin's table has (its size says
//! which), so plugins of an older or newer minor load. Libraries are leaked on purpose: they are
//! never unloaded while the process runs (ABI rule 6), because buffers, threads or statics of a
//! plugin may outlive any one call, models handed over natively included.
//!
//! Also the calls that hand the model over natively ([`NativeEntries`], [`NativeModel`]):
//! only for a plugin whose build fingerprint is this host's (`abi::native`).
#![allow(unsafe_code)]

use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use super::{LoadError, LoadedPlugin};
use crate::transport::{CallError, Op, Transport};
use toolport_core::{Bundle, MODEL_SCHEMA_MAJOR, Options, ToolSet};
use toolport_plugin::abi::{
    ABI_MAGIC, ABI_MAJOR, CallFn, DescribeFn, DescribeResponse, ENTRY_SYMBOL, FreeFn, FreeModelFn, MajorMinor,
    NativeInput, NativeModel as OpaqueModel, NativeOptions, PluginTable, PluginVersions, RawBuffer, ReadNativeFn,
    TableHeader, WriteNativeFn, decode_message, features, native,
};

/// Set to `json` to pass the model between plugins as JSON even where both sides could hand
/// it over natively (to compare outputs, or to rule the native path out).
pub const MODEL_HANDOVER_VARIABLE: &str = "TOOLPORT_MODEL_HANDOVER";

/// Whether `TOOLPORT_MODEL_HANDOVER` forces the model across as JSON.
fn handover_forced_to_json() -> bool {
    std::env::var(MODEL_HANDOVER_VARIABLE).is_ok_and(|v| v.eq_ignore_ascii_case("json"))
}

/// `TOOLPORT_MODEL_HANDOVER` checked before a run: `json`, `native` (the default) or unset;
/// anything else is a mistake to say, not a value to read as the default.
pub fn check_model_handover_variable() -> Result<(), String> {
    match std::env::var(MODEL_HANDOVER_VARIABLE) {
        Err(std::env::VarError::NotPresent) => Ok(()),
        Ok(v) if v.is_empty() || v.eq_ignore_ascii_case("json") || v.eq_ignore_ascii_case("native") => Ok(()),
        Ok(v) => Err(format!(
            "{MODEL_HANDOVER_VARIABLE}={v:?} is not a setting: use `json` (the model crosses between plugins as JSON) or `native` (the default), or unset it"
        )),
        Err(std::env::VarError::NotUnicode(v)) => {
            Err(format!("{MODEL_HANDOVER_VARIABLE}={v:?} is not a setting: use `json` or `native`, or unset it"))
        }
    }
}

/// The functions of a plugin's table, copied out of it once the handshake checked it.
#[derive(Clone, Copy, Debug)]
struct Entries {
    describe: DescribeFn,
    detect: CallFn,
    read: CallFn,
    write: CallFn,
    free: FreeFn,
    /// Since ABI 1.3, when the table has all three.
    native: Option<(ReadNativeFn, WriteNativeFn, FreeModelFn)>,
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
        native: None,
    };
    // SAFETY: our caller's guarantee; each entry's type is the one named, `Option` of a function
    // pointer, so a null entry reads as `None`.
    let native = unsafe {
        (
            entry::<Option<ReadNativeFn>>(table, size, std::mem::offset_of!(PluginTable, read_native)).flatten(),
            entry::<Option<WriteNativeFn>>(table, size, std::mem::offset_of!(PluginTable, write_native)).flatten(),
            entry::<Option<FreeModelFn>>(table, size, std::mem::offset_of!(PluginTable, free_model)).flatten(),
        )
    };
    let entries = match native {
        (Some(read), Some(write), Some(free)) => Entries { native: Some((read, write, free)), ..entries },
        _ => entries,
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
        let native = entries
            .native
            .filter(|_| description.has_feature(features::NATIVE_MODEL))
            .filter(|_| native::same_build(&description.build_fingerprint))
            .filter(|_| !handover_forced_to_json())
            .map(|(read, write, free_model)| NativeEntries { read, write, free_model, free: entries.free });
        Ok(Arc::new(LoadedPlugin {
            path: path_buf,
            description,
            versions,
            transport: Box::new(InProcess { entries }),
            native,
            detect_failure: Default::default(),
        }))
    }
}

/// The entries of an in-process plugin of this host's build ([`native::same_build`]) that hand
/// the model over natively.
#[derive(Clone, Copy, Debug)]
pub(super) struct NativeEntries {
    read: ReadNativeFn,
    write: WriteNativeFn,
    free_model: FreeModelFn,
    free: FreeFn,
}

impl NativeEntries {
    /// `read_native` of `input` with `options`, both borrowed for the call: the answer (an
    /// `Outcome<bool>`, unread) and the model the plugin handed over.
    pub(super) fn read(&self, index: u32, input: &Bundle, options: &Options) -> (Vec<u8>, Option<NativeModel>) {
        let mut model: *mut OpaqueModel = std::ptr::null_mut();
        let input = std::ptr::from_ref(input).cast::<NativeInput>();
        let options = std::ptr::from_ref(options).cast::<NativeOptions>();
        // SAFETY: an entry of a table the handshake checked, called as `abi::ReadNativeFn`
        // requires: the plugin's fingerprint is this host's, so it lays `Bundle` and `Options`
        // out as this host does; both are borrowed, alive and unchanged, for the whole call, and
        // `model` is a writable pointer.
        let buffer = unsafe { (self.read)(index, input, options, &mut model) };
        // Taken at once, so that it is freed whatever the answer says.
        let model = NonNull::new(model).map(|model| NativeModel { model, free: self.free_model });
        // SAFETY: the buffer was just returned by this table's function and is used nowhere else.
        (unsafe { take(self.free, buffer) }, model)
    }

    /// `write_native` of `model` (the host's, or one a plugin of this build handed over) with
    /// `options`: the answer read where the plugin wrote it, not copied (it holds the whole
    /// output).
    pub(super) fn write(&self, index: u32, model: &ToolSet, options: &Options) -> PluginAnswer {
        let model = std::ptr::from_ref(model).cast::<OpaqueModel>();
        let options = std::ptr::from_ref(options).cast::<NativeOptions>();
        // SAFETY: as `abi::WriteNativeFn` requires: the plugin's fingerprint is this host's, so
        // it lays `ToolSet` and `Options` out as this host does; both are borrowed, alive and
        // unchanged, for the whole call.
        let buffer = unsafe { (self.write)(index, model, options) };
        PluginAnswer { buffer, free: self.free }
    }
}

/// An answer still in the memory of the in-process plugin that returned it, read in place and
/// given back to the plugin's `free` when dropped.
pub(super) struct PluginAnswer {
    buffer: RawBuffer,
    free: FreeFn,
}

impl std::ops::Deref for PluginAnswer {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        if self.buffer.ptr.is_null() || self.buffer.len == 0 {
            return &[];
        }
        // SAFETY: the plugin returned `len` initialised bytes at `ptr`, owned by it until our
        // `drop` calls its `free`; nothing writes them meanwhile.
        unsafe { std::slice::from_raw_parts(self.buffer.ptr, self.buffer.len) }
    }
}

impl Drop for PluginAnswer {
    fn drop(&mut self) {
        // SAFETY: the buffer was returned by a function of the table `free` belongs to, is
        // used nowhere else, and is freed only here, once.
        unsafe { (self.free)(std::mem::replace(&mut self.buffer, RawBuffer::EMPTY)) };
    }
}

/// A model an in-process plugin of this host's build read and still owns: the host borrows it
/// (to write it, or to clone it for the stage between reading and writing) and gives it back
/// to that plugin's `free_model` when dropped.
pub struct NativeModel {
    model: NonNull<OpaqueModel>,
    free: FreeModelFn,
}

impl std::ops::Deref for NativeModel {
    type Target = ToolSet;

    fn deref(&self) -> &ToolSet {
        // SAFETY: `read_native` stored the address of a `ToolSet` the plugin owns until
        // `free_model`, which only `drop` calls; the plugin's fingerprint is this host's (same
        // compiler, flags, lock file, core source and type identities), so its `ToolSet` is
        // laid out as ours. Nobody changes it while this handle lives.
        unsafe { self.model.cast::<ToolSet>().as_ref() }
    }
}

impl Drop for NativeModel {
    fn drop(&mut self) {
        // SAFETY: the model came from this table's `read_native` and is freed once, here.
        unsafe { (self.free)(self.model.as_ptr()) }
    }
}

// SAFETY: the handle owns a `ToolSet` (which is Send and Sync) until it is dropped, and the
// plugin's `free_model` may be called from any thread (it drops a `Box<ToolSet>`).
unsafe impl Send for NativeModel {}
// SAFETY: shared access only reads the `ToolSet`, which is Sync.
unsafe impl Sync for NativeModel {}

impl std::fmt::Debug for NativeModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeModel").field("tools", &self.tools.len()).finish()
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
