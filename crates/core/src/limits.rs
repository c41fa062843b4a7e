//! Limits every reader enforces, so that no input can exhaust the stack, the time or the
//! memory of a run. One place: readers, the plugin boundary and the host's stack size all
//! follow these numbers.

/// How deeply an input may nest: brackets, braces and parentheses in JSON, JSON5 and
/// TypeScript, flow and block collections in YAML. Deeper input is a located `input/syntax`
/// error, found by a linear scan before any recursive parser runs. serde_json's own
/// recursion limit is the same number, so JSON and every other syntax agree.
pub const MAX_NESTING: usize = 128;

/// How deeply a model may nest as JSON where it crosses the plugin boundary: four JSON levels
/// for each level of input ([`MAX_NESTING`]) a reader accepts (a schema's property is three in
/// the model, `properties`, its entry and its `schema`, where it was two in the input), so a
/// model any reader made is decoded, and a plugin's answer nested deeper is refused before
/// anything recursive reads it.
pub const MAX_MODEL_NESTING: usize = 4 * MAX_NESTING;

/// The stack a thread that runs readers and writers is given. Recursion in toolport follows
/// the input's nesting (at most [`MAX_NESTING`] levels, a few JSON levels each once it is the
/// canonical model) and debug builds use large frames; untouched stack pages cost nothing.
pub const CONVERSION_STACK_BYTES: usize = 256 << 20;

/// How much a writer may produce by expanding references (inlining a definition, or copying a
/// tool's closure of definitions into its own `$defs`) for one document, in bytes of schema as
/// `definitions::schema_weight` estimates them: this many times the weight of the model it
/// writes (tool schemas and definitions, about their bytes in the input), and never less than
/// [`MIN_EXPANSION_BYTES`]. Past it, references are cut to loose schemas, each cut a located
/// `loss/schema` diagnostic (`toolport_core::definitions::Budget`).
///
/// Expansion multiplies: one definition used by every operation is copied once per tool, and
/// shared definitions nest. Scaling with the model's bytes keeps every output within a fixed
/// multiple of its input whatever its shape (long descriptions and enums weigh what they
/// take), so a 1 MB input expands by at most about 8 MB (and as much again of descriptions
/// kept on cut references) and converts in well under 300 MB of memory. Real APIs expand far
/// less: Stripe (4.2 MB) is written to MCP as 6.3 MB in all.
pub const EXPANSION_FACTOR: usize = 8;

/// The expansion budget of a small document: room for a few hundred fully inlined schemas
/// (each at most `definitions::INLINE_NODE_BUDGET` nodes), 4 MiB of schema.
pub const MIN_EXPANSION_BYTES: usize = 4 << 20;
