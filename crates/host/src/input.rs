//! Reading one input into a [`Bundle`], with size limits and a one-line error for each way a
//! path can be wrong.

use std::io::Read;
use std::path::{Path, PathBuf};

use toolport_core::{Bundle, InputShape};

/// Limits on what one input may load, so a stray huge file cannot exhaust memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_file_bytes: u64,
    pub max_total_bytes: u64,
    pub max_files: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_file_bytes: 64 << 20, max_total_bytes: 256 << 20, max_files: 10_000 }
    }
}

/// Why an input could not be loaded. Shown as `PATH: REASON` ([`InputError::reason`] alone
/// where the path is said elsewhere).
#[derive(Debug)]
pub enum InputError {
    Missing(PathBuf),
    IsDirectory {
        path: PathBuf,
        format: String,
    },
    NotDirectory {
        path: PathBuf,
        format: String,
    },
    Empty(PathBuf),
    NotAFile(PathBuf),
    /// `file` is the file as the input's bundle names it (relative to the input), which
    /// diagnostics' spans use; `path` the file on disk.
    NotUtf8 {
        path: PathBuf,
        file: String,
        offset: usize,
        line: u32,
        column: u32,
    },
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    TooManyFiles {
        path: PathBuf,
        limit: usize,
    },
    // `cause` is not a `source`: the message already holds it, and error chains would repeat it.
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::NotUtf8 { path, line, column, .. } => {
                write!(f, "{}:{line}:{column}: {}", path.display(), self.reason())
            }
            _ => write!(f, "{}: {}", self.path().display(), self.reason()),
        }
    }
}

impl std::error::Error for InputError {}

impl InputError {
    /// What is wrong with the input, without its path.
    pub fn reason(&self) -> String {
        match self {
            InputError::Missing(_) => "no such file or directory".into(),
            InputError::IsDirectory { format, .. } => format!("is a directory, but {format} reads a single file"),
            InputError::NotDirectory { format, .. } => {
                format!("is a file, but {format} reads a directory (give the folder that holds package.json)")
            }
            InputError::Empty(_) => "is empty".into(),
            InputError::NotAFile(_) => {
                "is not a regular file (a pipe, a device or a socket); give a file, or - for standard input".into()
            }
            InputError::NotUtf8 { offset, .. } => format!("is not UTF-8 text (invalid byte at offset {offset})"),
            InputError::TooLarge { size, limit, .. } => {
                format!("is {size} bytes, over the limit of {limit} bytes for one input")
            }
            InputError::TooManyFiles { limit, .. } => format!("has more than {limit} files; is this the right folder?"),
            InputError::Io { cause, .. } => format!("cannot be read: {cause}"),
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            InputError::Missing(path) | InputError::Empty(path) | InputError::NotAFile(path) => path,
            InputError::IsDirectory { path, .. }
            | InputError::NotDirectory { path, .. }
            | InputError::NotUtf8 { path, .. }
            | InputError::TooLarge { path, .. }
            | InputError::TooManyFiles { path, .. }
            | InputError::Io { path, .. } => path,
        }
    }
}

/// Loads `path` as one input of a format with this shape.
pub fn load(path: &Path, shape: InputShape, format: &str, limits: &Limits) -> Result<Bundle, InputError> {
    let metadata = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => InputError::Missing(path.to_path_buf()),
        _ => InputError::Io { path: path.to_path_buf(), cause: e },
    })?;
    match shape {
        InputShape::Directory if !metadata.is_dir() => {
            Err(InputError::NotDirectory { path: path.to_path_buf(), format: format.to_owned() })
        }
        InputShape::Directory => {
            let mut bundle = Bundle::default();
            let mut budget = Budget { limits, total: 0, files: 0, root: path };
            collect_dir(path, path, &mut bundle, &mut budget, true)?;
            Ok(bundle)
        }
        _ if metadata.is_dir() => Err(InputError::IsDirectory { path: path.to_path_buf(), format: format.to_owned() }),
        // Opening a pipe blocks until a writer comes, and a device may never end: never a hang.
        _ if !metadata.is_file() => Err(InputError::NotAFile(path.to_path_buf())),
        InputShape::File => {
            let text = read_text(path, limits)?;
            Ok(Bundle::single(file_name(path), text))
        }
        InputShape::FileWithSiblings => {
            let text = read_text(path, limits)?;
            let mut bundle = Bundle::single(file_name(path), text);
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let mut budget = Budget { limits, total: bundle.len_bytes() as u64, files: 1, root: dir };
            collect_dir(dir, dir, &mut bundle, &mut budget, false)?;
            Ok(bundle)
        }
    }
}

