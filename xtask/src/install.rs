//! `cargo xtask dist [DIR]` and `cargo xtask install`: stage a built `convert` with its plugin
//! host and plugins in one folder (`stage`), with shell completions and man pages made by the
//! built command itself (`share`); install puts that folder in the user data directory, links
//! `toolporter` (and `convert`) into a folder on the PATH, and the completions and man pages
//! where shells and `man` look.
//!
//!     cargo xtask install [--data-dir DIR] [--bin-dir DIR] [--share-dir DIR] [--debug] [--link-convert]
//!
//! defaults: `$XDG_DATA_HOME/toolport` (else `~/.local/share/toolport`), `~/.local/bin` and
//! `$XDG_DATA_HOME` (else `~/.local/share`). The installed command finds its plugins beside
//! itself (the link is resolved), so they run in process; plugins a user adds to
//! `<data dir>/plugins` run isolated, like any other. `toolporter` is the same program as
//! `convert` under a name no other program has: `convert` is linked too only when no other
//! `convert` (ImageMagick's) is on PATH, or with `--link-convert`, and the install says which.

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

/// The unique name of the command, linked whatever else is on PATH.
pub const UNIQUE_NAME: &str = "toolporter";
/// The command's usual name, linked only where it shadows nothing.
pub const USUAL_NAME: &str = "convert";

/// Where install puts things, from the flags or the platform's defaults.
#[derive(Debug, PartialEq)]
pub struct Places {
    pub data_dir: PathBuf,
    pub bin_dir: PathBuf,
    /// Completions and man pages go below it (`bash-completion/completions`, `man/man1`, …).
    pub share_dir: PathBuf,
    pub debug: bool,
    /// Link `convert` even if another program of that name is on PATH.
    pub link_convert: bool,
}

/// Writes shell completions and man pages for both names into `share` (the layout of
/// `~/.local/share`), made by the staged command in `staged`.
pub fn share(staged: &Path, share: &Path) -> Result<()> {
    let exe = staged.join(format!("{USUAL_NAME}{}", std::env::consts::EXE_SUFFIX));
    for name in [UNIQUE_NAME, USUAL_NAME] {
        for (args, place) in shared_files(name) {
            let mut command = std::process::Command::new(&exe);
            // The command names itself after how it is called.
            #[cfg(unix)]
            std::os::unix::process::CommandExt::arg0(&mut command, name);
            let output = command.args(args).output().with_context(|| format!("running {}", exe.display()))?;
            if !output.status.success() {
                bail!("{} {} failed: {}", exe.display(), args.join(" "), String::from_utf8_lossy(&output.stderr));
            }
            let path = share.join(place);
            std::fs::create_dir_all(path.parent().context("a file in a folder")?)?;
            std::fs::write(&path, output.stdout).with_context(|| path.display().to_string())?;
        }
    }
    Ok(())
}

/// The files [`share`] writes for the command called `name`: the arguments that print each,
/// and its place below a share folder.
fn shared_files(name: &str) -> [(&'static [&'static str], String); 4] {
    [
        (&["completions", "bash"], format!("bash-completion/completions/{name}")),
        (&["completions", "zsh"], format!("zsh/site-functions/_{name}")),
        (&["completions", "fish"], format!("fish/vendor_completions.d/{name}.fish")),
        (&["man"], format!("man/man1/{name}.1")),
    ]
}

/// The first program named `name` on `path` (a PATH value) outside `ours`.
pub fn other_program(name: &str, path: &std::ffi::OsStr, ours: &Path) -> Option<PathBuf> {
    let exe = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    std::env::split_paths(path).filter(|dir| dir != ours).map(|dir| dir.join(&exe)).find(|p| p.is_file())
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
            None => home.as_ref().context("no --bin-dir or HOME")?.join(".local/bin"),
        };
        let share_dir = match value("--share-dir") {
            Some(dir) => dir,
            None => env("XDG_DATA_HOME")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(".local/share")))
                .context("no --share-dir, XDG_DATA_HOME or HOME")?,
        };
        let switch = |flag: &str| args.iter().any(|a| a == flag);
        Ok(Places { data_dir, bin_dir, share_dir, debug: switch("--debug"), link_convert: switch("--link-convert") })
    }
}

