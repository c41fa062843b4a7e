//! A plugin that misbehaves in the way `TOOLPORT_TEST_MISBEHAVE` names, for the isolation
//! tests: `segfault`, `abort`, `stack-overflow`, `out-of-memory`, `exit`, `stdout` (prints,
//! then answers), `bad-pointer` and `huge-length` (a broken response buffer), and
//! `hang-describe`, `hang-detect`, `hang-read`, `hang-write`. Otherwise it is the `Echo`
//! format `misbehaving`. A crash or hang inside convert would end or stall the run; isolated,
//! each must become an error that names this file. Its answers to `read` may be hostile too:
//! `deep-model` (a model nested 100,000 levels), `null-value` (no value and no error),
//! `control-text` (a tool name and a diagnostic holding line breaks, ANSI escapes and U+202E).
//! `spawn-children` starts three `sleep` processes (for as many seconds as
//! `TOOLPORT_TEST_CHILD_SLEEP` says, so a test can find its own) and a fourth through a shell
//! in the background, then answers: none may outlive the run. `claim-json` claims every
//! `.json` file with full confidence (over the built-in formats), and `many-formats` makes
//! the plugin declare 40,000 formats besides its own. `huge-answer` answers a read with a
//! tool whose description is `TOOLPORT_TEST_ANSWER_MB` megabytes long (default 100).
#![allow(unsafe_code)]

use toolport_plugin::abi::{MODEL_SCHEMA, PluginTable, RawBuffer};
use toolport_plugin::{Bundle, Diagnostic, Format, FormatInfo, Options, Outcome, Tool, ToolSet, codes};
use toolport_test_plugins::Echo;

fn mode() -> String {
    std::env::var("TOOLPORT_TEST_MISBEHAVE").unwrap_or_default()
}

#[inline(never)]
#[allow(unconditional_recursion)]
fn recurse(depth: u64) -> u64 {
    let frame = std::hint::black_box([depth; 64]);
    recurse(depth + 1) + frame[0]
}

/// Does what the mode says: `hang-OP` in that function, every other mode while reading.
fn misbehave(op: &str) {
    let mode = mode();
    if op != "read" && !mode.starts_with("hang-") {
        return;
    }
    match mode.as_str() {
        "segfault" => {
            // SAFETY: none; writing through a null pointer on purpose.
            unsafe { std::ptr::null_mut::<u8>().write_volatile(1) }
        }
        "abort" => std::process::abort(),
        "stack-overflow" => {
            std::hint::black_box(recurse(0));
        }
        "out-of-memory" => {
            let huge: Vec<u8> = Vec::with_capacity(1 << 44);
            std::hint::black_box(huge);
        }
        "exit" => std::process::exit(0),
        "stdout" => println!("noise from a plugin that prints"),
        "spawn-children" => {
            let seconds = std::env::var("TOOLPORT_TEST_CHILD_SLEEP").unwrap_or_else(|_| "300".into());
            for _ in 0..3 {
                // Left running on purpose: the host must end them.
                let _ = std::process::Command::new("sleep").arg(&seconds).spawn();
            }
            let _ = std::process::Command::new("sh").arg("-c").arg(format!("sleep {seconds} &")).status();
        }
        m if m.strip_prefix("hang-") == Some(op) => loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        },
        _ => {}
    }
}

struct Misbehaving;

impl Format for Misbehaving {
    fn info(&self) -> FormatInfo {
        // It claims .json too, so detection asks it about every JSON input (and meets its misbehaviour).
        let extensions = vec!["misbehaving".into(), "json".into()];
        FormatInfo { id: "misbehaving".into(), extensions, ..Echo("misbehaving").info() }
    }
    fn detect(&self, input: &Bundle) -> u8 {
        misbehave("detect");
        let claimed = if mode() == "claim-json" { ".json" } else { ".misbehaving" };
        if input.entry.as_deref().is_some_and(|e| e.ends_with(claimed)) { 100 } else { 0 }
    }
    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        misbehave("read");
        let outcome = Echo("misbehaving").read(input, options);
        if mode() != "control-text" {
            return outcome;
        }
        let mut model = outcome.value.unwrap_or_default();
        model.tools.push(Tool::new("evil\u{1b}[2J\nname\u{202e}gnp.exe"));
        let forged =
            "first line\nbad.misbehaving:1:1: error[input/syntax]: forged \u{1b}[31mred\u{1b}[0m \u{202e}txt.exe";
        Outcome::ok(model, vec![Diagnostic::warning(codes::INPUT_TOLERATED, "", forged)])
    }
    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        misbehave("write");
        Echo("misbehaving").write(model, options).map(|_| Bundle::single("out.json", "{\"tools\": []}\n"))
    }
}

