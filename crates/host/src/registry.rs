//! The registry: format names and aliases → formats, with where each came from and what
//! failed to load. Plugin-backed and linked-in formats look the same to callers.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use toolport_core::format::common_options;
use toolport_core::{Bundle, Detection, Format, FormatInfo, InputShape, OptionKind, OptionSpec, Options};

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

/// No format with that name; suggests the closest name and lists the ones there are.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown format `{name}`{}; known formats: {}",
    suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default(),
    if known.is_empty() { "none (no plugins were found)".to_owned() } else { known.join(", ") }
)]
pub struct UnknownFormat {
    pub name: String,
    /// The known id or alias closest to `name`, when it is likely a typo of it.
    pub suggestion: Option<String>,
    pub known: Vec<String>,
}

/// The candidate closest to `name` when `name` is likely a typo of it (a few letters added,
/// left out, swapped or changed), else `None`.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&name, &c.to_lowercase()), c))
        .filter(|(distance, c)| *distance <= (c.chars().count() / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

/// An `--option` that the formats of a run do not take, or a value they do not accept.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct OptionError(pub String);

/// Checks `options` against what `formats` declare ([`FormatInfo::options`]) and the options
/// every format takes ([`common_options`]): an unknown key (with the closest known one and
/// the list), or a value a declaring format does not accept, is an error. A format that
/// declares nothing (`options: None`, a plugin built before declarations) lets unknown keys
/// through: it may take them.
pub fn check_options(options: &Options, formats: &[&FormatEntry]) -> Result<(), OptionError> {
    let common = common_options();
    let mut specs: Vec<(&str, &OptionSpec)> = Vec::new();
    let mut undeclared = Vec::new();
    for format in formats {
        match &format.info.options {
            Some(declared) => specs.extend(declared.iter().map(|s| (format.info.id.as_str(), s))),
            None => undeclared.push(format.info.id.as_str()),
        }
    }
    specs.extend(common.iter().map(|s| ("every format", s)));
    let names: Vec<&str> = formats.iter().map(|f| f.info.id.as_str()).collect();
    let whose = if names.is_empty() { "any format".to_owned() } else { names.join(" or ") };
    for (key, value) in &options.0 {
        let declaring: Vec<&(&str, &OptionSpec)> = specs.iter().filter(|(_, s)| s.key == *key).collect();
        if declaring.is_empty() {
            if !undeclared.is_empty() {
                continue;
            }
            let mut message = format!("--option {key}={value}: {whose} takes no option `{key}`");
            let mut keys: Vec<&str> = specs.iter().map(|(_, s)| s.key.as_str()).collect();
            keys.dedup();
            if let Some(near) = did_you_mean(key, keys.iter().copied()) {
                message.push_str(&format!("; did you mean `{near}`?"));
            }
            message.push_str(&format!("\n{}", option_list(&specs)));
            return Err(OptionError(message));
        }
        for (format, spec) in declaring {
            if let Err(takes) = spec.check(value) {
                let mut message = format!("--option {key}={value}: `{key}` of {format} {takes}");
                if spec.kind == OptionKind::OneOf
                    && let Some(near) = did_you_mean(value, spec.values.iter().map(String::as_str))
                {
                    message.push_str(&format!("; did you mean `{key}={near}`?"));
                }
                return Err(OptionError(message));
            }
        }
    }
    Ok(())
}

/// The options a run takes, one a line: `key=VALUES  (format) help`.
fn option_list(specs: &[(&str, &OptionSpec)]) -> String {
    let keys: Vec<String> = specs.iter().map(|(_, s)| format!("{}={}", s.key, s.value_hint())).collect();
    let width = keys.iter().map(String::len).max().unwrap_or(0);
    let items: Vec<String> =
        specs.iter().zip(&keys).map(|((format, s), key)| format!("  {key:<width$}  ({format}) {}", s.help)).collect();
    format!("the options taken here:\n{}", items.join("\n"))
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
        self.get(name).ok_or_else(|| {
            let names = self.formats.iter().flat_map(|f| std::iter::once(&f.info.id).chain(&f.info.aliases));
            UnknownFormat {
                name: name.to_owned(),
                suggestion: did_you_mean(name, names.map(String::as_str)).map(str::to_owned),
                known: self.formats.iter().map(|f| f.info.id.clone()).collect(),
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_finds_typos_only() {
        let names = ["anthropic", "gemini", "openai", "formats", "strict", "json"];
        for (typo, meant) in
            [("antropic", "anthropic"), ("formatz", "formats"), ("strcit", "strict"), ("jsonn", "json")]
        {
            assert_eq!(did_you_mean(typo, names), Some(meant), "{typo}");
        }
        assert_eq!(did_you_mean("yaml", names), None);
        assert_eq!(did_you_mean("x", names), None);
    }
}
