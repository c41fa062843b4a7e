//! The JSON Schema dialects ([`Dialect`]) and what differs between them besides the keyword
//! forms the reader and writer handle: where `$ref`s to named schemas point, and the keywords
//! an OpenAPI 3.0 schema object may have.

/// A JSON Schema dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// JSON Schema 2020-12.
    JsonSchema,
    /// OpenAPI 3.0 schema objects.
    OpenApi30,
    /// OpenAPI 3.1 schema objects (2020-12 with `x-` keys).
    OpenApi31,
    /// The Gemini / Vertex function-declaration subset of OpenAPI 3.0.
    Gemini,
}

impl Dialect {
    /// `type` arrays, `examples`, numeric exclusive bounds.
    pub(crate) fn is_2020(self) -> bool {
        matches!(self, Dialect::JsonSchema | Dialect::OpenApi31)
    }

    /// Dialects that keep every keyword (extras, markers) verbatim.
    pub(crate) fn is_rich(self) -> bool {
        !matches!(self, Dialect::Gemini)
    }

    /// The dialect as messages name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Dialect::JsonSchema => "JSON Schema 2020-12",
            Dialect::OpenApi30 => "OpenAPI 3.0",
            Dialect::OpenApi31 => "OpenAPI 3.1",
            Dialect::Gemini => "the Gemini/Vertex schema subset",
        }
    }
}

/// Where a dialect's `$ref`s to named schemas point by default: `None` for Gemini, whose
/// subset has no references (they are inlined).
pub fn reference_prefix(dialect: Dialect) -> Option<&'static str> {
    match dialect {
        Dialect::JsonSchema => Some("#/$defs/"),
        Dialect::OpenApi30 | Dialect::OpenApi31 => Some("#/components/schemas/"),
        Dialect::Gemini => None,
    }
}

/// The `$ref` text for definition `name` under `prefix` (the name as a JSON-pointer segment).
pub fn reference_to(prefix: &str, name: &str) -> String {
    format!("{prefix}{}", name.replace('~', "~0").replace('/', "~1"))
}

/// Keywords an OpenAPI 3.0 schema object may have (besides `x-` keys).
pub const OPENAPI_30_KEYWORDS: &[&str] = &[
    "title",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
    "required",
    "enum",
    "type",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "items",
    "properties",
    "additionalProperties",
    "description",
    "format",
    "default",
    "nullable",
    "discriminator",
    "readOnly",
    "writeOnly",
    "xml",
    "externalDocs",
    "example",
    "deprecated",
    "$ref",
];
