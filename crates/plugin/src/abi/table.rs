//! The C side: the table a plugin exports, its header, and the buffers crossing it.

use toolport_core::{MODEL_SCHEMA_MAJOR, MODEL_SCHEMA_MINOR};

use super::native::{FreeModelFn, ReadNativeFn, WriteNativeFn};
use super::{ABI_MAGIC, ABI_MAJOR, ABI_MINOR, MajorMinor};

/// The part of the table every ABI version shares, read before anything else.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableHeader {
    pub magic: u64,
    /// The ABI major version (the minor is a table entry, `abi_minor`, since 1.1).
    pub abi_major: u32,
    /// `size_of::<PluginTable>()` as the plugin was built: which entries its table has.
    pub table_size: u32,
}

impl TableHeader {
    pub const CURRENT: TableHeader =
        TableHeader { magic: ABI_MAGIC, abi_major: ABI_MAJOR, table_size: PluginTable::SIZE_1_3 };
}

/// A byte buffer owned by the side that allocated it.
#[repr(C)]
#[derive(Debug)]
pub struct RawBuffer {
    pub ptr: *mut u8,
    pub len: usize,
    pub capacity: usize,
}

impl RawBuffer {
    /// An empty buffer (null pointer), which `free` ignores.
    pub const EMPTY: RawBuffer = RawBuffer { ptr: std::ptr::null_mut(), len: 0, capacity: 0 };
}

/// `describe() -> Outcome<PluginDescription>` as JSON.
///
/// # Safety
///
/// Called only through a table whose header the host checked; the returned buffer must be
/// released once with the same table's `free`.
pub type DescribeFn = unsafe extern "C" fn() -> RawBuffer;

/// `detect`, `read` and `write`: `(format_index, request_json, request_len) -> response_json`.
///
/// # Safety
///
/// `request` is null with `len` 0, or points to `len` initialised bytes that stay valid and
/// unchanged until the call returns. The returned buffer must be released once with the same
/// table's `free`.
pub type CallFn = unsafe extern "C" fn(u32, *const u8, usize) -> RawBuffer;

/// Releases a buffer the plugin returned.
///
/// # Safety
///
/// `buffer` was returned by a function of the same table, unchanged, and is not used or freed
/// again.
pub type FreeFn = unsafe extern "C" fn(RawBuffer);

/// The table a plugin exports. Entries are only ever appended, each with the minor that added
/// it; the host reads an entry only if `header.table_size` covers it.
#[repr(C)]
#[derive(Debug)]
pub struct PluginTable {
    pub header: TableHeader,
    /// [`toolport_core::MODEL_SCHEMA_MAJOR`] of the plugin's SDK.
    pub model_schema_major: u32,
    /// Returns a [`PluginDescription`](super::PluginDescription).
    pub describe: DescribeFn,
    /// [`DetectRequest`](super::DetectRequest) → `Outcome<Detection>`.
    pub detect: CallFn,
    /// [`ReadRequest`](super::ReadRequest) → `Outcome<VersionedToolSet>`.
    pub read: CallFn,
    /// [`WriteRequest`](super::WriteRequest) → `Outcome<Bundle>`.
    pub write: CallFn,
    /// Releases a buffer this plugin returned.
    pub free: FreeFn,
    /// Since 1.1: [`ABI_MINOR`] of the plugin's SDK (a 1.0 table, without it, is minor 0).
    pub abi_minor: u32,
    /// Since 1.1: [`toolport_core::MODEL_SCHEMA_MINOR`] of the plugin's SDK (0 when absent).
    pub model_schema_minor: u32,
    /// Since 1.3, null when the plugin cannot: the model handed over natively
    /// ([`native`](super::native)), used only by a host of the same build.
    pub read_native: Option<ReadNativeFn>,
    pub write_native: Option<WriteNativeFn>,
    pub free_model: Option<FreeModelFn>,
}

impl PluginTable {
    /// Size of an ABI 1.0 table: up to and including `free`.
    pub const SIZE_1_0: u32 = std::mem::offset_of!(PluginTable, abi_minor) as u32;
    /// Size of an ABI 1.1 (and 1.2) table: up to and including `model_schema_minor`.
    pub const SIZE_1_1: u32 = std::mem::offset_of!(PluginTable, read_native) as u32;
    /// Size of an ABI 1.3 table: up to and including `free_model`.
    pub const SIZE_1_3: u32 = std::mem::size_of::<PluginTable>() as u32;

    /// The table of this SDK's ABI and model versions around the given functions.
    pub const fn new(describe: DescribeFn, detect: CallFn, read: CallFn, write: CallFn, free: FreeFn) -> Self {
        PluginTable {
            header: TableHeader::CURRENT,
            model_schema_major: MODEL_SCHEMA_MAJOR,
            describe,
            detect,
            read,
            write,
            free,
            abi_minor: ABI_MINOR,
            model_schema_minor: MODEL_SCHEMA_MINOR,
            read_native: None,
            write_native: None,
            free_model: None,
        }
    }

    /// The table with the entries that hand the model over natively.
    pub const fn with_native_model(self, read: ReadNativeFn, write: WriteNativeFn, free: FreeModelFn) -> Self {
        PluginTable { read_native: Some(read), write_native: Some(write), free_model: Some(free), ..self }
    }
}

/// The versions a plugin's table declares (minors are 0 in ABI 1.0 tables, which lack them):
/// read by a host's loader, and sent by an isolated plugin's host process in its hello.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PluginVersions {
    pub abi: MajorMinor,
    pub model: MajorMinor,
}
