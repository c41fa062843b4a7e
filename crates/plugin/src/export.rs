//! The plugin side of the ABI: turns calls through the C table into calls on safe
//! [`Format`] values, catching every panic, and builds the table itself ([`table`]). Used by
//! [`crate::declare_plugin!`], whose expansion only names the plugin and exports the table;
//! plugin authors call none of it.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use serde::Serialize;
use toolport_core::{Bundle, Diagnostic, Format, Options, Outcome, ToolSet, codes};

use crate::abi::texts::{self, CarriesBundle};
use crate::abi::{
    DetectRequest, NativeInput, NativeModel, NativeOptions, PluginDescription, PluginTable, RawBuffer, ReadRequest,
    WriteRequest, decode_model, features, native,
};

/// The formats one plugin library exports.
#[doc(hidden)]
pub struct Plugin {
    name: &'static str,
    version: &'static str,
    formats: Vec<Box<dyn Format>>,
    /// Its table has the native entries ([`table`]): listed as a feature, with the fingerprint.
    native_model: bool,
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin").field("name", &self.name).field("formats", &self.formats.len()).finish()
    }
}

impl Plugin {
    pub fn new(name: &'static str, version: &'static str, formats: Vec<Box<dyn Format>>) -> Self {
        Plugin { name, version, formats, native_model: false }
    }

    /// The plugin as [`table`] exports it: with the model handed over natively.
    pub fn with_native_model(self) -> Self {
        Plugin { native_model: true, ..self }
    }

    fn format(&self, index: u32) -> Result<&dyn Format, Diagnostic> {
        self.formats.get(index as usize).map(|f| &**f).ok_or_else(|| {
            Diagnostic::error(codes::PLUGIN_FAILED, "", format!("plugin {} has no format number {index}", self.name))
        })
    }
}

thread_local! {
    /// Where the last panic on this thread happened, filled by our panic hook.
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default hook (which prints to stderr) with one that records the location, so
/// the host can report a plugin panic as one clear line. This library has its own copy of
/// std, so the host's hook is untouched.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_LOCATION.with(|cell| *cell.borrow_mut() = location);
        }))
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic payload".to_owned());
    match PANIC_LOCATION.with(|cell| cell.borrow_mut().take()) {
        Some(at) => format!("{text} (at {at})"),
        None => text,
    }
}

fn into_buffer(bytes: Vec<u8>) -> RawBuffer {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    RawBuffer { ptr: bytes.as_mut_ptr(), len: bytes.len(), capacity: bytes.capacity() }
}

/// Encodes `outcome`, its bundle's texts beside the JSON when `texts_beside` (the request came
/// in that form, so the host reads it).
fn respond<T: Serialize + CarriesBundle>(mut outcome: Outcome<T>, texts_beside: bool) -> RawBuffer {
    let encoded = match outcome.bundle_mut().filter(|_| texts_beside).map(texts::take_texts) {
        Some(taken) => texts::encode_taken(&outcome, taken),
        None => serde_json::to_vec(&outcome),
    };
    let bytes = encoded.unwrap_or_else(|e| {
        let failed: Outcome<()> = Outcome::fail(Diagnostic::error(
            codes::PLUGIN_FAILED,
            "",
            format!("plugin could not encode its response: {e}"),
        ));
        serde_json::to_vec(&failed).unwrap_or_default()
    });
    into_buffer(bytes)
}

fn failure(message: String) -> Diagnostic {
    Diagnostic::error(codes::PLUGIN_FAILED, "", message)
}

/// Runs `body`, catching panics (reported as `what` panicking), and encodes its outcome.
fn respond_to<T: Serialize + CarriesBundle>(
    what: &str,
    texts_beside: bool,
    body: impl FnOnce() -> Outcome<T>,
) -> RawBuffer {
    install_panic_hook();
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(outcome) => respond(outcome, texts_beside),
        Err(payload) => respond::<()>(Outcome::fail(failure(format!("{what}: {}", panic_message(&*payload)))), false),
    }
}

/// The request's bytes.
///
/// # Safety
///
/// `request` is null, or points to `len` initialised bytes that stay valid and unchanged for
/// `'a` (the duration of the call, [`crate::abi::CallFn`]).
unsafe fn request_bytes<'a>(request: *const u8, len: usize) -> &'a [u8] {
    if request.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `len` readable bytes at `request` for 'a.
        unsafe { std::slice::from_raw_parts(request, len) }
    }
}

