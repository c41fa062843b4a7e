//! Reading one input into a [`Bundle`], with size limits and a one-line error for each way a
//! path can be wrong. Only regular files are ever read: each is opened without waiting (a
//! named pipe would block until a writer came), checked to be a regular file of a size within
//! [`Limits::max_file_bytes`] before a byte is read, and read no further than that limit.

use std::collections::BTreeSet;
use std::fs::{File, FileType};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;
use toolport_core::{Bundle, InputShape};

/// Limits on what one input may load, so a stray huge file cannot exhaust memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest file read (64 MiB by default): a larger one is refused before it is read.
    pub max_file_bytes: u64,
    /// The most one input's files may hold together (a folder, or a file and its siblings).
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
    /// A named pipe, a device or a socket: `kind` says which ([`kind_of`]).
    NotAFile {
        path: PathBuf,
        kind: &'static str,
    },
    /// `file` is the file as the input's bundle names it (relative to the input), which
    /// diagnostics' spans use; `path` the file on disk.
    NotUtf8 {
        path: PathBuf,
        file: String,
        offset: usize,
        line: u32,
        column: u32,
    },
    /// One file over [`Limits::max_file_bytes`].
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    /// An input's files together over [`Limits::max_total_bytes`].
    TooMuch {
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
            InputError::NotAFile { kind, .. } => {
                format!("is {kind}, not a regular file; give a file, or - for standard input")
            }
            InputError::NotUtf8 { offset, .. } => format!("is not UTF-8 text (invalid byte at offset {offset})"),
            InputError::TooLarge { size, limit, .. } => {
                format!("is {size} bytes, over the limit of {limit} bytes for one file; it was not read")
            }
            InputError::TooMuch { size, limit, .. } => {
                format!("holds {size} bytes of files, over the limit of {limit} bytes for one input")
            }
            InputError::TooManyFiles { limit, .. } => format!("has more than {limit} files; is this the right folder?"),
            InputError::Io { cause, .. } => format!("cannot be read: {cause}"),
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            InputError::Missing(path) | InputError::Empty(path) => path,
            InputError::IsDirectory { path, .. }
            | InputError::NotDirectory { path, .. }
            | InputError::NotAFile { path, .. }
            | InputError::NotUtf8 { path, .. }
            | InputError::TooLarge { path, .. }
            | InputError::TooMuch { path, .. }
            | InputError::TooManyFiles { path, .. }
            | InputError::Io { path, .. } => path,
        }
    }
}

/// What a file that is neither a regular file nor a folder is, for messages.
pub fn kind_of(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        } else if kind.is_char_device() {
            return "a character device";
        } else if kind.is_block_device() {
            return "a block device";
        } else if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_symlink() { "a symbolic link" } else { "a special file" }
}

/// Loads `path` as one input of a format with this shape.
pub fn load(path: &Path, shape: InputShape, format: &str, limits: &Limits) -> Result<Bundle, InputError> {
    // A regular file, the usual input, is opened and checked once (the open file's status):
    // looking at its path first cost each input of a batch a system call. Anything else, or a
    // file that cannot be read, takes the way below, which says what it is.
    if shape != InputShape::Directory
        && let Ok(bytes) = read_bytes(path, limits)
    {
        let mut bundle = Bundle::single(file_name(path), decode(path, &file_name(path), bytes, limits)?);
        if shape == InputShape::FileWithSiblings {
            add_named_siblings(&mut bundle, path, limits)?;
        }
        return Ok(bundle);
    }
    let metadata = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => InputError::Missing(path.to_path_buf()),
        _ => InputError::Io { path: path.to_path_buf(), cause: e },
    })?;
    match shape {
        // Opening a pipe blocks until a writer comes, and a device may never end: never a hang.
        _ if !metadata.is_file() && !metadata.is_dir() => {
            Err(InputError::NotAFile { path: path.to_path_buf(), kind: kind_of(metadata.file_type()) })
        }
        InputShape::Directory if !metadata.is_dir() => {
            Err(InputError::NotDirectory { path: path.to_path_buf(), format: format.to_owned() })
        }
        InputShape::Directory => {
            let mut bundle = Bundle::default();
            let mut budget = Budget { limits, total: 0, files: 0, root: path };
            collect_dir(path, path, &mut bundle, &mut budget)?;
            Ok(bundle)
        }
        _ if metadata.is_dir() => Err(InputError::IsDirectory { path: path.to_path_buf(), format: format.to_owned() }),
        InputShape::File => {
            let text = read_text(path, limits)?;
            Ok(Bundle::single(file_name(path), text))
        }
        InputShape::FileWithSiblings => {
            let text = read_text(path, limits)?;
            let mut bundle = Bundle::single(file_name(path), text);
            add_named_siblings(&mut bundle, path, limits)?;
            Ok(bundle)
        }
    }
}

