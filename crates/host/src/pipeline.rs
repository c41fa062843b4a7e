//! The conversion pipeline for one input: find its format (given or detected), load it, read
//! it into the model, write the model in the target format. Batches are many of these; see
//! [`find_inputs`] for how arguments become inputs.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use toolport_core::{Bundle, Diagnostic, InputShape, Options, Outcome, Strictness, Tally, codes};

use toolport_core::fit::Part;

use crate::input::{self, InputError, Limits};
use crate::registry::{FormatEntry, Registry};
pub use crate::stage::FitSettings;
use crate::stage::{self, Curate};
use toolport_curate::NamesMap;

pub use crate::registry::CONFIDENT;

/// One input of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct InputItem {
    /// The path to read (`-` for standard input).
    pub path: PathBuf,
    /// Its path relative to the argument it was found under, for mirroring the input tree in
    /// the output directory. For a file or folder given directly: its own name.
    pub relative: PathBuf,
    /// Found by walking a directory (so an unrecognised file is skipped, not an error).
    pub found_by_walking: bool,
    /// A directory (following links) when the input was found; asked once, not per use.
    pub is_dir: bool,
    /// Found by walking, and not to be read: why (a named pipe, a link out of the folder
    /// walked, a folder walked already), the `run/skipped` diagnostic it is reported with.
    pub skipped: Option<Diagnostic>,
}

impl InputItem {
    /// An input named directly (not found by walking), `-` for standard input.
    pub fn given(path: &Path) -> InputItem {
        if path.as_os_str() == "-" {
            return InputItem {
                path: path.into(),
                relative: "stdin".into(),
                found_by_walking: false,
                is_dir: false,
                skipped: None,
            };
        }
        let relative = path.file_name().map(PathBuf::from).unwrap_or_else(|| path.to_path_buf());
        InputItem { path: path.to_path_buf(), relative, found_by_walking: false, is_dir: path.is_dir(), skipped: None }
    }

    pub fn is_stdin(&self) -> bool {
        self.path.as_os_str() == "-"
    }

    /// The suggested base name of a single-document output, or of the folder a multi-file
    /// output goes in: the input's file stem or folder name. Always one plain path segment: a
    /// file named `...json` (stem `..`) must not send outputs to the parent folder.
    pub fn stem(&self) -> String {
        if self.is_stdin() {
            return "stdin".to_owned();
        }
        let name = self.relative.file_name().or_else(|| self.path.file_name());
        let name = name.map(lossless_name).unwrap_or_default();
        let stem = match name.rsplit_once('.') {
            _ if self.is_dir => name.as_str(),
            Some((stem, _)) if !stem.is_empty() => stem,
            _ => name.as_str(),
        };
        let plain = |s: &str| !s.is_empty() && !s.chars().all(|c| c == '.') && !s.contains(['/', '\\', ':', '\0']);
        match stem {
            stem if plain(stem) => stem.to_owned(),
            // `...json`: the whole name, its dots made plain, so distinct names stay distinct.
            _ if plain(&name) => name.replace('.', "_"),
            _ => "output".to_owned(),
        }
    }

    /// Every file the host read for this input, given the bundle it loaded: all of them are
    /// inputs, never to be overwritten (a Vertex body's sibling spec, a Raycast extension's files).
    pub fn files_read(&self, bundle: &Bundle) -> Vec<PathBuf> {
        if self.is_stdin() {
            return Vec::new();
        }
        let root = if self.is_dir {
            self.path.clone()
        } else {
            self.path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf()
        };
        let mut files: Vec<PathBuf> = bundle
            .files
            .keys()
            .chain(bundle.binary_files.keys())
            .chain(&bundle.other_files)
            .map(|f| root.join(f))
            .collect();
        if !files.contains(&self.path) {
            files.push(self.path.clone());
        }
        files
    }
}

/// Turns command-line arguments into inputs. A file is an input. A directory is one input
/// when a directory format recognises it (a Raycast extension); otherwise it is walked (see
/// [`Walk`]), and regular files with an extension some readable format uses, and sub-folders
/// a directory format recognises, become inputs. With `from`, only that format is considered.
pub fn find_inputs(registry: &Registry, args: &[PathBuf], from: Option<&FormatEntry>) -> Vec<InputItem> {
    let mut items = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            items.push(InputItem::given(arg));
            continue;
        }
        // A directory is walked unless it is itself one input: a directory format recognises
        // it, or `--from` names a directory format and no sub-folder is one.
        let walk_it = std::fs::metadata(arg).is_ok_and(|m| m.is_dir())
            && !is_directory_input(registry, arg, from)
            && !from
                .is_some_and(|f| f.info.input == InputShape::Directory && !has_recognised_subdir(registry, arg, from));
        match walk_it.then(|| Walk::new(registry, arg, from)).flatten() {
            Some(mut walk) => {
                walk.run();
                items.append(&mut walk.items);
            }
            // A path that cannot be read is still an input: loading it reports why, and the
            // other inputs go on.
            None => items.push(InputItem::given(arg)),
        }
    }
    items
}