fn could_not_decode(e: impl std::fmt::Display) -> Diagnostic {
    failure(format!("plugin could not decode the host's request: {e}"))
}

/// Decodes the request (in either form, [`texts`]), finds format number `format` and runs
/// `body`, catching panics; answers in the request's form.
fn serve<'a, Req: serde::Deserialize<'a> + CarriesBundle, T: Serialize + CarriesBundle>(
    plugin: fn() -> &'static Plugin,
    format: u32,
    request: &'a [u8],
    body: impl FnOnce(&Plugin, &dyn Format, Req) -> Outcome<T>,
) -> RawBuffer {
    let texts_beside = texts::is_beside(request);
    respond_to("plugin panicked", texts_beside, || {
        let req = match texts::decode::<Req>(request) {
            Ok((req, _)) => req,
            Err(e) => return Outcome::fail(could_not_decode(e)),
        };
        let plugin = plugin();
        match plugin.format(format) {
            Ok(f) => body(plugin, f, req),
            Err(e) => Outcome::fail(e),
        }
    })
}

/// `describe`: the plugin's formats and features. Safe: it takes nothing from the caller.
#[doc(hidden)]
pub fn describe(plugin: fn() -> &'static Plugin) -> RawBuffer {
    respond_to("plugin panicked while describing itself", false, || {
        let plugin = plugin();
        let mut features: Vec<String> = features::SDK.iter().map(|f| (*f).to_owned()).collect();
        let mut build_fingerprint = String::new();
        if plugin.native_model {
            features.push(features::NATIVE_MODEL.to_owned());
            build_fingerprint = native::fingerprint().to_owned();
        }
        let description = PluginDescription {
            name: plugin.name.to_owned(),
            version: plugin.version.to_owned(),
            formats: plugin.formats.iter().map(|f| f.info()).collect(),
            features,
            build_fingerprint,
        };
        Outcome::ok(description, Vec::new())
    })
}

/// `detect` for format number `format`.
///
/// # Safety
///
/// `request` and `len` are as [`crate::abi::CallFn`] requires: null, or `len` initialised bytes
/// valid and unchanged until this returns.
#[doc(hidden)]
pub unsafe fn detect(plugin: fn() -> &'static Plugin, format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: passed on from our caller's guarantee.
    let request = unsafe { request_bytes(request, len) };
    serve(plugin, format, request, |_, f, req: DetectRequest| Outcome::ok(f.detect(&req.bundle), Vec::new()))
}

/// `read` for format number `format`.
///
/// # Safety
///
/// As for [`detect`].
#[doc(hidden)]
pub unsafe fn read(plugin: fn() -> &'static Plugin, format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: passed on from our caller's guarantee.
    let request = unsafe { request_bytes(request, len) };
    serve(plugin, format, request, |_, f, req: ReadRequest| {
        read_as_asked(f, &req.bundle, &req.options).map(ToolSet::into_versioned)
    })
}

/// `write` for format number `format`. The model's fields this SDK does not know (from a
/// newer minor) are kept and reported ([`crate::abi::decode_model`]); another major is refused.
///
/// # Safety
///
/// As for [`detect`].
#[doc(hidden)]
pub unsafe fn write(plugin: fn() -> &'static Plugin, format: u32, request: *const u8, len: usize) -> RawBuffer {
    // SAFETY: passed on from our caller's guarantee.
    let request = unsafe { request_bytes(request, len) };
    serve(plugin, format, request, |plugin, f, req: WriteRequest| {
        let Some(raw) = req.model.raw() else { return Outcome::fail(could_not_decode("no model")) };
        let reader = format!("plugin {} {}", plugin.name, plugin.version);
        let (model, mut diagnostics) = match decode_model(raw.get().as_bytes(), &reader) {
            Ok(decoded) => decoded,
            Err(e) => return Outcome::fail(failure(e)),
        };
        let outcome = f.write(&model.tool_set, &req.options);
        diagnostics.extend(outcome.diagnostics);
        Outcome::with(outcome.value, diagnostics, outcome.tally).folded(&req.options)
    })
}

/// Finds format number `format` and runs `body` for a native call, whose request (borrowed by
/// pointer) needs no decoding, catching panics; answers with texts beside the JSON, the form a
/// plugin of this build's host reads.
fn serve_native<T: Serialize + CarriesBundle>(
    plugin: fn() -> &'static Plugin,
    format: u32,
    body: impl FnOnce(&dyn Format) -> Outcome<T>,
) -> RawBuffer {
    respond_to("plugin panicked", true, || match plugin().format(format) {
        Ok(f) => body(f),
        Err(e) => Outcome::fail(e),
    })
}

