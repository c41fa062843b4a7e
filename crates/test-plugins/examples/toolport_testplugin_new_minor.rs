//! A plugin from a newer toolport: ABI 1.4, whose table appends an entry this host does not know
//! (`validate`, which aborts if called), and model schema 1.2, whose reader writes fields this
//! host's model lacks (`deprecated` on tools, `const` on schemas, a `producer` in the envelope)
//! and whose description has a feature and a field this host does not know. A host of an older
//! minor must load it, never touch the extra entry, and keep and report the unknown fields.
//!
//! Format `new-minor` ([`ToolNames`]): its reader answers with that model.
#![allow(unsafe_code)]

use toolport_plugin::abi::{CallFn, PluginTable, RawBuffer, TableHeader};
use toolport_test_plugins::{ToolNames, buffer};

/// The ABI 1.4 table: today's, and one more entry.
#[repr(C)]
#[derive(Debug)]
pub struct TableV1_4 {
    base: PluginTable,
    validate: CallFn,
}

fn plugin() -> &'static toolport_plugin::export::Plugin {
    static PLUGIN: std::sync::OnceLock<toolport_plugin::export::Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| {
        toolport_plugin::export::Plugin::new(
            "new-minor",
            "0.0.0",
            vec![Box::new(ToolNames { id: "new-minor", extension: "new" })],
        )
    })
}

extern "C" fn describe() -> RawBuffer {
    buffer(
        br#"{"value": {"name": "new-minor", "version": "0.0.0", "homepage": "https://example.invalid",
            "features": ["model-unknown-fields", "validate"],
            "formats": [{"id": "new-minor", "aliases": [], "description": "a plugin of ABI 1.4", "version": "0.0.0",
            "reads": true, "writes": true, "input": "file", "extensions": ["new"], "icon": "new.png"}]}, "diagnostics": []}"#
            .to_vec(),
    )
}

unsafe extern "C" fn detect(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host calls this entry as `abi::CallFn` requires, which `export::detect` needs.
    unsafe { toolport_plugin::export::detect(plugin, format, request, len) }
}

/// A 1.2 model with fields 1.1 lacks.
extern "C" fn read(_format: u32, _request: *const u8, _len: usize) -> RawBuffer {
    buffer(
        br#"{"value": {"schema_version": 1, "schema_minor": 2, "producer": "toolport 9", "tool_set": {"title": "new-minor",
            "tools": [{"name": "from_new_minor", "deprecated": true,
              "parameters": [{"name": "p", "required": true, "schema": {"type": "string", "const": "x"}}]},
              {"name": "also_new", "deprecated": false}]}}, "diagnostics": []}"#
            .to_vec(),
    )
}

unsafe extern "C" fn write(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host's `abi::CallFn` guarantee, passed on.
    unsafe { toolport_plugin::export::write(plugin, format, request, len) }
}

/// An entry of ABI 1.4: a host of 1.3 must never call it.
extern "C" fn validate(_format: u32, _request: *const u8, _len: usize) -> RawBuffer {
    std::process::abort()
}

static TABLE: TableV1_4 = TableV1_4 {
    base: PluginTable {
        header: TableHeader { table_size: size_of::<TableV1_4>() as u32, ..TableHeader::CURRENT },
        abi_minor: toolport_plugin::abi::ABI_MINOR + 1,
        model_schema_minor: 2,
        ..PluginTable::new(describe, detect, read, write, toolport_plugin::export::free)
    },
    validate,
};

#[unsafe(no_mangle)]
pub extern "C" fn toolport_plugin_entry() -> *const TableV1_4 {
    &TABLE
}