/// A file name as text that keeps names apart: bytes that are not UTF-8 become `%XX` (two
/// names that differ only there must not be written to one output).
fn lossless_name(name: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in name.as_bytes().utf8_chunks() {
            out.push_str(chunk.valid());
            for byte in chunk.invalid() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
        out
    }
    #[cfg(not(unix))]
    name.to_string_lossy().into_owned()
}

/// What identifies a folder however it is reached: its device and inode.
#[cfg(unix)]
type FolderId = (u64, u64);
#[cfg(not(unix))]
type FolderId = PathBuf;

#[cfg(unix)]
fn folder_id(_path: &Path, metadata: &std::fs::Metadata) -> FolderId {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

#[cfg(not(unix))]
fn folder_id(path: &Path, _metadata: &std::fs::Metadata) -> FolderId {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A folder entry, with a link resolved only as far as the folder walked allows.
enum Entry {
    Folder {
        metadata: std::fs::Metadata,
        through_link: bool,
    },
    File,
    /// A named pipe, a device or a socket: never opened.
    Special(&'static str),
    /// A link to a place outside the folder walked: never followed.
    Outside {
        target: PathBuf,
        is_dir: bool,
    },
    /// A link to nothing, or an entry that vanished.
    Broken,
}

/// What `entry` is: a link is followed when what it leads to lies inside `real_root` (the
/// folder walked, with its own links resolved).
fn resolve(entry: &std::fs::DirEntry, real_root: &Path) -> Entry {
    let Ok(kind) = entry.file_type() else { return Entry::Broken };
    // What the folder listing says an entry is suffices for all but folders and links (on
    // Linux it comes with the listing): a batch's files are not each asked again.
    if kind.is_file() {
        return Entry::File;
    }
    if !kind.is_dir() && !kind.is_symlink() {
        return Entry::Special(input::kind_of(kind));
    }
    let metadata = if kind.is_symlink() {
        let Ok(target) = std::fs::canonicalize(entry.path()) else { return Entry::Broken };
        if !target.starts_with(real_root) {
            let is_dir = target.is_dir();
            return Entry::Outside { target, is_dir };
        }
        std::fs::metadata(&target)
    } else {
        entry.metadata()
    };
    match metadata {
        Ok(metadata) if metadata.is_dir() => Entry::Folder { metadata, through_link: kind.is_symlink() },
        Ok(m) if m.is_file() => Entry::File,
        Ok(m) => Entry::Special(input::kind_of(m.file_type())),
        Err(_) => Entry::Broken,
    }
}

/// One folder argument walked for inputs. A link is followed only to a file or folder inside
/// the folder walked, and each folder is walked once, by device and inode, so a link to a
/// parent or a loop of links adds nothing; folders reached through a link are walked after all
/// the others, so a folder's files keep their own path. A link to a file inside is an input
/// under the link's name. Hidden entries and dependency and build folders are passed over. Only regular
/// files are inputs: a named pipe, a device or a socket named like an input, and a link out of
/// the folder, are reported as skipped, never opened or followed.
struct Walk<'a> {
    registry: &'a Registry,
    from: Option<&'a FormatEntry>,
    /// The folder as the user named it: inputs' relative paths start here.
    root: &'a Path,
    /// The same with every link resolved: nothing outside it is read.
    real_root: PathBuf,
    walked: std::collections::HashSet<FolderId>,
    /// Folders reached through a link, walked last.
    linked: std::collections::VecDeque<(PathBuf, std::fs::Metadata)>,
    items: Vec<InputItem>,
}

impl<'a> Walk<'a> {
    fn new(registry: &'a Registry, root: &'a Path, from: Option<&'a FormatEntry>) -> Option<Walk<'a>> {
        let real_root = std::fs::canonicalize(root).ok()?;
        let metadata = std::fs::metadata(&real_root).ok()?;
        let walked = std::iter::once(folder_id(&real_root, &metadata)).collect();
        Some(Walk { registry, from, root, real_root, walked, linked: Default::default(), items: Vec::new() })
    }

    fn run(&mut self) {
        self.folder(self.root);
        while let Some((path, metadata)) = self.linked.pop_front() {
            self.enter(path, &metadata);
        }
    }

    /// A folder inside: one input, or walked, unless it was walked already.
    fn enter(&mut self, path: PathBuf, metadata: &std::fs::Metadata) {
        if !self.walked.insert(folder_id(&path, metadata)) {
            // Nothing is lost: what it holds was walked where it was first reached.
            let why = "skipped: leads to a folder walked already (a link or a mount loops back)";
            self.push(path, true, Some(Diagnostic::info(codes::RUN_SKIPPED, "", why)));
        } else if is_directory_input(self.registry, &path, self.from) {
            self.push(path, true, None);
        } else {
            self.folder(&path);
        }
    }

    fn folder(&mut self, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<std::fs::DirEntry> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let readable = || has_readable_extension(self.registry, &name, self.from);
            match resolve(&entry, &self.real_root) {
                Entry::Folder { .. } if input::is_skipped_dir(&name) => {}
                Entry::Folder { metadata, through_link: true } => self.linked.push_back((path, metadata)),
                Entry::Folder { metadata, through_link: false } => self.enter(path, &metadata),
                Entry::File if readable() => self.push(path, false, None),
                Entry::Special(kind) if readable() => self.skip(path, false, format!("is {kind}, not a regular file")),
                Entry::Outside { target, is_dir } if is_dir || readable() => {
                    let why = format!(
                        "is a link to {}, outside {}; links are followed only inside the folder walked",
                        target.display(),
                        self.root.display()
                    );
                    self.skip(path, is_dir, why);
                }
                Entry::Broken if readable() => self.skip(path, false, "is a link to nothing".into()),
                _ => {}
            }
        }
    }

    fn push(&mut self, path: PathBuf, is_dir: bool, skipped: Option<Diagnostic>) {
        let relative = path.strip_prefix(self.root).map(Path::to_path_buf).unwrap_or_else(|_| path.clone());
        self.items.push(InputItem { path, relative, found_by_walking: true, is_dir, skipped });
    }

    /// Reports `path` as skipped with a warning: something that looks like an input is not read.
    fn skip(&mut self, path: PathBuf, is_dir: bool, why: String) {
        self.push(path, is_dir, Some(Diagnostic::warning(codes::RUN_SKIPPED, "", format!("skipped: {why}"))));
    }
}

fn has_readable_extension(registry: &Registry, name: &str, from: Option<&FormatEntry>) -> bool {
    let formats: Vec<&FormatEntry> = match from {
        Some(f) => vec![f],
        None => registry.formats().iter().filter(|f| f.info.reads).collect(),
    };
    formats
        .iter()
        .filter(|f| f.info.input != InputShape::Directory)
        .any(|f| f.info.extensions.iter().any(|ext| name.ends_with(&format!(".{ext}"))))
}

/// Whether a directory format recognises `dir`, judged from its top-level text files only
/// (cheap: nothing below is read).
fn is_directory_input(registry: &Registry, dir: &Path, from: Option<&FormatEntry>) -> bool {
    // The probe reads files, so build it only when a directory format could claim `dir`.
    let probe = || probe_bundle(registry, dir);
    match from {
        Some(f) if f.info.input == InputShape::Directory => f.format.detect(&probe()) >= CONFIDENT,
        Some(_) => false,
        None if registry.formats().iter().any(|f| f.info.reads && f.info.input == InputShape::Directory) => {
            let probe = probe();
            !probe.files.is_empty() && registry.detect(&probe, true).first().is_some_and(|(_, c)| *c >= CONFIDENT)
        }
        None => false,
    }
}

fn has_recognised_subdir(registry: &Registry, dir: &Path, from: Option<&FormatEntry>) -> bool {
    let (Ok(entries), Ok(real_root)) = (std::fs::read_dir(dir), std::fs::canonicalize(dir)) else { return false };
    entries
        .filter_map(Result::ok)
        .filter(|e| matches!(resolve(e, &real_root), Entry::Folder { .. }))
        .any(|e| is_directory_input(registry, &e.path(), from))
}

/// The largest file a directory probe reads.
const PROBE_FILE_BYTES: u64 = 4 << 20;

/// `dir`'s top-level regular files of a kind some format reads (no links, nothing over
/// [`PROBE_FILE_BYTES`], nothing that is not text), for directory formats to judge it by.
fn probe_bundle(registry: &Registry, dir: &Path) -> Bundle {
    let mut bundle = Bundle::default();
    let Ok(entries) = std::fs::read_dir(dir) else { return bundle };
    let limits = Limits { max_file_bytes: PROBE_FILE_BYTES, ..Limits::default() };
    let declared = |name: &str| {
        registry
            .formats()
            .iter()
            .any(|f| f.info.reads && f.info.extensions.iter().any(|e| name.ends_with(&format!(".{e}"))))
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let wanted = entry.file_type().is_ok_and(|t| t.is_file()) && (input::is_text_name(&name) || declared(&name));
        // Only then read: a pipe, a device or a large file among them is never opened.
        if wanted && let Ok(text) = input::read_text(&entry.path(), &limits) {
            bundle.insert(name, text);
        }
    }
    bundle
}

/// Why an input could not even be read. Shown as `PATH: REASON` ([`ResolveError::reason`]
/// alone where the path is said elsewhere).
#[derive(Debug)]
pub enum ResolveError {
    Input(InputError),
    Undetected {
        path: PathBuf,
        known: String,
    },
    /// No format recognised the input, and it is not even valid in the syntax its name says.
    Syntax {
        path: PathBuf,
        diagnostic: Box<Diagnostic>,
    },
    CannotRead {
        path: PathBuf,
        format: String,
    },
}

impl From<InputError> for ResolveError {
    fn from(error: InputError) -> Self {
        ResolveError::Input(error)
    }
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolveError::Input(error) => error.fmt(f),
            ResolveError::Undetected { path, .. }
            | ResolveError::Syntax { path, .. }
            | ResolveError::CannotRead { path, .. } => write!(f, "{}: {}", path.display(), self.reason()),
        }
    }
}

