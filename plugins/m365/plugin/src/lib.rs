//! `libtoolport_plugin_m365.so`, the plugin `convert` loads: the format of toolport-format-m365
//! behind the entry symbol. Its code and tests live in that library, which programs link
//! directly to convert in process.

toolport_plugin::declare_plugin!(toolport_format_m365::M365);
