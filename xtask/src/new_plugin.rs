//! `cargo xtask new-plugin NAME --path DIR`: scaffolds a standalone plugin outside the
//! workspace, split as toolport's own formats are: the format as a library crate in DIR
//! (`toolport-format-NAME`, linked by its tests and by programs converting in process) and the
//! plugin in DIR/plugin (`toolport-plugin-NAME`, a cdylib that is only `declare_plugin!`). It
//! depends on the plugin SDK by path (this checkout's crates/plugin), compiles, passes its own
//! tests, and `cargo build` makes a library `convert --plugin-dir DIR/target/debug` loads.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

pub fn run(args: &[String]) -> Result<()> {
    let (name, dir) = parse(args)?;
    scaffold(&name, &dir)?;
    println!(
        "created {dir} (format `{name}`)\nnext: cd {dir} && cargo test && cargo build && convert --plugin-dir target/debug formats",
        dir = dir.display()
    );
    Ok(())
}

fn parse(args: &[String]) -> Result<(String, PathBuf)> {
    let usage = "usage: cargo xtask new-plugin NAME --path DIR";
    let mut name = None;
    let mut path = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--path" => path = Some(PathBuf::from(it.next().context(usage)?)),
            other if name.is_none() && !other.starts_with('-') => name = Some(other.to_owned()),
            other => bail!("unexpected argument `{other}`; {usage}"),
        }
    }
    let name = name.context(usage)?;
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !valid {
        bail!("plugin name `{name}` must be lower-case letters, digits and dashes, starting with a letter");
    }
    Ok((name, path.context(usage)?))
}

/// Writes the crate. Refuses a non-empty directory.
pub fn scaffold(name: &str, dir: &Path) -> Result<()> {
    if dir.exists() && dir.read_dir()?.next().is_some() {
        bail!("{} exists and is not empty", dir.display());
    }
    let sdk = crate::root().join("crates/plugin");
    let sdk = sdk.canonicalize().with_context(|| format!("the plugin SDK at {}", sdk.display()))?;
    let sdk = sdk.display().to_string().replace('\\', "/");
    let type_name: String = name
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect();
    let files = [
        ("Cargo.toml", CARGO_TOML.replace("{sdk}", &sdk)),
        ("src/lib.rs", LIB_RS.to_owned()),
        ("plugin/Cargo.toml", PLUGIN_CARGO_TOML.replace("{sdk}", &sdk)),
        ("plugin/src/lib.rs", PLUGIN_LIB_RS.to_owned()),
        ("tests/roundtrip.rs", TEST_RS.to_owned()),
        ("examples/sample.json", SAMPLE.to_owned()),
        ("README.md", README.to_owned()),
        (".gitignore", "/target\n".to_owned()),
    ];
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("files have parents"))?;
        let text =
            text.replace("{name}", name).replace("{crate}", &name.replace('-', "_")).replace("{Type}", &type_name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    // Start from the versions toolport itself is tested with.
    let lock = crate::root().join("Cargo.lock");
    if lock.exists() {
        std::fs::copy(lock, dir.join("Cargo.lock"))?;
    }
    Ok(())
}

const CARGO_TOML: &str = r#"[package]
name = "toolport-format-{name}"
version = "0.1.0"
edition = "2024"
rust-version = "1.95"
description = "toolport format: {name}"

# The format as a plain library: its tests link it, and so can any program that converts in
# process, together with other formats. The plugin `convert` loads is plugin/.

[dependencies]
toolport-plugin = { path = "{sdk}", package = "toolporter-plugin" }
serde_json = { version = "1", features = ["preserve_order"] }

# Its own workspace (not a member of any enclosing one): this library and its plugin, both
# built and tested by a plain `cargo build` / `cargo test`.
[workspace]
members = ["plugin"]
default-members = [".", "plugin"]
"#;

