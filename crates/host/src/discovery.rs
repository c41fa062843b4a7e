//! Where plugins are looked for, in order (the first plugin to provide a format id wins):
//!
//! 1. each `--plugin-dir DIR` given on the command line;
//! 2. each directory in the `TOOLPORT_PLUGIN_PATH` environment variable (a path list);
//! 3. the user data directory: `$XDG_DATA_HOME/toolport/plugins`, else
//!    `$HOME/.local/share/toolport/plugins` (`%APPDATA%\toolport\plugins` on Windows);
//! 4. next to the `convert` executable: its `plugins/` folder, then the executable's own folder.
//!
//! In places 1-3 and in `plugins/`, every dynamic library is a plugin candidate. In the
//! executable's own folder only files named like `libtoolport_plugin_*.so` are (a build
//! folder holds other libraries too). Plugins are trusted native code: loading one runs it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable listing extra plugin directories.
pub const PLUGIN_PATH_ENV: &str = "TOOLPORT_PLUGIN_PATH";

/// Why a directory is searched; shown by `convert formats` and in "no plugins" errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Flag,
    Environment,
    UserData,
    BesideExecutable,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Origin::Flag => "--plugin-dir",
            Origin::Environment => PLUGIN_PATH_ENV,
            Origin::UserData => "user data directory",
            Origin::BesideExecutable => "next to the executable",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDir {
    pub dir: PathBuf,
    pub origin: Origin,
    /// Only files named like toolport plugins are candidates here.
    pub named_only: bool,
}

/// The inputs to discovery, gathered by the caller so discovery itself reads no globals.
#[derive(Clone, Debug, Default)]
pub struct DiscoveryConfig {
    pub plugin_dirs: Vec<PathBuf>,
    /// The value of [`PLUGIN_PATH_ENV`].
    pub env_path: Option<OsString>,
    pub user_data_dir: Option<PathBuf>,
    /// The folder of the running executable.
    pub exe_dir: Option<PathBuf>,
    pub isolation: Isolation,
}

/// Which plugins run in their own process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IsolationMode {
    /// Plugins installed with the executable (its folder and `plugins/`) run inside it; every
    /// other plugin runs in its own process.
    #[default]
    Auto,
    Always,
    Never,
}

/// How plugins are isolated: the mode, the plugin host executable, and the child's limits.
#[derive(Clone, Debug, Default)]
pub struct Isolation {
    pub mode: IsolationMode,
    /// `toolport-plugin-host`; by default next to the running executable.
    pub helper: Option<PathBuf>,
    pub limits: crate::transport::IsolationLimits,
}

/// The plugin host executable's file name on this platform.
pub const PLUGIN_HOST_EXE: &str = if cfg!(windows) { "toolport-plugin-host.exe" } else { "toolport-plugin-host" };

impl Isolation {
    /// Whether a plugin found in `search` runs in its own process.
    pub fn isolates(&self, search: &SearchDir) -> bool {
        match self.mode {
            IsolationMode::Always => true,
            IsolationMode::Never => false,
            IsolationMode::Auto => search.origin != Origin::BesideExecutable,
        }
    }
}

impl DiscoveryConfig {
    /// Explicit directories plus this process's environment and executable location.
    pub fn from_environment(plugin_dirs: Vec<PathBuf>) -> Self {
        let exe_dir = std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf));
        DiscoveryConfig {
            plugin_dirs,
            env_path: std::env::var_os(PLUGIN_PATH_ENV),
            user_data_dir: user_data_dir(),
            exe_dir: exe_dir.clone(),
            // Only a plugin host that is there: a missing one is said as such when a plugin needs it.
            isolation: Isolation {
                helper: exe_dir.map(|d| d.join(PLUGIN_HOST_EXE)).filter(|p| p.is_file()),
                ..Isolation::default()
            },
        }
    }

    /// The directories to search, in order.
    pub fn search_dirs(&self) -> Vec<SearchDir> {
        let mut dirs = Vec::new();
        let mut push = |dir: PathBuf, origin, named_only| dirs.push(SearchDir { dir, origin, named_only });
        for dir in &self.plugin_dirs {
            push(dir.clone(), Origin::Flag, false);
        }
        if let Some(paths) = &self.env_path {
            for dir in std::env::split_paths(paths).filter(|p| !p.as_os_str().is_empty()) {
                push(dir, Origin::Environment, false);
            }
        }
        if let Some(dir) = &self.user_data_dir {
            push(dir.clone(), Origin::UserData, false);
        }
        if let Some(dir) = &self.exe_dir {
            push(dir.join("plugins"), Origin::BesideExecutable, false);
            push(dir.clone(), Origin::BesideExecutable, true);
        }
        dirs
    }
}

fn user_data_dir() -> Option<PathBuf> {
    let base = if cfg!(windows) {
        std::env::var_os("APPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join("Library/Application Support"))
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
    };
    base.map(|b| b.join("toolport").join("plugins"))
}

/// Whether a file name is a dynamic library of this platform.
pub fn is_library(name: &str) -> bool {
    name.ends_with(std::env::consts::DLL_SUFFIX)
}

/// Whether a file name follows the toolport plugin naming convention
/// (`libtoolport_plugin_<name>.so`, `toolport_plugin_<name>.dll`, …).
pub fn is_plugin_name(name: &str) -> bool {
    let stem = name.strip_prefix(std::env::consts::DLL_PREFIX).unwrap_or(name);
    is_library(name) && stem.starts_with("toolport_plugin_")
}

/// Plugin candidates in one directory, sorted by file name (so discovery is deterministic).
/// A missing directory has none.
pub fn candidates(search: &SearchDir) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(&search.dir) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if search.named_only { is_plugin_name(&name) } else { is_library(&name) }
        })
        .collect();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_order_is_flag_env_user_exe() {
        let config = DiscoveryConfig {
            plugin_dirs: vec!["/a".into()],
            env_path: Some(std::env::join_paths(["/b", "/c"]).unwrap()),
            user_data_dir: Some("/d".into()),
            exe_dir: Some("/e".into()),
            isolation: Isolation::default(),
        };
        let got: Vec<(String, Origin, bool)> = config
            .search_dirs()
            .into_iter()
            .map(|s| (s.dir.to_string_lossy().into_owned(), s.origin, s.named_only))
            .collect();
        assert_eq!(
            got,
            [
                ("/a".into(), Origin::Flag, false),
                ("/b".into(), Origin::Environment, false),
                ("/c".into(), Origin::Environment, false),
                ("/d".into(), Origin::UserData, false),
                ("/e/plugins".into(), Origin::BesideExecutable, false),
                ("/e".into(), Origin::BesideExecutable, true),
            ]
        );
    }

    #[test]
    fn plugin_names() {
        let lib = |stem: &str| format!("{}{stem}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
        assert!(is_plugin_name(&lib("toolport_plugin_gloodata")));
        assert!(!is_plugin_name(&lib("toolport_testplugin_wrong_magic")));
        assert!(!is_plugin_name("toolport_plugin_gloodata.rlib"));
    }
}
