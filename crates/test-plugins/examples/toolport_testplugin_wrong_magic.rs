//! A plugin whose table does not start with the toolport magic.
#![allow(unsafe_code)]
use toolport_plugin::abi::{PluginTable, RawBuffer};

extern "C" fn describe() -> RawBuffer {
    toolport_plugin::export::describe(plugin)
}
extern "C" fn call(_format: u32, _request: *const u8, _len: usize) -> RawBuffer {
    empty()
}
fn empty() -> RawBuffer {
    RawBuffer { ptr: std::ptr::null_mut(), len: 0, capacity: 0 }
}
fn plugin() -> &'static toolport_plugin::export::Plugin {
    static PLUGIN: std::sync::OnceLock<toolport_plugin::export::Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| {
        toolport_plugin::export::Plugin::new(
            "wrong-magic",
            "0.0.0",
            vec![Box::new(toolport_test_plugins::Echo("wrong-magic"))],
        )
    })
}

static TABLE: PluginTable = PluginTable {
    header: toolport_test_plugins::header(0xDEAD_BEEF, toolport_plugin::abi::ABI_VERSION),
    model_schema_version: toolport_plugin::MODEL_SCHEMA_VERSION,
    describe,
    detect: call,
    read: call,
    write: call,
    free: toolport_plugin::export::free,
};

#[unsafe(no_mangle)]
pub extern "C" fn toolport_plugin_entry() -> *const PluginTable {
    &TABLE
}