/// Reads standard input as a one-file bundle named `stdin`.
pub fn load_stdin(reader: &mut dyn Read, limits: &Limits) -> Result<Bundle, InputError> {
    let stdin = PathBuf::from("<stdin>");
    let mut bytes = Vec::new();
    reader
        .take(limits.max_file_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Io { path: stdin.clone(), cause: e })?;
    let text = decode(&stdin, "stdin", bytes, limits)?;
    Ok(Bundle::single("stdin", text))
}

/// Reads a whole file as UTF-8 text within the limits.
pub fn read_text(path: &Path, limits: &Limits) -> Result<String, InputError> {
    let io = |e| InputError::Io { path: path.to_path_buf(), cause: e };
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_or(0, |m| m.len()).min(limits.max_file_bytes);
    let mut bytes = Vec::with_capacity(size as usize + 1);
    // Read one byte past the limit: enough to know it is too large without reading it all.
    file.take(limits.max_file_bytes + 1).read_to_end(&mut bytes).map_err(io)?;
    decode(path, &file_name(path), bytes, limits)
}

/// `bytes` of the file at `path`, named `file` in its bundle, as text within the limits.
fn decode(path: &Path, file: &str, bytes: Vec<u8>, limits: &Limits) -> Result<String, InputError> {
    if bytes.len() as u64 > limits.max_file_bytes {
        let size = bytes.len() as u64;
        return Err(InputError::TooLarge { path: path.to_path_buf(), size, limit: limits.max_file_bytes });
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(InputError::Empty(path.to_path_buf()));
    }
    utf8_text(path, file, bytes)
}

/// `bytes` as text without a leading byte-order mark, or where they stop being UTF-8.
fn utf8_text(path: &Path, file: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let valid = &e.as_bytes()[..offset];
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = valid.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        // Columns count characters, as everywhere else in toolport's diagnostics.
        let column = String::from_utf8_lossy(&valid[line_start..]).chars().count() as u32 + 1;
        InputError::NotUtf8 { path: path.to_path_buf(), file: file.to_owned(), offset, line, column }
    })?;
    if text.starts_with('\u{feff}') {
        text.remove(0);
    }
    Ok(text)
}

struct Budget<'a> {
    limits: &'a Limits,
    total: u64,
    files: usize,
    root: &'a Path,
}

/// Folders never part of an input: dependencies, VCS data, build output.
pub fn is_skipped_dir(name: &str) -> bool {
    name.starts_with('.') || matches!(name, "node_modules" | "target" | "dist")
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| "input".to_owned(), |n| n.to_string_lossy().into_owned())
}

fn collect_dir(
    root: &Path,
    dir: &Path,
    bundle: &mut Bundle,
    budget: &mut Budget,
    recurse: bool,
) -> Result<(), InputError> {
    let io = |e| InputError::Io { path: dir.to_path_buf(), cause: e };
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).map_err(io)?.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = file_name(&path);
        let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        if bundle.files.contains_key(&relative) {
            continue;
        }
        let Ok(metadata) = std::fs::symlink_metadata(&path) else { continue };
        if metadata.is_dir() {
            if recurse && !is_skipped_dir(&name) {
                collect_dir(root, &path, bundle, budget, recurse)?;
            }
            continue;
        }
        // Links are not followed: an input never pulls in files from outside itself.
        if !metadata.is_file() || name.starts_with('.') {
            continue;
        }
        if !recurse && !is_sibling_candidate(&name) {
            continue;
        }
        budget.files += 1;
        if budget.files > budget.limits.max_files {
            return Err(InputError::TooManyFiles { path: budget.root.to_path_buf(), limit: budget.limits.max_files });
        }
        budget.total += metadata.len();
        if budget.total > budget.limits.max_total_bytes || metadata.len() > budget.limits.max_file_bytes {
            return Err(InputError::TooLarge {
                path: budget.root.to_path_buf(),
                size: budget.total,
                limit: budget.limits.max_total_bytes,
            });
        }
        let bytes = std::fs::read(&path).map_err(|e| InputError::Io { path: path.clone(), cause: e })?;
        // A file of a kind the formats read must be text; others (icons) may be anything.
        match utf8_text(&path, &relative, bytes) {
            Ok(text) => bundle.insert(relative, text),
            Err(e) if is_text_name(&name) => return Err(e),
            Err(_) => bundle.other_files.push(relative),
        }
    }
    Ok(())
}

