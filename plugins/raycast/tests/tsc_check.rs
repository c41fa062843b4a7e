//! Compiles written extensions with the TypeScript compiler against the real `@raycast/api`
//! types from npm (`tests/tsc/`, installed with `npm ci` when node_modules is missing).
//! Without node and npm the test fails, unless TOOLPORT_SKIP_TSC=1 says to skip it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use toolport_plugin::{Bundle, Format, Options};
use toolport_format_raycast::Raycast;
use toolport_testkit::{fixture, load};

fn tool_available(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn npm_project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tsc")
}

fn ensure_installed(project: &Path) {
    if project.join("node_modules/typescript/bin/tsc").exists() && project.join("node_modules/@raycast/api").exists() {
        return;
    }
    let output = Command::new("npm")
        .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
        .current_dir(project)
        .output()
        .expect("run npm ci");
    assert!(
        output.status.success(),
        "npm ci in {} failed:\n{}{}",
        project.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn write_to_disk(bundle: &Bundle, dir: &Path) {
    for (path, text) in &bundle.files {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
}

#[cfg(unix)]
fn link(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink node_modules");
}

#[cfg(not(unix))]
fn link(target: &Path, link: &Path) {
    std::os::windows::fs::symlink_dir(target, link).expect("symlink node_modules");
}

#[test]
fn written_extensions_type_check_against_the_raycast_api() {
    if !tool_available("node") || !tool_available("npm") {
        if std::env::var("TOOLPORT_SKIP_TSC").as_deref() == Ok("1") {
            eprintln!("skipped: node/npm not found and TOOLPORT_SKIP_TSC=1");
            return;
        }
        panic!(
            "node and npm are needed to type-check written extensions (install Node.js 20+), or set TOOLPORT_SKIP_TSC=1 to skip"
        );
    }
    let project = npm_project();
    ensure_installed(&project);
    let mut models = vec![("http-model".to_owned(), common::http_model())];
    for name in ["forms", "types", "ai-yaml"] {
        let model = Raycast.read(&load(&fixture(&format!("raycast/{name}"))), &Options::default()).value.expect("read");
        models.push((name.to_owned(), model));
    }
    for (name, model) in models {
        let bundle = Raycast.write(&model, &Options::default()).value.expect("write");
        let dir = tempfile::tempdir().unwrap();
        write_to_disk(&bundle, dir.path());
        link(&project.join("node_modules"), &dir.path().join("node_modules"));
        let output = Command::new("node")
            .arg(project.join("node_modules/typescript/bin/tsc"))
            .args(["--noEmit", "-p"])
            .arg(dir.path().join("tsconfig.json"))
            .output()
            .expect("run tsc");
        assert!(
            output.status.success(),
            "{name}: tsc --noEmit failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
