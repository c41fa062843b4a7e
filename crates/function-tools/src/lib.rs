//! What the JSON function-tool formats share (MCP `tools/list`, OpenAI function tools,
//! Anthropic tools, Gemini function declarations): one place for the tool-list shapes, the
//! schema glue and the naming, so each plugin holds only what is its own.
#![forbid(unsafe_code)]

pub mod carry;
pub mod clean;
pub mod common;
pub mod descriptions;
pub mod names;
pub mod other_tools;
pub mod output;
pub mod properties;
pub mod read;
pub mod schema;
pub mod write;