impl std::error::Error for ResolveError {}

impl ResolveError {
    /// The error as one diagnostic of the input, located where the input says where.
    pub fn diagnostic(&self) -> Diagnostic {
        use toolport_core::codes;
        match self {
            ResolveError::Syntax { diagnostic, .. } => (**diagnostic).clone(),
            ResolveError::Input(InputError::NotUtf8 { file, offset, line, column, .. }) => {
                let message = format!("is not UTF-8 text (invalid byte at offset {offset})");
                Diagnostic::error(codes::INPUT_SYNTAX, "", message).at(file, *line, *column)
            }
            // The host prints the input's path before a diagnostic without a place.
            other => Diagnostic::error(codes::INPUT_INVALID, "", other.reason()),
        }
    }

    /// What is wrong with the input, without its path.
    pub fn reason(&self) -> String {
        match self {
            ResolveError::Input(error) => error.reason(),
            ResolveError::Undetected { known, .. } => {
                format!("no format recognises this input; name one with --from ({known})")
            }
            ResolveError::Syntax { diagnostic, .. } => diagnostic.message.clone(),
            ResolveError::CannotRead { format, .. } => format!("format {format} cannot read (it only writes)"),
        }
    }
}

/// Loads an input and settles its format: `from` if given, else the most confident detection.
pub fn load<'r>(
    registry: &'r Registry,
    item: &InputItem,
    from: Option<&'r FormatEntry>,
    limits: &Limits,
) -> Result<(&'r FormatEntry, Bundle), ResolveError> {
    load_noted(registry, item, from, limits).map(|loaded| (loaded.format, loaded.bundle))
}

