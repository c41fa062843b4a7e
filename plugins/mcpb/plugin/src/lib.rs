//! `libtoolport_plugin_mcpb.so`, the plugin `convert` loads: the formats of toolport-format-mcpb
//! (`mcpb`, `mcp-server`) behind the entry symbol. Their code and tests live in that library,
//! which programs link directly to convert in process.

toolport_plugin::declare_plugin!(toolport_format_mcpb::Mcpb, toolport_format_mcpb::McpServer);
