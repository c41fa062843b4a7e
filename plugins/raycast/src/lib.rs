//! Raycast AI extensions (package.json tools and ai, src/tools/*.ts)

use toolport_plugin::{Bundle, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, ToolSet, codes};

/// The `raycast` format.
#[derive(Debug, Default)]
pub struct Raycast;

impl Format for Raycast {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: "raycast".into(),
            aliases: vec![],
            description: "Raycast AI extensions (package.json tools and ai, src/tools/*.ts)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: false,
            writes: false,
            input: InputShape::File,
            extensions: vec!["json".into()],
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the raycast reader is not built yet"))
    }

    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the raycast writer is not built yet"))
    }
}

toolport_plugin::declare_plugin!(Raycast);
