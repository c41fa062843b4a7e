//! A plugin as toolport-plugin built them at ABI 1.0 and model schema 1.0, before minors: its
//! table ends at `free` (no `abi_minor`, no `model_schema_minor`), its `describe` lists no
//! features, its reader's model has no `schema_minor`, and its writer refuses fields it does not
//! know in the model's envelope, as 1.0's `deny_unknown_fields` did. A host of a newer minor
//! must load it, read and call only the entries it has, and send it models in the 1.0 form.
//!
//! Format `old-minor` ([`ToolNames`]): its reader answers with one tool, `from_old_minor`.
#![allow(unsafe_code)]

use toolport_plugin::abi::{ABI_MAGIC, CallFn, DescribeFn, FreeFn, PluginTable, RawBuffer, TableHeader};
use toolport_test_plugins::{ToolNames, buffer};

/// The ABI 1.0 table: today's [`PluginTable`] up to and including `free`.
#[repr(C)]
#[derive(Debug)]
pub struct TableV1_0 {
    header: TableHeader,
    model_schema_version: u32,
    describe: DescribeFn,
    detect: CallFn,
    read: CallFn,
    write: CallFn,
    free: FreeFn,
}

const _: () = assert!(size_of::<TableV1_0>() as u32 == PluginTable::SIZE_1_0);

fn plugin() -> &'static toolport_plugin::export::Plugin {
    static PLUGIN: std::sync::OnceLock<toolport_plugin::export::Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| {
        toolport_plugin::export::Plugin::new(
            "old-minor",
            "0.0.0",
            vec![Box::new(ToolNames { id: "old-minor", extension: "old" })],
        )
    })
}

/// The 1.0 description: no `features`.
extern "C" fn describe() -> RawBuffer {
    buffer(
        br#"{"value": {"name": "old-minor", "version": "0.0.0", "formats": [{"id": "old-minor", "aliases": [],
            "description": "a plugin of ABI 1.0", "version": "0.0.0", "reads": true, "writes": true,
            "input": "file", "extensions": ["old"]}]}, "diagnostics": []}"#
            .to_vec(),
    )
}

unsafe extern "C" fn detect(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host calls this entry as `abi::CallFn` requires, which `export::detect` needs.
    unsafe { toolport_plugin::export::detect(plugin, format, request, len) }
}

/// A 1.0 model: `schema_version` alone.
extern "C" fn read(_format: u32, _request: *const u8, _len: usize) -> RawBuffer {
    buffer(
        br#"{"value": {"schema_version": 1, "tool_set": {"title": "old-minor",
            "tools": [{"name": "from_old_minor", "description": "read by a plugin of ABI 1.0"}]}}, "diagnostics": []}"#
            .to_vec(),
    )
}

unsafe extern "C" fn write(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host's `abi::CallFn` guarantee: `len` bytes at `request` for this call.
    let bytes = unsafe { std::slice::from_raw_parts(request, len) };
    let text = String::from_utf8_lossy(bytes);
    // The host writes the envelope's fields before `tool_set`: a 1.0 reader knows only
    // `schema_version` there.
    let envelope = text.find(r#""tool_set""#).map_or(&*text, |end| &text[..end]);
    if envelope.contains(r#""schema_minor""#) {
        return buffer(
            br#"{"value": null, "diagnostics": [{"severity": "error", "code": "plugin/failed", "path": "",
                "message": "plugin could not decode the host's request: unknown field `schema_minor`, expected `schema_version` or `tool_set`"}]}"#
                .to_vec(),
        );
    }
    // SAFETY: as above, passed on.
    unsafe { toolport_plugin::export::write(plugin, format, request, len) }
}

static TABLE: TableV1_0 = TableV1_0 {
    header: TableHeader { magic: ABI_MAGIC, abi_major: 1, table_size: size_of::<TableV1_0>() as u32 },
    model_schema_version: 1,
    describe,
    detect,
    read,
    write,
    free: toolport_plugin::export::free,
};

#[unsafe(no_mangle)]
pub extern "C" fn toolport_plugin_entry() -> *const TableV1_0 {
    &TABLE
}
