//! The only place toolport touches YAML. Everything else sees `serde_json::Value` and toolport
//! diagnostics, so the YAML library can be swapped by changing this crate alone (it replaced
//! serde_yaml, deprecated upstream, which rejected big integers, was quadratic on nested flow
//! collections and wrote strings YAML 1.1 readers retype).
//!
//! Reading uses saphyr-parser (YAML 1.2) for events with positions only; this crate builds the
//! value itself, so it controls what input may cost:
//! - nesting deeper than [`toolport_core::limits::MAX_NESTING`], block or flow, is an error at
//!   the node that crosses it, found while building on an explicit stack (no recursion);
//! - aliases are copies paid from a node budget of 64 times the nodes the document itself has
//!   written before the alias (at least 262,144; see `read.rs`), so a real spec that reuses an
//!   anchored schema in every operation reads while a "billion laughs" document fails fast; an
//!   alias refers to the latest definition of its anchor;
//! - what JSON cannot hold exactly is said, never silently changed: a tag toolport does not
//!   know, an integer beyond 64 bits, an infinity (each a located `input/tolerated` warning);
//! - time and memory are linear in the input;
//! - every error has a line and a column, including a second document in the stream.
//!
//! [`Locator`] (`locate.rs`) places a value by JSON pointer in a YAML text, as core's
//! `source::Locator` does in JSON, from the same parser's events.
//!
//! Writing (`write.rs`) is a small emitter over `serde_json::Value` that keeps serde_yaml's
//! layout and quotes every string a YAML 1.1 or 1.2 reader would otherwise retype.
#![forbid(unsafe_code)]

mod locate;
mod read;
mod scalar;
mod write;

pub use locate::Locator;

use serde::Serialize;
use toolport_core::source::Parsed;
use toolport_core::{Diagnostic, codes};

/// Parses a YAML document into a JSON value, keeping key order. A stream holding more than one
/// document is an error. Keys that are not strings become strings (`200` → `"200"`, a
/// collection → its JSON text). Tags are applied when they are the core schema's (`!!str`);
/// any other is ignored, its scalar read as text; integers beyond `i64`/`u64` become the
/// nearest float; `.inf`, `.nan` and floats beyond range become `null`: each of these is a
/// located `input/tolerated` warning in [`Parsed::tolerated`]. Every failure is an
/// `input/syntax` diagnostic at `file`, line and column (1-based).
pub fn parse(file: &str, text: &str) -> Result<Parsed, Diagnostic> {
    let place = |line: usize, column: usize| {
        (u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(column).unwrap_or(u32::MAX))
    };
    let (value, tolerated) = read::parse(text).map_err(|e| {
        let (line, column) = place(e.line, e.column);
        Diagnostic::error(codes::INPUT_SYNTAX, "", format!("invalid YAML: {}", e.message)).at(file, line, column)
    })?;
    let tolerated = tolerated
        .into_iter()
        .map(|t| {
            let (line, column) = place(t.line, t.column);
            Diagnostic::warning(codes::INPUT_TOLERATED, t.pointer, t.message).at(file, line, column)
        })
        .collect();
    Ok(Parsed { value, tolerated })
}

/// Writes a value as YAML: block style, keys in the value's order, and every string that a
/// YAML 1.1 or 1.2 reader would read as something else quoted, so the text reads back as the
/// same value under both.
pub fn to_string<T: Serialize>(value: &T) -> Result<String, String> {
    let value = serde_json::to_value(value).map_err(|e| e.to_string())?;
    Ok(write::to_string(&value))
}

/// [`to_string`] of a value already JSON, written as it is (not copied into a new value first).
pub fn value_to_string(value: &serde_json::Value) -> String {
    write::to_string(value)
}
