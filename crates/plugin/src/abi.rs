//! The C ABI between the host and a plugin library, defined once for both sides.
//!
//! 1. One exported symbol, [`ENTRY_SYMBOL`], returns a pointer to a `#[repr(C)]`
//!    [`PluginTable`] of `unsafe extern "C"` functions and plain values. No Rust types cross.
//! 2. The table begins with a [`TableHeader`]: magic, ABI major version, table size. The host
//!    reads the header alone first and refuses a plugin of another major, saying which ABI each
//!    side speaks.
//! 3. Data crosses as UTF-8 JSON (pointer + length). Requests are [`DetectRequest`],
//!    [`ReadRequest`] and [`WriteRequest`]; every response is an
//!    [`Outcome`](toolport_core::Outcome) in JSON, the model inside in its versioned envelope.
//! 4. Whoever allocates frees: buffers a plugin returns are released with its `free`.
//! 5. No unwinding crosses: every entry point catches panics and returns a failed outcome.
//! 6. The host never unloads a library while the process runs.
//!
//! # Versions and growth
//!
//! The ABI ([`ABI`]) and the model's JSON form ([`MODEL_SCHEMA`]) each have a major and a minor
//! version. Within a major, everything only grows:
//!
//! - A minor may append entries to the end of [`PluginTable`]; `table_size` in the header says
//!   which a plugin has ([`PluginTable::SIZE_1_0`], [`PluginTable::SIZE_1_1`]), and the host
//!   reads or calls no entry beyond it. A host reads only the entries it knows from a longer
//!   table.
//! - A minor may add optional fields to requests, responses, the description and the model.
//!   Requests and responses ignore fields they do not know; the model keeps them (see
//!   [`decode_model`]).
//! - What a plugin can do is said by [`PluginDescription::features`], stable strings
//!   ([`features`]), not by version arithmetic.
//!
//! Anything else (an entry's meaning or type, a field removed or renamed, a new enum value in
//! the model) needs a new major, and a host refuses a plugin of another major naming both.
//!
//! ABI history: 1.0 had the table up to `free`. 1.1 made every function `unsafe extern "C"`
//! (the same C signature) and appended `abi_minor` and `model_schema_minor`; its `describe`
//! lists features.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolport_core::{
    Bundle, Detection, Diagnostic, MODEL_SCHEMA_MAJOR, MODEL_SCHEMA_MINOR, Options, Outcome, ToolSet, UNKNOWN_FIELDS,
    VersionedToolSet, codes,
};

/// "TOOLPORT" in ASCII: the first eight bytes of every plugin table.
pub const ABI_MAGIC: u64 = u64::from_be_bytes(*b"TOOLPORT");
/// The ABI major version this SDK speaks: a host loads only plugins of its own major.
pub const ABI_MAJOR: u32 = 1;
/// The ABI minor version this SDK speaks: what its table and messages add within the major.
pub const ABI_MINOR: u32 = 1;
/// The ABI this SDK speaks.
pub const ABI: MajorMinor = MajorMinor { major: ABI_MAJOR, minor: ABI_MINOR };
/// The model schema version this SDK reads and writes.
pub const MODEL_SCHEMA: MajorMinor = MajorMinor { major: MODEL_SCHEMA_MAJOR, minor: MODEL_SCHEMA_MINOR };
/// The exported entry symbol (NUL-terminated for dynamic loaders).
pub const ENTRY_SYMBOL: &[u8] = b"toolport_plugin_entry\0";

/// A version of the ABI or of the model's JSON form, shown as `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MajorMinor {
    pub major: u32,
    pub minor: u32,
}

impl std::fmt::Display for MajorMinor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Stable names of what a plugin can do, listed by `describe` in
/// [`PluginDescription::features`]. A host asks for a feature rather than comparing versions;
/// a minor may add features, and a host ignores those it does not know.
pub mod features {
    /// The plugin reads models with fields it does not know (from a newer minor) instead of
    /// refusing them: it keeps them under `extras["toolport-unknown"]` and reports each as
    /// `input/unknown-key`, and it accepts `schema_minor` in the model's envelope. A plugin
    /// without it (built with SDK 1.0) is sent models re-encoded through the host's model,
    /// without `schema_minor`.
    pub const MODEL_UNKNOWN_FIELDS: &str = "model-unknown-fields";

