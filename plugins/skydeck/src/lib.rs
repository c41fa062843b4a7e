//! SkyDeck JSON for LLM tools (model_prompt with {{variables}}, metadata)

use toolport_plugin::{Bundle, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, ToolSet, codes};

/// The `skydeck` format.
#[derive(Debug, Default)]
pub struct SkyDeck;

impl Format for SkyDeck {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: "skydeck".into(),
            aliases: vec![],
            description: "SkyDeck JSON for LLM tools (model_prompt with {{variables}}, metadata)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: false,
            writes: false,
            input: InputShape::File,
            extensions: vec!["json".into()],
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the skydeck reader is not built yet"))
    }

    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::fail(Diagnostic::error(codes::INPUT_UNSUPPORTED, "", "the skydeck writer is not built yet"))
    }
}

toolport_plugin::declare_plugin!(SkyDeck);
