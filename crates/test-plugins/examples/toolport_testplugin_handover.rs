//! A plugin of this build that says how its model crossed: its JSON entries (`read`, `write`)
//! serve [`Handover`]`("as_json")`, its native ones (`read_native`, `write_native`)
//! [`Handover`]`("natively")`, so the tool it reads is `read_as_json` or `read_natively`, and
//! what it writes begins `written as_json:` or `written natively:`.
#![allow(unsafe_code)]

use toolport_plugin::abi::{NativeInput, NativeModel, NativeOptions, PluginTable, RawBuffer};
use toolport_plugin::export::{self, Plugin};
use toolport_test_plugins::Handover;

fn as_json() -> &'static Plugin {
    static PLUGIN: std::sync::OnceLock<Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| Plugin::new("handover", "0.0.0", vec![Box::new(Handover("as_json"))]).with_native_model())
}

fn natively() -> &'static Plugin {
    static PLUGIN: std::sync::OnceLock<Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| Plugin::new("handover", "0.0.0", vec![Box::new(Handover("natively"))]).with_native_model())
}

extern "C" fn describe() -> RawBuffer {
    export::describe(as_json)
}

unsafe extern "C" fn detect(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host calls this entry as `abi::CallFn` requires, which `export::detect` needs.
    unsafe { export::detect(as_json, format, request, len) }
}

unsafe extern "C" fn read(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host's `abi::CallFn` guarantee, passed on.
    unsafe { export::read(as_json, format, request, len) }
}

unsafe extern "C" fn write(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host's `abi::CallFn` guarantee, passed on.
    unsafe { export::write(as_json, format, request, len) }
}

unsafe extern "C" fn read_native(
    format: u32,
    input: *const NativeInput,
    options: *const NativeOptions,
    model: *mut *mut NativeModel,
) -> RawBuffer {
    // SAFETY: the host's `abi::ReadNativeFn` guarantee, passed on.
    unsafe { export::read_native(natively, format, input, options, model) }
}

unsafe extern "C" fn write_native(format: u32, model: *const NativeModel, options: *const NativeOptions) -> RawBuffer {
    // SAFETY: the host's `abi::WriteNativeFn` guarantee, passed on.
    unsafe { export::write_native(natively, format, model, options) }
}

static TABLE: PluginTable = PluginTable::new(describe, detect, read, write, export::free).with_native_model(
    read_native,
    write_native,
    export::free_model,
);

#[unsafe(no_mangle)]
pub extern "C" fn toolport_plugin_entry() -> *const PluginTable {
    &TABLE
}