const PLUGIN_CARGO_TOML: &str = r#"[package]
name = "toolport-plugin-{name}"
version = "0.1.0"
edition = "2024"
rust-version = "1.95"
description = "toolport plugin for the {name} format"

[lib]
# Only a cdylib, loaded by `convert`: the entry symbol lives here and nowhere else, so the
# format library links into any program beside other formats.
crate-type = ["cdylib"]
test = false
doctest = false

[dependencies]
toolport-plugin = { path = "{sdk}", package = "toolporter-plugin" }
toolport-format-{name} = { path = ".." }
"#;

const PLUGIN_LIB_RS: &str = r#"//! `libtoolport_plugin_{crate}.so`: the `{name}` format, exported for `convert` to load.

toolport_plugin::declare_plugin!(toolport_format_{crate}::{Type});
"#;

const LIB_RS: &str = r#"//! The `{name}` format for toolport: a JSON document `{"tools": [{"name", "description",
//! "parameters": {NAME: {"type", "description", "required"}}}]}`. Replace it with yours.

use serde_json::{Map, Value, json};
use toolport_plugin::source::{child, parse_json};
use toolport_plugin::{
    Bundle, Detection, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, Parameter, Schema, SchemaType,
    Tool, ToolSet, codes, loss,
};

/// The `{name}` format.
#[derive(Debug, Default)]
pub struct {Type};

impl Format for {Type} {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: "{name}".into(),
            aliases: vec![],
            description: "{name} tool definitions".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::File,
            extensions: vec!["json".into()],
            // The `--option KEY=VALUE` settings it takes: `OptionSpec::one_of(...)`, `url`, `name`, `text`.
            options: Some(vec![]),
            limits: Default::default(),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some((_, text)) = input.entry_file() else { return 0 };
        match serde_json::from_str::<Value>(text) {
            Ok(doc) if doc.get("{name}_version").is_some() => 90,
            _ => 0,
        }
    }

    fn read(&self, input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        let Some((file, text)) = input.entry_file() else {
            return Outcome::fail(Diagnostic::error(codes::INPUT_MISSING_FILE, "", "no input file"));
        };
        // What parsing tolerated (a repeated key, a rounded integer) is the first diagnostics.
        let (doc, mut diagnostics) = match parse_json(file, text) {
            Ok(parsed) => (parsed.value, parsed.tolerated),
            Err(error) => return Outcome::fail(error),
        };
        let mut model = ToolSet::default();
        let Some(tools) = doc.get("tools").and_then(Value::as_array) else {
            return Outcome::fail(Diagnostic::error(codes::INPUT_INVALID, "/tools", "`tools` must be an array"));
        };
        for (i, tool) in tools.iter().enumerate() {
            let path = child("/tools", i.to_string());
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                diagnostics.push(Diagnostic::error(codes::INPUT_INVALID, child(&path, "name"), "a tool needs a name"));
                continue;
            };
            let mut out = Tool::new(name);
            out.description = tool.get("description").and_then(Value::as_str).map(str::to_owned);
            for (pname, spec) in tool.get("parameters").and_then(Value::as_object).into_iter().flatten() {
                let kind = spec.get("type").and_then(Value::as_str).and_then(SchemaType::parse);
                let schema = Schema {
                    kind,
                    description: spec.get("description").and_then(Value::as_str).map(str::to_owned),
                    ..Schema::default()
                };
                let mut parameter = Parameter::new(pname, schema);
                parameter.required = spec.get("required").and_then(Value::as_bool).unwrap_or(false);
                out.parameters.push(parameter);
            }
            model.tools.push(out);
        }
        Outcome::ok(model, diagnostics)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        // Report every model field this format has no place for.
        let carried = loss::Carried {
            tool: &["description"],
            parameter: &["required"],
            schema: &["type", "description"],
            ..loss::Carried::default()
        };
        let diagnostics = loss::uncarried(model, "{name}", &carried);
        let tools: Vec<Value> = model
            .tools
            .iter()
            .map(|tool| {
                let mut parameters = Map::new();
                for p in &tool.parameters {
                    let mut spec = Map::new();
                    if let Some(kind) = p.schema.kind {
                        spec.insert("type".into(), kind.as_str().into());
                    }
                    if let Some(d) = &p.schema.description {
                        spec.insert("description".into(), d.clone().into());
                    }
                    spec.insert("required".into(), p.required.into());
                    parameters.insert(p.name.clone(), Value::Object(spec));
                }
                let mut out = json!({"name": tool.name, "parameters": parameters});
                if let Some(d) = &tool.description {
                    out["description"] = d.clone().into();
                }
                out
            })
            .collect();
        let doc = json!({"{name}_version": 1, "tools": tools});
        let mut text = serde_json::to_string_pretty(&doc).expect("a JSON value serializes");
        text.push('\n');
        let file = format!("{}.json", options.output_name("tools"));
        Outcome::ok(Bundle::single(file, text), diagnostics)
    }
}
"#;