/// `f`'s read of `input`, with the description cuts the host asked for made here, in the
/// plugin that owns the model ([`Options::CUT_DESCRIPTIONS`]), folded to the detail asked.
fn read_as_asked(f: &dyn Format, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
    let mut outcome = f.read(input, options);
    if let Some(model) = &mut outcome.value {
        let cuts = toolport_core::fit::cut_descriptions_as_asked(model, options);
        outcome.diagnostics.extend(cuts);
    }
    outcome.folded(options)
}

/// `read_native` for format number `format`: as [`read`], the input and options borrowed by
/// pointer, and the model stays here, its address stored in `*model` ([`native`]).
///
/// # Safety
///
/// `input` and `options` are null or point to a `Bundle` and `Options` of a build with this
/// library's fingerprint, alive and unchanged until this returns; `model` is null or points
/// to a writable pointer.
#[doc(hidden)]
pub unsafe fn read_native(
    plugin: fn() -> &'static Plugin,
    format: u32,
    input: *const NativeInput,
    options: *const NativeOptions,
    model: *mut *mut NativeModel,
) -> RawBuffer {
    // SAFETY: the same fingerprint means the same compiler, flags, lock file, core source and
    // type identities: the pointees are laid out as this library's `Bundle` and `Options`.
    // They are only read, and alive for the call (our caller's guarantee).
    let (input, options) = unsafe { (input.cast::<Bundle>().as_ref(), options.cast::<Options>().as_ref()) };
    let mut read = None;
    let answer = serve_native(plugin, format, |f| {
        let (Some(input), Some(options)) = (input, options) else {
            return Outcome::fail(could_not_decode("no input or no options"));
        };
        let Outcome { value, diagnostics, tally } = read_as_asked(f, input, options);
        read = value.map(Box::new);
        Outcome::with(read.is_some().then_some(true), diagnostics, tally)
    });
    if let Some(read) = read
        && !model.is_null()
    {
        // SAFETY: `model` points to a writable pointer (our caller's guarantee). The model is
        // this library's allocation until `free_model` takes it back.
        unsafe { *model = Box::into_raw(read).cast::<NativeModel>() };
    }
    answer
}

/// `write_native` for format number `format`: writes the model at `model` with the options at
/// `options`, both borrowed.
///
/// # Safety
///
/// `model` and `options` are null or point to a `ToolSet` and `Options` of a build with this
/// library's fingerprint, alive and unchanged until this returns ([`native`]).
#[doc(hidden)]
pub unsafe fn write_native(
    plugin: fn() -> &'static Plugin,
    format: u32,
    model: *const NativeModel,
    options: *const NativeOptions,
) -> RawBuffer {
    // SAFETY: as in `read_native`: laid out as this library's `ToolSet` and `Options`, only
    // read, and alive for the call (our caller's guarantee).
    let (model, options) = unsafe { (model.cast::<ToolSet>().as_ref(), options.cast::<Options>().as_ref()) };
    serve_native(plugin, format, |f| match (model, options) {
        (Some(model), Some(options)) => f.write(model, options).folded(options),
        _ => Outcome::fail(could_not_decode("no model or no options")),
    })
}

/// Frees a model this library's `read_native` handed over.
///
/// # Safety
///
/// As [`crate::abi::FreeModelFn`] requires: `model` came from this library's `read_native`,
/// and is not used or freed again.
#[doc(hidden)]
pub unsafe extern "C" fn free_model(model: *mut NativeModel) {
    if model.is_null() {
        return;
    }
    // SAFETY: by our caller's guarantee it is the `Box<ToolSet>` `read_native` leaked, once.
    let model = unsafe { Box::from_raw(model.cast::<ToolSet>()) };
    // A panic must not unwind into the host.
    let _ = catch_unwind(AssertUnwindSafe(move || drop(model)));
}

/// The plugin a library exports, named by [`crate::declare_plugin!`]: the table's entries are
/// this module's functions for it, so the macro's expansion holds no `unsafe` block.
#[doc(hidden)]
pub trait Exports {
    fn plugin() -> &'static Plugin;
}