/// Installs the build in `build` into `places`: the command linked as `toolporter`, and as
/// `convert` unless `path` (a PATH value) has another `convert` (then only with
/// `link_convert`, and said either way). Returns the links made, the unique name first.
pub fn install(build: &Path, places: &Places, path: &std::ffi::OsStr) -> Result<Vec<PathBuf>> {
    let home = places.data_dir.join("bin");
    let staged = stage(build, &home)?;
    std::fs::create_dir_all(&places.bin_dir)?;
    let exe = format!("{USUAL_NAME}{}", std::env::consts::EXE_SUFFIX);
    let other = other_program(USUAL_NAME, path, &places.bin_dir);
    let mut names = vec![UNIQUE_NAME];
    if other.is_none() || places.link_convert {
        names.push(USUAL_NAME);
    }
    let mut links = Vec::new();
    for name in &names {
        let link = places.bin_dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        if std::fs::symlink_metadata(&link).is_ok() {
            std::fs::remove_file(&link).with_context(|| format!("replacing {}", link.display()))?;
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(home.join(&exe), &link)?;
        #[cfg(not(unix))]
        std::fs::copy(home.join(&exe), &link)?;
        links.push(link);
    }
    // Completions and man pages for the names linked only: a `convert.1` would hide
    // ImageMagick's manual.
    let shared = tempfile_dir(&places.data_dir)?;
    share(&home, &shared)?;
    for name in &names {
        for (_, place) in shared_files(name) {
            let to = places.share_dir.join(&place);
            std::fs::create_dir_all(to.parent().context("a file in a folder")?)?;
            copy(&shared.join(&place), &to)?;
        }
    }
    std::fs::remove_dir_all(&shared)?;
    let linked: Vec<String> = links.iter().map(|l| l.display().to_string()).collect();
    println!(
        "installed {UNIQUE_NAME} ({USUAL_NAME}) and {staged} plugins in {}; linked {}",
        home.display(),
        linked.join(" and ")
    );
    println!("completions and man pages in {}", places.share_dir.display());
    match (&other, places.link_convert) {
        (Some(other), false) => println!(
            "note: {} is another program named {USUAL_NAME} (ImageMagick's?), so {USUAL_NAME} was not linked: run `{UNIQUE_NAME}`, the same command under its own name, or install again with --link-convert",
            other.display()
        ),
        (Some(other), true) => println!(
            "warning: {USUAL_NAME} was linked as asked (--link-convert), beside {}, another program of that name: whichever folder comes first on PATH wins; `{UNIQUE_NAME}` is always this one",
            other.display()
        ),
        (None, _) => {}
    }
    if !std::env::split_paths(path).any(|d| d == places.bin_dir) {
        println!("note: {} is not on your PATH; add it to use `{UNIQUE_NAME}` directly", places.bin_dir.display());
    }
    Ok(links)
}

/// A fresh folder beside the installed files for the generated ones.
fn tempfile_dir(data_dir: &Path) -> Result<PathBuf> {
    let dir = data_dir.join("share.toolport-new");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
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
        let places = Places::from_args(&args(&["--share-dir", "/s", "--link-convert"]), env).unwrap();
        assert!(places.share_dir == Path::new("/s") && places.link_convert && !places.debug);
        assert_eq!(Places::from_args(&[], env).unwrap().share_dir, Path::new("/xdg"));
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
        let places = Places {
            data_dir: dir.path().join("data"),
            bin_dir: dir.path().join("bin"),
            share_dir: dir.path().join("share"),
            debug: true,
            link_convert: false,
        };
        // Another `convert` on PATH (as ImageMagick's is): only the unique name is linked.
        let elsewhere = dir.path().join("usr-bin");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("convert"), "#!/bin/sh\n").unwrap();
        let path = std::env::join_paths([places.bin_dir.clone(), elsewhere]).unwrap();
        let links = install(&build, &places, &path).unwrap();
        assert_eq!(links, [places.bin_dir.join("toolporter")]);
        assert!(!places.bin_dir.join("convert").exists(), "ImageMagick's convert is not shadowed");
        assert!(!places.share_dir.join("man/man1/convert.1").exists(), "nor its manual");
        let man = std::fs::read_to_string(places.share_dir.join("man/man1/toolporter.1")).unwrap();
        assert!(man.contains(".TH toolporter 1"), "{man}");
        let bash = std::fs::read_to_string(places.share_dir.join("bash-completion/completions/toolporter")).unwrap();
        assert!(bash.contains("_toolporter()"), "{bash}");
        // Nothing else named convert: both names, installed again in place.
        let links = install(&build, &places, places.bin_dir.as_os_str()).unwrap();
        assert_eq!(links, [places.bin_dir.join("toolporter"), places.bin_dir.join("convert")]);
        assert!(places.share_dir.join("zsh/site-functions/_convert").is_file());
        let link = links[0].clone();
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