    /// The features every plugin built with this SDK has.
    pub const SDK: &[&str] = &[MODEL_UNKNOWN_FIELDS];
}

/// The part of the table every ABI version shares, read before anything else.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableHeader {
    pub magic: u64,
    /// The ABI major version (the minor is a table entry, `abi_minor`, since 1.1).
    pub abi_major: u32,
    /// `size_of::<PluginTable>()` as the plugin was built: which entries its table has.
    pub table_size: u32,
}

impl TableHeader {
    pub const CURRENT: TableHeader =
        TableHeader { magic: ABI_MAGIC, abi_major: ABI_MAJOR, table_size: PluginTable::SIZE_1_1 };
}

/// A byte buffer owned by the side that allocated it.
#[repr(C)]
#[derive(Debug)]
pub struct RawBuffer {
    pub ptr: *mut u8,
    pub len: usize,
    pub capacity: usize,
}

impl RawBuffer {
    /// An empty buffer (null pointer), which `free` ignores.
    pub const EMPTY: RawBuffer = RawBuffer { ptr: std::ptr::null_mut(), len: 0, capacity: 0 };
}

/// `describe() -> Outcome<PluginDescription>` as JSON.
///
/// # Safety
///
/// Called only through a table whose header the host checked; the returned buffer must be
/// released once with the same table's `free`.
pub type DescribeFn = unsafe extern "C" fn() -> RawBuffer;

/// `detect`, `read` and `write`: `(format_index, request_json, request_len) -> response_json`.
///
/// # Safety
///
/// `request` is null with `len` 0, or points to `len` initialised bytes that stay valid and
/// unchanged until the call returns. The returned buffer must be released once with the same
/// table's `free`.
pub type CallFn = unsafe extern "C" fn(u32, *const u8, usize) -> RawBuffer;

/// Releases a buffer the plugin returned.
///
/// # Safety
///
/// `buffer` was returned by a function of the same table, unchanged, and is not used or freed
/// again.
pub type FreeFn = unsafe extern "C" fn(RawBuffer);

/// The table a plugin exports. Entries are only ever appended, each with the minor that added
/// it; the host reads an entry only if `header.table_size` covers it.
#[repr(C)]
#[derive(Debug)]
pub struct PluginTable {
    pub header: TableHeader,
    /// [`toolport_core::MODEL_SCHEMA_MAJOR`] of the plugin's SDK.
    pub model_schema_major: u32,
    /// Returns a [`PluginDescription`].
    pub describe: DescribeFn,
    /// [`DetectRequest`] → `Outcome<Detection>`.
    pub detect: CallFn,
    /// [`ReadRequest`] → `Outcome<VersionedToolSet>`.
    pub read: CallFn,
    /// [`WriteRequest`] → `Outcome<Bundle>`.
    pub write: CallFn,
    /// Releases a buffer this plugin returned.
    pub free: FreeFn,
    /// Since 1.1: [`ABI_MINOR`] of the plugin's SDK (a 1.0 table, without it, is minor 0).
    pub abi_minor: u32,
    /// Since 1.1: [`toolport_core::MODEL_SCHEMA_MINOR`] of the plugin's SDK (0 when absent).
    pub model_schema_minor: u32,
}

impl PluginTable {
    /// Size of an ABI 1.0 table: up to and including `free`.
    pub const SIZE_1_0: u32 = std::mem::offset_of!(PluginTable, abi_minor) as u32;
    /// Size of an ABI 1.1 table: up to and including `model_schema_minor`.
    pub const SIZE_1_1: u32 = std::mem::size_of::<PluginTable>() as u32;

