//! Limits every reader enforces, so that no input can exhaust the stack, the time or the
//! memory of a run. One place: readers, the plugin boundary and the host's stack size all
//! follow these numbers.

/// How deeply an input may nest: brackets, braces and parentheses in JSON, JSON5 and
/// TypeScript, flow and block collections in YAML. Deeper input is a located `input/syntax`
/// error, found by a linear scan before any recursive parser runs. serde_json's own
/// recursion limit is the same number, so JSON and every other syntax agree.
pub const MAX_NESTING: usize = 128;

/// The stack a thread that runs readers and writers is given. Recursion in toolport follows
/// the input's nesting (at most [`MAX_NESTING`] levels, a few JSON levels each once it is the
/// canonical model) and debug builds use large frames; untouched stack pages cost nothing.
pub const CONVERSION_STACK_BYTES: usize = 256 << 20;