/// An input loaded, its format settled, and what the choice of format must tell the user.
#[derive(Debug)]
pub struct Loaded<'r> {
    pub format: &'r FormatEntry,
    pub bundle: Bundle,
    /// Detection chose a plugin from elsewhere over a built-in format ([`detected_over_built_in`]).
    pub note: Option<Diagnostic>,
}

/// [`load`], with what detection has to say about its choice.
pub fn load_noted<'r>(
    registry: &'r Registry,
    item: &InputItem,
    from: Option<&'r FormatEntry>,
    limits: &Limits,
) -> Result<Loaded<'r>, ResolveError> {
    let mut note = None;
    let is_dir = item.is_dir;
    let load_as = |shape: InputShape, name: &str| -> Result<Bundle, InputError> {
        if item.is_stdin() {
            input::load_stdin(&mut std::io::stdin().lock(), limits)
        } else {
            input::load(&item.path, shape, name, limits)
        }
    };
    let (format, bundle) = match from {
        Some(format) => (format, load_as(format.info.input, &format.info.id)?),
        None => {
            let shape = if is_dir { InputShape::Directory } else { InputShape::File };
            let bundle = load_as(shape, "detection")?;
            let detected = registry.detect(&bundle, is_dir);
            note = detected_over_built_in(&detected);
            let Some((format, _)) = detected.first() else {
                if let Some(diagnostic) = syntax_error(&bundle) {
                    return Err(ResolveError::Syntax { path: item.path.clone(), diagnostic: Box::new(diagnostic) });
                }
                let known = registry
                    .formats()
                    .iter()
                    .filter(|f| f.info.reads)
                    .map(|f| f.info.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(ResolveError::Undetected { path: item.path.clone(), known });
            };
            let mut bundle = bundle;
            if format.info.input == InputShape::FileWithSiblings && !item.is_stdin() {
                input::add_named_siblings(&mut bundle, &item.path, limits)?;
            }
            (*format, bundle)
        }
    };
    if !format.info.reads {
        return Err(ResolveError::CannotRead { path: item.path.clone(), format: format.info.id.clone() });
    }
    Ok(Loaded { format, bundle, note })
}

/// A warning when detection chose a format of a plugin not installed with convert while a
/// built-in format recognises the input too: a plugin from elsewhere cannot take inputs over
/// unnoticed.
pub fn detected_over_built_in(detected: &[(&FormatEntry, toolport_core::Detection)]) -> Option<Diagnostic> {
    let (chosen, _) = detected.first()?;
    let (built_in, _) = detected.iter().find(|(f, _)| f.built_in())?;
    if chosen.built_in() {
        return None;
    }
    let plugin = chosen.plugin_path.as_deref().map_or_else(String::new, |p| format!(" ({})", p.display()));
    let (id, other) = (&chosen.info.id, &built_in.info.id);
    Some(Diagnostic::warning(
        codes::INPUT_OTHER_FORMAT,
        "",
        format!(
            "read as {id}, a format of a plugin not installed with convert{plugin}, which detection preferred over the built-in {other}: give --from {other} to read it with the built-in, or --from {id} to keep this choice and silence this"
        ),
    ))
}

/// The output-name rule, for documents named after the input's stem (the command line's
/// outputs in a folder, the Python API's files): a known format's id or alias ending the stem
/// is replaced by the target's (`tools.mcp.json` to openai is `tools.openai.json`), else the
/// target's id is added (`spec.yaml` to mcp is `spec.mcp.json`), so two targets into one
/// folder never collide. A file the writer named otherwise keeps its name; callers do not
/// apply the rule where the user named the file (`--option output_name=NAME`).
pub fn target_file_name(registry: &Registry, file: &str, stem: &str, to: &toolport_core::FormatInfo) -> String {
    let Some(rest) = file.strip_prefix(stem).filter(|rest| rest.starts_with('.')) else { return file.to_owned() };
    let known = |suffix: &str| {
        registry.formats().iter().any(|f| {
            f.info.id.eq_ignore_ascii_case(suffix) || f.info.aliases.iter().any(|a| a.eq_ignore_ascii_case(suffix))
        })
    };
    let base = match stem.rsplit_once('.') {
        Some((base, suffix)) if !base.is_empty() && known(suffix) => base,
        _ => stem,
    };
    format!("{base}.{}{rest}", to.id)
}

