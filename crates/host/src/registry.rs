//! The registry: format names and aliases → formats, with where each came from and what
//! failed to load. Plugin-backed and linked-in formats look the same to callers.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use toolport_core::format::common_options;
use toolport_core::{Bundle, Detection, Format, FormatInfo, InputShape, OptionKind, OptionSpec, Options};

use crate::descriptions::{DescriptionCache, FileIdentity};
use crate::discovery::{self, DiscoveryConfig, Isolation, Origin, SearchDir};
use crate::plugin::{DetectRequests, DiscoveredPlugin, LoadError, LoadedPlugin, PluginFormat};
use toolport_plugin::abi::PluginDescription;

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
    /// Where its plugin was found; `None` for a format linked into the host.
    pub origin: Option<Origin>,
}

impl FormatEntry {
    /// Whether it is installed with convert (a built-in format), not added from elsewhere.
    pub fn built_in(&self) -> bool {
        self.origin.is_none_or(|o| o == Origin::BesideExecutable)
    }
}

/// The most formats one plugin may declare: a plugin declares the few formats it is for, and
/// every format declared is asked and listed on every run (40,000 cost seconds each time).
pub const MAX_FORMATS_PER_PLUGIN: usize = 64;

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

pub use toolport_core::suggest::did_you_mean;

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
    // A conversion from a format to itself names it once (its options listed once).
    let mut distinct: Vec<&FormatEntry> = Vec::with_capacity(formats.len());
    for format in formats {
        if !distinct.iter().any(|seen| seen.info.id == format.info.id) {
            distinct.push(format);
        }
    }
    let formats = distinct.as_slice();
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
        let mut found = Vec::new();
        for search in &registry.searched {
            for path in discovery::candidates(search) {
                let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                if !seen_files.insert(key) {
                    continue;
                }
                // Plugins installed with convert are as safe as convert itself: whoever could
                // replace them could replace it (and a group-writable /usr/local is common).
                let checked = search.origin != Origin::BesideExecutable && !config.allow_unsafe_dirs;
                match if checked { discovery::check_trusted(&path) } else { Ok(()) } {
                    Err(reason) => {
                        registry.load_errors.push(LoadError::Untrusted { path, reason });
                    }
                    _ => found.push((path, config.isolation.isolates(search), search.origin)),
                }
            }
        }
        // A library the description cache knows as it is now is loaded when first used; the
        // others are loaded now. An isolated plugin is a child process that loads its library
        // and says hello: the children are started together and load side by side,
        // in-process plugins meanwhile.
        let mut cache = DescriptionCache::open(config.description_cache.as_deref());
        let identities: Vec<Option<FileIdentity>> = found
            .iter()
            .map(|(path, _, _)| config.description_cache.as_ref().and_then(|_| FileIdentity::of(path)))
            .collect();
        let described: Vec<Option<PluginDescription>> = found
            .iter()
            .zip(&identities)
            .map(|((path, _, _), identity)| {
                let known = identity.as_ref().filter(|_| !config.load_every_plugin);
                known.and_then(|id| cache.description(path, id)).cloned()
            })
            .collect();
        let loaded: Vec<Option<Result<Arc<LoadedPlugin>, LoadError>>> = std::thread::scope(|scope| {
            let loading: Vec<_> = found
                .iter()
                .zip(&described)
                .map(|((path, isolate, _), described)| match (described, *isolate) {
                    (Some(_), _) => Loading::Later,
                    (None, true) => Loading::Started(scope.spawn(|| load(&config.isolation, path, true))),
                    (None, false) => Loading::Done(load(&config.isolation, path, false)),
                })
                .collect();
            loading
                .into_iter()
                .zip(&found)
                .map(|(loading, (path, _, _))| match loading {
                    Loading::Later => None,
                    Loading::Done(loaded) => Some(loaded),
                    Loading::Started(thread) => Some(thread.join().unwrap_or_else(|_| {
                        Err(LoadError::Isolated(format!("{}: starting its process failed", path.display())))
                    })),
                })
                .collect()
        });
        let found = found.into_iter().zip(identities).zip(described).zip(loaded);
        for ((((path, isolate, origin), identity), described), loaded) in found {
            let plugin = match (described, loaded) {
                (Some(description), _) => described_plugin(config, &path, identity, description, isolate),
                (None, Some(Ok(plugin))) => {
                    if let Some(identity) = identity {
                        cache.remember(&path, identity, &plugin.description);
                    }
                    DiscoveredPlugin::loaded(plugin)
                }
                (None, Some(Err(e))) => {
                    registry.load_errors.push(e);
                    continue;
                }
                (None, None) => continue,
            };
            let count = plugin.description.formats.len();
            if count > MAX_FORMATS_PER_PLUGIN {
                registry.load_errors.push(LoadError::TooManyFormats { path, count });
                continue;
            }
            for format in plugin.formats() {
                let entry = FormatEntry {
                    info: format.info(),
                    plugin_path: Some(path.clone()),
                    plugin_version: Some(plugin.description.version.clone()),
                    plugin: Some(format.clone()),
                    format: Arc::new(format),
                    origin: Some(origin),
                };
                registry.add(entry);
            }
        }
        cache.save();
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
        self.add(FormatEntry {
            info: format.info(),
            format,
            plugin: None,
            plugin_path: None,
            plugin_version: None,
            origin: None,
        });
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
        // A format linked into this program has no file (the Python module's, shadowed by a
        // plugin of the same id).
        let name = |path: &std::path::Path| match path.as_os_str().is_empty() {
            true => "the one built into this program".to_owned(),
            false => path.display().to_string(),
        };
        let ignored: Vec<String> = self.shadowed.iter().filter(|s| s.id == id).map(|s| name(&s.plugin_path)).collect();
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
        let candidates: Vec<&FormatEntry> = self
            .formats
            .iter()
            .filter(|f| f.info.reads && (f.info.input == InputShape::Directory) == is_directory)
            .collect();
        let candidates = by_extension(candidates, bundle);
        // A large file is first shown as its start: most formats tell themselves apart by
        // their first keys, and a full text would be copied to and parsed by every plugin.
        // A JSON object whose telling keys come late (Stripe's `openapi` follows 4 MB of
        // `components`) is then shown as its outline: one scan here instead of one per format.
        // Each view is made only if the one before settled nothing.
        let views: [fn(&Bundle) -> Option<Bundle>; 2] = [prefix_of, outline_of];
        for partial in views.into_iter().filter_map(|view| view(bundle)) {
            let found = rank(&candidates, &partial);
            if found.first().is_some_and(|(_, confidence)| *confidence >= CONFIDENT) {
                return found;
            }
        }
        rank(&candidates, bundle)
    }
}

