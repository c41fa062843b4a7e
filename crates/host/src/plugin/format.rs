//! One format of a loaded plugin behind the safe [`Format`] trait; the native path that hands a
//! reader's model to a writer of the same build by pointer ([`PluginFormat::read_native`], and
//! [`Format::write`] borrowing any model); and the raw path that passes a reader's model JSON
//! to a writer without decoding it, for every other pair.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use toolport_core::{Bundle, Detection, Format, FormatInfo, MODEL_SCHEMA_MAJOR, Options, Outcome, ToolSet};
use toolport_plugin::abi::{
    DetectRequest, MODEL_SCHEMA, ModelJson, ModelVersion, ReadRequest, VersionedRef, WriteRequest, check_model_depth,
    decode_model,
};

use super::{DiscoveredPlugin, LoadedPlugin, NativeModel};
use crate::transport::Op;
use toolport_core::{Diagnostic, codes};

/// Who decodes models on the host's side, in messages.
const HOST: &str = "convert";

/// A model in its versioned JSON form exactly as a plugin's reader produced it. Passing it
/// straight to another plugin's writer saves the host a full decode and re-encode of the
/// model, which for a large API is most of the host's own work.
#[derive(Debug)]
pub struct RawModel(Box<RawValue>);

impl RawModel {
    /// The model at `span` of a reader's `answer`, kept in the answer's own memory: the answer
    /// is the largest thing a plugin hands the host, and a copy of the model beside it would
    /// double what the host holds.
    fn from_answer(mut answer: Vec<u8>, span: std::ops::Range<usize>) -> Option<RawModel> {
        let len = span.len();
        answer.copy_within(span, 0);
        answer.truncate(len);
        RawModel::from_string(String::from_utf8(answer).ok()?)
    }

    /// A model's JSON text (checked again, without a recursion limit, by serde_json).
    fn from_string(json: String) -> Option<RawModel> {
        RawValue::from_string(json).ok().map(RawModel)
    }

    /// The model decoded, for the stage between reading and writing: fields of a newer minor
    /// kept under extras and reported (`input/unknown-key`).
    pub fn decode(&self) -> Result<(ToolSet, Vec<toolport_core::Diagnostic>), String> {
        decode_model(self.0.get().as_bytes(), HOST).map(|(model, unknown)| (model.tool_set, unknown))
    }
}

/// A reader's model as JSON borrowed from its answer.
#[derive(serde::Deserialize)]
#[serde(transparent)]
struct ModelInAnswer<'a>(#[serde(borrow)] &'a RawValue);

impl toolport_plugin::abi::texts::CarriesBundle for ModelInAnswer<'_> {
    fn bundle_mut(&mut self) -> Option<&mut Bundle> {
        None
    }
}

/// Where `part` lies within `whole`, if it is a slice of it.
fn span_within(whole: &[u8], part: &[u8]) -> Option<std::ops::Range<usize>> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start + part.len() <= whole.len()).then(|| start..start + part.len())
}

impl LoadedPlugin {
    /// The plugin's formats as [`Format`] values.
    pub fn formats(self: &Arc<Self>) -> Vec<PluginFormat> {
        DiscoveredPlugin::loaded(Arc::clone(self)).formats()
    }
}

impl DiscoveredPlugin {
    /// The plugin's formats as [`Format`] values (loading it, if it is only described, when
    /// one is first used).
    pub fn formats(self: &Arc<Self>) -> Vec<PluginFormat> {
        (0..self.description.formats.len())
            .map(|index| PluginFormat { plugin: Arc::clone(self), index: index as u32 })
            .collect()
    }
}

/// One format of a plugin, usable through the safe [`Format`] trait.
#[derive(Debug, Clone)]
pub struct PluginFormat {
    plugin: Arc<DiscoveredPlugin>,
    index: u32,
}

impl PluginFormat {
    /// The plugin library this format comes from.
    pub fn plugin(&self) -> &DiscoveredPlugin {
        &self.plugin
    }