/// Files of the kinds the formats read: manifests, specs, AI files, tool sources.
fn is_text_name(name: &str) -> bool {
    [".json", ".json5", ".yaml", ".yml", ".ts", ".tsx"].iter().any(|ext| name.ends_with(ext))
}

/// Files loaded beside a [`InputShape::FileWithSiblings`] entry: documents it may refer to.
fn is_sibling_candidate(name: &str) -> bool {
    [".json", ".yaml", ".yml"].iter().any(|ext| name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(setup: impl FnOnce(&Path) -> PathBuf, shape: InputShape, expect: &str) {
        let dir = tempfile::tempdir().unwrap();
        let path = setup(dir.path());
        let got = match load(&path, shape, "fmt", &Limits::default()) {
            Ok(bundle) => format!("ok {:?} {:?}", bundle.entry, bundle.files.keys().collect::<Vec<_>>()),
            Err(e) => e.to_string().replace(&dir.path().display().to_string(), "TMP"),
        };
        assert_eq!(got, expect);
    }

    #[test]
    fn each_bad_path_has_one_clear_error() {
        check(|d| d.join("nope.json"), InputShape::File, "TMP/nope.json: no such file or directory");
        check(|d| d.to_path_buf(), InputShape::File, "TMP: is a directory, but fmt reads a single file");
        check(
            |d| {
                std::fs::write(d.join("e.json"), " \n").unwrap();
                d.join("e.json")
            },
            InputShape::File,
            "TMP/e.json: is empty",
        );
        check(
            |d| {
                std::fs::write(d.join("b.json"), b"{\"a\": \"\xff\"}").unwrap();
                d.join("b.json")
            },
            InputShape::File,
            "TMP/b.json:1:8: is not UTF-8 text (invalid byte at offset 7)",
        );
        check(
            |d| {
                std::fs::write(d.join("f.json"), "{}").unwrap();
                d.join("f.json")
            },
            InputShape::Directory,
            "TMP/f.json: is a file, but fmt reads a directory (give the folder that holds package.json)",
        );
    }

    #[test]
    fn loads_directories_and_siblings() {
        check(
            |d| {
                std::fs::create_dir_all(d.join("src/tools")).unwrap();
                std::fs::create_dir_all(d.join("node_modules/x")).unwrap();
                std::fs::write(d.join("package.json"), "{}").unwrap();
                std::fs::write(d.join("src/tools/a.ts"), "x").unwrap();
                std::fs::write(d.join("node_modules/x/i.js"), "x").unwrap();
                d.to_path_buf()
            },
            InputShape::Directory,
            r#"ok None ["package.json", "src/tools/a.ts"]"#,
        );
        check(
            |d| {
                std::fs::write(d.join("import.json"), "{}").unwrap();
                std::fs::write(d.join("spec.yaml"), "a: 1").unwrap();
                std::fs::write(d.join("notes.txt"), "x").unwrap();
                d.join("import.json")
            },
            InputShape::FileWithSiblings,
            r#"ok Some("import.json") ["import.json", "spec.yaml"]"#,
        );
    }

    /// A folder's files are read as single files are: a byte-order mark dropped, a file of a
    /// kind the formats read that is not UTF-8 refused where it stops being text (other files,
    /// icons, stay bytes).
    #[test]
    fn a_folders_text_files_are_read_like_single_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/tools")).unwrap();
        std::fs::write(dir.path().join("package.json"), "\u{feff}{}").unwrap();
        std::fs::write(dir.path().join("icon.png"), b"\x89PNG\xff").unwrap();
        let bundle = load(dir.path(), InputShape::Directory, "fmt", &Limits::default()).unwrap();
        assert_eq!(bundle.files["package.json"], "{}");
        assert_eq!(bundle.other_files, ["icon.png"]);
        check(
            |d| {
                std::fs::create_dir_all(d.join("src/tools")).unwrap();
                std::fs::write(d.join("package.json"), "{}").unwrap();
                std::fs::write(d.join("src/tools/a.ts"), b"export type Input = {\n  q: \"\xff\"\n}").unwrap();
                d.to_path_buf()
            },
            InputShape::Directory,
            "TMP/src/tools/a.ts:2:7: is not UTF-8 text (invalid byte at offset 28)",
        );
    }
}