/// A plugin being loaded by [`Registry::discover`]: in a thread of its own, or already.
enum Loading<'s> {
    /// Described by the cache: loaded when first used.
    Later,
    Started(std::thread::ScopedJoinHandle<'s, Result<Arc<LoadedPlugin>, LoadError>>),
    Done(Result<Arc<LoadedPlugin>, LoadError>),
}

/// The library at `path`, which the description cache describes (`description`, for the file
/// of `identity`), to be loaded when first used: as [`load`] would load it now, the cache
/// corrected if the library describes itself otherwise (and [`DiscoveredPlugin`] then refuses
/// this run's call).
fn described_plugin(
    config: &DiscoveryConfig,
    path: &std::path::Path,
    identity: Option<FileIdentity>,
    description: PluginDescription,
    isolate: bool,
) -> Arc<DiscoveredPlugin> {
    let isolation = config.isolation.clone();
    let (at, cached) = (path.to_path_buf(), description.clone());
    let correct = config.description_cache.clone().zip(identity);
    DiscoveredPlugin::described(path, description, move || {
        let plugin = load(&isolation, &at, isolate)?;
        if let Some((file, identity)) = correct.filter(|_| plugin.description != cached) {
            DescriptionCache::correct(&file, &at, identity, &plugin.description);
        }
        Ok(plugin)
    })
}

/// Loads one plugin, in this process or (`isolate`) in a child process.
fn load(isolation: &Isolation, path: &std::path::Path, isolate: bool) -> Result<Arc<LoadedPlugin>, LoadError> {
    match (&isolation.helper, isolate) {
        (Some(helper), true) => LoadedPlugin::load_isolated(path, helper, isolation.limits),
        (None, true) => Err(LoadError::Isolated(format!(
            "{}: runs in its own process, but no plugin host executable ({}) is known; reinstall convert, or use --isolate never for plugins you trust",
            path.display(),
            crate::discovery::PLUGIN_HOST_EXE
        ))),
        (_, false) => LoadedPlugin::load(path),
    }
}

/// How much of a large file the first round of detection sees.
pub const DETECTION_PREFIX: usize = 64 * 1024;

/// A detection confidence at or above this makes a directory one input rather than a tree
/// of inputs, and ends detection at its first round.
pub const CONFIDENT: Detection = 50;

/// The formats that declare the entry file's extension, or all of them when none does (a
/// format that declares no extensions is always asked).
fn by_extension<'a>(candidates: Vec<&'a FormatEntry>, bundle: &Bundle) -> Vec<&'a FormatEntry> {
    let Some(extension) = bundle.entry_file().and_then(|(name, _)| name.rsplit_once('.')).map(|(_, e)| e) else {
        return candidates;
    };
    let declares = |f: &FormatEntry| f.info.extensions.iter().any(|e| e.eq_ignore_ascii_case(extension));
    if !candidates.iter().any(|f| declares(f)) {
        return candidates;
    }
    candidates.into_iter().filter(|f| f.info.extensions.is_empty() || declares(f)).collect()
}

