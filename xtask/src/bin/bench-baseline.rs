//! The floor the benchmarks compare `convert` against: read each file, parse it as JSON,
//! serialize it again and write it, with the same number of threads `convert` uses. Run by
//! `cargo xtask bench`; `bench-baseline IN... OUT_DIR` (files or one directory of files).

use std::path::{Path, PathBuf};

fn main() {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (out, inputs) = args.split_last().expect("usage: bench-baseline IN... OUT_DIR");
    let mut files: Vec<PathBuf> = Vec::new();
    for input in inputs {
        if input.is_dir() {
            files.extend(std::fs::read_dir(input).unwrap().map(|e| e.unwrap().path()));
        } else {
            files.push(input.clone());
        }
    }
    std::fs::create_dir_all(out).unwrap();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = files.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for part in files.chunks(chunk) {
            scope.spawn(move || part.iter().for_each(|f| copy_through_json(f, out)));
        }
    });
}

fn copy_through_json(file: &Path, out: &Path) {
    let text = std::fs::read_to_string(file).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut written = serde_json::to_string_pretty(&value).unwrap();
    written.push('\n');
    std::fs::write(out.join(file.file_name().unwrap()), written).unwrap();
}
