//! Where a staged file goes, held so that no link is followed on the way: on Unix each folder
//! below the output root is opened once, level by level, without following links, and every
//! file is placed, inspected, backed up and taken back relative to its folder's handle. A
//! folder swapped for a link after it was opened then changes nothing: the handle still names
//! the folder that was checked. (Elsewhere, paths: checked, then used.)

use std::collections::HashMap;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[cfg(unix)]
use super::below;
use super::journal::Journal;
use super::{FileId, Occupant, OutputError, PlannedFile};

/// The folders of one commit, each opened once, and those it made.
pub(super) struct Folders {
    #[cfg(unix)]
    open: HashMap<PathBuf, Arc<std::os::fd::OwnedFd>>,
    #[cfg(not(unix))]
    open: HashMap<PathBuf, ()>,
    /// Whether missing folders are made (a commit) or not (undoing a killed commit).
    make: bool,
    /// The folders made below a root, in the order they were made (a parent before its child).
    made: Vec<MadeFolder>,
    /// The commit's journal, told of each folder before it is made.
    journal: Option<Journal>,
}

impl Default for Folders {
    fn default() -> Self {
        Folders { open: HashMap::new(), make: true, made: Vec::new(), journal: None }
    }
}

/// A folder a commit made, to be removed again if nothing stays in it.
struct MadeFolder {
    #[cfg_attr(unix, allow(dead_code))]
    path: PathBuf,
    #[cfg(unix)]
    parent: Arc<std::os::fd::OwnedFd>,
    #[cfg(unix)]
    name: OsString,
}

/// A file's place: its folder, held open, and its name there.
pub(super) struct Place {
    #[cfg(unix)]
    dir: Arc<std::os::fd::OwnedFd>,
    name: OsString,
    /// For messages, and for the path-based fallback.
    pub(super) path: PathBuf,
}

impl Folders {
    /// Folders that exist already: a missing one is an error, not made.
    pub(super) fn existing() -> Self {
        Folders { make: false, ..Folders::default() }
    }

    /// The folders of a commit that `journal` describes: each folder made is journaled first.
    pub(super) fn journaled(journal: Journal) -> Self {
        Folders { journal: Some(journal), ..Folders::default() }
    }

    /// The commit has ended: the folders it made that nothing was placed in are removed, and
    /// then its journal.
    pub(super) fn end(mut self) {
        self.remove_empty_made();
        if let Some(journal) = self.journal.take() {
            journal.end();
        }
    }

    /// Removes the folders made here that nothing was placed in, deepest first (a folder
    /// that is not empty stays).
    fn remove_empty_made(&mut self) {
        for folder in self.made.drain(..).rev() {
            #[cfg(unix)]
            let _ =
                nix::unistd::unlinkat(&folder.parent, folder.name.as_os_str(), nix::unistd::UnlinkatFlags::RemoveDir);
            #[cfg(not(unix))]
            let _ = std::fs::remove_dir(&folder.path);
        }
    }

    /// The place of `file`: its folder made where missing and opened level by level below
    /// `file.root` without following a link (the root itself is trusted as given).
    pub(super) fn place(&mut self, file: &PlannedFile) -> Result<Place, OutputError> {
        let unsafe_path = || OutputError::UnsafePath(file.path.display().to_string());
        let (Some(dir), Some(name)) = (file.path.parent(), file.path.file_name()) else { return Err(unsafe_path()) };
        // A bare file name is in the working folder.
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        self.open(&file.root, dir, &file.path)?;
        Ok(Place {
            #[cfg(unix)]
            dir: Arc::clone(&self.open[dir]),
            name: name.to_owned(),
            path: file.path.clone(),
        })
    }

    #[cfg(unix)]
    fn open(&mut self, root: &Path, dir: &Path, file: &Path) -> Result<(), OutputError> {
        use nix::fcntl::{OFlag, openat};
        use nix::sys::stat::{Mode, mkdirat};
        if self.open.contains_key(dir) {
            return Ok(());
        }
        let io = |cause: nix::Error| OutputError::Io { path: dir.to_path_buf(), cause: io::Error::from(cause) };
        let flags = OFlag::O_DIRECTORY | OFlag::O_CLOEXEC | OFlag::O_RDONLY;
        let handle = match (dir.parent(), dir.file_name()) {
            (Some(parent), Some(name)) if below(dir, root).is_some_and(|rest| !rest.as_os_str().is_empty()) => {
                let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
                self.open(root, parent, file)?;
                let parent = Arc::clone(&self.open[parent]);
                let open = || openat(&parent, name, flags | OFlag::O_NOFOLLOW, Mode::empty());
                let opened = match open() {
                    Err(nix::Error::ENOENT) if self.make => {
                        // Journaled before it is made: a commit killed next leaves no folder
                        // the next run does not know of.
                        if let Some(journal) = &mut self.journal {
                            journal.folder(root, dir);
                        }
                        match mkdirat(&parent, name, Mode::from_bits_truncate(0o777)) {
                            Ok(()) => self.made.push(MadeFolder {
                                path: dir.to_path_buf(),
                                parent: Arc::clone(&parent),
                                name: name.to_owned(),
                            }),
                            Err(nix::Error::EEXIST) => {}
                            Err(e) => return Err(io(e)),
                        }
                        open()
                    }
                    opened => opened,
                };
                match opened {
                    Ok(handle) => handle,
                    Err(nix::Error::ELOOP | nix::Error::ENOTDIR) if is_link(&parent, name) => {
                        return Err(OutputError::Link { path: file.to_path_buf(), link: dir.to_path_buf() });
                    }
                    Err(e) => return Err(io(e)),
                }
            }
            _ => {
                if self.make {
                    std::fs::create_dir_all(dir).map_err(|cause| OutputError::Io { path: dir.to_path_buf(), cause })?;
                }
                openat(nix::fcntl::AT_FDCWD, dir, flags, Mode::empty()).map_err(io)?
            }
        };
        self.open.insert(dir.to_path_buf(), Arc::new(handle));
        Ok(())
    }