/// The bundle with its entry file cut to [`DETECTION_PREFIX`] bytes (at a character
/// boundary), when it is longer.
fn prefix_of(bundle: &Bundle) -> Option<Bundle> {
    let (name, text) = bundle.entry_file()?;
    if text.len() <= DETECTION_PREFIX {
        return None;
    }
    let end = (0..=DETECTION_PREFIX).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let mut prefix = Bundle { entry: Some(name.to_owned()), ..Bundle::default() };
    prefix.files.insert(name.to_owned(), text[..end].to_owned());
    Some(prefix)
}

/// How long a top-level value an outline keeps as written; a longer one is emptied.
const OUTLINE_VALUE: usize = 1024;

/// The bundle with its entry file, a JSON object longer than [`DETECTION_PREFIX`], cut to its
/// outline: the top-level members in their order, each value longer than [`OUTLINE_VALUE`]
/// emptied (`{}`, `[]`, `""`). `None` for a shorter file or one that is not a JSON object.
fn outline_of(bundle: &Bundle) -> Option<Bundle> {
    let (name, text) = bundle.entry_file()?;
    if text.len() <= DETECTION_PREFIX {
        return None;
    }
    let members = toolport_core::source::top_level_members(text)?;
    let mut outline = String::from("{");
    for (i, member) in members.iter().enumerate() {
        if i > 0 {
            outline.push(',');
        }
        let value = match member.value.as_bytes().first() {
            _ if member.value.len() <= OUTLINE_VALUE => member.value,
            Some(b'{') => "{}",
            Some(b'[') => "[]",
            Some(b'"') => "\"\"",
            // A malformed text's value: left out, so that the outline stays JSON.
            _ => "null",
        };
        outline.extend(["\"", member.key, "\":", value]);
    }
    outline.push('}');
    let mut shown = Bundle { entry: Some(name.to_owned()), ..Bundle::default() };
    shown.files.insert(name.to_owned(), outline);
    Some(shown)
}