/// The table of the plugin `E`, every entry (the native ones too) one of this module's.
#[doc(hidden)]
pub const fn table<E: Exports>() -> PluginTable {
    extern "C" fn describe_entry<E: Exports>() -> RawBuffer {
        describe(E::plugin)
    }
    // Each `unsafe` entry's safety contract is its `abi` function type's.
    unsafe extern "C" fn detect_entry<E: Exports>(format: u32, request: *const u8, len: usize) -> RawBuffer {
        // SAFETY: the host's `abi::CallFn` guarantee, passed on.
        unsafe { detect(E::plugin, format, request, len) }
    }
    unsafe extern "C" fn read_entry<E: Exports>(format: u32, request: *const u8, len: usize) -> RawBuffer {
        // SAFETY: the host's `abi::CallFn` guarantee, passed on.
        unsafe { read(E::plugin, format, request, len) }
    }
    unsafe extern "C" fn write_entry<E: Exports>(format: u32, request: *const u8, len: usize) -> RawBuffer {
        // SAFETY: the host's `abi::CallFn` guarantee, passed on.
        unsafe { write(E::plugin, format, request, len) }
    }
    unsafe extern "C" fn read_native_entry<E: Exports>(
        format: u32,
        input: *const NativeInput,
        options: *const NativeOptions,
        model: *mut *mut NativeModel,
    ) -> RawBuffer {
        // SAFETY: the host's `abi::ReadNativeFn` guarantee, passed on.
        unsafe { read_native(E::plugin, format, input, options, model) }
    }
    unsafe extern "C" fn write_native_entry<E: Exports>(
        format: u32,
        model: *const NativeModel,
        options: *const NativeOptions,
    ) -> RawBuffer {
        // SAFETY: the host's `abi::WriteNativeFn` guarantee, passed on.
        unsafe { write_native(E::plugin, format, model, options) }
    }
    PluginTable::new(describe_entry::<E>, detect_entry::<E>, read_entry::<E>, write_entry::<E>, free).with_native_model(
        read_native_entry::<E>,
        write_native_entry::<E>,
        free_model,
    )
}