    /// The table of this SDK's ABI and model versions around the given functions.
    pub const fn new(describe: DescribeFn, detect: CallFn, read: CallFn, write: CallFn, free: FreeFn) -> Self {
        PluginTable {
            header: TableHeader::CURRENT,
            model_schema_major: MODEL_SCHEMA_MAJOR,
            describe,
            detect,
            read,
            write,
            free,
            abi_minor: ABI_MINOR,
            model_schema_minor: MODEL_SCHEMA_MINOR,
        }
    }
}

/// What `describe` returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PluginDescription {
    /// The plugin crate's name.
    pub name: String,
    pub version: String,
    /// The formats, indexed by the `format` argument of the calls.
    pub formats: Vec<toolport_core::FormatInfo>,
    /// What the plugin can do ([`features`]); empty for plugins built with SDK 1.0.
    #[serde(default)]
    pub features: Vec<String>,
}

impl PluginDescription {
    pub fn has_feature(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }
}

// Requests. Each is one type for both sides: the host serializes it from borrowed data
// (`Cow::Borrowed`, `ModelJson::Decoded`/`Raw`), so no bundle or model is copied per call; the
// plugin deserializes it into owned data (`Cow::Owned`) or, for the model, JSON borrowed from
// the request that it decodes with `decode_model`. Fields a newer minor adds are optional and
// ignored by older plugins.

/// `detect`'s request.
#[derive(Debug, Serialize, Deserialize)]
pub struct DetectRequest<'a> {
    pub bundle: Cow<'a, Bundle>,
}

/// `read`'s request.
#[derive(Debug, Serialize, Deserialize)]
pub struct ReadRequest<'a> {
    pub bundle: Cow<'a, Bundle>,
    #[serde(default)]
    pub options: Cow<'a, Options>,
}

/// `write`'s request.
#[derive(Debug, Serialize, Deserialize)]
pub struct WriteRequest<'a> {
    #[serde(borrow)]
    pub model: ModelJson<'a>,
    #[serde(default)]
    pub options: Cow<'a, Options>,
}

/// The model in a request: the versioned envelope `{schema_version, schema_minor, tool_set}`.
#[derive(Debug, Clone, Copy)]
pub enum ModelJson<'a> {
    /// A model the host holds decoded, serialized as its envelope ([`VersionedRef`]).
    Decoded(VersionedRef<'a>),
    /// The envelope as JSON: a reader's response passed on undecoded by the host, or the model
    /// as a plugin received it (always this form when deserialized), to decode with
    /// [`decode_model`].
    Raw(&'a RawValue),
}

impl ModelJson<'_> {
    /// The envelope's JSON, when it is held as JSON.
    pub fn raw(&self) -> Option<&RawValue> {
        match self {
            ModelJson::Raw(raw) => Some(raw),
            ModelJson::Decoded(_) => None,
        }
    }
}

impl Serialize for ModelJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ModelJson::Decoded(model) => model.serialize(serializer),
            ModelJson::Raw(raw) => raw.serialize(serializer),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ModelJson<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&'a RawValue>::deserialize(deserializer).map(ModelJson::Raw)
    }
}

/// The borrowed form of [`VersionedToolSet`] (its owned form, which [`decode_model`] returns):
/// the same JSON, written from a model the host holds without copying it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct VersionedRef<'a> {
    pub schema_version: u32,
    /// Left out for plugins without [`features::MODEL_UNKNOWN_FIELDS`], which refuse it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_minor: Option<u32>,
    pub tool_set: &'a ToolSet,
}

impl<'a> VersionedRef<'a> {
    /// `tool_set` in this SDK's model schema version; `with_minor: false` for SDK 1.0 readers.
    pub fn new(tool_set: &'a ToolSet, with_minor: bool) -> Self {
        VersionedRef {
            schema_version: MODEL_SCHEMA_MAJOR,
            schema_minor: with_minor.then_some(MODEL_SCHEMA_MINOR),
            tool_set,
        }
    }
}