/// Adds to a [`InputShape::FileWithSiblings`] bundle the files beside its entry that the
/// entry names: each short string value of the entry (JSON, or YAML) whose last path segment
/// (`gs://bucket/specs/weather.yaml` → `weather.yaml`) is a regular file in the entry's folder.
/// Nothing else is read, so an entry with its document inline loads no other file, a batch of
/// entries in one folder reads each named file once per entry that names it (not the folder
/// per entry), and an unrelated broken file beside an entry cannot fail it. An entry that does
/// not parse gets no siblings: its reader reports the syntax error. An entry that names no file
/// beside it and holds no document inline (its reference is a placeholder, such as
/// `gs://BUCKET_NAME/SPECIFICATION_FILE_NAME.yaml`) is offered the OpenAPI documents beside it
/// instead ([`add_openapi_documents`]), for its reader to take the only one.
pub fn add_named_siblings(bundle: &mut Bundle, entry: &Path, limits: &Limits) -> Result<(), InputError> {
    let Some((entry_name, text)) = bundle.entry_file() else { return Ok(()) };
    let Ok(value) = parse_document(entry_name, text) else { return Ok(()) };
    let strings = EntryStrings::of(&value, entry_name);
    let dir = entry.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut budget = Budget { limits, total: bundle.len_bytes() as u64, files: 1, root: dir };
    let mut named_any = false;
    for name in strings.names {
        let path = dir.join(&name);
        // Links are not followed: an input never pulls in files from outside itself.
        let Ok(metadata) = std::fs::symlink_metadata(&path) else { continue };
        if metadata.is_file() {
            add_file(bundle, &mut budget, &path, name, metadata.len())?;
            named_any = true;
        }
    }
    if !named_any && !strings.inline_document {
        add_openapi_documents(bundle, dir, &mut budget);
    }
    Ok(())
}

/// Adds the OpenAPI documents in `dir` (regular `.yaml`, `.yml` and `.json` files with a
/// top-level `openapi` key, not links, not dot files, within the input's limits) that are not
/// in `bundle` yet. They are an offer, not the input: a file that is too large, not UTF-8, does
/// not parse or is no OpenAPI document is skipped, never an error, and the offer ends where the
/// input's limits do.
fn add_openapi_documents(bundle: &mut Bundle, dir: &Path, budget: &mut Budget) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = file_name(&path);
        let document_kind = [".yaml", ".yml", ".json"].iter().any(|ext| name.ends_with(ext));
        if !document_kind || name.starts_with('.') || bundle.files.contains_key(&name) {
            continue;
        }
        let Ok(metadata) = std::fs::symlink_metadata(&path) else { continue };
        if !metadata.is_file() || metadata.len() > budget.limits.max_file_bytes {
            continue;
        }
        // Every file read counts, OpenAPI or not, so the offer's cost is bounded like any input's.
        if budget.admit(&path, metadata.len()).is_err() {
            return;
        }
        let Ok(text) = read_bytes(&path, budget.limits).and_then(|bytes| utf8_text(&path, &file_name(&path), bytes))
        else {
            continue;
        };
        let is_openapi = parse_document(&name, &text).is_ok_and(|doc| doc.get("openapi").is_some());
        if is_openapi {
            bundle.insert(name, text);
        }
    }
}