const TEST_RS: &str = r#"//! The format reads its sample, writes it back unchanged, and reports what it cannot hold.

use toolport_plugin::{Bundle, Format, Options, Tool};
use toolport_format_{crate}::{Type};

fn sample() -> Bundle {
    Bundle::single("sample.json", include_str!("../examples/sample.json"))
}

#[test]
fn reads_and_writes_back_the_same_document() {
    let format = {Type};
    let read = format.read(&sample(), &Options::default());
    let model = read.value.expect("the sample reads");
    assert_eq!(model.tools[0].name, "get_weather");
    assert_eq!(format.detect(&sample()), 90);
    let written = format.write(&model, &Options::default());
    let (_, text) = written.value.as_ref().unwrap().entry_file().unwrap();
    let again: serde_json::Value = serde_json::from_str(text).unwrap();
    let original: serde_json::Value = serde_json::from_str(include_str!("../examples/sample.json")).unwrap();
    assert_eq!(again, original);
}

#[test]
fn reports_what_it_cannot_hold() {
    let mut tool = Tool::new("summarize");
    tool.prompt = Some("Summarize {{text}}".into());
    let model = toolport_plugin::ToolSet { tools: vec![tool], ..Default::default() };
    let written = {Type}.write(&model, &Options::default());
    let codes: Vec<&str> = written.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["loss/prompt"]);
}

#[test]
fn bad_input_is_a_diagnostic_with_a_position() {
    let read = {Type}.read(&Bundle::single("bad.json", "{\n  \"tools\": [,]\n}"), &Options::default());
    let error = &read.diagnostics[0];
    let span = error.span.as_ref().expect("a position");
    assert_eq!((span.file.as_str(), span.line), ("bad.json", 2));
}
"#;

const SAMPLE: &str = r#"{
  "{name}_version": 1,
  "tools": [
    {
      "name": "get_weather",
      "parameters": {
        "city": {
          "type": "string",
          "description": "City name",
          "required": true
        }
      },
      "description": "Current weather for a city"
    }
  ]
}
"#;

const README: &str = r#"# toolport-format-{name}

A [toolport](https://example.invalid/toolport) format plugin for `{name}`: the format is the
library in this folder (`toolport-format-{name}`); `plugin/` (`toolport-plugin-{name}`) is the
cdylib `convert` loads, nothing but `declare_plugin!` over the library.

    cargo test                                   # the format's own tests
    cargo build                                  # builds target/debug/libtoolport_plugin_{crate}.so
    convert --plugin-dir target/debug formats    # lists `{name}`
    convert --plugin-dir target/debug --from {name} --to gloodata examples/sample.json

To install it for every run, copy the library into `~/.local/share/toolport/plugins/` or a
folder named in `TOOLPORT_PLUGIN_PATH`. See toolport's docs/plugins.md for the model,
diagnostics and the ABI.
"#;