/// Whether the output-name rule ([`target_file_name`]) applies to what a writer wrote: documents
/// only (no folders, no binary files), from a target that does not write a folder of names of
/// its own (a folder format such as mcp-server: its `manifest.json` stays that even when the
/// input was called `manifest.json`).
pub fn names_follow_input(written: &Bundle, to: &toolport_core::FormatInfo) -> bool {
    !writes_a_folder(to) && written.binary_files.is_empty() && !written.files.keys().any(|k| k.contains('/'))
}

/// Whether a format's output is a folder whatever it holds (raycast, mcp-server, m365: the
/// formats that read one), so a writer's one file still goes into a folder, never in its place.
pub fn writes_a_folder(to: &toolport_core::FormatInfo) -> bool {
    to.input == toolport_core::InputShape::Directory
}

/// Whether `written` is one document to put where `-o` says (a file, or standard output):
/// one file, none below a folder, nothing binary, from a format that does not write a folder.
pub fn is_single_document(written: &Bundle, to: &toolport_core::FormatInfo) -> bool {
    written.files.len() == 1
        && written.binary_files.is_empty()
        && written.other_files.is_empty()
        && !written.files.keys().any(|k| k.contains('/'))
        && !writes_a_folder(to)
}

/// `written` with [`target_file_name`] applied where [`names_follow_input`]: what the command
/// line writes into a folder, named the same way.
pub fn name_documents(registry: &Registry, mut written: Bundle, stem: &str, to: &toolport_core::FormatInfo) -> Bundle {
    if names_follow_input(&written, to) {
        written.files = std::mem::take(&mut written.files)
            .into_iter()
            .map(|(file, text)| (target_file_name(registry, &file, stem, to), text))
            .collect();
    }
    written
}

/// When reading an input as `given` (named with `--from`) failed: a hint naming the format
/// the input looks like, if detection confidently finds another one.
pub fn detection_hint(
    registry: &Registry,
    item: &InputItem,
    bundle: &Bundle,
    given: &FormatEntry,
) -> Option<Diagnostic> {
    let is_dir = item.is_dir;
    let (found, _) = registry.detect(bundle, is_dir).into_iter().find(|(_, confidence)| *confidence >= CONFIDENT)?;
    if found.info.id == given.info.id {
        return None;
    }
    let (id, given) = (&found.info.id, &given.info.id);
    Some(Diagnostic::warning(
        codes::INPUT_OTHER_FORMAT,
        "",
        format!("this input looks like {id}, not {given}: try --from {id}, or leave --from out to detect the format"),
    ))
}

/// The syntax error of an input no format recognised, judged by its file name's extension:
/// a truncated or malformed document is a located failure, not an unrecognised file.
fn syntax_error(bundle: &Bundle) -> Option<Diagnostic> {
    let (name, text) = bundle.entry_file()?;
    match name.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase()).as_deref() {
        Some("json") => toolport_core::source::parse_json(name, text).err(),
        Some("yaml" | "yml") => toolport_yaml::parse(name, text).err(),
        _ => None,
    }
}

/// How one conversion ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Converted with nothing lost.
    Converted,
    /// Converted; some things were reported as lost.
    ConvertedWithLosses,
    /// Not converted: an error in the input, the plugins or the output.
    Failed,
    /// Not converted: `--strict` and something it refuses would be lost.
    LossRefused,
    /// A walked file no format recognised, or not reached (`--fail-fast`).
    Skipped,
}

/// The result of reading one bundle and writing it in the target format.
#[derive(Debug)]
pub struct Conversion {
    pub output: Option<Bundle>,
    pub diagnostics: Vec<Diagnostic>,
    /// The diagnostics the plugins counted rather than gave in full, as the options'
    /// [`Options::DIAGNOSTIC_DETAIL`] asked (empty when it asks for all).
    pub tally: Tally,
    pub status: Status,
    /// The reader failed (nothing was written).
    pub read_failed: bool,
    /// What the written names stand for, when [`Curate::names_map`] asked for it.
    pub names_map: Option<NamesMap>,
    /// The input, given back when the reader failed and it was handed over owned (for a hint
    /// about the format; freed once read otherwise).
    pub source: Option<Bundle>,
}

/// Reads `bundle` with `from` and writes it with `to`. A loss `strict` refuses withholds the
/// output (`true`: losses of meaning, see [`Strictness`]). A plugin of this build hands its
/// model over natively, which the writer borrows; between other plugins the model passes as
/// the reader's JSON, undecoded.
pub fn convert(
    from: &FormatEntry,
    to: &FormatEntry,
    bundle: &Bundle,
    options: &Options,
    strict: impl Into<Strictness>,
) -> Conversion {
    convert_staged(from, to, Cow::Borrowed(bundle), options, strict, &Curate::default(), &FitSettings::default())
}