/// A JSON (by its name) or YAML document.
fn parse_document(name: &str, text: &str) -> Result<Value, toolport_core::Diagnostic> {
    if name.ends_with(".json") {
        toolport_core::source::parse_json(name, text).map(|parsed| parsed.value)
    } else {
        toolport_yaml::parse(name, text).map(|parsed| parsed.value)
    }
}

/// What an entry's strings say about the files beside it.
struct EntryStrings {
    /// The plain file names its short one-line strings end in, but the entry's own.
    names: BTreeSet<String>,
    /// It has a multi-line or a long string: a document inline, which names nothing.
    inline_document: bool,
}

impl EntryStrings {
    fn of(value: &Value, entry: &str) -> Self {
        let mut strings = EntryStrings { names: BTreeSet::new(), inline_document: false };
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            match value {
                Value::String(text) if text.len() > 4096 || text.contains(['\n', '\r']) => {
                    strings.inline_document = true;
                }
                Value::String(text) if !text.contains('\0') => {
                    let name = text.rsplit(['/', '\\']).next().unwrap_or_default();
                    if !name.is_empty() && !name.starts_with('.') && name.len() <= 255 && name != entry {
                        strings.names.insert(name.to_owned());
                    }
                }
                Value::Array(items) => stack.extend(items),
                Value::Object(map) => stack.extend(map.values()),
                _ => {}
            }
        }
        strings
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
    let bytes = read_bytes(path, limits)?;
    decode(path, &file_name(path), bytes, limits)
}

/// Reads a regular file of at most [`Limits::max_file_bytes`]. It is opened without waiting
/// and checked before anything is read, so a file swapped for a pipe or a device after it was
/// looked at is refused, not waited on.
fn read_bytes(path: &Path, limits: &Limits) -> Result<Vec<u8>, InputError> {
    let io = |e| InputError::Io { path: path.to_path_buf(), cause: e };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let file: File = options.open(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() {
        return Err(InputError::NotAFile { path: path.to_path_buf(), kind: kind_of(metadata.file_type()) });
    }
    if metadata.len() > limits.max_file_bytes {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            size: metadata.len(),
            limit: limits.max_file_bytes,
        });
    }
    read_whole(&file, metadata.len(), limits.max_file_bytes).map_err(io)
}

/// The bytes of a file of `size` bytes (as it was looked at), to at most one past `limit`
/// (which tells a file that grew past it). Asked for one byte more than its size: a regular
/// file that gives exactly its size has ended (a shorter read is its end), so the read that
/// would find the end is not made (a system call of a batch's dozen per file). A file that
/// gives more (it grew) or less (it shrank, or its file system reads in parts) is read on to
/// its end.
fn read_whole(mut file: impl Read, size: u64, limit: u64) -> std::io::Result<Vec<u8>> {
    let size = size.min(limit) as usize;
    let mut bytes = vec![0; size + 1];
    let read = loop {
        match file.read(&mut bytes) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            read => break read?,
        }
    };
    bytes.truncate(read);
    if read != size {
        file.take(limit + 1 - read as u64).read_to_end(&mut bytes)?;
    }
    Ok(bytes)
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

