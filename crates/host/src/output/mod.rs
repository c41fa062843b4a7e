//! Where written bundles go, and writing them safely:
//!
//! - a bundle path never escapes the output directory ([`safe_join`]), and nothing is written
//!   through a symbolic link below the folder the user named ([`OutputError::Link`]);
//! - an input is never overwritten, and an existing file only with `--force` (keeping its mode);
//! - two outputs never claim the same path ([`check_plan`]), checked before anything is written;
//! - every file is written into a staging folder and renamed into place, so a reader never sees
//!   half a file; one input's files are placed all or none ([`Staging::commit`] takes back what
//!   it placed for an input whose next file fails);
//! - staging folders are removed on every exit: on drop, by [`remove_live_staging`] from a
//!   signal handler, and, after a kill, by the next run in the same folder.
//!
//! Batches stage each conversion's files as soon as it finishes ([`Staging`]), so memory is
//! bounded by the largest input rather than by the batch, and commit them all after the checks.

mod atomic;
mod place;
mod plan;
mod staging;

pub use atomic::write_atomic;
pub use plan::{PlanProblem, check_plan};
pub use staging::{CommitFailure, Committed, Staging, remove_live_staging};

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
    // `cause` is not a `source`: the message already holds it, and error chains would repeat it.
    #[error("{}: cannot be written: {cause}", path.display())]
    Io { path: PathBuf, cause: std::io::Error },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |cause| OutputError::Io { path: path.to_path_buf(), cause }
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
