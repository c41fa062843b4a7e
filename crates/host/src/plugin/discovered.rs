//! A plugin discovery found: loaded at once, or described from the description cache
//! ([`crate::descriptions`]) and loaded when one of its formats is first used.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use toolport_plugin::abi::PluginDescription;

use super::{LoadError, LoadedPlugin};

/// Loads a described plugin, once.
type Loader = Box<dyn FnOnce() -> Result<Arc<LoadedPlugin>, LoadError> + Send>;

/// A plugin library discovery found, with what it says of itself.
pub struct DiscoveredPlugin {
    pub path: PathBuf,
    pub description: PluginDescription,
    loaded: OnceLock<Result<Arc<LoadedPlugin>, String>>,
    loader: Mutex<Option<Loader>>,
    /// Whether loading it failed while detection asked it (the failure is then said once for
    /// the run, as a detection failure; a failed read or write says it in its own diagnostics).
    failed_in_detection: AtomicBool,
}

impl std::fmt::Debug for DiscoveredPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscoveredPlugin").field("path", &self.path).field("loaded", &self.loaded.get()).finish()
    }
}

impl DiscoveredPlugin {
    /// A plugin loaded already.
    pub fn loaded(plugin: Arc<LoadedPlugin>) -> Arc<DiscoveredPlugin> {
        Arc::new(DiscoveredPlugin {
            path: plugin.path.clone(),
            description: plugin.description.clone(),
            loaded: OnceLock::from(Ok(plugin)),
            loader: Mutex::new(None),
            failed_in_detection: AtomicBool::new(false),
        })
    }

    /// A plugin known by its cached `description`, loaded by `loader` when first used.
    pub fn described(
        path: &Path,
        description: PluginDescription,
        loader: impl FnOnce() -> Result<Arc<LoadedPlugin>, LoadError> + Send + 'static,
    ) -> Arc<DiscoveredPlugin> {
        Arc::new(DiscoveredPlugin {
            path: path.to_path_buf(),
            description,
            loaded: OnceLock::new(),
            loader: Mutex::new(Some(Box::new(loader))),
            failed_in_detection: AtomicBool::new(false),
        })
    }

    /// The plugin, loaded now if it was only described; why it cannot be, naming the file. A
    /// plugin that describes itself otherwise than the cache did is refused: the formats the
    /// run chose by the cache's word may not be the library's (the loader corrects the cache,
    /// so the next run lists the library as it is).
    pub fn get(&self) -> Result<&Arc<LoadedPlugin>, &str> {
        let loaded = self.loaded.get_or_init(|| {
            let loader = self.loader.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
            let Some(loader) = loader else { return Err(format!("{}: could not be loaded", self.path.display())) };
            match loader() {
                Ok(plugin) if plugin.description == self.description => Ok(plugin),
                Ok(_) => Err(format!(
                    "{}: describes itself otherwise than the plugin cache said when this run listed the formats (the library was replaced, or the cache edited); the cache is corrected: run convert again",
                    self.path.display()
                )),
                Err(e) => Err(e.to_string()),
            }
        });
        loaded.as_ref().map_err(String::as_str)
    }

    /// Whether the library is loaded (a described one is not until first used).
    pub fn is_loaded(&self) -> bool {
        self.loaded.get().is_some_and(Result::is_ok)
    }

    /// The plugin for detection: as [`DiscoveredPlugin::get`], a failure to load remembered as
    /// this run's detection failure.
    pub fn get_for_detection(&self) -> Option<&Arc<LoadedPlugin>> {
        let got = self.get().ok();
        if got.is_none() {
            self.failed_in_detection.store(true, Ordering::Relaxed);
        }
        got
    }

    /// Why this plugin's detection failed in this run, if it did: a failure to load while
    /// detection asked it included.
    pub fn detect_failure(&self) -> Option<String> {
        match self.loaded.get()? {
            Ok(plugin) => plugin.detect_failure(),
            Err(e) if self.failed_in_detection.load(Ordering::Relaxed) => Some(e.clone()),
            Err(_) => None,
        }
    }
}