/// [`convert`] with the stage between reading and writing ([`crate::stage`], DESIGN's curate
/// and fit): an OpenAPI Overlay applied to the source, then the model curated
/// (`--select`, `--exclude`, `--overlay`) and fitted to the target's declared limits
/// (`limit/*`, `--split`). The model is decoded between the plugins only when the stage has
/// work ([`Curate::needs_model`], [`stage::has_fit_work`]); a model the stage left as it was
/// is still written from the reader's JSON. Each part of a split is its own document, named
/// `OUTPUT_NAME.PART` (a part written as several files goes in a folder named after it).
/// An `input` handed over owned is freed once read.
pub fn convert_staged(
    from: &FormatEntry,
    to: &FormatEntry,
    input: Cow<'_, Bundle>,
    options: &Options,
    strict: impl Into<Strictness>,
    curate: &Curate,
    fit: &FitSettings,
) -> Conversion {
    let strict = strict.into();
    let failed = |diagnostics| Conversion {
        output: None,
        diagnostics,
        tally: Tally::default(),
        status: Status::Failed,
        read_failed: false,
        names_map: None,
        source: None,
    };
    if !to.info.writes {
        let message = format!("format {} cannot write (it only reads)", to.info.id);
        return failed(vec![Diagnostic::error(toolport_core::codes::INPUT_UNSUPPORTED, "", message)]);
    }
    let has_errors = |d: &[Diagnostic]| d.iter().any(Diagnostic::is_error);
    let (prepared, mut diagnostics) = match stage::prepare_source(&input, &from.info, curate) {
        Ok(prepared) => prepared,
        Err(errors) => return failed(errors),
    };
    let mut staged = curate.needs_model() || stage::has_fit_work(&to.info, fit);
    // The reader is told the target, so it can leave out what only another writer would use.
    let mut read_options = options.clone();
    read_options.set(Options::TARGET_FORMAT, to.info.id.as_str());
    // Descriptions past the target's limit are cut by the reader's plugin, in the model it
    // owns: a model handed over natively is then written borrowed instead of copied to be cut.
    if staged && let Some(asked) = stage::cuts_for_reader(&to.info, &strict, fit, curate.needs_model()) {
        read_options.set(Options::CUT_DESCRIPTIONS, asked);
    }
    let read = read_model(from, to, prepared.as_ref(), &read_options, &mut diagnostics);
    // Nothing needs the input past the read: one handed over owned is freed before the writer
    // builds its document (a large list's text is a twentieth of its conversion's peak).
    drop(prepared);
    let (read, mut tally) = match read {
        Ok(read) => read,
        Err(tally) => {
            let source = match input {
                Cow::Owned(bundle) => Some(bundle),
                Cow::Borrowed(_) => None,
            };
            return Conversion { read_failed: true, tally, source, ..failed(diagnostics) };
        }
    };
    drop(input);
    // A model handed over natively that fitting leaves as it is is written borrowed: a copy
    // for the stage cost a large conversion a tenth of its time.
    if staged
        && !curate.needs_model()
        && let Read::Native(model) = &read
        && let Some(said) = stage::fit_unchanged(model, &to.info, options, &strict, fit)
    {
        diagnostics.extend(said);
        staged = false;
    }
    let mut source_names = Vec::new();
    let mut curated_model = None;
    let written = match read {
        Read::Json(raw, writer) if !staged => writer.write_raw(raw, options),
        // Borrowed by the writer: natively by a plugin of this build, else as JSON.
        Read::Native(model) if !staged => {
            let written = to.format.write(&model, options);
            options.free(model);
            written
        }
        Read::Model(model) if !staged => to.format.write(&model, options),
        read => {
            let (model, unknown, as_read) = match read {
                Read::Model(model) => (*model, Vec::new(), None),
                // The stage takes the model by value: the host's copy, the reader's freed.
                Read::Native(model) => ((*model).clone(), Vec::new(), None),
                Read::Json(raw, writer) => match raw.decode() {
                    Ok((model, unknown)) => (model, unknown, Some((raw, writer))),
                    Err(e) => {
                        let message = format!("the model cannot be read: {e}");
                        diagnostics.push(Diagnostic::error(codes::PLUGIN_FAILED, "", message));
                        return Conversion { tally, ..failed(diagnostics) };
                    }
                },
            };
            let curates = curate.needs_model();
            let model = if curates {
                let curated = stage::curate(model, curate);
                diagnostics.extend(curated.diagnostics);
                if has_errors(&diagnostics) {
                    return Conversion { tally, ..failed(diagnostics) };
                }
                source_names = curated.source_names;
                if curate.names_map {
                    curated_model = Some(curated.model.clone());
                }
                curated.model
            } else {
                model
            };
            let fitted = stage::fit(model, &to.info, options, &strict, fit);
            diagnostics.extend(fitted.diagnostics);
            match as_read {
                // The model as read: the writer gets the reader's JSON and reports what it does not know.
                Some((raw, writer)) if !curates && !fitted.changed => {
                    // The stage's copy is freed first: the writer may decode the JSON again.
                    drop(fitted.parts);
                    writer.write_raw(raw, options)
                }
                _ => {
                    // Written from this host's model: fields it does not know are its to report.
                    diagnostics.extend(unknown);
                    write_parts(to, fitted.parts, options)
                }
            }
        }
    };
    let names_map = curated_model.map(|model| NamesMap::build(&model, &source_names, &written.diagnostics));
    diagnostics.extend(written.diagnostics);
    tally.merge(written.tally);
    let lost = diagnostics.iter().any(Diagnostic::is_loss) || tally.has_loss();
    let refused = diagnostics.iter().any(|d| strict.refuses(d)) || tally.refused_by(&strict);
    let status = match &written.value {
        _ if has_errors(&diagnostics) => Status::Failed,
        None => Status::Failed,
        Some(_) if refused => Status::LossRefused,
        Some(_) if lost => Status::ConvertedWithLosses,
        Some(_) => Status::Converted,
    };
    if status == Status::LossRefused {
        strict.mark_refused(&mut diagnostics);
    }
    let output = if matches!(status, Status::Converted | Status::ConvertedWithLosses) { written.value } else { None };
    let names_map = names_map.filter(|_| output.is_some());
    Conversion { output, diagnostics, tally, status, read_failed: false, names_map, source: None }
}

