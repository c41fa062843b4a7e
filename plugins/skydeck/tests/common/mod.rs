//! Helpers shared by this crate's tests (included with `mod common;`).
#![allow(dead_code)]

use std::path::Path;

use serde_json::Value;
use toolport_format_skydeck::SkyDeck;
use toolport_plugin::{Bundle, Diagnostic, Format, Options, ToolSet};
use toolport_testkit::{expect_ok, load, output_named};

/// Reads a file, failing the test on errors.
pub fn read_path(path: &Path) -> (ToolSet, Vec<Diagnostic>) {
    expect_ok(SkyDeck.read(&load(path), &Options::default()), &path.display().to_string())
}

/// Writes with the host's suggested output name, failing the test on errors.
pub fn write_named(model: &ToolSet, output_name: &str) -> (Bundle, Vec<Diagnostic>) {
    expect_ok(SkyDeck.write(model, &output_named(output_name)), "write")
}

/// One line per diagnostic, as `convert` prints them.
pub fn lines(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| format!("{d}\n")).collect()
}

/// Everything a reader and writer did with one input, for a golden snapshot.
pub fn report(model: &ToolSet, read: &[Diagnostic], written: &Bundle, write: &[Diagnostic]) -> String {
    let mut out = String::new();
    out.push_str("== read diagnostics\n");
    out.push_str(&lines(read));
    out.push_str("== model\n");
    out.push_str(&serde_json::to_string_pretty(model).unwrap());
    out.push('\n');
    for (path, text) in &written.files {
        out.push_str(&format!("== written {path}\n"));
        out.push_str(text);
    }
    out.push_str("== write diagnostics\n");
    out.push_str(&lines(write));
    out
}

pub fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

pub fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}
