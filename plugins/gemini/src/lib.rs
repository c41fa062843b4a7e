//! gemini tool definitions

use toolport_plugin::{Bundle, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, ToolSet, codes};

/// The `gemini` format.
#[derive(Debug, Default)]
pub struct Gemini;

impl Format for Gemini {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: "gemini".into(),
            aliases: vec![],
            description: "gemini tool definitions".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: false,
            writes: false,
            input: InputShape::File,
            extensions: vec!["json".into()],
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the gemini reader is not built yet"))
    }

    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the gemini writer is not built yet"))
    }
}

toolport_plugin::declare_plugin!(Gemini);
