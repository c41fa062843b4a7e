//! The C ABI between the host and a plugin library, defined once for both sides.
//!
//! 1. One exported symbol, [`ENTRY_SYMBOL`], returns a pointer to a `#[repr(C)]`
//!    [`PluginTable`] of `unsafe extern "C"` functions and plain values. No Rust types cross.
//! 2. The table begins with a [`TableHeader`]: magic, ABI major version, table size. The host
//!    reads the header alone first and refuses a plugin of another major, saying which ABI each
//!    side speaks.
//! 3. Data crosses as UTF-8 JSON (pointer + length), a bundle's file texts optionally beside
//!    it rather than escaped inside it ([`texts`]). Requests are [`DetectRequest`],
//!    [`ReadRequest`] and [`WriteRequest`]; every response is an
//!    [`Outcome`](toolport_core::Outcome) in JSON, the model inside in its versioned envelope.
//! 4. Whoever allocates frees: buffers a plugin returns are released with its `free`.
//! 5. No unwinding crosses: every entry point catches panics and returns a failed outcome.
//! 6. The host never unloads a library while the process runs.
//!
//! # Versions and growth
//!
//! The ABI ([`ABI`]) and the model's JSON form ([`MODEL_SCHEMA`]) each have a major and a minor
//! version. Within a major, everything only grows:
//!
//! - A minor may append entries to the end of [`PluginTable`]; `table_size` in the header says
//!   which a plugin has ([`PluginTable::SIZE_1_0`], [`PluginTable::SIZE_1_1`],
//!   [`PluginTable::SIZE_1_3`]), and the host
//!   reads or calls no entry beyond it. A host reads only the entries it knows from a longer
//!   table.
//! - A minor may add optional fields to requests, responses, the description and the model.
//!   Requests and responses ignore fields they do not know; the model keeps them (see
//!   [`decode_model`]).
//! - What a plugin can do is said by [`PluginDescription::features`], stable strings
//!   ([`features`]), not by version arithmetic.
//!
//! Anything else (an entry's meaning or type, a field removed or renamed, a new enum value in
//! the model) needs a new major, and a host refuses a plugin of another major naming both.
//!
//! ABI history: 1.0 had the table up to `free`. 1.1 made every function `unsafe extern "C"`
//! (the same C signature) and appended `abi_minor` and `model_schema_minor`; its `describe`
//! lists features. 1.2 adds a second form of message, file texts beside the JSON instead of
//! inside it ([`texts`]), used only between sides with
//! [`features::TEXTS_BESIDE_JSON`]. 1.3 appends `read_native`, `write_native` and
//! `free_model`: the model handed over by pointer between a host and in-process plugins of
//! one build ([`native`], [`features::NATIVE_MODEL`]); JSON stays the form for every other pair.

mod decode;
mod messages;
pub mod native;
mod table;
pub mod texts;

pub use decode::{check_model_depth, decode_message, decode_model};
pub use messages::{
    DescribeResponse, DetectRequest, DetectResponse, ModelJson, ModelVersion, PluginDescription, ReadRequest,
    ReadResponse, VersionedRef, WriteRequest, WriteResponse,
};
pub use native::{FreeModelFn, NativeInput, NativeModel, NativeOptions, ReadNativeFn, WriteNativeFn};
pub use table::{CallFn, DescribeFn, FreeFn, PluginTable, PluginVersions, RawBuffer, TableHeader};

use serde::{Deserialize, Serialize};
use toolport_core::{MODEL_SCHEMA_MAJOR, MODEL_SCHEMA_MINOR};

/// "TOOLPORT" in ASCII: the first eight bytes of every plugin table.
pub const ABI_MAGIC: u64 = u64::from_be_bytes(*b"TOOLPORT");
/// The ABI major version this SDK speaks: a host loads only plugins of its own major.
pub const ABI_MAJOR: u32 = 1;
/// The ABI minor version this SDK speaks: what its table and messages add within the major.
pub const ABI_MINOR: u32 = 3;
/// The ABI this SDK speaks.
pub const ABI: MajorMinor = MajorMinor { major: ABI_MAJOR, minor: ABI_MINOR };
/// The model schema version this SDK reads and writes.
pub const MODEL_SCHEMA: MajorMinor = MajorMinor { major: MODEL_SCHEMA_MAJOR, minor: MODEL_SCHEMA_MINOR };
/// The exported entry symbol (NUL-terminated for dynamic loaders).
pub const ENTRY_SYMBOL: &[u8] = b"toolport_plugin_entry\0";

/// A version of the ABI or of the model's JSON form, shown as `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MajorMinor {
    pub major: u32,
    pub minor: u32,
}

impl std::fmt::Display for MajorMinor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Stable names of what a plugin can do, listed by `describe` in
/// [`PluginDescription::features`]. A host asks for a feature rather than comparing versions;
/// a minor may add features, and a host ignores those it does not know.
pub mod features {
    /// The plugin reads models with fields it does not know (from a newer minor) instead of
    /// refusing them: it keeps them under `extras["toolport-unknown"]` and reports each as
    /// `input/unknown-key`, and it accepts `schema_minor` in the model's envelope. A plugin
    /// without it (built with SDK 1.0) is sent models re-encoded through the host's model,
    /// without `schema_minor`.
    pub const MODEL_UNKNOWN_FIELDS: &str = "model-unknown-fields";

    /// The plugin reads requests whose bundle's texts come beside the JSON
    /// ([`texts`](super::texts)) and answers such a request in the same form. A host sends that
    /// form only to plugins with this feature.
    pub const TEXTS_BESIDE_JSON: &str = "texts-beside-json";

    /// The plugin hands over and borrows the model natively ([`native`](super::native)):
    /// its table has `read_native`, `write_native` and `free_model`, and its description
    /// carries its build's fingerprint. A host uses them only in process and only when the
    /// fingerprint is its own. Listed by plugins made with `declare_plugin!`.
    pub const NATIVE_MODEL: &str = "native-model";

    /// The features every plugin built with this SDK has.
    pub const SDK: &[&str] = &[MODEL_UNKNOWN_FIELDS, TEXTS_BESIDE_JSON];
}

#[cfg(test)]
mod tests;
