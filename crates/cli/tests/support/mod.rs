//! Running the built `convert` binary in isolation: by its path (never a `convert` from PATH,
//! which may be ImageMagick's), with no user plugin directory or TOOLPORT_PLUGIN_PATH.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_convert"))
}

/// The folder of the built binary, where `cargo build --workspace` puts the plugin libraries.
pub fn build_dir() -> PathBuf {
    exe().parent().unwrap().to_path_buf()
}

/// Fails with a clear message when the plugin libraries are not built.
pub fn require_plugins() {
    let lib = format!("{}toolport_plugin_gloodata{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    assert!(
        build_dir().join(&lib).exists(),
        "{lib} is not built next to convert; run `cargo xtask test` (it builds the plugins first) or `cargo build --workspace --examples`"
    );
}

/// A broken test plugin library (built as an example of toolport-test-plugins).
pub fn test_plugin(name: &str) -> PathBuf {
    let file = format!("{}toolport_testplugin_{name}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    let path = build_dir().join("examples").join(&file);
    assert!(
        path.exists(),
        "{} is not built; run `cargo xtask test` or `cargo build --workspace --examples`",
        path.display()
    );
    path
}

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(self.code, Some(code), "exit code\nstdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
        self
    }
}

pub fn command(home: &Path) -> Command {
    let mut cmd = Command::new(exe());
    cmd.env("HOME", home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("TOOLPORT_PLUGIN_PATH")
        .env_remove("TOOLPORT_PLUGIN_CACHE");
    cmd
}

/// Runs convert with `args` in `cwd`.
pub fn run_in(cwd: &Path, args: &[&str]) -> Run {
    require_plugins();
    let home = tempfile::tempdir().unwrap();
    let output = command(home.path()).current_dir(cwd).args(args).output().unwrap();
    finish(output)
}

pub fn finish(output: Output) -> Run {
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

pub fn workspace_root() -> PathBuf {
    toolport_testkit::workspace_root()
}

pub fn seed_map() -> PathBuf {
    workspace_root().join("fixtures/gloodata/show-map.json")
}
