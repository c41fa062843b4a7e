//! toolport's host: everything between the command line and the formats.
//!
//! - [`discovery`] finds plugin libraries in a fixed, visible order;
//! - [`descriptions`] remembers what each library said of itself, so a run loads only the
//!   plugins it uses;
//! - [`plugin`] loads one with `libloading`, checks its ABI header, and adapts its C table to
//!   the safe [`toolport_core::Format`] trait (the only `unsafe` in toolport besides the SDK's
//!   export glue);
//! - [`registry`] maps format names and aliases to formats, plugin-backed or linked in;
//! - [`input`] turns a path into a [`toolport_core::Bundle`] with size limits and clear errors;
//! - [`transport`] reaches a plugin in this process or, isolated, in a child process started
//!   from the `toolport-plugin-host` executable (its source: `src/bin/toolport-plugin-host.rs`);
//! - [`output`] plans where a written bundle goes (no path escapes the output directory, no
//!   input is overwritten, no two outputs collide) and writes atomically;
//! - [`pipeline`] runs one input: load, detect, read, write;
//! - [`allocator`] tunes glibc's allocator for large documents, once per process.
//!
//! Plugins never touch the file system: all I/O is here.

pub mod allocator;
pub mod conversion_stack;
pub mod descriptions;
pub mod discovery;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod plugin;
pub mod registry;
pub mod stage;
pub mod transport;

pub use registry::{FormatEntry, Registry};
