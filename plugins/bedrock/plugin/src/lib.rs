//! `libtoolport_plugin_bedrock.so`, the plugin `convert` loads: the formats of toolport-format-bedrock
//! (`bedrock`, `bedrock-agent`) behind the entry symbol. Their code and tests live in that library, which programs link
//! directly to convert in process.

toolport_plugin::declare_plugin!(toolport_format_bedrock::Bedrock, toolport_format_bedrock::BedrockAgent);
