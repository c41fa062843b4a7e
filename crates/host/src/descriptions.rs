//! The description cache: what each plugin library said of itself (`describe`) when it was
//! last loaded, by path and file identity, so that a run loads only the plugins whose formats
//! it uses (`convert --from openapi --to vertex` loads one library of thirteen).
//!
//! The cache only decides when a plugin is loaded, never what it does: a library is described
//! from the cache only while its file is the one described (same device, inode, size and
//! modification time), and a plugin loaded later must describe itself exactly as cached, or the
//! call fails saying so ([`crate::plugin::DiscoveredPlugin`]). A library that failed to load is
//! never cached, so its error is reported by every run, as before. The file is written whole
//! and renamed into place; one that cannot be read or written is ignored (each run then loads
//! every plugin, as without a cache).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toolport_plugin::abi::PluginDescription;

use crate::discovery::{UserFolder, user_folder};

/// The cache file's version: a file of another is ignored (and replaced when written).
const VERSION: u32 = 1;

/// The largest cache file read: thirteen plugins take 27 KB; a larger file is not ours.
const MAX_BYTES: u64 = 4 << 20;

/// Which file a path holds and what it was when described.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileIdentity {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
}

impl FileIdentity {
    /// The identity of the file at `path` (links followed, as loading follows them).
    pub fn of(path: &Path) -> Option<FileIdentity> {
        let metadata = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        let modified = metadata.modified().ok()?;
        let modified_ns = match modified.duration_since(std::time::UNIX_EPOCH) {
            Ok(after) => after.as_nanos() as i128,
            Err(before) => -(before.duration().as_nanos() as i128),
        };
        Some(FileIdentity { device, inode, size: metadata.len(), modified_ns })
    }
}

/// One library's entry.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Described {
    identity: FileIdentity,
    description: PluginDescription,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct CacheFile {
    version: u32,
    /// By the library's path as discovery found it.
    plugins: BTreeMap<PathBuf, Described>,
}

/// The cache as read at the start of discovery, and what discovery learned since.
#[derive(Debug, Default)]
pub struct DescriptionCache {
    file: Option<PathBuf>,
    plugins: BTreeMap<PathBuf, Described>,
    changed: bool,
}

impl DescriptionCache {
    /// The cache in `file` (none: nothing is cached, every plugin is loaded). A file that is
    /// not a cache of this version, or larger than any cache is (over 4 MiB), describes
    /// nothing, and is replaced when this run learns something.
    pub fn open(file: Option<&Path>) -> DescriptionCache {
        let plugins = file
            .filter(|file| std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES))
            .and_then(|file| std::fs::read(file).ok())
            .and_then(|bytes| serde_json::from_slice::<CacheFile>(&bytes).ok())
            .filter(|cache| cache.version == VERSION)
            .map(|cache| cache.plugins)
            .unwrap_or_default();
        DescriptionCache { file: file.map(Path::to_path_buf), plugins, changed: false }
    }

    /// What the library at `path` said of itself, if the file is still the one it described.
    pub fn description(&self, path: &Path, identity: &FileIdentity) -> Option<&PluginDescription> {
        self.plugins.get(path).filter(|d| d.identity == *identity).map(|d| &d.description)
    }

    /// Records what a library loaded now said of itself.
    pub fn remember(&mut self, path: &Path, identity: FileIdentity, description: &PluginDescription) {
        // The file is JSON: a path that is not UTF-8 is not cached (its plugin is always loaded).
        if path.to_str().is_none() {
            return;
        }
        if self.description(path, &identity) != Some(description) {
            let described = Described { identity, description: description.clone() };
            self.plugins.insert(path.to_path_buf(), described);
            self.changed = true;
        }
    }

    /// Corrects the entry of a library that, loaded, described itself otherwise than the
    /// cache in `file` said: the next run lists it as it is.
    pub fn correct(file: &Path, path: &Path, identity: FileIdentity, description: &PluginDescription) {
        let mut cache = DescriptionCache::open(Some(file));
        cache.remember(path, identity, description);
        cache.save();
    }

    /// Writes the cache if discovery learned something, without the entries of libraries that
    /// are gone or changed. Best effort: a cache that cannot be written is left as it was.
    pub fn save(mut self) {
        let Some(file) = self.file.take().filter(|_| self.changed) else { return };
        self.plugins.retain(|path, described| FileIdentity::of(path).is_some_and(|now| now == described.identity));
        let Ok(text) = serde_json::to_vec(&CacheFile { version: VERSION, plugins: self.plugins }) else { return };
        let Some(dir) = file.parent() else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let Ok(mut staged) = tempfile::NamedTempFile::new_in(dir) else { return };
        if std::io::Write::write_all(&mut staged, &text).is_ok() {
            let _ = staged.persist(&file);
        }
    }
}

/// The environment variable that moves the cache (a file path) or turns it off (`off`, or
/// empty): every plugin is then loaded by every run.
pub const CACHE_ENV: &str = "TOOLPORT_PLUGIN_CACHE";

/// Where the cache lives: [`CACHE_ENV`] if set, else the user's cache folder
/// (`$XDG_CACHE_HOME`, else `~/.cache`; `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on
/// Windows), `toolport/plugin-descriptions.json`.
pub fn default_file() -> Option<PathBuf> {
    if let Some(chosen) = std::env::var_os(CACHE_ENV) {
        return (!chosen.is_empty() && chosen != "off").then(|| PathBuf::from(chosen));
    }
    user_folder(UserFolder::CACHE).map(|b| b.join("toolport").join("plugin-descriptions.json"))
}
