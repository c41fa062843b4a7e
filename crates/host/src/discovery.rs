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
//!
//! So a plugin is loaded only from a place no one else could have written to (as ssh's
//! StrictModes and git's safe.directory refuse such places): the library and every folder
//! above it must be owned by this user or root and writable by no group and no other user
//! (a sticky folder such as /tmp is fine: others cannot replace what is in it). Plugins beside
//! the executable are not checked: whoever could replace them could replace `convert`. Else it is
//! skipped with the reason ([`check_trusted`]), unless `--allow-unsafe-plugin-dirs` or
//! [`ALLOW_UNSAFE_ENV`] says to load it knowingly.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable listing extra plugin directories.
pub const PLUGIN_PATH_ENV: &str = "TOOLPORT_PLUGIN_PATH";

/// The environment variable that loads plugins from places others may write to (any value
/// but empty or `0`), as `--allow-unsafe-plugin-dirs` does.
pub const ALLOW_UNSAFE_ENV: &str = "TOOLPORT_ALLOW_UNSAFE_PLUGIN_DIRS";

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
    /// Load plugins from places other users own or may write to ([`check_trusted`] skipped).
    pub allow_unsafe_dirs: bool,
    /// The description cache ([`crate::descriptions`]); none: every plugin is loaded at once.
    pub description_cache: Option<PathBuf>,
    /// Load every library now whatever the cache says (and refresh it): for `convert formats`,
    /// which shows what loads and what does not.
    pub load_every_plugin: bool,
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
            allow_unsafe_dirs: std::env::var_os(ALLOW_UNSAFE_ENV).is_some_and(|v| !v.is_empty() && v != "0"),
            description_cache: crate::descriptions::default_file(),
            load_every_plugin: false,
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
    user_folder(UserFolder::DATA).map(|b| b.join("toolport").join("plugins"))
}

/// Where a kind of per-user folder is on each platform: a variable on Windows, a folder below
/// the home on macOS, an XDG variable else, or a folder below the home when it is unset.
pub(crate) struct UserFolder {
    pub windows: &'static str,
    pub macos: &'static str,
    pub xdg: &'static str,
    pub xdg_default: &'static str,
}

impl UserFolder {
    pub const DATA: UserFolder = UserFolder {
        windows: "APPDATA",
        macos: "Library/Application Support",
        xdg: "XDG_DATA_HOME",
        xdg_default: ".local/share",
    };
    pub const CACHE: UserFolder =
        UserFolder { windows: "LOCALAPPDATA", macos: "Library/Caches", xdg: "XDG_CACHE_HOME", xdg_default: ".cache" };
}

/// The user's folder of a kind, from the environment.
pub(crate) fn user_folder(kind: UserFolder) -> Option<PathBuf> {
    if cfg!(windows) {
        std::env::var_os(kind.windows).map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(kind.macos))
    } else {
        std::env::var_os(kind.xdg)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(kind.xdg_default)))
    }
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

/// Why a plugin is not loaded from where it is: `path` (the library or a folder above it)
/// belongs to another user or others may write to it, so someone else could have put or
/// replaced the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untrusted {
    pub path: PathBuf,
    /// Who owns it or may write to it, with its mode.
    pub why: String,
}

impl std::fmt::Display for Untrusted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}, so another user could have put or replaced this plugin; make it yours and writable only by you (chown, chmod go-w), or load it knowingly with --allow-unsafe-plugin-dirs or {ALLOW_UNSAFE_ENV}=1",
            self.path.display(),
            self.why
        )
    }
}

/// Whether `plugin` may be loaded: it and every folder above it, as written and as its links
/// resolve, are owned by this user or root and writable by no one else. A sticky folder
/// writable by all (/tmp) is fine: others can add to it but not replace what is ours.
#[cfg(unix)]
pub fn check_trusted(plugin: &Path) -> Result<(), Untrusted> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let absolute = std::path::absolute(plugin).unwrap_or_else(|_| plugin.to_path_buf());
    let resolved = std::fs::canonicalize(&absolute).unwrap_or_else(|_| absolute.clone());
    let mut checked = std::collections::HashSet::new();
    for path in absolute.ancestors().chain(resolved.ancestors()) {
        if path.as_os_str().is_empty() || !checked.insert(path.to_path_buf()) {
            continue;
        }
        // Missing or unreadable places are for loading to report.
        let Ok(meta) = std::fs::metadata(path) else { continue };
        let (owner, mode) = (meta.uid(), meta.mode() & 0o7777);
        let sticky_folder = meta.is_dir() && mode & 0o1000 != 0;
        let why = if owner != 0 && owner != me {
            Some(format!("is owned by {} (mode {mode:04o})", user_name(owner)))
        } else if mode & 0o002 != 0 && !sticky_folder {
            Some(format!("is writable by every user (mode {mode:04o})"))
        } else if mode & 0o020 != 0 && !sticky_folder {
            Some(format!("is writable by group {} (mode {mode:04o})", group_name(meta.gid())))
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Untrusted { path: path.to_path_buf(), why });
        }
    }
    Ok(())
}