    /// The plugin, loaded now if it was only described; a failure to load is the error
    /// diagnostic saying why, naming the plugin and its file.
    fn loaded(&self) -> Result<&LoadedPlugin, Diagnostic> {
        self.plugin.get().map(|plugin| &**plugin).map_err(|e| {
            Diagnostic::error(
                codes::PLUGIN_FAILED,
                "",
                format!("plugin {} could not be loaded: {e}", self.plugin.description.name),
            )
        })
    }

    /// A failure of `op`, naming the plugin and its file.
    fn failure(&self, op: &str, message: &str) -> Diagnostic {
        super::failure(&self.plugin.description.name, &self.plugin.path, op, message)
    }

    /// Adds the plugin's name to plugin failures so the user knows which library misbehaved.
    fn name_plugin<T>(&self, mut outcome: Outcome<T>, op: &str) -> Outcome<T> {
        for d in &mut outcome.diagnostics {
            if d.code.starts_with("plugin/") && !d.message.contains(&*self.plugin.path.to_string_lossy()) {
                d.message = format!(
                    "plugin {} ({}) {op}: {}",
                    self.plugin.description.name,
                    self.plugin.path.display(),
                    d.message
                );
            }
        }
        outcome
    }
}

impl PluginFormat {
    /// The read request for `input`, in the form the plugin reads.
    fn read_request(plugin: &LoadedPlugin, input: &Bundle, options: &Options) -> serde_json::Result<Vec<u8>> {
        plugin.encode_with_bundle(input, |bundle| {
            serde_json::to_vec(&ReadRequest { bundle: Cow::Borrowed(bundle), options: Cow::Borrowed(options) })
        })
    }

    /// Like [`Format::read`], but the model stays in the plugin, borrowed by the host
    /// ([`NativeModel`]); `None` when the model is not handed over natively with this plugin
    /// ([`LoadedPlugin::hands_over_natively`]).
    pub fn read_native(&self, input: &Bundle, options: &Options) -> Option<Outcome<NativeModel>> {
        // A plugin that cannot be loaded says so when read as JSON (`read_raw`).
        let plugin = self.loaded().ok()?;
        let native = plugin.native.as_ref()?;
        let (answer, model) = native.read(self.index, input, options);
        let outcome: Outcome<bool> = plugin.outcome_of(Op::Read, &answer);
        let Outcome { value, mut diagnostics, tally } = self.name_plugin(outcome, "read");
        let model = match (value, model) {
            (Some(true), Some(model)) => Some(model),
            (Some(_), _) => {
                diagnostics.push(self.failure("read", "said it read a model but handed none over"));
                None
            }
            (None, _) => None,
        };
        Some(Outcome::with(model, diagnostics, tally))
    }

    /// Like [`Format::read`], but keeps the model as the plugin's JSON (its schema major
    /// checked) for [`PluginFormat::write_raw`].
    pub fn read_raw(&self, input: &Bundle, options: &Options) -> Outcome<RawModel> {
        let plugin = match self.loaded() {
            Ok(plugin) => plugin,
            Err(failure) => return Outcome::fail(failure),
        };
        let request = Self::read_request(plugin, input, options);
        let answer = match plugin.exchange(Op::Read, self.index, request) {
            Ok(answer) => answer,
            Err(failure) => return self.name_plugin(Outcome::fail(failure), "read"),
        };
        let outcome: Outcome<ModelInAnswer> = plugin.outcome_of(Op::Read, &answer);
        let Outcome { value, diagnostics, tally } = self.name_plugin(outcome, "read");
        let Some(ModelInAnswer(raw)) = value else { return Outcome::with(None, diagnostics, tally) };
        let failure = match ModelVersion::of(raw.get()) {
            // Said here, naming the reader, rather than by whoever decodes it next.
            Ok(v) if v.schema_version == MODEL_SCHEMA_MAJOR => match check_model_depth(raw.get().as_bytes()) {
                Ok(()) => {
                    let within = span_within(&answer, raw.get().as_bytes());
                    let model = match within {
                        Some(span) => RawModel::from_answer(answer, span),
                        None => RawModel::from_string(raw.get().to_owned()),
                    };
                    return match model {
                        Some(model) => Outcome::with(Some(model), diagnostics, tally),
                        None => {
                            let mut diagnostics = diagnostics;
                            diagnostics.push(self.failure("read", "returned a model that is not JSON"));
                            Outcome::with(None, diagnostics, tally)
                        }
                    };
                }
                Err(e) => format!("returned a model that cannot be read: {e}"),
            },
            Ok(v) => format!(
                "returned model schema version {}, this convert reads {MODEL_SCHEMA_MAJOR}.x (it speaks {MODEL_SCHEMA})",
                v.version()
            ),
            Err(e) => format!("returned a model without a schema version: {e}"),
        };
        let mut diagnostics = diagnostics;
        diagnostics.push(self.failure("read", &failure));
        Outcome::with(None, diagnostics, tally)
    }