// Responses: `describe` → `Outcome<PluginDescription>`, `detect` → `Outcome<Detection>`,
// `read` → `Outcome<VersionedToolSet>` (the host may keep the model as JSON,
// `Outcome<Box<RawValue>>`, and read only its [`ModelVersion`]), `write` → `Outcome<Bundle>`.

pub type DescribeResponse = Outcome<PluginDescription>;
pub type DetectResponse = Outcome<Detection>;
pub type ReadResponse = Outcome<VersionedToolSet>;
pub type WriteResponse = Outcome<Bundle>;

/// The version fields of a model's envelope, read without decoding the model.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct ModelVersion {
    pub schema_version: u32,
    #[serde(default)]
    pub schema_minor: u32,
}

impl ModelVersion {
    pub fn version(self) -> MajorMinor {
        MajorMinor { major: self.schema_version, minor: self.schema_minor }
    }

    /// The versions of a model's JSON, from its leading keys when it starts the way this SDK
    /// writes it (`{"schema_version":1,"schema_minor":1,`): a model is megabytes, and its
    /// version is all the host needs to look at. Anything else is decoded in full.
    pub fn of(model_json: &str) -> Result<ModelVersion, serde_json::Error> {
        fn number(text: &str) -> Option<(u32, &str)> {
            let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
            Some((text[..end].parse().ok()?, &text[end..]))
        }
        let leading = model_json.strip_prefix("{\"schema_version\":").and_then(number).and_then(|(major, rest)| {
            let (minor, rest) = match rest.strip_prefix(",\"schema_minor\":") {
                Some(rest) => number(rest)?,
                None => (0, rest),
            };
            rest.starts_with(',').then_some(ModelVersion { schema_version: major, schema_minor: minor })
        });
        match leading {
            Some(version) => Ok(version),
            None => decode_message(model_json.as_bytes()),
        }
    }
}

/// Decodes one JSON message crossing the boundary (a request, a response, the model). Types
/// that borrow (`&RawValue`, [`WriteRequest`]) borrow from `bytes`.
///
/// serde_json's recursion limit (128) is for untrusted text; here it would refuse models that
/// readers accepted, since a schema nested N levels is several JSON levels each. Input depth
/// is bounded by [`toolport_core::limits::MAX_NESTING`] in every reader, and conversions run on
/// threads with [`toolport_core::limits::CONVERSION_STACK_BYTES`] of stack, so the limit is
/// lifted for these messages only.
pub fn decode_message<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Decodes a model's envelope (`{schema_version, schema_minor, tool_set}`) for `reader` (who
/// decodes, for messages: `plugin toolport-plugin-mcp`, `convert`).
///
/// Another major is refused, naming both versions. Fields of the tool set that this SDK's
/// model does not know (from a newer minor) are not refused: they are kept in
/// `tool_set.extras["toolport-unknown"]` ([`UNKNOWN_FIELDS`]), each under its JSON pointer, and
/// reported as `input/unknown-key` warnings, one per field name. Unknown fields of the envelope
/// itself are protocol, not model, and ignored.
pub fn decode_model(bytes: &[u8], reader: &str) -> Result<(VersionedToolSet, Vec<Diagnostic>), String> {
    #[derive(Deserialize)]
    struct Envelope<'a> {
        schema_version: u32,
        #[serde(default)]
        schema_minor: u32,
        #[serde(borrow)]
        tool_set: &'a RawValue,
    }
    let envelope: Envelope = decode_message(bytes).map_err(|e| format!("invalid model JSON: {e}"))?;
    let sent = MajorMinor { major: envelope.schema_version, minor: envelope.schema_minor };
    if sent.major != MODEL_SCHEMA_MAJOR {
        return Err(format!(
            "the model is schema version {sent}, {reader} reads model schema {MODEL_SCHEMA_MAJOR}.x (it speaks {MODEL_SCHEMA}); use a toolport and plugins of one model schema major"
        ));
    }
    let (mut tool_set, unknown) = crate::unknown::decode::<ToolSet>(envelope.tool_set.get().as_bytes())
        .map_err(|e| format!("invalid model JSON in tool_set: {e}"))?;
    let diagnostics = keep_unknown(&mut tool_set, unknown, sent, reader);
    Ok((VersionedToolSet { schema_version: sent.major, schema_minor: sent.minor, tool_set }, diagnostics))
}

