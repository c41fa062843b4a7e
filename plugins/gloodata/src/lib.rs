//! Gloodata extension info (`ns`, `title`, `tools` with `schema.fields`, `ui`, `examples`).
//!
//! The reader maps what the canonical model can say into it and keeps everything else as a
//! *residue*: the document's own JSON minus what the model holds, stored under
//! `extras["gloodata"]` at the level it came from (tool set, tool, parameter, value set). The
//! writer builds the canonical JSON and merges the residue back in, so a Gloodata document
//! read and written again is the same document. Two markers live in residues:
//! [`ABSENT`] lists keys the source did not have but the writer would write by default, and
//! [`TOOLS_KEY`] remembers that an older document used `functions` instead of `tools`.

mod read;
mod write;

use serde_json::Value;
use toolport_plugin::{Bundle, Detection, Format, FormatInfo, InputShape, Options, Outcome, ToolSet};

/// The format id, also the key of this format's extras.
pub const FORMAT_ID: &str = "gloodata";

/// Residue key: keys the source lacked that the writer would otherwise write (`ui`, `schema`, …).
pub const ABSENT: &str = "$absent";

/// Residue key (tool set level): the name the source used for its tools (`functions`).
pub const TOOLS_KEY: &str = "$toolsKey";

/// The `gloodata` format.
#[derive(Debug, Default)]
pub struct Gloodata;

impl Format for Gloodata {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: FORMAT_ID.into(),
            aliases: vec!["extension-info".into()],
            description: "Gloodata extension info (ns, title, tools with schema.fields, ui, examples)".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into()],
            options: Some(vec![]),
            limits: Default::default(),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some((_, text)) = input.entry_file() else { return 0 };
        // Cheap test first: most inputs of other formats never mention `"ns"`.
        if !text.contains("\"ns\"") {
            return 0;
        }
        let Ok(Value::Object(root)) = serde_json::from_str::<Value>(text) else { return 0 };
        let has_ns = root.get("ns").is_some_and(Value::is_string);
        let has_tools = ["tools", "functions"].iter().any(|k| root.get(*k).is_some_and(Value::is_object));
        match (has_ns, has_tools) {
            (true, true) => 95,
            (true, false) if root.contains_key("title") => 30,
            _ => 0,
        }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        read::read(input, options)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        write::write(model, options)
    }
}
