//! Vertex AI Extension import bodies and plain OpenAPI 3.x documents

use toolport_plugin::{Bundle, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, ToolSet, codes};

/// The `vertex` format.
#[derive(Debug, Default)]
pub struct Vertex;

impl Format for Vertex {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: "vertex".into(),
            aliases: vec![],
            description: "Vertex AI Extension import bodies and plain OpenAPI 3.x documents".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: false,
            writes: false,
            input: InputShape::File,
            extensions: vec!["json".into()],
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the vertex reader is not built yet"))
    }

    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the vertex writer is not built yet"))
    }
}

toolport_plugin::declare_plugin!(Vertex);
