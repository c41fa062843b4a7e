//! The registry: format names and aliases → formats, with where each came from and what
//! failed to load. Plugin-backed and linked-in formats look the same to callers.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use toolport_core::{Bundle, Detection, Format, FormatInfo, InputShape};

use crate::discovery::{self, DiscoveryConfig, SearchDir};
use crate::plugin::{LoadError, LoadedPlugin, PluginFormat};

/// One available format.
#[derive(Clone)]
pub struct FormatEntry {
    pub info: FormatInfo,
    pub format: Arc<dyn Format>,
    /// The same format as a plugin, for conversions that pass the model between plugins
    /// without decoding it; `None` for a format linked into the host.
    pub plugin: Option<PluginFormat>,
    /// The plugin library it came from; `None` for a format linked into the host.
    pub plugin_path: Option<PathBuf>,
    pub plugin_version: Option<String>,
}

impl std::fmt::Debug for FormatEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FormatEntry").field("id", &self.info.id).field("plugin", &self.plugin_path).finish()
    }
}

/// A format that a later plugin also provided; the earlier one is used.
#[derive(Clone, Debug)]
pub struct Shadowed {
    pub id: String,
    pub plugin_path: PathBuf,
    pub used_from: Option<PathBuf>,
}

#[derive(Debug, Default)]
pub struct Registry {
    formats: Vec<FormatEntry>,
    /// Plugins that failed to load, with why. The others keep working.
    pub load_errors: Vec<LoadError>,
    pub shadowed: Vec<Shadowed>,
    /// Every directory searched, in order.
    pub searched: Vec<SearchDir>,
}

/// No format with that name; lists the ones there are.
#[derive(Debug, thiserror::Error)]
#[error("unknown format `{name}`; known formats: {}", if known.is_empty() { "none (no plugins were found)".to_owned() } else { known.join(", ") })]
pub struct UnknownFormat {
    pub name: String,
    pub known: Vec<String>,
}

impl Registry {
    /// Finds and loads every plugin the configuration points to.
    pub fn discover(config: &DiscoveryConfig) -> Registry {
        let mut registry = Registry { searched: config.search_dirs(), ..Registry::default() };
        let mut seen_files = HashSet::new();
        for search in registry.searched.clone() {
            for path in discovery::candidates(&search) {
                let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                if !seen_files.insert(key) {
                    continue;
                }
                let loaded = match (&config.isolation.helper, config.isolation.isolates(&search)) {
                    (Some(helper), true) => LoadedPlugin::load_isolated(&path, helper, config.isolation.limits),
                    (None, true) => Err(LoadError::Isolated(format!(
                        "{}: runs in its own process, but no plugin host executable ({}) is known; reinstall convert, or use --isolate never for plugins you trust",
                        path.display(),
                        crate::discovery::PLUGIN_HOST_EXE
                    ))),
                    (_, false) => LoadedPlugin::load(&path),
                };
                match loaded {
                    Ok(plugin) => {
                        for format in plugin.formats() {
                            let entry = FormatEntry {
                                info: format.info(),
                                plugin_path: Some(path.clone()),
                                plugin_version: Some(plugin.description.version.clone()),
                                plugin: Some(format.clone()),
                                format: Arc::new(format),
                            };
                            registry.add(entry);
                        }
                    }
                    Err(e) => registry.load_errors.push(e),
                }
            }
        }
        registry
    }

    /// Adds a format; if its id (or an alias) is taken, the earlier one stays and this one
    /// is recorded as shadowed.
    pub fn add(&mut self, entry: FormatEntry) {
        let names: Vec<&str> =
            std::iter::once(entry.info.id.as_str()).chain(entry.info.aliases.iter().map(String::as_str)).collect();
        if let Some(existing) = names.iter().find_map(|n| self.get(n)) {
            self.shadowed.push(Shadowed {
                id: entry.info.id.clone(),
                plugin_path: entry.plugin_path.clone().unwrap_or_default(),
                used_from: existing.plugin_path.clone(),
            });
            return;
        }
        self.formats.push(entry);
    }

    /// Adds a format linked into this program (library users, tests).
    pub fn add_linked(&mut self, format: Arc<dyn Format>) {
        self.add(FormatEntry { info: format.info(), format, plugin: None, plugin_path: None, plugin_version: None });
    }

    pub fn formats(&self) -> &[FormatEntry] {
        &self.formats
    }

    fn get(&self, name: &str) -> Option<&FormatEntry> {
        self.formats.iter().find(|f| f.info.id == name || f.info.aliases.iter().any(|a| a == name))
    }

    /// The format with this id or alias.
    pub fn format(&self, name: &str) -> Result<&FormatEntry, UnknownFormat> {
        self.get(name).ok_or_else(|| UnknownFormat {
            name: name.to_owned(),
            known: self.formats.iter().map(|f| f.info.id.clone()).collect(),
        })
    }

    /// Problems plugins had during this run that did not fail an input (a detection that
    /// crashed or timed out), one line per plugin.
    pub fn plugin_troubles(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        self.formats
            .iter()
            .filter_map(|f| f.plugin.as_ref())
            .filter(|p| seen.insert(p.plugin().path.clone()))
            .filter_map(|p| p.plugin().detect_failure())
            .collect()
    }

    /// A warning for a run that uses format `id` when more than one plugin provides it,
    /// naming the file used and the files ignored.
    pub fn shadowing_warning(&self, id: &str) -> Option<String> {
        let ignored: Vec<String> =
            self.shadowed.iter().filter(|s| s.id == id).map(|s| s.plugin_path.display().to_string()).collect();
        if ignored.is_empty() {
            return None;
        }
        let used =
            self.get(id)?.plugin_path.as_ref().map_or_else(|| "this program".to_owned(), |p| p.display().to_string());
        Some(format!(
            "format {id} is provided by more than one plugin: using {used}, ignoring {} (earlier places win; see `convert formats`)",
            ignored.join(", ")
        ))
    }

    /// The readable formats that recognise this bundle, most confident first (ties in
    /// registry order). Only formats whose input shape fits are asked.
    pub fn detect(&self, bundle: &Bundle, is_directory: bool) -> Vec<(&FormatEntry, Detection)> {
        let mut found: Vec<(&FormatEntry, Detection)> = self
            .formats
            .iter()
            .filter(|f| f.info.reads && (f.info.input == InputShape::Directory) == is_directory)
            .map(|f| (f, f.format.detect(bundle)))
            .filter(|(_, confidence)| *confidence > 0)
            .collect();
        found.sort_by_key(|(_, confidence)| std::cmp::Reverse(*confidence));
        found
    }
}
