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

use super::{OutputError, PlannedFile};

/// The folders of one commit, each opened once.
#[derive(Default)]
pub(super) struct Folders {
    #[cfg(unix)]
    open: HashMap<PathBuf, Arc<std::os::fd::OwnedFd>>,
    #[cfg(not(unix))]
    open: HashMap<PathBuf, ()>,
}

/// A file's place: its folder, held open, and its name there.
pub(super) struct Place {
    #[cfg(unix)]
    dir: Arc<std::os::fd::OwnedFd>,
    name: OsString,
    /// For messages, and for the path-based fallback.
    pub(super) path: PathBuf,
}

/// What is in a place now.
pub(super) enum Occupant {
    Link,
    Folder,
    /// A file, and its permission bits.
    File(std::fs::Permissions),
}

impl Folders {
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
            (Some(parent), Some(name)) if dir != root && dir.starts_with(root) => {
                let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
                self.open(root, parent, file)?;
                let parent = &self.open[parent];
                match mkdirat(parent, name, Mode::from_bits_truncate(0o777)) {
                    Ok(()) | Err(nix::Error::EEXIST) => {}
                    Err(e) => return Err(io(e)),
                }
                match openat(parent, name, flags | OFlag::O_NOFOLLOW, Mode::empty()) {
                    Ok(handle) => handle,
                    Err(nix::Error::ELOOP | nix::Error::ENOTDIR) if is_link(parent, name) => {
                        return Err(OutputError::Link { path: file.to_path_buf(), link: dir.to_path_buf() });
                    }
                    Err(e) => return Err(io(e)),
                }
            }
            _ => {
                std::fs::create_dir_all(dir).map_err(|cause| OutputError::Io { path: dir.to_path_buf(), cause })?;
                openat(nix::fcntl::AT_FDCWD, dir, flags, Mode::empty()).map_err(io)?
            }
        };
        self.open.insert(dir.to_path_buf(), Arc::new(handle));
        Ok(())
    }

    #[cfg(not(unix))]
    fn open(&mut self, _root: &Path, dir: &Path, _file: &Path) -> Result<(), OutputError> {
        if !self.open.contains_key(dir) {
            std::fs::create_dir_all(dir).map_err(|cause| OutputError::Io { path: dir.to_path_buf(), cause })?;
            self.open.insert(dir.to_path_buf(), ());
        }
        Ok(())
    }
}

#[cfg(unix)]
fn is_link(dir: impl std::os::fd::AsFd, name: &std::ffi::OsStr) -> bool {
    use nix::fcntl::AtFlags;
    nix::sys::stat::fstatat(dir, name, AtFlags::AT_SYMLINK_NOFOLLOW).is_ok_and(|s| {
        nix::sys::stat::SFlag::from_bits_truncate(s.st_mode) & nix::sys::stat::SFlag::S_IFMT
            == nix::sys::stat::SFlag::S_IFLNK
    })
}

impl Place {
    /// What is in the place now, if anything (a link is not followed).
    pub(super) fn occupant(&self) -> Option<Occupant> {
        #[cfg(unix)]
        {
            use nix::fcntl::AtFlags;
            use nix::sys::stat::SFlag;
            use std::os::unix::fs::PermissionsExt;
            let stat = nix::sys::stat::fstatat(&self.dir, self.name.as_os_str(), AtFlags::AT_SYMLINK_NOFOLLOW).ok()?;
            Some(match SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT {
                SFlag::S_IFLNK => Occupant::Link,
                SFlag::S_IFDIR => Occupant::Folder,
                _ => Occupant::File(std::fs::Permissions::from_mode(stat.st_mode & 0o7777)),
            })
        }
        #[cfg(not(unix))]
        {
            let meta = std::fs::symlink_metadata(&self.path).ok()?;
            Some(if meta.file_type().is_symlink() {
                Occupant::Link
            } else if meta.is_dir() {
                Occupant::Folder
            } else {
                Occupant::File(meta.permissions())
            })
        }
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
