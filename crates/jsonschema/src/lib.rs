//! Conversion between JSON Schema values and toolport's canonical [`Schema`], for the dialects
//! tool formats use:
//!
//! | [`Dialect`] | used by | notes |
//! |---|---|---|
//! | `JsonSchema` | MCP, OpenAI, Anthropic (2020-12) | `type` arrays, `examples`, numeric `exclusiveMinimum` |
//! | `OpenApi30` | OpenAPI 3.0 schema objects | `nullable`, `example`, boolean `exclusiveMinimum` |
//! | `OpenApi31` | OpenAPI 3.1 schema objects | JSON Schema 2020-12 plus `x-` keys |
//! | `Gemini` | Gemini / Vertex function declarations (write only; reads like 3.0) | the OpenAPI 3.0 subset: string enums, no oneOf/allOf/not |
//!
//! Reading ([`Reader`], or [`read`] for a self-contained schema):
//! - a `$ref` to a named schema (`#/components/schemas/X`, `#/$defs/X`, `#/definitions/X`)
//!   becomes [`Schema::reference`] `X`, and the named schema is read once into
//!   [`Reader::definitions`] (for `ToolSet::definitions`; a name met in two containers gets a
//!   `_2` suffix). Recursion needs no cut. [`read`] inlines them for callers without a place
//!   for definitions. Other local pointers are inlined, memoized, cycles and nesting deeper
//!   than [`Reader::MAX_DEPTH`] cut to a schema of any type with one diagnostic. Remote
//!   references are never fetched: they stay as `$ref` in the extras, with a diagnostic;
//! - `allOf` members are merged into one schema; `oneOf` is read as `any_of` (remembered, so a
//!   rich dialect writes `oneOf` again); `nullable: true` and a `null` in a type array both
//!   become [`Schema::nullable`];
//! - every keyword outside the canonical subset is kept verbatim in
//!   `Schema::extras["jsonschema"]`, so a schema-rich to schema-rich conversion loses nothing.
//!
//! Writing ([`write()`], [`Writer`]) emits the dialect's form and returns a diagnostic (with the
//! model path given) for everything the dialect cannot express or forced to change. A reference
//! is written `$ref: <prefix><name>` ([`reference_prefix`]: `#/$defs/` for JSON Schema,
//! `#/components/schemas/` for OpenAPI; the caller writes the definitions there); Gemini has
//! no references, so they are inlined with `toolport_core::definitions::inline`.
//!
//! Layout: [`Dialect`] and reference texts in `dialect.rs`; reading in `read.rs` (`$ref`
//! resolution in `read/references.rs`); `allOf` merging in `merge.rs`; writing in `write.rs`.
#![forbid(unsafe_code)]

#[cfg(doc)]
use toolport_core::Schema;

mod dialect;
mod merge;
mod read;
mod write;

pub use dialect::{Dialect, OPENAPI_30_KEYWORDS, reference_prefix, reference_to};
pub use read::{Reader, read, read_with_definitions};
pub use write::{Writer, write};

/// Key of [`Schema::extras`] holding keywords outside the canonical subset.
pub const EXTRAS_KEY: &str = "jsonschema";
/// Marks an `any_of` that was written `oneOf`.
const ONE_OF_MARK: &str = "x-toolport-one-of";
/// Labels of enum values, aligned with `enum` (`null` where a value has none).
const ENUM_LABELS: &str = "x-toolport-enum-labels";
/// [`Schema::value_set`] in rich dialects.
const VALUE_SET: &str = "x-toolport-value-set";
/// [`Schema::multiline`] in rich dialects.
const MULTILINE: &str = "x-toolport-multiline";

/// Every key of the canonical schema's JSON form. [`write()`] reports its own partial losses
/// (and other formats' extras on schemas), so writers pass this as `Carried::schema` to
/// `toolport_core::loss::uncarried`.
pub const ALL_SCHEMA_KEYS: &[&str] = &[
    "reference",
    "type",
    "nullable",
    "title",
    "description",
    "default",
    "enum",
    "value_set",
    "examples",
    "format",
    "multiline",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "min_length",
    "max_length",
    "pattern",
    "min_items",
    "max_items",
    "unique_items",
    "items",
    "properties",
    "additional_properties",
    "any_of",
];