/// Stores unknown fields in the tool set's extras and reports them, one warning per field name
/// (located at its first place, counting the others), so that a field a newer minor adds to
/// every schema gives one line, not thousands.
fn keep_unknown(
    tool_set: &mut ToolSet,
    unknown: Vec<(String, serde_json::Value)>,
    sent: MajorMinor,
    reader: &str,
) -> Vec<Diagnostic> {
    if unknown.is_empty() {
        return Vec::new();
    }
    // Field name → (first pointer, count), in order of appearance.
    let mut by_name: Vec<(String, (String, usize))> = Vec::new();
    let store = tool_set.extras.entry(UNKNOWN_FIELDS.to_owned()).or_insert_with(|| serde_json::json!({}));
    if !store.is_object() {
        // Not ours: keep it beside the fields rather than drop it.
        let previous = store.take();
        *store = serde_json::json!({ "": previous });
    }
    let Some(store) = store.as_object_mut() else { return Vec::new() };
    for (pointer, value) in unknown {
        let name = pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
        match by_name.iter_mut().find(|(n, _)| *n == name) {
            Some((_, (_, count))) => *count += 1,
            None => by_name.push((name, (pointer.clone(), 1))),
        }
        store.insert(pointer, value);
    }
    by_name
        .into_iter()
        .map(|(name, (first, count))| {
            let more = match count {
                1 => String::new(),
                n => format!(" (and at {} more places)", n - 1),
            };
            Diagnostic::warning(
                codes::INPUT_UNKNOWN_KEY,
                first,
                format!(
                    "model field `{name}`{more} is unknown to {reader}, which reads model schema {MODEL_SCHEMA} (this model is {sent}): kept under extras[\"{UNKNOWN_FIELDS}\"]; update {reader} to use it"
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The version read from a model's leading keys is the one a full decode finds, for the
    /// SDK's own output and for any other spelling of the envelope.
    #[test]
    fn a_models_version_is_read_from_its_leading_keys() {
        let written = serde_json::to_string(&ToolSet::default().versioned()).unwrap();
        let full: ModelVersion = decode_message(written.as_bytes()).unwrap();
        assert_eq!(ModelVersion::of(&written).unwrap().version(), full.version());
        for (text, expect) in [
            (r#"{"schema_version":7,"schema_minor":3,"tool_set":{}}"#, Some((7, 3))),
            (r#"{"schema_version":2,"tool_set":{}}"#, Some((2, 0))),
            (r#"{ "tool_set": {}, "schema_minor": 4, "schema_version": 1 }"#, Some((1, 4))),
            (r#"{"schema_version":99999999999,"tool_set":{}}"#, None),
            (r#"{"schema_version":1"#, None),
            (r#"{"tool_set":{}}"#, None),
        ] {
            let got = ModelVersion::of(text).ok().map(|v| (v.schema_version, v.schema_minor));
            assert_eq!(got, expect, "{text}");
        }
    }

    /// What the host writes from borrowed data is what the plugin reads into owned data.
    #[test]
    fn borrowed_requests_decode_into_owned_ones() {
        let bundle = Bundle::single("in.json", "{}");
        let mut options = Options::default();
        options.set("k", "v");
        let model = ToolSet { title: Some("t".into()), ..ToolSet::default() };

        let sent =
            serde_json::to_vec(&ReadRequest { bundle: Cow::Borrowed(&bundle), options: Cow::Borrowed(&options) })
                .unwrap();
        let got: ReadRequest = decode_message(&sent).unwrap();
        assert!(matches!(got.bundle, Cow::Owned(_)));
        assert_eq!((&*got.bundle, &*got.options), (&bundle, &options));

        let sent = serde_json::to_vec(&DetectRequest { bundle: Cow::Borrowed(&bundle) }).unwrap();
        assert_eq!(*decode_message::<DetectRequest>(&sent).unwrap().bundle, bundle);

        for with_minor in [true, false] {
            let request = WriteRequest {
                model: ModelJson::Decoded(VersionedRef::new(&model, with_minor)),
                options: Cow::Borrowed(&options),
            };
            let sent = serde_json::to_vec(&request).unwrap();
            let got: WriteRequest = decode_message(&sent).unwrap();
            let raw = got.model.raw().unwrap();
            let (decoded, diagnostics) = decode_model(raw.get().as_bytes(), "test").unwrap();
            assert_eq!(decoded.tool_set, model);
            assert_eq!(decoded.schema_minor, if with_minor { MODEL_SCHEMA_MINOR } else { 0 });
            assert!(diagnostics.is_empty());
            // The raw form passes the same JSON on.
            let again = serde_json::to_vec(&WriteRequest { model: ModelJson::Raw(raw), options: got.options }).unwrap();
            assert_eq!(again, sent);
        }
    }

    /// Unknown model fields cross with a diagnostic instead of a refusal, kept in extras.
    #[test]
    fn unknown_model_fields_are_kept_and_reported() {
        let model = json!({"schema_version": 1, "schema_minor": 7, "producer": "new toolport", "tool_set": {
            "tools": [
                {"name": "a", "deprecated": true, "parameters": [{"name": "p", "schema": {"type": "string", "const": "x"}}]},
                {"name": "b", "deprecated": false}
            ],
            "extras": {"toolport-unknown": {"/old": 1}}
        }});
        let (decoded, diagnostics) = decode_model(model.to_string().as_bytes(), "plugin test").unwrap();
        assert_eq!((decoded.schema_version, decoded.schema_minor), (1, 7));
        assert_eq!(decoded.tool_set.tools.len(), 2);
        assert_eq!(
            decoded.tool_set.extras[UNKNOWN_FIELDS],
            json!({"/old": 1, "/tools/0/deprecated": true, "/tools/0/parameters/0/schema/const": "x", "/tools/1/deprecated": false})
        );
        let lines: Vec<(&str, &str, &str)> =
            diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_str(), d.message.as_str())).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!((lines[0].0, lines[0].1), ("input/unknown-key", "/tools/0/deprecated"));
        assert!(lines[0].2.contains("`deprecated` (and at 1 more places) is unknown to plugin test"), "{}", lines[0].2);
        assert!(
            lines[0].2.contains(&format!("reads model schema {MODEL_SCHEMA} (this model is 1.7)")),
            "{}",
            lines[0].2
        );
        assert_eq!(lines[1].1, "/tools/0/parameters/0/schema/const");
        assert!(diagnostics.iter().all(|d| d.severity == toolport_core::Severity::Warning));
    }

    #[test]
    fn another_model_major_is_refused_naming_both_versions() {
        let model = json!({"schema_version": 2, "schema_minor": 0, "tool_set": {"tools": [], "renamed": 1}});
        let error = decode_model(model.to_string().as_bytes(), "convert").unwrap_err();
        assert!(error.contains("the model is schema version 2.0, convert reads model schema 1.x"), "{error}");
        assert!(error.contains(&format!("it speaks {MODEL_SCHEMA}")), "{error}");
    }

    #[test]
    fn a_1_0_table_is_the_prefix_of_a_1_1_table() {
        let free_end = std::mem::offset_of!(PluginTable, free) + std::mem::size_of::<FreeFn>();
        assert_eq!(PluginTable::SIZE_1_0 as usize, free_end);
        assert_eq!(PluginTable::SIZE_1_1, PluginTable::SIZE_1_0 + 8);
        assert_eq!(TableHeader::CURRENT.table_size, PluginTable::SIZE_1_1);
    }
}