/// Reads `bundle` with `from` (its diagnostics into `diagnostics`): the model handed over
/// natively by a plugin of this build, else the reader's JSON between two plugins (with the
/// writer it goes to), else the model itself. Fails, with the reader's tally, when the reader
/// gave no model or said an error.
fn read_model<'w>(
    from: &FormatEntry,
    to: &'w FormatEntry,
    bundle: &Bundle,
    read_options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(Read<'w>, Tally), Tally> {
    let native = from.plugin.as_ref().and_then(|reader| reader.read_native(bundle, read_options));
    match (native, &from.plugin, &to.plugin) {
        (Some(read), _, _) => accepted(read, diagnostics).map(|(model, tally)| (Read::Native(model), tally)),
        (None, Some(reader), Some(writer)) => accepted(reader.read_raw(bundle, read_options), diagnostics)
            .map(|(raw, tally)| (Read::Json(raw, writer), tally)),
        _ => accepted(from.format.read(bundle, read_options), diagnostics)
            .map(|(model, tally)| (Read::Model(Box::new(model)), tally)),
    }
}

/// A reader's outcome, its diagnostics moved into `diagnostics`: its value and tally, or only
/// its tally when it gave no value or said an error.
fn accepted<T>(read: Outcome<T>, diagnostics: &mut Vec<Diagnostic>) -> Result<(T, Tally), Tally> {
    let Outcome { value, diagnostics: said, tally } = read;
    diagnostics.extend(said);
    match value.filter(|_| !diagnostics.iter().any(Diagnostic::is_error)) {
        Some(value) => Ok((value, tally)),
        None => Err(tally),
    }
}

/// What the reader gave: its model handed over natively (a plugin of this build), its model's
/// JSON, undecoded, for a plugin writer (between two plugins otherwise), or the model itself
/// (a format linked into the program on either side).
enum Read<'w> {
    Native(crate::plugin::NativeModel),
    Json(crate::plugin::RawModel, &'w crate::plugin::PluginFormat),
    Model(Box<toolport_core::ToolSet>),
}

