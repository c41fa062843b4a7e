//! Deliberately broken plugins, one per example (each a cdylib), for the host's and the
//! CLI's tests: every one must give a clear error naming its file while the others keep
//! working. Also a well-behaved `Echo` format they share.

use toolport_plugin::{Bundle, Format, FormatInfo, InputShape, Options, Outcome, ToolSet};

/// Builds the header of a table with chosen magic and version, for the handshake tests.
pub const fn header(magic: u64, abi_version: u32) -> toolport_plugin::abi::TableHeader {
    let current = toolport_plugin::abi::TableHeader::CURRENT;
    toolport_plugin::abi::TableHeader { magic, abi_version, table_size: current.table_size }
}

/// A format that reads any JSON file as an empty tool set titled by its id; used as the
/// healthy part of broken plugins.
#[derive(Debug)]
pub struct Echo(pub &'static str);

impl Format for Echo {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: self.0.into(),
            aliases: vec![],
            description: "test format".into(),
            version: "0.0.0".into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["echo".into()],
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::ok(ToolSet { title: Some(self.0.into()), ..ToolSet::default() }, vec![])
    }

    fn write(&self, model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::ok(Bundle::single("out.echo", model.title.clone().unwrap_or_default()), vec![])
    }
}
