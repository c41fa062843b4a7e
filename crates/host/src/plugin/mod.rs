//! Loading one plugin library and calling it through the C ABI ([`toolport_plugin::abi`]).
//!
//! - `load`: loading a library into this process, the handshake, and calls straight through its
//!   C table, the model handed over natively ([`NativeModel`]) included: the host's only
//!   `unsafe` besides `allocator`;
//! - `format`: one format of a plugin as a [`Format`](toolport_core::Format) ([`PluginFormat`]),
//!   and the [`RawModel`] that passes a reader's JSON to a writer undecoded;
//! - `discovered`: a plugin discovery found, loaded at once or, described by the description
//!   cache, when first used ([`DiscoveredPlugin`]);
//! - here: a [`LoadedPlugin`], the versions its table declares, why loading fails, and calls
//!   through its [`Transport`] with their failures named.

mod discovered;
mod format;
mod load;
#[cfg(test)]
mod tests;

pub use discovered::DiscoveredPlugin;
pub use format::{DetectRequests, PluginFormat, RawModel};
pub use load::{MODEL_HANDOVER_VARIABLE, NativeModel, check_model_handover_variable};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::transport::{CallError, Isolated, IsolationLimits, Op, Transport};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use toolport_core::{Bundle, Diagnostic, MODEL_SCHEMA_MAJOR, Outcome, codes};

use toolport_plugin::abi::texts::{self, CarriesBundle};
use toolport_plugin::abi::{
    ABI, ABI_MAGIC, ABI_MAJOR, MODEL_SCHEMA, MajorMinor, PluginDescription, PluginVersions, features,
};

/// Why a plugin could not be loaded. Each message names the file and says what to do.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{path}: cannot be loaded as a dynamic library: {reason}")]
    Open { path: PathBuf, reason: String },
    #[error(
        "{path}: not a toolport plugin: it does not export the symbol `toolport_plugin_entry` (build it with toolport_plugin::declare_plugin!)"
    )]
    MissingEntry { path: PathBuf },
    #[error(
        "{path}: not a toolport plugin: its table starts with {found:#018x}, not the toolport magic {ABI_MAGIC:#018x}"
    )]
    WrongMagic { path: PathBuf, found: u64 },
    #[error(
        "{path}: plugin speaks plugin ABI {found}.x, this convert speaks ABI {ABI} and loads plugins of ABI {ABI_MAJOR}.x; rebuild the plugin against toolport-plugin {host_sdk} (or use a convert that speaks ABI {found}.x)"
    )]
    AbiVersion { path: PathBuf, found: u32, host_sdk: &'static str },
    #[error(
        "{path}: plugin table is {found} bytes, but every ABI {ABI_MAJOR}.x table has at least {expected}; the plugin was not built by toolport-plugin; rebuild it"
    )]
    TableSize { path: PathBuf, found: u32, expected: u32 },
    #[error("{path}: plugin table has no `{entry}` function; the plugin was not built by toolport-plugin; rebuild it")]
    NullEntry { path: PathBuf, entry: &'static str },
    #[error(
        "{path}: plugin uses model schema {found}, this convert uses {MODEL_SCHEMA} and loads plugins of model schema {MODEL_SCHEMA_MAJOR}.x; rebuild the plugin against toolport-plugin {host_sdk} (or use a convert of model schema {}.x)", found.major
    )]
    ModelVersion { path: PathBuf, found: MajorMinor, host_sdk: &'static str },
    #[error("{path}: plugin failed to describe itself: {reason}")]
    Describe { path: PathBuf, reason: String },
    /// Loading in a child process failed; the message names the file.
    #[error("{0}")]
    Isolated(String),
    /// Not loaded: it declares more than [`crate::registry::MAX_FORMATS_PER_PLUGIN`] formats.
    #[error(
        "{path}: not loaded: it declares {count} formats, more than the {} one plugin may declare",
        crate::registry::MAX_FORMATS_PER_PLUGIN
    )]
    TooManyFormats { path: PathBuf, count: usize },
    /// Not loaded: someone else could have put it there ([`crate::discovery::check_trusted`]).
    #[error("{path}: not loaded: {reason}")]
    Untrusted { path: PathBuf, reason: crate::discovery::Untrusted },
}

/// A loaded plugin library and the formats it exports, reached through a [`Transport`].
#[derive(Debug)]
pub struct LoadedPlugin {
    pub path: PathBuf,
    pub description: PluginDescription,
    /// The ABI and model versions its table declares.
    pub versions: PluginVersions,
    transport: Box<dyn Transport>,
    /// The entries that hand the model over natively: only in process, with this host's build
    /// fingerprint, and unless `TOOLPORT_MODEL_HANDOVER=json`.
    native: Option<load::NativeEntries>,
    /// Why detection failed (a crash, a time-out), if it did: the plugin is not asked to
    /// detect again in this run, so one hanging `detect` cannot stall every input.
    detect_failure: std::sync::Mutex<Option<String>>,
}

impl LoadedPlugin {
    /// Loads the library at `path` in a child process started from `helper` (the plugin
    /// host executable), which runs the same handshake there.
    pub fn load_isolated(path: &Path, helper: &Path, limits: IsolationLimits) -> Result<Arc<LoadedPlugin>, LoadError> {
        let (transport, description, versions) = Isolated::start(helper, path, limits).map_err(|reason| {
            // The child's own load errors name the file already; its crashes and time-outs do not.
            if reason.contains(&*path.to_string_lossy()) {
                LoadError::Isolated(reason)
            } else {
                LoadError::Isolated(format!("{}: {reason}", path.display()))
            }
        })?;
        Ok(Arc::new(LoadedPlugin {
            path: path.to_path_buf(),
            description,
            versions,
            transport: Box::new(transport),
            native: None,
            detect_failure: Default::default(),
        }))
    }