    /// Writes a model read by [`PluginFormat::read_raw`] (possibly of another plugin), taking
    /// it: a writer of this host's build is given the model decoded here, by pointer, the JSON
    /// freed first, where a write request would carry a second copy of the JSON beside it.
    pub fn write_raw(&self, model: RawModel, options: &Options) -> Outcome<Bundle> {
        let plugin = match self.loaded() {
            Ok(plugin) => plugin,
            Err(failure) => return Outcome::fail(failure),
        };
        if plugin.hands_over_natively() {
            // Named as the plugin would name itself decoding the same JSON (it is of this build).
            let reader = format!("plugin {} {}", plugin.description.name, plugin.description.version);
            let decoded = decode_model(model.0.get().as_bytes(), &reader);
            drop(model);
            return match decoded {
                Ok((versioned, mut diagnostics)) => {
                    let outcome = self.write_owned(versioned.tool_set, options);
                    diagnostics.extend(outcome.diagnostics);
                    Outcome::with(outcome.value, diagnostics, outcome.tally)
                }
                Err(e) => Outcome::fail(self.failure("write", &e)),
            };
        }
        if !plugin.keeps_unknown_fields() {
            // A plugin built with SDK 1.0 refuses fields it does not know, `schema_minor`
            // included: send it the model re-encoded through this host's model, where fields
            // unknown here sit under extras. (Model 1.1 adds no field to 1.0; 1.2's
            // `Tool::pinned` is moved under extras here, as a 1.1 reader would keep it.)
            return match decode_model(model.0.get().as_bytes(), HOST) {
                Ok((mut versioned, mut diagnostics)) => {
                    pinned_to_extras(&mut versioned.tool_set);
                    let outcome = self.write(&versioned.tool_set, options);
                    diagnostics.extend(outcome.diagnostics);
                    Outcome::with(outcome.value, diagnostics, outcome.tally)
                }
                Err(e) => Outcome::fail(self.failure("write", &e)),
            };
        }
        let request = WriteRequest { model: ModelJson::Raw(&model.0), options: Cow::Borrowed(options) };
        let outcome = plugin.call(Op::Write, self.index, &request);
        self.name_plugin(outcome, "write")
    }

    /// Writes `model` natively ([`Format::write`]), freeing it before the answer is decoded:
    /// the answer holds the output, which may be as large as the model.
    fn write_owned(&self, model: ToolSet, options: &Options) -> Outcome<Bundle> {
        let plugin = match self.loaded() {
            Ok(plugin) => plugin,
            Err(failure) => return Outcome::fail(failure),
        };
        let Some(native) = &plugin.native else { return self.write(&model, options) };
        let answer = native.write(self.index, &model, options);
        drop(model);
        let outcome = plugin.outcome_of(Op::Write, &answer);
        self.name_plugin(outcome, "write")
    }
}

/// The detect request for one input, encoded at most once in each form (texts inside or
/// beside the JSON) however many plugins are asked.
#[derive(Debug)]
pub struct DetectRequests<'a> {
    input: &'a Bundle,
    texts_inside: OnceLock<Option<Vec<u8>>>,
    texts_beside: OnceLock<Option<Vec<u8>>>,
}

impl<'a> DetectRequests<'a> {
    pub fn new(input: &'a Bundle) -> Self {
        DetectRequests { input, texts_inside: OnceLock::new(), texts_beside: OnceLock::new() }
    }