/// Writes each part of a fitted model; one unnamed part is the whole document. A part's
/// files join one bundle: a single document as `OUTPUT_NAME.PART.ext`, anything else under a
/// folder named after the part.
fn write_parts(to: &FormatEntry, parts: Vec<Part>, options: &Options) -> Outcome<Bundle> {
    if let [whole] = parts.as_slice()
        && whole.name.is_empty()
    {
        return to.format.write(&whole.tool_set, options);
    }
    let base = options.output_name("output").to_owned();
    let mut joined = Bundle::default();
    let mut diagnostics = Vec::new();
    let mut tally = Tally::default();
    for part in parts {
        let mut part_options = options.clone();
        part_options.set(Options::OUTPUT_NAME, format!("{base}.{}", part.name));
        let Outcome { value, diagnostics: said, tally: counted } = to.format.write(&part.tool_set, &part_options);
        diagnostics.extend(said);
        tally.merge(counted);
        let Some(written) = value else { return Outcome::with(None, diagnostics, tally) };
        let folder = if is_single_document(&written, &to.info) { String::new() } else { format!("{}/", part.name) };
        for (name, text) in written.files {
            joined.files.insert(format!("{folder}{name}"), text);
        }
        for (name, bytes) in written.binary_files {
            joined.binary_files.insert(format!("{folder}{name}"), bytes);
        }
    }
    Outcome::with(Some(joined), diagnostics, tally)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use toolport_test_plugins::Echo;

    use super::*;

    /// Formats linked into the program (library users) convert through the typed model.
    #[test]
    fn linked_formats_convert_through_the_typed_model() {
        let mut registry = Registry::default();
        registry.add_linked(Arc::new(Echo("first")));
        registry.add_linked(Arc::new(Echo("second")));
        let from = registry.format("first").unwrap();
        let to = registry.format("second").unwrap();
        assert!(from.plugin.is_none());
        let conversion = convert(from, to, &Bundle::single("in.echo", "{}"), &Options::default(), false);
        assert_eq!(conversion.status, Status::Converted);
        assert_eq!(conversion.output.unwrap().get("out.echo"), Some("first"));
    }

    /// A reader of a conversion is told the target's id, so it can leave out what only another
    /// writer uses; the writer's options are the caller's.
    #[test]
    fn the_reader_is_told_the_target() {
        use toolport_core::Format;
        #[derive(Debug)]
        struct SaysItsTarget;
        impl Format for SaysItsTarget {
            fn info(&self) -> toolport_core::FormatInfo {
                toolport_core::FormatInfo { id: "says".into(), ..Echo("says").info() }
            }
            fn read(&self, _input: &Bundle, options: &Options) -> Outcome<toolport_core::ToolSet> {
                let title = options.get(Options::TARGET_FORMAT).unwrap_or("no target").to_owned();
                Outcome::ok(toolport_core::ToolSet { title: Some(title), ..Default::default() }, vec![])
            }
            fn write(&self, model: &toolport_core::ToolSet, options: &Options) -> Outcome<Bundle> {
                let told = options.get(Options::TARGET_FORMAT).unwrap_or("no target");
                let text = format!("{} / {told}", model.title.clone().unwrap_or_default());
                Outcome::ok(Bundle::single("out.echo", text), vec![])
            }
        }
        let mut registry = Registry::default();
        registry.add_linked(Arc::new(SaysItsTarget));
        registry.add_linked(Arc::new(Echo("second")));
        let (from, to) = (registry.format("says").unwrap(), registry.format("second").unwrap());
        let conversion = convert(from, to, &Bundle::single("in.echo", "{}"), &Options::default(), false);
        assert_eq!(conversion.output.unwrap().get("out.echo"), Some("second"));
        let conversion = convert(from, from, &Bundle::single("in.echo", "{}"), &Options::default(), false);
        assert_eq!(conversion.output.unwrap().get("out.echo"), Some("says / no target"));
    }

    /// A walk follows links only inside the folder walked and walks each folder once: links to
    /// the folder itself, to a parent and a loop of two add nothing, a link out is skipped, a
    /// link to a file inside is an input under its own name, a named pipe is skipped unopened.
    #[cfg(unix)]
    #[test]
    fn a_walk_stays_inside_its_folder_and_walks_each_folder_once() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let (root, away) = (dir.path().join("in"), dir.path().join("away"));
        for folder in [&root.join("sub"), &root.join("x"), &root.join("y"), &away] {
            std::fs::create_dir_all(folder).unwrap();
        }
        for file in [root.join("a.echo"), root.join("sub/b.echo"), root.join("x/c.echo"), away.join("d.echo")] {
            std::fs::write(file, "{}").unwrap();
        }
        symlink(".", root.join("self")).unwrap();
        symlink(".", root.join("self2")).unwrap();
        symlink("..", root.join("sub/up")).unwrap();
        symlink("../y", root.join("x/to-y")).unwrap();
        symlink("../x", root.join("y/to-x")).unwrap();
        symlink(&away, root.join("elsewhere")).unwrap();
        symlink(away.join("d.echo"), root.join("d.echo")).unwrap();
        symlink("sub/b.echo", root.join("alias.echo")).unwrap();
        symlink("nowhere.echo", root.join("gone.echo")).unwrap();
        nix::unistd::mkfifo(&root.join("pipe.echo"), nix::sys::stat::Mode::S_IRWXU).unwrap();

        let mut registry = Registry::default();
        registry.add_linked(Arc::new(Echo("echo")));
        let found: Vec<String> = find_inputs(&registry, std::slice::from_ref(&root), None)
            .iter()
            .map(|item| {
                let why =
                    item.skipped.as_ref().map_or("input".to_owned(), |d| format!("{:?} {}", d.severity, d.message));
                let line = format!("{} {why}", item.relative.display());
                line.replace(&std::fs::canonicalize(dir.path()).unwrap().display().to_string(), "TMP")
                    .replace(&dir.path().display().to_string(), "TMP")
            })
            .collect();
        let again = "Info skipped: leads to a folder walked already (a link or a mount loops back)";
        let outside = "links are followed only inside the folder walked";
        assert_eq!(
            found,
            [
                "a.echo input".to_owned(),
                "alias.echo input".to_owned(),
                format!("d.echo Warning skipped: is a link to TMP/away/d.echo, outside TMP/in; {outside}"),
                format!("elsewhere Warning skipped: is a link to TMP/away, outside TMP/in; {outside}"),
                "gone.echo Warning skipped: is a link to nothing".to_owned(),
                "pipe.echo Warning skipped: is a named pipe (FIFO), not a regular file".to_owned(),
                "sub/b.echo input".to_owned(),
                "x/c.echo input".to_owned(),
                // Folders through links come last, and each of these leads back.
                format!("self {again}"),
                format!("self2 {again}"),
                format!("sub/up {again}"),
                format!("x/to-y {again}"),
                format!("y/to-x {again}"),
            ]
        );
    }

    #[test]
    fn a_later_format_with_a_taken_name_is_shadowed() {
        let mut registry = Registry::default();
        registry.add_linked(Arc::new(Echo("first")));
        registry.add_linked(Arc::new(Echo("first")));
        assert_eq!(registry.formats().len(), 1);
        assert_eq!(registry.shadowed.len(), 1);
        let unknown = registry.format("nope").unwrap_err().to_string();
        assert_eq!(unknown, "unknown format `nope`; known formats: first");
    }
}