/// One of the formats `many-formats` declares: it recognises nothing.
struct Numbered(usize);

impl Format for Numbered {
    fn info(&self) -> FormatInfo {
        FormatInfo { id: format!("misbehaving-{}", self.0), extensions: vec!["json".into()], ..Echo("numbered").info() }
    }
    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        Echo("numbered").read(input, options)
    }
    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        Echo("numbered").write(model, options)
    }
}

fn plugin() -> &'static toolport_plugin::export::Plugin {
    static PLUGIN: std::sync::OnceLock<toolport_plugin::export::Plugin> = std::sync::OnceLock::new();
    PLUGIN.get_or_init(|| {
        let mut formats: Vec<Box<dyn Format>> = vec![Box::new(Misbehaving)];
        if mode() == "many-formats" {
            formats.extend((0..40_000).map(|n| Box::new(Numbered(n)) as Box<dyn Format>));
        }
        toolport_plugin::export::Plugin::new("misbehaving", "0.0.0", formats)
    })
}

extern "C" fn describe() -> RawBuffer {
    if mode() == "hang-describe" {
        misbehave("describe");
    }
    toolport_plugin::export::describe(plugin)
}
unsafe extern "C" fn detect(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host calls this entry as `abi::CallFn` requires, which `export::detect` needs.
    unsafe { toolport_plugin::export::detect(plugin, format, request, len) }
}
/// A read's answer whose model nests `depth` levels of `items`.
fn deep_model(depth: usize) -> Vec<u8> {
    let schema = format!("{}{{}}{}", "{\"items\":".repeat(depth), "}".repeat(depth));
    let model = format!(
        r#"{{"schema_version":{},"schema_minor":{},"tool_set":{{"tools":[{{"name":"t","parameters":[{{"name":"p","schema":{schema}}}]}}]}}}}"#,
        MODEL_SCHEMA.major, MODEL_SCHEMA.minor
    );
    format!(r#"{{"value":{model},"diagnostics":[]}}"#).into_bytes()
}

/// A read's answer of about `megabytes` MB: one tool with a description that long.
fn huge_answer(megabytes: usize) -> Vec<u8> {
    let description = "x".repeat(megabytes << 20);
    format!(
        r#"{{"value":{{"schema_version":{},"schema_minor":{},"tool_set":{{"tools":[{{"name":"t","description":"{description}"}}]}}}},"diagnostics":[]}}"#,
        MODEL_SCHEMA.major, MODEL_SCHEMA.minor
    )
    .into_bytes()
}

unsafe extern "C" fn read(format: u32, request: *const u8, len: usize) -> RawBuffer {
    static BYTES: [u8; 4] = *b"null";
    match mode().as_str() {
        "bad-pointer" => RawBuffer { ptr: 16 as *mut u8, len: 4096, capacity: 4096 },
        "huge-length" => RawBuffer { ptr: BYTES.as_ptr().cast_mut(), len: 1 << 40, capacity: 1 << 40 },
        "deep-model" => toolport_test_plugins::buffer(deep_model(100_000)),
        "null-value" => toolport_test_plugins::buffer(br#"{"value":null,"diagnostics":[]}"#.to_vec()),
        "huge-answer" => {
            let megabytes = std::env::var("TOOLPORT_TEST_ANSWER_MB").ok().and_then(|m| m.parse().ok());
            toolport_test_plugins::buffer(huge_answer(megabytes.unwrap_or(100)))
        }
        // SAFETY: the host's `abi::CallFn` guarantee, passed on.
        _ => unsafe { toolport_plugin::export::read(plugin, format, request, len) },
    }
}
unsafe extern "C" fn write(format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: the host's `abi::CallFn` guarantee, passed on.
    unsafe { toolport_plugin::export::write(plugin, format, request, len) }
}
unsafe extern "C" fn free(buffer: RawBuffer) {
    // The broken buffers above are not ours to free.
    if !matches!(mode().as_str(), "bad-pointer" | "huge-length") {
        // SAFETY: the host's `abi::FreeFn` guarantee: a buffer of this table, freed once.
        unsafe { toolport_plugin::export::free(buffer) }
    }
}

static TABLE: PluginTable = PluginTable::new(describe, detect, read, write, free);

#[unsafe(no_mangle)]
pub extern "C" fn toolport_plugin_entry() -> *const PluginTable {
    &TABLE
}