    /// The request in the form `plugin` reads; `None` if it cannot be encoded.
    pub(super) fn for_plugin(&self, plugin: &LoadedPlugin) -> Option<&[u8]> {
        let encode = |bundle: &Bundle| serde_json::to_vec(&DetectRequest { bundle: Cow::Borrowed(bundle) });
        let slot = if plugin.takes_texts_beside() { &self.texts_beside } else { &self.texts_inside };
        slot.get_or_init(|| plugin.encode_with_bundle(self.input, encode).ok()).as_deref()
    }
}

impl PluginFormat {
    /// [`Format::detect`] with a request from `requests`. A plugin whose detect failed (crashed,
    /// hung) is not asked again in this run.
    pub fn detect_with(&self, requests: &DetectRequests) -> Detection {
        // A plugin that cannot be loaded detects nothing (said once, as a detection failure).
        let Some(plugin) = self.plugin.get_for_detection() else { return 0 };
        let mut failure = plugin.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if failure.is_some() {
            return 0;
        }
        drop(failure);
        let Some(request) = requests.for_plugin(plugin) else { return 0 };
        let outcome: Outcome<Detection> = plugin.call_encoded(Op::Detect, self.index, Ok(request));
        if let Some(problem) = outcome.diagnostics.iter().find(|d| d.code.starts_with("plugin/")) {
            failure = plugin.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            failure.get_or_insert_with(|| format!("{} (not asked to detect again)", problem.message));
        }
        outcome.value.unwrap_or(0)
    }
}

impl Format for PluginFormat {
    fn info(&self) -> FormatInfo {
        self.plugin.description.formats[self.index as usize].clone()
    }

    fn detect(&self, input: &Bundle) -> Detection {
        self.detect_with(&DetectRequests::new(input))
    }

    /// Reads through the plugin: a model handed over natively is copied into the host's own;
    /// one as JSON is decoded, fields of a newer minor kept under `extras["toolport-unknown"]`
    /// and reported, another major refused.
    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        if let Some(outcome) = self.read_native(input, options) {
            return outcome.map(|model| (*model).clone());
        }
        let Outcome { value, mut diagnostics, tally } = self.read_raw(input, options);
        let Some(raw) = value else { return Outcome::with(None, diagnostics, tally) };
        match decode_model(raw.0.get().as_bytes(), HOST) {
            Ok((model, unknown)) => {
                diagnostics.extend(unknown);
                Outcome::with(Some(model.tool_set), diagnostics, tally)
            }
            Err(e) => {
                diagnostics.push(self.failure("read", &e));
                Outcome::with(None, diagnostics, tally)
            }
        }
    }

    /// Writes `model`, which the plugin borrows by pointer when it is of this host's build, else
    /// receives as JSON.
    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let plugin = match self.loaded() {
            Ok(plugin) => plugin,
            Err(failure) => return Outcome::fail(failure),
        };
        if let Some(native) = &plugin.native {
            let answer = native.write(self.index, model, options);
            let outcome = plugin.outcome_of(Op::Write, &answer);
            return self.name_plugin(outcome, "write");
        }
        let model = VersionedRef::new(model, plugin.keeps_unknown_fields());
        let request = WriteRequest { model: ModelJson::Decoded(model), options: Cow::Borrowed(options) };
        let outcome = plugin.call(Op::Write, self.index, &request);
        self.name_plugin(outcome, "write")
    }
}

/// Moves the fields model 1.2 added (`Tool::pinned`) under `extras["toolport-unknown"]`, keyed
/// by their JSON pointer, for a plugin of SDK 1.0 that refuses fields it does not know.
fn pinned_to_extras(model: &mut ToolSet) {
    let mut moved = serde_json::Map::new();
    for (i, tool) in model.tools.iter_mut().enumerate() {
        if !tool.pinned.is_empty() {
            let pinned = std::mem::take(&mut tool.pinned);
            moved.insert(format!("/tools/{i}/pinned"), serde_json::to_value(pinned).unwrap_or_default());
        }
    }
    if moved.is_empty() {
        return;
    }
    let kept = model.extras.entry(toolport_core::UNKNOWN_FIELDS.to_owned()).or_insert_with(|| serde_json::json!({}));
    if let Some(kept) = kept.as_object_mut() {
        kept.extend(moved);
    }
}