impl Budget<'_> {
    /// Counts one more file of `size` bytes at `path`, or says which limit it would cross
    /// (and counts nothing).
    fn admit(&mut self, path: &Path, size: u64) -> Result<(), InputError> {
        let limits = self.limits;
        if self.files + 1 > limits.max_files {
            return Err(InputError::TooManyFiles { path: self.root.to_path_buf(), limit: limits.max_files });
        }
        if size > limits.max_file_bytes {
            return Err(InputError::TooLarge { path: path.to_path_buf(), size, limit: limits.max_file_bytes });
        }
        if self.total + size > limits.max_total_bytes {
            let (size, limit) = (self.total + size, limits.max_total_bytes);
            return Err(InputError::TooMuch { path: self.root.to_path_buf(), size, limit });
        }
        self.files += 1;
        self.total += size;
        Ok(())
    }
}

/// Folders never part of an input: dependencies, VCS data, build output.
pub fn is_skipped_dir(name: &str) -> bool {
    name.starts_with('.') || matches!(name, "node_modules" | "target" | "dist")
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| "input".to_owned(), |n| n.to_string_lossy().into_owned())
}

fn collect_dir(root: &Path, dir: &Path, bundle: &mut Bundle, budget: &mut Budget) -> Result<(), InputError> {
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
            if !is_skipped_dir(&name) {
                collect_dir(root, &path, bundle, budget)?;
            }
            continue;
        }
        // Links are not followed: an input never pulls in files from outside itself.
        if !metadata.is_file() || is_skipped_file(&name) {
            continue;
        }
        add_file(bundle, budget, &path, relative, metadata.len())?;
    }
    Ok(())
}

/// Reads one more file of an input into `bundle` as `relative`, within the input's budget. A
/// file of a kind the formats read must be text; others (icons) may be anything, and are kept
/// as bytes (a Raycast extension written back carries its icons).
fn add_file(
    bundle: &mut Bundle,
    budget: &mut Budget,
    path: &Path,
    relative: String,
    size: u64,
) -> Result<(), InputError> {
    budget.admit(path, size)?;
    let bytes = read_bytes(path, budget.limits)?;
    if is_text_name(&relative) || std::str::from_utf8(&bytes).is_ok() {
        let text = utf8_text(path, &relative, bytes)?;
        bundle.insert(relative, text);
    } else {
        bundle.binary_files.insert(relative, bytes);
    }
    Ok(())
}

/// Files of a folder input left out: its dot files are part of it (an extension's
/// `.eslintrc.json`, `.prettierrc`, `.gitignore`), but not those that by convention hold secrets
/// or are the system's litter.
fn is_skipped_file(name: &str) -> bool {
    name.starts_with('.') && (name == ".npmrc" || name == ".DS_Store" || name == ".env" || name.starts_with(".env."))
}

