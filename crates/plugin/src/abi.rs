//! The C ABI between the host and a plugin library. Rules (DESIGN.md, "Plugin ABI"):
//!
//! 1. One exported symbol, [`ENTRY_SYMBOL`], returns a pointer to a `#[repr(C)]`
//!    [`PluginTable`] of `extern "C"` functions and plain values. No Rust types cross.
//! 2. The table begins with a [`TableHeader`]: magic, ABI version, table size. The host reads
//!    the header alone first and refuses a plugin whose header does not match, saying which
//!    ABI each side speaks.
//! 3. Data crosses as UTF-8 JSON (pointer + length). Requests are [`ReadRequest`],
//!    [`WriteRequest`] and [`DetectRequest`]; every response is an
//!    [`Outcome`](toolport_core::Outcome) in JSON, the model inside carrying its schema version.
//! 4. Whoever allocates frees: buffers a plugin returns are released with its `free`.
//! 5. No unwinding crosses: every entry point catches panics and returns a failed outcome.
//! 6. The host never unloads a library while the process runs.
//!
//! Versioning: [`ABI_VERSION`] changes when the table's layout or the meaning of a function
//! changes; [`toolport_core::MODEL_SCHEMA_VERSION`] when the model's JSON form does. A host
//! loads only plugins that match both.

use serde::{Deserialize, Serialize};
use toolport_core::{Bundle, Options, VersionedToolSet};

/// "TOOLPORT" in ASCII: the first eight bytes of every plugin table.
pub const ABI_MAGIC: u64 = u64::from_be_bytes(*b"TOOLPORT");
/// The ABI this SDK speaks.
pub const ABI_VERSION: u32 = 1;
/// The exported entry symbol (NUL-terminated for dynamic loaders).
pub const ENTRY_SYMBOL: &[u8] = b"toolport_plugin_entry\0";

/// The part of the table every ABI version shares, read before anything else.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableHeader {
    pub magic: u64,
    pub abi_version: u32,
    /// `size_of::<PluginTable>()` as the plugin was built.
    pub table_size: u32,
}

impl TableHeader {
    pub const CURRENT: TableHeader = TableHeader {
        magic: ABI_MAGIC,
        abi_version: ABI_VERSION,
        table_size: std::mem::size_of::<PluginTable>() as u32,
    };
}

/// A byte buffer owned by the side that allocated it.
#[repr(C)]
#[derive(Debug)]
pub struct RawBuffer {
    pub ptr: *mut u8,
    pub len: usize,
    pub capacity: usize,
}

/// `extern "C" fn(format_index, request_json, request_len) -> response_json`.
pub type CallFn = extern "C" fn(u32, *const u8, usize) -> RawBuffer;

/// The table a plugin exports.
#[repr(C)]
#[derive(Debug)]
pub struct PluginTable {
    pub header: TableHeader,
    /// The [`toolport_core::MODEL_SCHEMA_VERSION`] the plugin was built with.
    pub model_schema_version: u32,
    /// Returns a [`PluginDescription`] as JSON.
    pub describe: extern "C" fn() -> RawBuffer,
    /// [`DetectRequest`] → `Outcome<u8>`.
    pub detect: CallFn,
    /// [`ReadRequest`] → `Outcome<VersionedToolSet>`.
    pub read: CallFn,
    /// [`WriteRequest`] → `Outcome<Bundle>`.
    pub write: CallFn,
    /// Releases a buffer this plugin returned.
    pub free: extern "C" fn(RawBuffer),
}

/// What `describe` returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PluginDescription {
    /// The plugin crate's name.
    pub name: String,
    pub version: String,
    /// The formats, indexed by the `format` argument of the calls.
    pub formats: Vec<toolport_core::FormatInfo>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct DetectRequest {
    pub bundle: Bundle,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ReadRequest {
    pub bundle: Bundle,
    #[serde(default)]
    pub options: Options,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct WriteRequest {
    pub model: VersionedToolSet,
    #[serde(default)]
    pub options: Options,
}

/// Decodes one JSON message crossing the boundary (a request, a response, the model).
///
/// serde_json's recursion limit (128) is for untrusted text; here it would refuse models that
/// readers accepted, since a schema nested N levels is several JSON levels each. Input depth
/// is bounded by [`toolport_core::limits::MAX_NESTING`] in every reader, and conversions run on
/// threads with [`toolport_core::limits::CONVERSION_STACK_BYTES`] of stack, so the limit is
/// lifted for these messages only.
pub fn decode_message<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}
