//! The model handed over natively (since ABI 1.3, [`features::NATIVE_MODEL`]): between a host
//! and in-process plugins of one build, the reader's model passes to the writer by pointer
//! instead of as JSON.
//!
//! Both sides compare their [`fingerprint`]s in the handshake; only an exact match makes the
//! model's memory layout the same on both sides, and then:
//!
//! - `read_native` ([`ReadNativeFn`]) answers like `read`, with the model left in the plugin:
//!   its answer's value is `true` and the model's address is stored in the out-parameter.
//!   The plugin that allocated it frees it: the host calls that plugin's `free_model`
//!   ([`FreeModelFn`]) once, when it no longer needs it. Its request, the input and the
//!   options, is the host's, borrowed by pointer for the call, not encoded.
//! - `write_native` ([`WriteNativeFn`]) writes a model it only borrows for the call: one a
//!   plugin of the same build read, or one the host holds (a curated or fitted model). The
//!   options are borrowed by pointer too; its answer is `write`'s.
//!
//! Every other pair (another fingerprint, an isolated plugin, an older SDK) uses JSON, and the
//! host can force JSON for all (`TOOLPORT_MODEL_HANDOVER=json`).
//!
//! [`features::NATIVE_MODEL`]: super::features::NATIVE_MODEL

use std::any::TypeId;
use std::sync::OnceLock;

use toolport_core::fingerprint::BUILD_FINGERPRINT;
use toolport_core::{Bundle, Extras, Options, ToolSet};

use super::RawBuffer;

/// The model as the C table sees it: opaque. On both sides of one build it is a
/// [`ToolSet`](toolport_core::ToolSet).
#[repr(C)]
#[derive(Debug)]
pub struct NativeModel {
    _opaque: [u8; 0],
}

/// The input as the C table sees it: opaque. On both sides of one build it is a
/// [`Bundle`](toolport_core::Bundle).
#[repr(C)]
#[derive(Debug)]
pub struct NativeInput {
    _opaque: [u8; 0],
}

/// The options as the C table sees them: opaque. On both sides of one build they are
/// [`Options`].
#[repr(C)]
#[derive(Debug)]
pub struct NativeOptions {
    _opaque: [u8; 0],
}

/// `read_native(format_index, input, options, model_out) -> response`: as `read` (an
/// `Outcome<bool>` out), the request's input and options by pointer, and on success the model
/// stays in the plugin and its address is written to `*model_out`.
///
/// # Safety
///
/// The host calls it only when the fingerprints match. `input` and `options` point to a
/// `Bundle` and `Options` of that build, alive and unchanged until the call returns;
/// `model_out` points to a writable pointer. A model stored in `*model_out` must be released
/// once with the same table's `free_model`; the returned buffer with `free`.
pub type ReadNativeFn =
    unsafe extern "C" fn(u32, *const NativeInput, *const NativeOptions, *mut *mut NativeModel) -> RawBuffer;

/// `write_native(format_index, model, options) -> response`: as `write`, with the model and
/// the options by pointer.
///
/// # Safety
///
/// `model` points to a `ToolSet` and `options` to `Options` of a build with the same
/// fingerprint, alive and unchanged until the call returns.
pub type WriteNativeFn = unsafe extern "C" fn(u32, *const NativeModel, *const NativeOptions) -> RawBuffer;

/// Releases a model this plugin's `read_native` handed over.
///
/// # Safety
///
/// `model` came from this table's `read_native`, and is not used or freed again.
pub type FreeModelFn = unsafe extern "C" fn(*mut NativeModel);

/// This build's fingerprint as the handshake compares it: core's [`BUILD_FINGERPRINT`]
/// (compiler, target, profile, lock file, core's source) and the identities of the types that
/// cross by pointer (the model, the input, the options), which also change when a dependency
/// (serde_json, indexmap) is built with other features, as two `cargo` commands of one
/// workspace may do. Empty, matching nothing,
/// when core was built without a lock file.
pub fn fingerprint() -> &'static str {
    static FINGERPRINT: OnceLock<String> = OnceLock::new();
    FINGERPRINT.get_or_init(|| {
        if BUILD_FINGERPRINT.is_empty() {
            return String::new();
        }
        format!(
            "{BUILD_FINGERPRINT} {:?} {:?} {:?} {:?} {:?}",
            TypeId::of::<ToolSet>(),
            TypeId::of::<serde_json::Value>(),
            TypeId::of::<Extras>(),
            TypeId::of::<Bundle>(),
            TypeId::of::<Options>()
        )
    })
}

/// Whether a peer's fingerprint is this build's: equal and not empty.
pub fn same_build(peer: &str) -> bool {
    !peer.is_empty() && peer == fingerprint()
}
