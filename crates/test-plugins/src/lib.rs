//! Deliberately broken plugins, one per example (each a cdylib), for the host's and the
//! CLI's tests: every one must give a clear error naming its file while the others keep
//! working. Also plugins of an older and a newer ABI minor, which must load and convert, and a
//! well-behaved `Echo` format they share; and plugins that show how the model was handed over
//! (natively or as JSON): one of another build, one that says which way its model went.

use toolport_plugin::{
    Bundle, Diagnostic, Format, FormatInfo, InputShape, Options, Outcome, ToolSet, VersionedToolSet, codes,
};

/// Builds the header of a table with chosen magic and ABI major, for the handshake tests.
pub const fn header(magic: u64, abi_major: u32) -> toolport_plugin::abi::TableHeader {
    let current = toolport_plugin::abi::TableHeader::CURRENT;
    toolport_plugin::abi::TableHeader { magic, abi_major, table_size: current.table_size }
}

/// Wraps bytes in a buffer this SDK's `export::free` releases, for hand-made responses.
pub fn buffer(bytes: Vec<u8>) -> toolport_plugin::abi::RawBuffer {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    toolport_plugin::abi::RawBuffer { ptr: bytes.as_mut_ptr(), len: bytes.len(), capacity: bytes.capacity() }
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
            options: None,
            limits: Default::default(),
        }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::ok(ToolSet { title: Some(self.0.into()), ..ToolSet::default() }, vec![])
    }

    fn write(&self, model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::ok(Bundle::single("out.echo", model.title.clone().unwrap_or_default()), vec![])
    }
}

/// A format `id` that reads any file ending `.extension` as an empty tool set (as [`Echo`]) and
/// writes the names of the tools it is given, one a line, to `tools.txt`: what the plugins of
/// other minors export.
#[derive(Debug)]
pub struct ToolNames {
    pub id: &'static str,
    pub extension: &'static str,
}

impl Format for ToolNames {
    fn info(&self) -> FormatInfo {
        FormatInfo { id: self.id.into(), extensions: vec![self.extension.into()], ..Echo(self.id).info() }
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        Echo(self.id).read(input, options)
    }

    fn write(&self, model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        let names: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
        Outcome::ok(Bundle::single("tools.txt", names.join("\n") + "\n"), vec![])
    }
}

/// A format `id` (extension `.model`) whose documents are the canonical model's JSON, as
/// `convert inspect` prints it: a real reader and writer for plugins whose other parts are
/// made up (another build's).
#[derive(Debug)]
pub struct CanonicalJson(pub &'static str);

impl Format for CanonicalJson {
    fn info(&self) -> FormatInfo {
        FormatInfo { id: self.0.into(), extensions: vec!["model".into()], ..Echo(self.0).info() }
    }

    fn read(&self, input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        let Some((file, text)) = input.entry_file() else {
            return Outcome::fail(Diagnostic::error(codes::INPUT_INVALID, "", "no file"));
        };
        match serde_json::from_str::<VersionedToolSet>(text) {
            Ok(model) => Outcome::ok(model.tool_set, vec![]),
            Err(e) => Outcome::fail(Diagnostic::error(codes::INPUT_SYNTAX, "", format!("{file}: {e}"))),
        }
    }

    fn write(&self, model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        match serde_json::to_string_pretty(&model.versioned()) {
            Ok(json) => Outcome::ok(Bundle::single("tools.model", json + "\n"), vec![]),
            Err(e) => Outcome::fail(Diagnostic::error(codes::PLUGIN_FAILED, "", e.to_string())),
        }
    }
}

/// Format `handover`, which says how the model crossed: its reader reads any `.handover` file
/// as one tool named `read_<how>`, and its writer writes `written <how>:` and the tool names to
/// `tools.txt`, `how` being `natively` or `as_json`, whichever entry of the table was called.
#[derive(Debug)]
pub struct Handover(pub &'static str);

impl Format for Handover {
    fn info(&self) -> FormatInfo {
        FormatInfo { id: "handover".into(), extensions: vec!["handover".into()], ..Echo("handover").info() }
    }

    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        let tool = toolport_plugin::Tool { name: format!("read_{}", self.0), ..Default::default() };
        Outcome::ok(ToolSet { tools: vec![tool], ..ToolSet::default() }, vec![])
    }

    /// Says too whether the host said the process ends after this conversion
    /// ([`Options::PROCESS_ENDS`]), and the glibc tunables its process runs with (the host's
    /// allocator tuning starts `convert` again with them).
    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let names: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
        let ends = if options.get(Options::PROCESS_ENDS) == Some("true") { " (the process ends after)" } else { "" };
        let tunables = std::env::var("GLIBC_TUNABLES").map(|t| format!(" [GLIBC_TUNABLES={t}]")).unwrap_or_default();
        let file = format!("{}.txt", options.output_name("tools"));
        let text = format!("written {}: {}{ends}{tunables}\n", self.0, names.join(" "));
        Outcome::ok(Bundle::single(file, text), vec![])
    }
}

/// Exports a hand-made plugin table with the given header and `Echo(name)` as its format, and
/// every call answered by `call` (an `extern "C" fn(u32, *const u8, usize) -> RawBuffer`,
/// which stands in for the table's `unsafe` function pointer). `model:` sets the model schema
/// major (this SDK's by default). Used to build plugins that break the handshake or the data
/// rules on purpose.
#[macro_export]
macro_rules! broken_plugin {
    (name: $name:literal, magic: $magic:expr, abi: $abi:expr, call: $call:path) => {
        $crate::broken_plugin!(name: $name, magic: $magic, abi: $abi, model: toolport_plugin::MODEL_SCHEMA_MAJOR, call: $call);
    };
    (name: $name:literal, magic: $magic:expr, abi: $abi:expr, model: $model:expr, call: $call:path) => {
        extern "C" fn describe() -> toolport_plugin::abi::RawBuffer {
            toolport_plugin::export::describe(plugin)
        }
        fn plugin() -> &'static toolport_plugin::export::Plugin {
            static PLUGIN: std::sync::OnceLock<toolport_plugin::export::Plugin> = std::sync::OnceLock::new();
            PLUGIN.get_or_init(|| {
                toolport_plugin::export::Plugin::new($name, "0.0.0", vec![Box::new($crate::Echo($name))])
            })
        }
        static TABLE: toolport_plugin::abi::PluginTable = toolport_plugin::abi::PluginTable {
            header: $crate::header($magic, $abi),
            model_schema_major: $model,
            model_schema_minor: if $model == toolport_plugin::MODEL_SCHEMA_MAJOR { toolport_plugin::MODEL_SCHEMA_MINOR } else { 0 },
            ..toolport_plugin::abi::PluginTable::new(describe, $call, $call, $call, toolport_plugin::export::free)
        };
        #[allow(unsafe_code)]
        #[unsafe(no_mangle)]
        pub extern "C" fn toolport_plugin_entry() -> *const toolport_plugin::abi::PluginTable {
            &TABLE
        }
    };
}

/// A call that returns an empty buffer (never reached by the handshake tests).
pub extern "C" fn no_answer(_format: u32, _request: *const u8, _len: usize) -> toolport_plugin::abi::RawBuffer {
    toolport_plugin::abi::RawBuffer::EMPTY
}