    /// Why this plugin's detection failed in this run, if it did.
    pub fn detect_failure(&self) -> Option<String> {
        self.detect_failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Whether the plugin runs in its own process.
    pub fn isolated(&self) -> bool {
        self.transport.isolated()
    }

    /// Whether the model is handed over natively to and from this plugin: it is in process,
    /// of this host's build, and JSON is not forced.
    pub fn hands_over_natively(&self) -> bool {
        self.native.is_some()
    }

    /// Whether the plugin keeps model fields it does not know ([`features::MODEL_UNKNOWN_FIELDS`]);
    /// plugins built with SDK 1.0 refuse them.
    pub fn keeps_unknown_fields(&self) -> bool {
        self.description.has_feature(features::MODEL_UNKNOWN_FIELDS)
    }

    /// Calls one function with a JSON request and returns its JSON response, unread: for the
    /// plugin host executable, which relays calls to a library it loaded in process.
    pub fn call_raw(&self, op: Op, index: u32, request: &[u8]) -> Result<Vec<u8>, CallError> {
        self.transport.call(op, index, request)
    }

    /// Whether the plugin reads requests with a bundle's texts beside the JSON
    /// ([`features::TEXTS_BESIDE_JSON`]); it then answers in that form too.
    pub fn takes_texts_beside(&self) -> bool {
        self.description.has_feature(features::TEXTS_BESIDE_JSON)
    }

    /// A request without a bundle, in the form this plugin reads: beside-texts form (with no
    /// texts) for plugins that have it, so that their answer comes in that form.
    fn encode<Req: Serialize>(&self, request: &Req) -> serde_json::Result<Vec<u8>> {
        if self.takes_texts_beside() { texts::encode(request, &[]) } else { serde_json::to_vec(request) }
    }

    /// A request around `bundle`, built by `encode` from the bundle it is given: for plugins
    /// that read the form, a copy of `bundle` without its texts, which then travel beside the
    /// JSON instead of escaped inside it.
    fn encode_with_bundle(
        &self,
        bundle: &Bundle,
        encode: impl FnOnce(&Bundle) -> serde_json::Result<Vec<u8>>,
    ) -> serde_json::Result<Vec<u8>> {
        if !self.takes_texts_beside() {
            return encode(bundle);
        }
        let (shell, texts) = texts::hollow(bundle);
        Ok(texts::frame(&encode(&shell)?, &texts))
    }

    /// Calls one table function with a request and decodes its outcome. A response that is not
    /// valid JSON of the expected shape becomes a failed outcome naming the plugin.
    fn call<Req: Serialize, T: DeserializeOwned + CarriesBundle>(
        &self,
        op: Op,
        index: u32,
        request: &Req,
    ) -> Outcome<T> {
        self.call_encoded(op, index, self.encode(request))
    }

    /// [`LoadedPlugin::call`] with the request already encoded (one encoding can serve many
    /// plugins: detection sends the same bundle to each).
    fn call_encoded<T: DeserializeOwned + CarriesBundle>(
        &self,
        op: Op,
        index: u32,
        request: serde_json::Result<impl AsRef<[u8]>>,
    ) -> Outcome<T> {
        match self.exchange(op, index, request) {
            Ok(answer) => self.outcome_of(op, &answer),
            Err(failure) => Outcome::fail(failure),
        }
    }

    /// Sends an encoded request and returns the plugin's answer, unread; a failure to encode
    /// or to call is the diagnostic saying so.
    fn exchange(
        &self,
        op: Op,
        index: u32,
        request: serde_json::Result<impl AsRef<[u8]>>,
    ) -> Result<Vec<u8>, Diagnostic> {
        let request = request.map_err(|e| self.failure(op.name(), &format!("could not encode the request: {e}")))?;
        self.transport.call(op, index, request.as_ref()).map_err(|e| {
            let code = match e {
                CallError::TimedOut(_) => codes::PLUGIN_TIMEOUT,
                CallError::Crashed(_) => codes::PLUGIN_CRASHED,
                CallError::Spawn(_) => codes::PLUGIN_FAILED,
            };
            let mut failure = self.failure(op.name(), &e.to_string());
            failure.code = code.to_owned();
            failure
        })
    }

    /// Decodes an answer to `op` (its value may borrow from it). An answer that is not valid
    /// JSON of the expected shape, or that has no value and no error, is a failure naming the
    /// plugin.
    fn outcome_of<'a, T: Deserialize<'a> + CarriesBundle>(&self, op: Op, answer: &'a [u8]) -> Outcome<T> {
        match texts::decode::<Outcome<T>>(answer) {
            // A failure the plugin does not explain would fail the input without a word.
            Ok((outcome, _)) if outcome.value.is_none() && !outcome.has_errors() => {
                let mut diagnostics = outcome.diagnostics;
                diagnostics.push(self.failure(op.name(), "answered without a value and without an error saying why"));
                Outcome::failed(diagnostics)
            }
            Ok((outcome, _)) => outcome,
            Err(e) => Outcome::fail(self.failure(op.name(), &format!("returned invalid JSON: {e}"))),
        }
    }

    fn failure(&self, op: &str, message: &str) -> Diagnostic {
        failure(&self.description.name, &self.path, op, message)
    }
}

/// A failure of the plugin `name` at `path` in `op`, naming both.
fn failure(name: &str, path: &Path, op: &str, message: &str) -> Diagnostic {
    Diagnostic::error(codes::PLUGIN_FAILED, "", format!("plugin {name} ({}) {op}: {message}", path.display()))
}
