//! anthropic tool definitions

use toolport_plugin::{Bundle, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, ToolSet, codes};

/// The `anthropic` format.
#[derive(Debug, Default)]
pub struct Anthropic;

impl Format for Anthropic {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: "anthropic".into(),
            aliases: vec![],
            description: "anthropic tool definitions".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: false,
            writes: false,
            input: InputShape::File,
            extensions: vec!["json".into()],
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the anthropic reader is not built yet"))
    }

    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the anthropic writer is not built yet"))
    }
}

toolport_plugin::declare_plugin!(Anthropic);
