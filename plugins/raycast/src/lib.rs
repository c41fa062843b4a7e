//! The `raycast` format: Raycast AI extensions, a directory with `package.json` (`tools`, `ai`),
//! an optional AI file (`ai.json`, `ai.yaml`, `ai.json5`) and one TypeScript file per tool
//! (`src/tools/<name>.ts`) whose default export takes a typed `Input`.
//!
//! Reading keeps every package.json key the model has no place for in `extras["raycast"]`, and
//! remembers where `ai` came from (and its shape), so raycast → raycast gives back the same
//! package.json and AI file. TypeScript is parsed with oxc; the writer regenerates it.
//!
//! `read` and `write` mirror each other (manifest, ai, evals, TypeScript); neither imports the
//! other, and what both must agree on lives in `extension`.

pub mod extension;
pub mod read;
pub mod write;

/// The TypeScript reader, where tests and library users have always found it.
pub use read::ts;

/// Evals both ways: the reader's half and the writer's half side by side.
pub mod evals {
    pub use crate::read::evals::{read_evals, read_expectation, read_matcher};
    pub use crate::write::evals::{write_evals, write_expectation, write_matcher};
}

use serde_json::Value;
use toolport_plugin::source::Parsed;
use toolport_plugin::{Bundle, Detection, Format, FormatInfo, InputShape, Options, Outcome, ToolSet};

pub const FORMAT_ID: &str = "raycast";
/// AI files Raycast reads beside package.json, in the order we look for them.
pub const AI_FILES: [&str; 3] = ["ai.json", "ai.yaml", "ai.json5"];

/// The `raycast` format.
#[derive(Debug, Default)]
pub struct Raycast;

impl Format for Raycast {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: FORMAT_ID.into(),
            aliases: vec!["raycast-extension".into()],
            description: "Raycast AI extension directory (package.json tools and ai, ai.yaml/ai.json, src/tools/*.ts)"
                .into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::Directory,
            extensions: vec![],
            options: Some(vec![]),
            limits: Default::default(),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let root = read::root(input);
        if let Some(text) = input.get(&format!("{root}package.json")) {
            let Ok(Value::Object(package)) = serde_json::from_str::<Value>(text) else { return 0 };
            let raycast_dependency = ["dependencies", "devDependencies"]
                .iter()
                .any(|k| package.get(*k).and_then(|d| d.get("@raycast/api")).is_some());
            let raycast_schema =
                package.get("$schema").and_then(Value::as_str).is_some_and(|s| s.contains("raycast.com"));
            return match (
                package.contains_key("tools") || package.contains_key("ai"),
                raycast_dependency || raycast_schema,
            ) {
                (true, true) => 100,
                (false, true) => 90,
                (true, false) => 60,
                (false, false) => 0,
            };
        }
        // An AI file alone: `instructions` / `evals` at its top (or under `ai`).
        for file in AI_FILES {
            let Some(text) = input.get(&format!("{root}{file}")) else { continue };
            let Ok(Parsed { value, .. }) = extension::parse_ai_file(file, file, text) else { continue };
            let ai = value.get("ai").filter(|a| a.is_object()).unwrap_or(&value);
            if ai.get("evals").is_some_and(Value::is_array) || ai.get("instructions").is_some_and(Value::is_string) {
                return 70;
            }
        }
        0
    }

    fn read(&self, input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        read::read(input)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        write::write(model, options)
    }
}
