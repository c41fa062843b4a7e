//! One format of a loaded plugin behind the safe [`Format`] trait, and the raw path that passes a
//! reader's model JSON to a writer without decoding it.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use toolport_core::{Bundle, Detection, Format, FormatInfo, MODEL_SCHEMA_MAJOR, Options, Outcome, ToolSet};
use toolport_plugin::abi::{
    DetectRequest, MODEL_SCHEMA, ModelJson, ModelVersion, ReadRequest, VersionedRef, WriteRequest, check_model_depth,
    decode_model,
};

use super::LoadedPlugin;
use crate::transport::Op;

/// Who decodes models on the host's side, in messages.
const HOST: &str = "convert";

/// A model in its versioned JSON form exactly as a plugin's reader produced it. Passing it
/// straight to another plugin's writer saves the host a full decode and re-encode of the
/// model, which for a large API is most of the host's own work.
#[derive(Debug)]
pub struct RawModel(Box<RawValue>);

impl RawModel {
    /// The model decoded (by the curation stage, which needs it typed), with the diagnostics of
    /// fields from a newer minor kept under extras.
    pub fn decode(&self) -> Result<(ToolSet, Vec<toolport_core::Diagnostic>), String> {
        decode_model(self.0.get().as_bytes(), HOST).map(|(versioned, unknown)| (versioned.tool_set, unknown))
    }

    /// `model` in this host's versioned JSON form, for a writer.
    pub fn encode(model: ToolSet) -> Result<RawModel, String> {
        serde_json::value::to_raw_value(&model.into_versioned()).map(RawModel).map_err(|e| e.to_string())
    }
}

impl LoadedPlugin {
    /// The plugin's formats as [`Format`] values.
    pub fn formats(self: &Arc<Self>) -> Vec<PluginFormat> {
        (0..self.description.formats.len())
            .map(|index| PluginFormat { plugin: Arc::clone(self), index: index as u32 })
            .collect()
    }
}

/// One format of a loaded plugin, usable through the safe [`Format`] trait.
#[derive(Debug, Clone)]
pub struct PluginFormat {
    plugin: Arc<LoadedPlugin>,
    index: u32,
}

impl PluginFormat {
    /// The plugin library this format comes from.
    pub fn plugin(&self) -> &LoadedPlugin {
        &self.plugin
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
    /// Like [`Format::read`], but keeps the model as the plugin's JSON (its schema major
    /// checked) for [`PluginFormat::write_raw`].
    pub fn read_raw(&self, input: &Bundle, options: &Options) -> Outcome<RawModel> {
        let request = self.plugin.encode_with_bundle(input, |bundle| {
            serde_json::to_vec(&ReadRequest { bundle: Cow::Borrowed(bundle), options: Cow::Borrowed(options) })
        });
        let outcome: Outcome<Box<RawValue>> = self.plugin.call_encoded(Op::Read, self.index, request);
        let Outcome { value, diagnostics } = self.name_plugin(outcome, "read");
        let Some(raw) = value else { return Outcome { value: None, diagnostics } };
        let failure = match ModelVersion::of(raw.get()) {
            // Said here, naming the reader, rather than by whoever decodes it next.
            Ok(v) if v.schema_version == MODEL_SCHEMA_MAJOR => match check_model_depth(raw.get().as_bytes()) {
                Ok(()) => return Outcome { value: Some(RawModel(raw)), diagnostics },
                Err(e) => format!("returned a model that cannot be read: {e}"),
            },
            Ok(v) => format!(
                "returned model schema version {}, this convert reads {MODEL_SCHEMA_MAJOR}.x (it speaks {MODEL_SCHEMA})",
                v.version()
            ),
            Err(e) => format!("returned a model without a schema version: {e}"),
        };
        let mut diagnostics = diagnostics;
        diagnostics.push(self.plugin.failure("read", &failure));
        Outcome { value: None, diagnostics }
    }

    /// Writes a model read by [`PluginFormat::read_raw`] (possibly of another plugin).
    pub fn write_raw(&self, model: &RawModel, options: &Options) -> Outcome<Bundle> {
        if !self.plugin.keeps_unknown_fields() {
            // A plugin built with SDK 1.0 refuses fields it does not know, `schema_minor`
            // included: send it the model re-encoded through this host's model, where fields
            // unknown here sit under extras. (Model 1.1 adds no field to 1.0; 1.2's
            // `Tool::pinned` is moved under extras here, as a 1.1 reader would keep it.)
            return match decode_model(model.0.get().as_bytes(), HOST) {
                Ok((mut versioned, mut diagnostics)) => {
                    pinned_to_extras(&mut versioned.tool_set);
                    let outcome = self.write(&versioned.tool_set, options);
                    diagnostics.extend(outcome.diagnostics);
                    Outcome { value: outcome.value, diagnostics }
                }
                Err(e) => Outcome::fail(self.plugin.failure("write", &e)),
            };
        }
        let request = WriteRequest { model: ModelJson::Raw(&model.0), options: Cow::Borrowed(options) };
        let outcome = self.plugin.call(Op::Write, self.index, &request);
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
        let mut failure = self.plugin.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if failure.is_some() {
            return 0;
        }
        drop(failure);
        let Some(request) = requests.for_plugin(&self.plugin) else { return 0 };
        let outcome: Outcome<Detection> = self.plugin.call_encoded(Op::Detect, self.index, Ok(request));
        if let Some(problem) = outcome.diagnostics.iter().find(|d| d.code.starts_with("plugin/")) {
            failure = self.plugin.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
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

    /// Reads through the plugin and decodes its model: fields of a newer minor are kept under
    /// `extras["toolport-unknown"]` and reported, another major is refused.
    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        let Outcome { value, mut diagnostics } = self.read_raw(input, options);
        let Some(raw) = value else { return Outcome { value: None, diagnostics } };
        match decode_model(raw.0.get().as_bytes(), HOST) {
            Ok((model, unknown)) => {
                diagnostics.extend(unknown);
                Outcome { value: Some(model.tool_set), diagnostics }
            }
            Err(e) => {
                diagnostics.push(self.plugin.failure("read", &e));
                Outcome { value: None, diagnostics }
            }
        }
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let model = VersionedRef::new(model, self.plugin.keeps_unknown_fields());
        let request = WriteRequest { model: ModelJson::Decoded(model), options: Cow::Borrowed(options) };
        let outcome = self.plugin.call(Op::Write, self.index, &request);
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
