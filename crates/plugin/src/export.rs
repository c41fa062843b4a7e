//! The plugin side of the ABI: turns calls through the C table into calls on safe
//! [`Format`] values, catching every panic. Used by [`crate::declare_plugin!`]; plugin authors
//! do not call it directly.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use serde::Serialize;
use serde::de::DeserializeOwned;
use toolport_core::{Diagnostic, Format, MODEL_SCHEMA_VERSION, Outcome, codes};

use crate::abi::{DetectRequest, PluginDescription, RawBuffer, ReadRequest, WriteRequest};

/// The formats one plugin library exports.
pub struct Plugin {
    name: &'static str,
    version: &'static str,
    formats: Vec<Box<dyn Format>>,
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin").field("name", &self.name).field("formats", &self.formats.len()).finish()
    }
}

impl Plugin {
    pub fn new(name: &'static str, version: &'static str, formats: Vec<Box<dyn Format>>) -> Self {
        Plugin { name, version, formats }
    }

    fn format(&self, index: u32) -> Result<&dyn Format, Diagnostic> {
        self.formats.get(index as usize).map(|f| &**f).ok_or_else(|| {
            Diagnostic::error(codes::PLUGIN_FAILED, "", format!("plugin {} has no format number {index}", self.name))
        })
    }
}

thread_local! {
    /// Where the last panic on this thread happened, filled by our panic hook.
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default hook (which prints to stderr) with one that records the location, so
/// the host can report a plugin panic as one clear line. This library has its own copy of
/// std, so the host's hook is untouched.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_LOCATION.with(|cell| *cell.borrow_mut() = location);
        }))
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic payload".to_owned());
    match PANIC_LOCATION.with(|cell| cell.borrow_mut().take()) {
        Some(at) => format!("{text} (at {at})"),
        None => text,
    }
}

fn into_buffer(bytes: Vec<u8>) -> RawBuffer {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    RawBuffer { ptr: bytes.as_mut_ptr(), len: bytes.len(), capacity: bytes.capacity() }
}

fn respond<T: Serialize>(outcome: &Outcome<T>) -> RawBuffer {
    let bytes = serde_json::to_vec(outcome).unwrap_or_else(|e| {
        let failed: Outcome<()> = Outcome::fail(Diagnostic::error(
            codes::PLUGIN_FAILED,
            "",
            format!("plugin could not encode its response: {e}"),
        ));
        serde_json::to_vec(&failed).unwrap_or_default()
    });
    into_buffer(bytes)
}

/// Runs `body` on the decoded request, catching panics, and encodes its outcome.
fn call<Req, T, F>(request: *const u8, len: usize, body: F) -> RawBuffer
where
    Req: DeserializeOwned,
    T: Serialize,
    F: FnOnce(Req) -> Outcome<T>,
{
    install_panic_hook();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let bytes: &[u8] = if request.is_null() || len == 0 {
            &[]
        } else {
            // SAFETY: the host passes a pointer to `len` initialised bytes that it owns and
            // keeps alive for the duration of this call (abi rule 3).
            unsafe { std::slice::from_raw_parts(request, len) }
        };
        match crate::abi::decode_message::<Req>(bytes) {
            Ok(req) => body(req),
            Err(e) => Outcome::fail(Diagnostic::error(
                codes::PLUGIN_FAILED,
                "",
                format!("plugin could not decode the host's request: {e}"),
            )),
        }
    }));
    match result {
        Ok(outcome) => respond(&outcome),
        Err(payload) => respond::<()>(&Outcome::fail(Diagnostic::error(
            codes::PLUGIN_FAILED,
            "",
            format!("plugin panicked: {}", panic_message(&*payload)),
        ))),
    }
}

pub fn describe(plugin: fn() -> &'static Plugin) -> RawBuffer {
    install_panic_hook();
    let result = catch_unwind(|| {
        let plugin = plugin();
        let description = PluginDescription {
            name: plugin.name.to_owned(),
            version: plugin.version.to_owned(),
            formats: plugin.formats.iter().map(|f| f.info()).collect(),
        };
        Outcome::ok(description, Vec::new())
    });
    match result {
        Ok(outcome) => respond(&outcome),
        Err(payload) => respond::<()>(&Outcome::fail(Diagnostic::error(
            codes::PLUGIN_FAILED,
            "",
            format!("plugin panicked while describing itself: {}", panic_message(&*payload)),
        ))),
    }
}

pub fn detect(plugin: fn() -> &'static Plugin, format: u32, request: *const u8, len: usize) -> RawBuffer {
    call(request, len, |req: DetectRequest| match plugin().format(format) {
        Ok(f) => Outcome::ok(f.detect(&req.bundle), Vec::new()),
        Err(e) => Outcome::fail(e),
    })
}

pub fn read(plugin: fn() -> &'static Plugin, format: u32, request: *const u8, len: usize) -> RawBuffer {
    call(request, len, |req: ReadRequest| match plugin().format(format) {
        Ok(f) => {
            let outcome = f.read(&req.bundle, &req.options);
            Outcome { value: outcome.value.map(|m| m.versioned()), diagnostics: outcome.diagnostics }
        }
        Err(e) => Outcome::fail(e),
    })
}

pub fn write(plugin: fn() -> &'static Plugin, format: u32, request: *const u8, len: usize) -> RawBuffer {
    call(request, len, |req: WriteRequest| {
        if req.model.schema_version != MODEL_SCHEMA_VERSION {
            return Outcome::fail(Diagnostic::error(
                codes::PLUGIN_FAILED,
                "",
                format!("model schema version {} sent, plugin speaks {MODEL_SCHEMA_VERSION}", req.model.schema_version),
            ));
        }
        match plugin().format(format) {
            Ok(f) => f.write(&req.model.tool_set, &req.options),
            Err(e) => Outcome::fail(e),
        }
    })
}

/// Frees a buffer this library returned.
pub extern "C" fn free(buffer: RawBuffer) {
    if buffer.ptr.is_null() {
        return;
    }
    // SAFETY: `buffer` came from `into_buffer` in this library (abi rule 4), so its parts are
    // those of a Vec<u8> allocated by this library's allocator, and the host frees it once.
    drop(unsafe { Vec::from_raw_parts(buffer.ptr, buffer.len, buffer.capacity) });
}
