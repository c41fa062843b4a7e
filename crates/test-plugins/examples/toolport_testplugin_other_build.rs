//! A plugin of another build: everything of this SDK, the native entries too, but its
//! description carries another build fingerprint, as a plugin built by another compiler, with
//! another lock file or another profile would. A host must hand it the model as JSON and take
//! its model as JSON: its native entries abort the process if called.
//!
//! Format `other-build` ([`CanonicalJson`]): documents are the canonical model's JSON.
#![allow(unsafe_code)]

use toolport_plugin::abi::{
    NativeInput, NativeModel, NativeOptions, PluginDescription, PluginTable, RawBuffer, features,
};
use toolport_plugin::{Format, Outcome};
use toolport_test_plugins::{CanonicalJson, buffer};

fn plugin() -> &'static toolport_plugin::export::Plugin {
    static PLUGIN: std::sync::OnceLock<toolport_plugin::export::Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| {
        toolport_plugin::export::Plugin::new("other-build", "0.0.0", vec![Box::new(CanonicalJson("other-build"))])
    })
}

/// This SDK's description, with another build's fingerprint.
extern "C" fn describe() -> RawBuffer {
    let mut features: Vec<String> = features::SDK.iter().map(|f| (*f).to_owned()).collect();
    features.push(features::NATIVE_MODEL.to_owned());
    let description = PluginDescription {
        name: "other-build".into(),
        version: "0.0.0".into(),
        formats: vec![CanonicalJson("other-build").info()],
        features,
        build_fingerprint: format!("another build, not {}", toolport_plugin::abi::native::fingerprint()),
    };
    buffer(serde_json::to_vec(&Outcome::ok(description, vec![])).unwrap_or_default())
}

unsafe extern "C" fn detect(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host calls this entry as `abi::CallFn` requires, which `export::detect` needs.
    unsafe { toolport_plugin::export::detect(plugin, format, request, len) }
}

unsafe extern "C" fn read(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host's `abi::CallFn` guarantee, passed on.
    unsafe { toolport_plugin::export::read(plugin, format, request, len) }
}

unsafe extern "C" fn write(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host's `abi::CallFn` guarantee, passed on.
    unsafe { toolport_plugin::export::write(plugin, format, request, len) }
}

/// Another build's `ToolSet` is laid out in ways this host cannot know: never to be called.
extern "C" fn read_native(
    _format: u32,
    _input: *const NativeInput,
    _options: *const NativeOptions,
    _model: *mut *mut NativeModel,
) -> RawBuffer {
    std::process::abort()
}

extern "C" fn write_native(_format: u32, _model: *const NativeModel, _options: *const NativeOptions) -> RawBuffer {
    std::process::abort()
}

extern "C" fn free_model(_model: *mut NativeModel) {
    std::process::abort()
}

static TABLE: PluginTable = PluginTable::new(describe, detect, read, write, toolport_plugin::export::free)
    .with_native_model(read_native, write_native, free_model);

#[unsafe(no_mangle)]
pub extern "C" fn toolport_plugin_entry() -> *const PluginTable {
    &TABLE
}