/// Frees a buffer this library returned.
///
/// # Safety
///
/// As [`crate::abi::FreeFn`] requires: `buffer` came from a function of this library's table,
/// unchanged, and is not used or freed again.
#[doc(hidden)]
pub unsafe extern "C" fn free(buffer: RawBuffer) {
    if buffer.ptr.is_null() {
        return;
    }
    // SAFETY: by our caller's guarantee `buffer` came from `into_buffer` in this library, so
    // its parts are those of a Vec<u8> allocated by this library's allocator, freed once.
    drop(unsafe { Vec::from_raw_parts(buffer.ptr, buffer.len, buffer.capacity) });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{MODEL_SCHEMA, WriteResponse, decode_message};
    use toolport_core::{Bundle, FormatInfo, InputShape, Options, Severity};

    /// Writes the tool names it was given, and the unknown fields kept for it.
    struct Names;

    impl Format for Names {
        fn info(&self) -> FormatInfo {
            FormatInfo {
                id: "names".into(),
                aliases: vec![],
                description: String::new(),
                version: "0".into(),
                reads: false,
                writes: true,
                input: InputShape::File,
                extensions: vec![],
                options: None,
                limits: Default::default(),
            }
        }
        fn read(&self, _: &Bundle, _: &Options) -> Outcome<ToolSet> {
            Outcome::fail(failure("no".into()))
        }
        fn write(&self, model: &ToolSet, _: &Options) -> Outcome<Bundle> {
            let names: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
            let kept = model.extras.get(toolport_core::UNKNOWN_FIELDS).map(|v| v.to_string()).unwrap_or_default();
            Outcome::ok(Bundle::single("out", format!("{}|{kept}", names.join(","))), vec![])
        }
    }

    fn plugin() -> &'static Plugin {
        static PLUGIN: std::sync::OnceLock<Plugin> = std::sync::OnceLock::new();
        PLUGIN.get_or_init(|| Plugin::new("names", "0.0.1", vec![Box::new(Names)]))
    }

    /// Calls `write` as the host does, through a buffer, and frees the answer.
    fn call_write_bytes(request: &[u8]) -> Vec<u8> {
        // SAFETY: `request` is alive and unchanged during the call.
        let buffer = unsafe { write(plugin, 0, request.as_ptr(), request.len()) };
        // SAFETY: `write` returned `len` initialised bytes at `ptr`, freed right after copying.
        let bytes = unsafe { std::slice::from_raw_parts(buffer.ptr, buffer.len) }.to_vec();
        // SAFETY: the buffer came from this library's `write` and is freed once.
        unsafe { free(buffer) };
        bytes
    }

    fn call_write(request: &str) -> WriteResponse {
        decode_message(&call_write_bytes(request.as_bytes())).unwrap()
    }

    /// A plugin answers in the form it was asked in: an older host, which never sends texts
    /// beside the JSON, never receives them.
    #[test]
    fn answers_come_in_the_form_of_the_request() {
        let request = r#"{"model": {"schema_version": 1, "tool_set": {"tools": [{"name": "a"}]}}}"#;
        let answer = call_write_bytes(&texts::frame(request.as_bytes(), &[]));
        assert!(answer.starts_with(texts::TEXTS_MAGIC));
        let (outcome, beside) = texts::decode::<WriteResponse>(&answer).unwrap();
        assert!(beside);
        assert_eq!(outcome.value.unwrap().files["out"], "a|");
        assert!(call_write_bytes(request.as_bytes()).starts_with(b"{"));
    }

    /// Each case: the model in a write request; the file written, or the failure; the unknown
    /// fields reported.
    #[test]
    fn models_from_newer_minors_cross_and_other_majors_do_not() {
        let cases: [(&str, Result<&str, &str>, &[&str]); 5] = [
            (r#"{"schema_version": 1, "tool_set": {"tools": [{"name": "a"}]}}"#, Ok("a|"), &[]),
            (r#"{"schema_version": 1, "schema_minor": 1, "tool_set": {"tools": [{"name": "a"}]}}"#, Ok("a|"), &[]),
            (
                r#"{"schema_version": 1, "schema_minor": 9, "tool_set": {"tools": [{"name": "a", "deprecated": true}], "license": "MIT"}}"#,
                Ok(r#"a|{"/tools/0/deprecated":true,"/license":"MIT"}"#),
                &["/tools/0/deprecated", "/license"],
            ),
            (
                r#"{"schema_version": 2, "schema_minor": 0, "tool_set": {"tools": []}}"#,
                Err("the model is schema version 2.0, plugin names 0.0.1 reads model schema 1.x"),
                &[],
            ),
            (r#"{"schema_version": 1, "tool_set": {"tools": 3}}"#, Err("invalid model JSON in tool_set"), &[]),
        ];
        for (model, expected, unknown) in cases {
            let outcome = call_write(&format!(r#"{{"model": {model}, "options": {{}}}}"#));
            match expected {
                Ok(text) => assert_eq!(outcome.value.unwrap().files["out"], text, "{model}"),
                Err(says) => {
                    assert!(outcome.value.is_none(), "{model}");
                    assert!(outcome.diagnostics[0].message.contains(says), "{model}: {:?}", outcome.diagnostics);
                }
            }
            let reported: Vec<&str> = outcome
                .diagnostics
                .iter()
                .filter(|d| d.code == codes::INPUT_UNKNOWN_KEY)
                .inspect(|d| assert_eq!(d.severity, Severity::Warning))
                .map(|d| d.path.as_str())
                .collect();
            assert_eq!(reported, unknown, "{model}");
        }
        let sample = call_write(
            r#"{"model": {"schema_version": 1, "schema_minor": 9, "tool_set": {"tools": [], "license": "MIT"}}}"#,
        );
        let message = &sample.diagnostics[0].message;
        assert!(
            message
                .contains(&format!("plugin names 0.0.1, which reads model schema {MODEL_SCHEMA} (this model is 1.9)")),
            "{message}"
        );
    }

    #[test]
    fn describe_lists_the_sdk_features() {
        let buffer = describe(plugin);
        // SAFETY: `describe` returned `len` initialised bytes at `ptr`, freed right after copying.
        let bytes = unsafe { std::slice::from_raw_parts(buffer.ptr, buffer.len) }.to_vec();
        // SAFETY: the buffer came from this library's `describe` and is freed once.
        unsafe { free(buffer) };
        let outcome: Outcome<PluginDescription> = decode_message(&bytes).unwrap();
        let description = outcome.value.unwrap();
        assert!(description.has_feature(features::MODEL_UNKNOWN_FIELDS), "{description:?}");
        assert_eq!(description.formats[0].id, "names");
        // Only a plugin whose table has the native entries says it hands the model over natively.
        assert!(!description.has_feature(features::NATIVE_MODEL) && description.build_fingerprint.is_empty());
    }
}
