//! A plugin with a valid handshake whose calls return bytes that are not JSON.
#![allow(unsafe_code)]
use toolport_plugin::abi::{PluginTable, RawBuffer};

extern "C" fn describe() -> RawBuffer {
    toolport_plugin::export::describe(plugin)
}
extern "C" fn garbage(_format: u32, _request: *const u8, _len: usize) -> RawBuffer {
    let mut bytes = std::mem::ManuallyDrop::new(b"this is {not json".to_vec());
    RawBuffer { ptr: bytes.as_mut_ptr(), len: bytes.len(), capacity: bytes.capacity() }
}
fn plugin() -> &'static toolport_plugin::export::Plugin {
    static PLUGIN: std::sync::OnceLock<toolport_plugin::export::Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| {
        toolport_plugin::export::Plugin::new("garbled", "0.0.0", vec![Box::new(toolport_test_plugins::Echo("garbled"))])
    })
}

static TABLE: PluginTable = PluginTable {
    header: toolport_plugin::abi::TableHeader::CURRENT,
    model_schema_version: toolport_plugin::MODEL_SCHEMA_VERSION,
    describe,
    detect: garbage,
    read: garbage,
    write: garbage,
    free: toolport_plugin::export::free,
};

#[unsafe(no_mangle)]
pub extern "C" fn toolport_plugin_entry() -> *const PluginTable {
    &TABLE
}
