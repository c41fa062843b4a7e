//! `libtoolport_plugin_adk.so`, the plugin `convert` loads: the format of toolport-format-adk
//! behind the entry symbol. Its code and tests live in that library, which programs link
//! directly to convert in process.

toolport_plugin::declare_plugin!(toolport_format_adk::Adk);
