//! Gloodata extension info (ns, title, tools with schema.fields, ui, examples)

use toolport_plugin::{Bundle, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, ToolSet, codes};

/// The `gloodata` format.
#[derive(Debug, Default)]
pub struct Gloodata;

impl Format for Gloodata {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: "gloodata".into(),
            aliases: vec![],
            description: "Gloodata extension info (ns, title, tools with schema.fields, ui, examples)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: false,
            writes: false,
            input: InputShape::File,
            extensions: vec!["json".into()],
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the gloodata reader is not built yet"))
    }

    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the gloodata writer is not built yet"))
    }
}

toolport_plugin::declare_plugin!(Gloodata);
