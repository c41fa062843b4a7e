//! The only place toolport touches YAML. Everything else sees `serde_json::Value` and toolport
//! diagnostics, so the YAML library can be swapped by changing this crate alone (it replaced
//! serde_yaml, deprecated upstream, which rejected big integers, was quadratic on nested flow
//! collections and wrote strings YAML 1.1 readers retype).
//!
//! Reading uses saphyr-parser (YAML 1.2) for events with positions only; this crate builds the
//! value itself, so it controls what input may cost:
//! - nesting deeper than [`toolport_core::limits::MAX_NESTING`], block or flow, is an error at
//!   the node that crosses it, found while building on an explicit stack (no recursion);
//! - aliases are copies paid from a node budget proportional to the input (see `read.rs`), so
//!   a "billion laughs" document fails fast; an alias refers to the latest definition of its
//!   anchor;
//! - time and memory are linear in the input;
//! - every error has a line and a column, including a second document in the stream.
//!
//! Writing (`write.rs`) is a small emitter over `serde_json::Value` that keeps serde_yaml's
//! layout and quotes every string a YAML 1.1 or 1.2 reader would otherwise retype.
#![forbid(unsafe_code)]

mod read;
mod scalar;
mod write;

use serde::Serialize;
use serde_json::Value;
use toolport_core::{Diagnostic, codes};

/// Parses a YAML document into a JSON value, keeping key order. A stream holding more than one
/// document is an error. Keys that are not strings become strings (`200` → `"200"`, a
/// collection → its JSON text); tags are ignored but for the core schema's (`!!str`); integers
/// beyond `i64`/`u64` become the nearest float; `.inf` and `.nan` become `null`. Every failure
/// is an `input/syntax` diagnostic at `file`, line and column (1-based).
pub fn parse(file: &str, text: &str) -> Result<Value, Diagnostic> {
    read::parse(text).map_err(|e| {
        Diagnostic::error(codes::INPUT_SYNTAX, "", format!("invalid YAML: {}", e.message)).at(
            file,
            u32::try_from(e.line).unwrap_or(u32::MAX),
            u32::try_from(e.column).unwrap_or(u32::MAX),
        )
    })
}

/// Writes a value as YAML: block style, keys in the value's order, and every string that a
/// YAML 1.1 or 1.2 reader would read as something else quoted, so the text reads back as the
/// same value under both.
pub fn to_string<T: Serialize>(value: &T) -> Result<String, String> {
    let value = serde_json::to_value(value).map_err(|e| e.to_string())?;
    Ok(write::to_string(&value))
}