    #[cfg(not(unix))]
    fn open(&mut self, _root: &Path, dir: &Path, _file: &Path) -> Result<(), OutputError> {
        if !self.open.contains_key(dir) {
            if self.make && !dir.exists() {
                std::fs::create_dir_all(dir).map_err(|cause| OutputError::Io { path: dir.to_path_buf(), cause })?;
                if let Some(journal) = &mut self.journal {
                    journal.folder(_root, dir);
                }
                self.made.push(MadeFolder { path: dir.to_path_buf() });
            } else if !dir.is_dir() {
                let cause = io::Error::from(io::ErrorKind::NotFound);
                return Err(OutputError::Io { path: dir.to_path_buf(), cause });
            }
            self.open.insert(dir.to_path_buf(), ());
        }
        Ok(())
    }
}

#[cfg(unix)]
#[allow(clippy::useless_conversion)] // `mode_t` is narrower than u32 on some Unixes
fn is_link(dir: impl std::os::fd::AsFd, name: &std::ffi::OsStr) -> bool {
    nix::sys::stat::fstatat(dir, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW)
        .is_ok_and(|s| matches!(Occupant::of_mode(u32::from(s.st_mode)), Occupant::Link))
}

impl Place {
    /// What is in the place now, if anything (a link is not followed).
    pub(super) fn occupant(&self) -> Option<Occupant> {
        #[cfg(unix)]
        {
            let stat = self.stat()?;
            #[allow(clippy::useless_conversion)] // `mode_t` is narrower than u32 on some Unixes
            Some(Occupant::of_mode(u32::from(stat.st_mode)))
        }
        #[cfg(not(unix))]
        {
            std::fs::symlink_metadata(&self.path).ok().map(|meta| Occupant::of(&meta))
        }
    }

    /// Which file is here (a link is not followed): its device and inode, on Unix.
    pub(super) fn file_id(&self) -> Option<FileId> {
        #[cfg(unix)]
        {
            #[allow(clippy::useless_conversion)] // the field types differ between Unixes
            self.stat().map(|stat| FileId { device: u64::from(stat.st_dev), inode: u64::from(stat.st_ino) })
        }
        #[cfg(not(unix))]
        None
    }

    #[cfg(unix)]
    fn stat(&self) -> Option<nix::sys::stat::FileStat> {
        nix::sys::stat::fstatat(&self.dir, self.name.as_os_str(), nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW).ok()
    }

    /// Moves `temp` here: without `replace`, only if nothing is here (else `AlreadyExists`).
    pub(super) fn take(&self, temp: &Path, replace: bool) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
            let flags = if replace { RenameFlags::empty() } else { RenameFlags::RENAME_NOREPLACE };
            Ok(renameat2(AT_FDCWD, temp, &self.dir, self.name.as_os_str(), flags)?)
        }
        #[cfg(all(unix, not(target_os = "linux")))]
        {
            use nix::fcntl::{AT_FDCWD, renameat};
            if replace {
                return Ok(renameat(AT_FDCWD, temp, &self.dir, self.name.as_os_str())?);
            }
            // A hard link never replaces; the staged name then goes with the staging folder.
            nix::unistd::linkat(AT_FDCWD, temp, &self.dir, self.name.as_os_str(), nix::fcntl::AtFlags::empty())?;
            Ok(())
        }
        #[cfg(not(unix))]
        {
            let temp = tempfile::TempPath::try_from_path(temp)?;
            let kept = if replace { temp.persist(&self.path) } else { temp.persist_noclobber(&self.path) };
            kept.map_err(|e| e.error)
        }
    }

    /// A second link to the file here, at `backup`, so that it can be restored.
    pub(super) fn link_to(&self, backup: &Path) -> io::Result<()> {
        #[cfg(unix)]
        {
            use nix::fcntl::{AT_FDCWD, AtFlags};
            Ok(nix::unistd::linkat(&self.dir, self.name.as_os_str(), AT_FDCWD, backup, AtFlags::empty())?)
        }
        #[cfg(not(unix))]
        {
            std::fs::hard_link(&self.path, backup)
        }
    }

    /// Removes the folder here if it is empty.
    pub(super) fn remove_empty_folder(&self) -> io::Result<()> {
        #[cfg(unix)]
        {
            use nix::unistd::{UnlinkatFlags, unlinkat};
            Ok(unlinkat(&self.dir, self.name.as_os_str(), UnlinkatFlags::RemoveDir)?)
        }
        #[cfg(not(unix))]
        {
            std::fs::remove_dir(&self.path)
        }
    }

    /// Removes the file here.
    pub(super) fn remove(&self) -> io::Result<()> {
        #[cfg(unix)]
        {
            use nix::unistd::{UnlinkatFlags, unlinkat};
            Ok(unlinkat(&self.dir, self.name.as_os_str(), UnlinkatFlags::NoRemoveDir)?)
        }
        #[cfg(not(unix))]
        {
            std::fs::remove_file(&self.path)
        }
    }
}