/// Files of the kinds the formats read: manifests, specs, AI files, tool sources.
pub fn is_text_name(name: &str) -> bool {
    [".json", ".json5", ".yaml", ".yml", ".ts", ".tsx"].iter().any(|ext| name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives its bytes at most `part` at a time, as a file system that reads in parts may.
    struct InParts<'a> {
        bytes: &'a [u8],
        part: usize,
    }

    impl Read for InParts<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.part.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// A file is read whole however its reads come, and one that grew since it was looked at
    /// is read to one byte past the limit, which tells it.
    #[test]
    fn a_file_is_read_whole_whatever_its_size_said() {
        let text = b"{\"tools\": []}";
        let read = |part, size, limit| read_whole(InParts { bytes: text, part }, size, limit).unwrap();
        assert_eq!(read(100, 14, 64), text, "in one read");
        assert_eq!(read(3, 14, 64), text, "in parts, the first shorter than the size");
        assert_eq!(read(100, 5, 64), text, "grown since it was looked at");
        assert_eq!(read(100, 0, 64), text, "a size of 0, as /proc's files say");
        assert_eq!(read(100, 14, 10).len(), 11, "past the limit: one byte more than it");
        assert_eq!(read(100, 20, 64), text, "shrunk since");
    }

    fn check(setup: impl FnOnce(&Path) -> PathBuf, shape: InputShape, expect: &str) {
        let dir = tempfile::tempdir().unwrap();
        let path = setup(dir.path());
        let got = match load(&path, shape, "fmt", &Limits::default()) {
            Ok(bundle) => format!("ok {:?} {:?}", bundle.entry, bundle.files.keys().collect::<Vec<_>>()),
            Err(e) => e.to_string().replace(&dir.path().display().to_string(), "TMP"),
        };
        assert_eq!(got, expect);
    }

    /// Checks loading `entry`, written with `text` beside the files `beside` makes, with its
    /// siblings.
    fn check_entry(beside: impl FnOnce(&Path), entry: &str, text: &str, expect: &str) {
        let setup = |d: &Path| {
            beside(d);
            std::fs::write(d.join(entry), text).unwrap();
            d.join(entry)
        };
        check(setup, InputShape::FileWithSiblings, expect);
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
                std::fs::create_dir_all(d.join(".git")).unwrap();
                std::fs::write(d.join(".git/HEAD"), "x").unwrap();
                for dot_file in [".eslintrc.json", ".gitignore", ".env", ".env.local", ".npmrc", ".DS_Store"] {
                    std::fs::write(d.join(dot_file), "x").unwrap();
                }
                d.to_path_buf()
            },
            InputShape::Directory,
            r#"ok None [".eslintrc.json", ".gitignore", "package.json", "src/tools/a.ts"]"#,
        );
    }

    /// A file with siblings loads the files beside it that its strings name, and nothing else:
    /// not an unrelated broken file, not a link, not its own name again.
    #[test]
    fn a_file_loads_only_the_siblings_it_names() {
        let beside = |d: &Path| {
            std::fs::write(d.join("spec.yaml"), "a: 1").unwrap();
            std::fs::write(d.join("other.json"), b"{\"x\": \"\xff\"}").unwrap();
            std::fs::write(d.join("notes.txt"), "x").unwrap();
        };
        let named =
            r#"{"manifest": {"apiSpec": {"openApiGcsUri": "gs://bucket/specs/spec.yaml"}}, "self": "import.json"}"#;
        check_entry(beside, "import.json", named, r#"ok Some("import.json") ["import.json", "spec.yaml"]"#);
        // In YAML too; a multi-line string (an inline document) names nothing.
        check_entry(
            beside,
            "body.yaml",
            "spec: |\n  see other.json\n  notes.txt\n",
            r#"ok Some("body.yaml") ["body.yaml"]"#,
        );
        #[cfg(unix)]
        check(
            |d| {
                std::fs::create_dir(d.join("away")).unwrap();
                std::fs::write(d.join("away/spec.yaml"), "a: 1").unwrap();
                std::fs::create_dir(d.join("here")).unwrap();
                std::os::unix::fs::symlink(d.join("away/spec.yaml"), d.join("here/spec.yaml")).unwrap();
                std::fs::write(d.join("here/import.json"), named).unwrap();
                d.join("here/import.json")
            },
            InputShape::FileWithSiblings,
            r#"ok Some("import.json") ["import.json"]"#,
        );
        // A named file that is not text where it must be is refused where it stops being text.
        check(
            |d| {
                beside(d);
                std::fs::write(d.join("import.json"), r#"{"spec": "other.json"}"#).unwrap();
                d.join("import.json")
            },
            InputShape::FileWithSiblings,
            "TMP/other.json:1:8: is not UTF-8 text (invalid byte at offset 7)",
        );
    }

    /// An entry that names no file beside it and holds no document inline (a placeholder
    /// reference) is offered the OpenAPI documents beside it: regular JSON/YAML files with a
    /// top-level `openapi` key. Other documents, files that are not UTF-8 or do not parse, links
    /// and files over the limit are skipped, never an error.
    #[test]
    fn an_entry_naming_no_file_is_offered_the_openapi_documents_beside_it() {
        let beside = |d: &Path| {
            std::fs::write(d.join("hello.yaml"), "openapi: 3.0.0\npaths: {}\n").unwrap();
            std::fs::write(d.join("api.json"), r#"{"openapi": "3.1.0"}"#).unwrap();
            std::fs::write(d.join("other.json"), r#"{"manifest": {}}"#).unwrap();
            std::fs::write(d.join("broken.yml"), "openapi: [").unwrap();
            std::fs::write(d.join("binary.yaml"), b"openapi: \xff").unwrap();
            std::fs::write(d.join("notes.txt"), "openapi: 3.0.0").unwrap();
            std::fs::write(d.join(".hidden.yaml"), "openapi: 3.0.0").unwrap();
            std::fs::File::create(d.join("huge.json")).unwrap().set_len(1 << 40).unwrap();
        };
        let placeholder = r#"{"manifest": {"apiSpec": {"openApiGcsUri": "gs://BUCKET/SPEC_NAME.yaml"}}}"#;
        check(
            |d| {
                beside(d);
                #[cfg(unix)]
                std::os::unix::fs::symlink(d.join("hello.yaml"), d.join("link.yaml")).unwrap();
                std::fs::write(d.join("import.json"), placeholder).unwrap();
                d.join("import.json")
            },
            InputShape::FileWithSiblings,
            r#"ok Some("import.json") ["api.json", "hello.yaml", "import.json"]"#,
        );
        // An entry whose named file is there, or whose document is inline, reads nothing else.
        check_entry(
            beside,
            "import.json",
            r#"{"spec": "gs://b/other.json"}"#,
            r#"ok Some("import.json") ["import.json", "other.json"]"#,
        );
        check_entry(
            beside,
            "body.yaml",
            "spec: |\n  openapi: 3.0.0\n  paths: {}\n",
            r#"ok Some("body.yaml") ["body.yaml"]"#,
        );
        // The offer ends where the input's limits do, without failing the entry.
        let dir = tempfile::tempdir().unwrap();
        beside(dir.path());
        std::fs::write(dir.path().join("import.json"), placeholder).unwrap();
        let limits = Limits { max_files: 2, ..Limits::default() };
        let bundle = load(&dir.path().join("import.json"), InputShape::FileWithSiblings, "fmt", &limits).unwrap();
        assert_eq!(bundle.files.keys().collect::<Vec<_>>(), ["api.json", "import.json"]);
    }

    /// What is not a regular file is refused saying what it is, and a file over the limit is
    /// refused by its size, before any of it is read (a sparse file: nothing to read).
    #[cfg(unix)]
    #[test]
    fn special_and_oversized_files_are_refused_unread() {
        check(
            |_| PathBuf::from("/dev/zero"),
            InputShape::File,
            "/dev/zero: is a character device, not a regular file; give a file, or - for standard input",
        );
        check(
            |d| {
                nix::unistd::mkfifo(&d.join("pipe.json"), nix::sys::stat::Mode::S_IRWXU).unwrap();
                d.join("pipe.json")
            },
            InputShape::FileWithSiblings,
            "TMP/pipe.json: is a named pipe (FIFO), not a regular file; give a file, or - for standard input",
        );
        check(
            |d| {
                std::fs::File::create(d.join("big.json")).unwrap().set_len(1 << 40).unwrap();
                d.join("big.json")
            },
            InputShape::File,
            "TMP/big.json: is 1099511627776 bytes, over the limit of 67108864 bytes for one file; it was not read",
        );
        check(
            |d| {
                std::fs::write(d.join("package.json"), "{}").unwrap();
                std::fs::File::create(d.join("big.ts")).unwrap().set_len(1 << 40).unwrap();
                d.to_path_buf()
            },
            InputShape::Directory,
            "TMP/big.ts: is 1099511627776 bytes, over the limit of 67108864 bytes for one file; it was not read",
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
        assert_eq!(bundle.binary_files["icon.png"], b"\x89PNG\xff");
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
