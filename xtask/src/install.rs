//! `cargo xtask dist [DIR]` and `cargo xtask install`: stage a built `convert` with its plugin
//! host and plugins in one folder (`stage`); install puts that folder in the user data
//! directory and links `convert` into a folder on the PATH.
//!
//!     cargo xtask install [--data-dir DIR] [--bin-dir DIR] [--debug]
//!
//! defaults: `$XDG_DATA_HOME/toolport` (else `~/.local/share/toolport`) and `~/.local/bin`.
//! The installed `convert` finds its plugins beside itself (the link is resolved), so they run
//! in process; plugins a user adds to `<data dir>/plugins` run isolated, like any other.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Copies `convert`, `toolport-plugin-host` and every `toolport_plugin_*` library from a build
/// folder into `dir` (`dir/convert`, `dir/toolport-plugin-host`, `dir/plugins/*`). Returns
/// how many plugins were staged.
pub fn stage(build: &Path, dir: &Path) -> Result<usize> {
    let plugins = dir.join("plugins");
    std::fs::create_dir_all(&plugins)?;
    for exe in ["convert", "toolport-plugin-host"] {
        let name = format!("{exe}{}", std::env::consts::EXE_SUFFIX);
        copy(&build.join(&name), &dir.join(&name))?;
    }
    let mut staged = 0;
    for entry in std::fs::read_dir(build).with_context(|| build.display().to_string())? {
        let path = entry?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let stem = name.strip_prefix(std::env::consts::DLL_PREFIX).unwrap_or(&name);
        if stem.starts_with("toolport_plugin_") && name.ends_with(std::env::consts::DLL_SUFFIX) {
            copy(&path, &plugins.join(&name))?;
            staged += 1;
        }
    }
    if staged == 0 {
        bail!("no plugin libraries in {}; build them first", build.display());
    }
    Ok(staged)
}

/// Replaces `to` by a copy of `from` without ever leaving a half-written file: a running
/// `convert` keeps its old, intact file (written beside it, then renamed over it).
fn copy(from: &Path, to: &Path) -> Result<()> {
    let temp = to.with_extension("toolport-new");
    std::fs::copy(from, &temp).with_context(|| format!("copying {}", from.display()))?;
    std::fs::rename(&temp, to).with_context(|| format!("installing {}", to.display()))?;
    Ok(())
}

/// Where install puts things, from the flags or the platform's defaults.
#[derive(Debug, PartialEq)]
pub struct Places {
    pub data_dir: PathBuf,
    pub bin_dir: PathBuf,
    pub debug: bool,
}

impl Places {
    pub fn from_args(args: &[String], env: impl Fn(&str) -> Option<String>) -> Result<Places> {
        let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).map(PathBuf::from);
        let home = env("HOME").map(PathBuf::from);
        let data_dir = match value("--data-dir") {
            Some(dir) => dir,
            None => env("XDG_DATA_HOME")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(".local/share")))
                .context("no --data-dir, XDG_DATA_HOME or HOME")?
                .join("toolport"),
        };
        let bin_dir = match value("--bin-dir") {
            Some(dir) => dir,
            None => home.context("no --bin-dir or HOME")?.join(".local/bin"),
        };
        Ok(Places { data_dir, bin_dir, debug: args.iter().any(|a| a == "--debug") })
    }
}

/// Installs the build in `build` into `places`; returns the path of the `convert` link.
pub fn install(build: &Path, places: &Places) -> Result<PathBuf> {
    let home = places.data_dir.join("bin");
    let staged = stage(build, &home)?;
    std::fs::create_dir_all(&places.bin_dir)?;
    let exe = format!("convert{}", std::env::consts::EXE_SUFFIX);
    let link = places.bin_dir.join(&exe);
    if std::fs::symlink_metadata(&link).is_ok() {
        std::fs::remove_file(&link).with_context(|| format!("replacing {}", link.display()))?;
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(home.join(&exe), &link)?;
    #[cfg(not(unix))]
    std::fs::copy(home.join(&exe), &link)?;
    println!("installed convert and {staged} plugins in {}; {} links to it", home.display(), link.display());
    if !std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d == places.bin_dir)) {
        println!("note: {} is not on your PATH; add it to use `convert` directly", places.bin_dir.display());
    }
    Ok(link)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn places_follow_the_flags_then_xdg_then_home() {
        let env = |key: &str| match key {
            "HOME" => Some("/home/u".to_owned()),
            "XDG_DATA_HOME" => Some("/xdg".to_owned()),
            _ => None,
        };
        let check = |list: &[&str], data: &str, bin: &str| {
            let places = Places::from_args(&args(list), env).unwrap();
            assert_eq!((places.data_dir.to_str().unwrap(), places.bin_dir.to_str().unwrap()), (data, bin), "{list:?}");
        };
        check(&[], "/xdg/toolport", "/home/u/.local/bin");
        check(&["--data-dir", "/d", "--bin-dir", "/b"], "/d", "/b");
        let no_xdg = Places::from_args(&[], |k| (k == "HOME").then(|| "/h".to_owned())).unwrap();
        assert_eq!(no_xdg.data_dir, PathBuf::from("/h/.local/share/toolport"));
    }

    /// Installs the debug build (which `cargo xtask test` builds before testing) into temporary
    /// folders and converts a fixture through the installed `convert`.
    #[test]
    fn an_installed_convert_finds_its_plugins_and_converts() {
        let build = crate::root().join("target/debug");
        assert!(
            build.join("convert").exists() && build.join("toolport-plugin-host").exists(),
            "build the workspace first (cargo xtask test does)"
        );
        let dir = tempfile::tempdir().unwrap();
        let places = Places { data_dir: dir.path().join("data"), bin_dir: dir.path().join("bin"), debug: true };
        let link = install(&build, &places).unwrap();
        // Installing again replaces everything in place.
        install(&build, &places).unwrap();
        let fixture = crate::root().join("fixtures/gloodata/show-map.json");
        let output = std::process::Command::new(&link)
            .env("HOME", dir.path())
            .env_remove("XDG_DATA_HOME")
            .env_remove("TOOLPORT_PLUGIN_PATH")
            .args(["-q", "--to", "mcp"])
            .arg(&fixture)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(doc["tools"].as_array().is_some_and(|t| !t.is_empty()), "{doc}");
        let formats = std::process::Command::new(&link).env("HOME", dir.path()).args(["formats"]).output().unwrap();
        let listing = String::from_utf8_lossy(&formats.stdout);
        assert!(
            listing.contains(&places.data_dir.join("bin/plugins").display().to_string()),
            "plugins beside the installed convert:\n{listing}"
        );
    }
}
