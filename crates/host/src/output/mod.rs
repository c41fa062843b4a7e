//! Where written bundles go, and writing them safely:
//!
//! - a bundle path never escapes the output directory ([`safe_join`]), and nothing is written
//!   through a symbolic link below the folder the user named ([`OutputError::Link`]);
//! - an input is never overwritten, and an existing file only with `--force` (keeping its mode);
//!   `--force` replaces regular files only, never a device, FIFO, socket, folder or link
//!   ([`Occupant`]);
//! - two outputs never claim the same path ([`check_plan`]), checked before anything is written;
//! - every file is written into a staging folder and renamed into place, so a reader never sees
//!   half a file; one input's files are placed all or none ([`Staging::commit`] takes back what
//!   it placed for an input whose next file fails);
//! - a commit can be stopped ([`Staging::commit_or_stop`]): everything it placed is taken back;
//!   a commit killed outright is undone by the next run in the same folder, from the journal
//!   written before it began (`journal.rs`);
//! - staging folders are removed on every exit: on drop, by [`abandon_live_staging`] from a
//!   signal handler, and, after a kill, by the next run in the same folder, which removes only
//!   folders marked as toolport's staging and not locked by a live run; folders a run made
//!   are removed again if it placed nothing in them.
//!
//! Batches stage each conversion's files as soon as it finishes ([`Staging`]), so memory is
//! bounded by the largest input rather than by the batch, and commit them all after the checks.

mod atomic;
mod journal;
mod place;
mod plan;
mod staging;

pub use atomic::write_atomic;
pub use plan::{PlanInputs, PlanProblem, check_destination, check_plan};
pub use staging::{CommitFailure, Committed, Staging, abandon_live_staging};

use std::path::{Component, Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("the writer produced the path `{0}`, which is not a plain relative path inside the output; refused")]
    UnsafePath(String),
    #[error("{}: already exists; use --force to overwrite it", .0.display())]
    Exists(PathBuf),
    #[error("{}: is an input; toolport never overwrites its inputs", .0.display())]
    IsInput(PathBuf),
    #[error("{}: would be written by both {first} and {second}; nothing was written", path.display())]
    Collision { path: PathBuf, first: String, second: String },
    #[error("{}: is a symbolic link; toolport never writes through links (writing {})", link.display(), path.display())]
    Link { path: PathBuf, link: PathBuf },
    #[error("{}: is a directory; an output file cannot replace it", .0.display())]
    IsDirectory(PathBuf),
    #[error("{}: is a {kind}; toolport replaces only regular files, even with --force", path.display())]
    NotAFile { path: PathBuf, kind: &'static str },
    #[error("{}: not staged: the run was stopped", .0.display())]
    Stopped(PathBuf),
    // `cause` is not a `source`: the message already holds it, and error chains would repeat it.
    #[error("{}: cannot be written: {cause}", path.display())]
    Io { path: PathBuf, cause: std::io::Error },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |cause| OutputError::Io { path: path.to_path_buf(), cause }
}

/// What is in an output's place. Only a regular file may be replaced, and only with `--force`.
#[derive(Debug)]
pub enum Occupant {
    Link,
    Folder,
    /// A regular file, and its permission bits.
    File(std::fs::Permissions),
    /// A device, FIFO, socket or anything else that is not a file, named for messages.
    Special(&'static str),
}

impl Occupant {
    /// What `lstat` says is there (a link is not followed).
    pub fn of(meta: &std::fs::Metadata) -> Occupant {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Occupant::of_mode(meta.mode())
        }
        #[cfg(not(unix))]
        {
            let kind = meta.file_type();
            if kind.is_symlink() {
                Occupant::Link
            } else if kind.is_dir() {
                Occupant::Folder
            } else if kind.is_file() {
                Occupant::File(meta.permissions())
            } else {
                Occupant::Special("special file")
            }
        }
    }

    /// What a `stat` mode says is there.
    #[cfg(unix)]
    pub(crate) fn of_mode(mode: u32) -> Occupant {
        use std::os::unix::fs::PermissionsExt;
        // The file type bits POSIX defines (`S_IFMT`), the same on every Unix.
        match mode & 0o170000 {
            0o120000 => Occupant::Link,
            0o040000 => Occupant::Folder,
            0o100000 => Occupant::File(std::fs::Permissions::from_mode(mode & 0o7777)),
            0o020000 => Occupant::Special("character device"),
            0o060000 => Occupant::Special("block device"),
            0o010000 => Occupant::Special("FIFO (named pipe)"),
            0o140000 => Occupant::Special("socket"),
            _ => Occupant::Special("special file"),
        }
    }

    /// Why a file cannot be written at `path` with this in its place, if it cannot: anything
    /// but a regular file is refused, and a regular file without `force`.
    pub fn refusal(&self, path: &Path, force: bool) -> Option<OutputError> {
        let path = path.to_path_buf();
        match self {
            Occupant::Link => Some(OutputError::Link { link: path.clone(), path }),
            Occupant::Folder => Some(OutputError::IsDirectory(path)),
            Occupant::Special(kind) => Some(OutputError::NotAFile { path, kind }),
            Occupant::File(_) if !force => Some(OutputError::Exists(path)),
            Occupant::File(_) => None,
        }
    }
}

/// Joins a bundle's relative path to `dir`, refusing anything that could land outside it:
/// absolute paths, `..`, drive prefixes and `:` (Windows streams), empty or `.` segments,
/// backslashes and NUL bytes.
pub fn safe_join(dir: &Path, relative: &str) -> Result<PathBuf, OutputError> {
    let unsafe_path = || OutputError::UnsafePath(relative.to_owned());
    if relative.is_empty() || relative.contains(['\\', '\0', ':']) {
        return Err(unsafe_path());
    }
    let mut out = dir.to_path_buf();
    for segment in relative.split('/') {
        let mut components = Path::new(segment).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(name)), None) if segment != "." => out.push(name),
            _ => return Err(unsafe_path()),
        }
    }
    Ok(out)
}

/// `path` below `root` (`.` components aside: a root of `.`, the working folder, holds every
/// relative path); `None` when it is not below it.
fn below(path: &Path, root: &Path) -> Option<PathBuf> {
    let mut rest = path.components().filter(|c| *c != Component::CurDir);
    for part in root.components().filter(|c| *c != Component::CurDir) {
        if rest.next() != Some(part) {
            return None;
        }
    }
    Some(rest.collect())
}

/// Which file a path holds, whatever its name: a staged file keeps its identity when renamed
/// into place, so a later run can tell a file a killed commit placed from anyone else's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    device: u64,
    inode: u64,
}

impl FileId {
    /// Which file an open file is (on Unix; elsewhere files are not told apart).
    fn of(meta: &std::fs::Metadata) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId { device: meta.dev(), inode: meta.ino() })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }
}

/// Whether this user owns the file `meta` describes: another user's folder is never taken for
/// a staging of ours (in a folder others may write to, it could be made to look like one).
fn owned_by_this_user(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::fs::MetadataExt::uid(meta) == nix::unistd::geteuid().as_raw()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

/// One file an output plan will write, with the input that produced it.
#[derive(Clone, Debug)]
pub struct PlannedFile {
    pub path: PathBuf,
    /// The input it comes from, for messages.
    pub owner: String,
    /// The folder the user named (`-o`): trusted as given; below it, no link is written through.
    pub root: PathBuf,
}

#[cfg(test)]
mod tests;