/// Every candidate's confidence that `bundle` is its own, most confident first, zeros left out.
fn rank<'a>(candidates: &[&'a FormatEntry], bundle: &Bundle) -> Vec<(&'a FormatEntry, Detection)> {
    // Plugins get the same request bytes: a large file is encoded once, not once per format.
    let requests = DetectRequests::new(bundle);
    let mut found: Vec<(&FormatEntry, Detection)> = candidates
        .iter()
        .map(|f| {
            let confidence = match &f.plugin {
                Some(plugin) => plugin.detect_with(&requests),
                None => f.format.detect(bundle),
            };
            (*f, confidence)
        })
        .filter(|(_, confidence)| *confidence > 0)
        .collect();
    found.sort_by_key(|(_, confidence)| std::cmp::Reverse(*confidence));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A format that claims a file when its text contains `marker`, counting what it was shown.
    struct Marker {
        id: &'static str,
        extensions: &'static [&'static str],
        marker: &'static str,
        shown: std::sync::Mutex<Vec<usize>>,
    }

    impl Format for Marker {
        fn info(&self) -> FormatInfo {
            FormatInfo {
                id: self.id.into(),
                aliases: vec![],
                description: String::new(),
                version: "0".into(),
                reads: true,
                writes: false,
                input: InputShape::File,
                extensions: self.extensions.iter().map(|e| e.to_string()).collect(),
                options: None,
                limits: Default::default(),
            }
        }
        fn detect(&self, input: &Bundle) -> Detection {
            let (_, text) = input.entry_file().unwrap();
            self.shown.lock().unwrap().push(text.len());
            if text.contains(self.marker) { 90 } else { 0 }
        }
        fn read(&self, _: &Bundle, _: &Options) -> toolport_core::Outcome<toolport_core::ToolSet> {
            unreachable!()
        }
        fn write(&self, _: &toolport_core::ToolSet, _: &Options) -> toolport_core::Outcome<Bundle> {
            unreachable!()
        }
    }

    fn registry(formats: Vec<Arc<Marker>>) -> Registry {
        let mut registry = Registry::default();
        for format in formats {
            registry.add_linked(format);
        }
        registry
    }

    fn marker(id: &'static str, extensions: &'static [&'static str], marker: &'static str) -> Arc<Marker> {
        Arc::new(Marker { id, extensions, marker, shown: Default::default() })
    }

    fn file(name: &str, text: String) -> Bundle {
        let mut bundle = Bundle { entry: Some(name.into()), ..Bundle::default() };
        bundle.files.insert(name.into(), text);
        bundle
    }

    #[test]
    fn a_large_file_is_settled_by_its_start_when_a_format_is_sure() {
        let (early, late) = (marker("early", &["json"], "EARLY"), marker("late", &["json"], "LATE"));
        let registry = registry(vec![early.clone(), late.clone()]);
        let big = format!("EARLY{}LATE", " ".repeat(DETECTION_PREFIX * 2));
        let found = registry.detect(&file("spec.json", big.clone()), false);
        assert_eq!(found.iter().map(|(f, c)| (f.info.id.as_str(), *c)).collect::<Vec<_>>(), [("early", 90)]);
        assert_eq!(*late.shown.lock().unwrap(), [DETECTION_PREFIX], "only the start is shown");

        // Nobody is sure from the start: everyone sees the whole file.
        let unsure = format!("{}LATE", " ".repeat(DETECTION_PREFIX * 2));
        let found = registry.detect(&file("spec.json", unsure.clone()), false);
        assert_eq!(found.iter().map(|(f, _)| f.info.id.as_str()).collect::<Vec<_>>(), ["late"]);
        assert_eq!(late.shown.lock().unwrap()[1..], [DETECTION_PREFIX, unsure.len()]);
    }

    #[test]
    fn a_large_json_object_is_then_settled_by_its_outline() {
        let (late, absent) = (marker("late", &["json"], r#""LATE":"3.1""#), marker("absent", &["json"], "ABSENT"));
        let registry = registry(vec![absent.clone(), late.clone()]);
        let filler = "x".repeat(DETECTION_PREFIX * 2);
        let big = format!(r#"{{"components": {{"a": "{filler}", "ABSENT": 1}}, "list": ["{filler}"], "LATE":"3.1"}}"#);
        let found = registry.detect(&file("spec.json", big.clone()), false);
        assert_eq!(found.iter().map(|(f, c)| (f.info.id.as_str(), *c)).collect::<Vec<_>>(), [("late", 90)]);
        // The start, then the members with the long values emptied; never the whole text.
        let outline = r#"{"components":{},"list":[],"LATE":"3.1"}"#;
        assert_eq!(*late.shown.lock().unwrap(), [DETECTION_PREFIX, outline.len()]);

        // What only the nested values tell is still found in the whole text.
        let absent_only = format!(r#"{{"components": {{"a": "{filler}", "ABSENT": 1}}}}"#);
        let found = registry.detect(&file("spec.json", absent_only.clone()), false);
        assert_eq!(found.iter().map(|(f, _)| f.info.id.as_str()).collect::<Vec<_>>(), ["absent"]);
        assert_eq!(
            absent.shown.lock().unwrap()[2..],
            [DETECTION_PREFIX, "{\"components\":{}}".len(), absent_only.len()]
        );
    }

    #[test]
    fn formats_that_declare_other_extensions_are_not_asked() {
        let (json, yaml, any) =
            (marker("json", &["json"], "x"), marker("yaml", &["yaml"], "x"), marker("any", &[], "x"));
        let registry = registry(vec![json.clone(), yaml.clone(), any.clone()]);
        let ids = |name: &str| -> Vec<String> {
            registry.detect(&file(name, "x".into()), false).iter().map(|(f, _)| f.info.id.clone()).collect()
        };
        assert_eq!(ids("a.yaml"), ["yaml", "any"]);
        assert_eq!(ids("a.JSON"), ["json", "any"]);
        assert_eq!(ids("a.txt"), ["json", "yaml", "any"], "an extension nobody declares asks everyone");
        assert_eq!(ids("stdin"), ["json", "yaml", "any"]);
    }

    /// A format linked into this program and shadowed by a plugin's (the Python module with
    /// a plugin of the same id) is named as the built-in one, never by an empty name.
    #[test]
    fn a_shadowed_linked_format_is_named_as_the_built_in_one() {
        let mut registry = Registry::default();
        let plugin: Arc<dyn Format> = marker("json", &["json"], "x");
        registry.add(FormatEntry {
            info: plugin.info(),
            format: plugin,
            plugin: None,
            plugin_path: Some(PathBuf::from("/p/libtoolport_plugin_json.so")),
            plugin_version: Some("1".into()),
            origin: Some(Origin::Flag),
        });
        registry.add_linked(marker("json", &["json"], "y"));
        assert_eq!(
            registry.shadowing_warning("json").as_deref(),
            Some(
                "format json is provided by more than one plugin: using /p/libtoolport_plugin_json.so, ignoring the one built into this program (earlier places win; see `convert formats`)"
            )
        );
    }

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