/// Elsewhere there are no owners and modes to check.
#[cfg(not(unix))]
pub fn check_trusted(_plugin: &Path) -> Result<(), Untrusted> {
    Ok(())
}

#[cfg(unix)]
fn user_name(uid: u32) -> String {
    match nix::unistd::User::from_uid(uid.into()) {
        Ok(Some(user)) => format!("user {} (uid {uid})", user.name),
        _ => format!("uid {uid}"),
    }
}

#[cfg(unix)]
fn group_name(gid: u32) -> String {
    match nix::unistd::Group::from_gid(gid.into()) {
        Ok(Some(group)) => format!("{} (gid {gid})", group.name),
        _ => format!("gid {gid}"),
    }
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
            allow_unsafe_dirs: false,
            description_cache: None,
            load_every_plugin: false,
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

#[cfg(all(test, unix))]
mod trust_tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    /// Owner and mode of the library and each folder above it, as written and through links.
    #[test]
    fn a_plugin_is_trusted_only_where_no_one_else_can_write() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("plugins");
        std::fs::create_dir(&folder).unwrap();
        let plugin = folder.join("libtoolport_plugin_x.so");
        std::fs::write(&plugin, b"").unwrap();
        chmod(&folder, 0o755);
        chmod(&plugin, 0o755);
        assert_eq!(check_trusted(&plugin), Ok(()));

        for (path, mode, says) in [
            (&folder, 0o777, "is writable by every user (mode 0777)"),
            (&folder, 0o775, "is writable by group"),
            (&plugin, 0o757, "is writable by every user (mode 0757)"),
            (&plugin, 0o1777, "is writable by every user (mode 1777)"),
        ] {
            chmod(path, mode);
            let refused = check_trusted(&plugin).unwrap_err();
            assert_eq!(&refused.path, path, "{mode:o}");
            assert!(refused.why.contains(says), "{mode:o}: {}", refused.why);
            chmod(path, 0o755);
        }

        // A sticky folder others may write to (as /tmp) cannot have our files replaced.
        chmod(&folder, 0o1777);
        assert_eq!(check_trusted(&plugin), Ok(()));
        chmod(&folder, 0o755);

        // A link from a safe place into an unsafe one is judged where it leads, and the reverse
        // where it is written.
        let open = dir.path().join("open");
        std::fs::create_dir(&open).unwrap();
        chmod(&open, 0o777);
        let through = folder.join("libtoolport_plugin_link.so");
        std::os::unix::fs::symlink(open.join("real.so"), &through).unwrap();
        std::fs::write(open.join("real.so"), b"").unwrap();
        chmod(&open.join("real.so"), 0o755);
        assert_eq!(check_trusted(&through).unwrap_err().path, open);
        let linked_folder = open.join("to-plugins");
        std::os::unix::fs::symlink(&folder, &linked_folder).unwrap();
        assert_eq!(check_trusted(&linked_folder.join("libtoolport_plugin_x.so")).unwrap_err().path, open);

        let message = check_trusted(&through).unwrap_err().to_string();
        assert!(message.contains("--allow-unsafe-plugin-dirs") && message.contains(ALLOW_UNSAFE_ENV), "{message}");
    }

    /// Another user's folder is refused naming the owner (root's system folders are fine).
    #[test]
    fn a_folder_owned_by_another_user_is_refused() {
        if !nix::unistd::geteuid().is_root() {
            return; // Only root can give a folder away; the CLI test covers the message too.
        }
        let dir = tempfile::tempdir().unwrap();
        let plugin = dir.path().join("libtoolport_plugin_x.so");
        std::fs::write(&plugin, b"").unwrap();
        chmod(&plugin, 0o755);
        nix::unistd::chown(dir.path(), Some(65534.into()), None).unwrap();
        let refused = check_trusted(&plugin).unwrap_err();
        assert_eq!(refused.path, dir.path());
        assert!(refused.why.contains("is owned by") && refused.why.contains("65534"), "{}", refused.why);
        assert_eq!(check_trusted(Path::new("/usr/lib")), Ok(()));
    }
}
