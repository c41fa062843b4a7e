//! Writing one file so that no reader sees half of it: a temporary file beside it, then a rename.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{Occupant, OutputError, io_error};

/// The name of a temporary file beside its target, before [`unique_suffix`].
const TEMP_PREFIX: &str = ".toolport-tmp-";

/// The end of toolport's temporary file and folder names, `<prefix><pid>-<n>`, so a later run
/// can tell a dead run's leftovers from a live one's.
pub(super) fn unique_suffix() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    format!("{}-{nanos:x}{:x}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Creates a new file that no one else has opened. Its mode is the platform default (0666 on
/// Unix) less the umask, as for any file a program creates.
pub(super) fn create_new(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).create_new(true).open(path)
}

/// Writes one file atomically: a temporary file beside it, then a rename. Without `force`
/// an existing file is refused even if it appeared after planning; with it, the file keeps
/// its mode. Anything but a regular file in the file's place is refused (a link, a folder, a
/// device, a FIFO, a socket).
pub fn write_atomic(path: &Path, contents: &[u8], force: bool) -> Result<(), OutputError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let existing = match std::fs::symlink_metadata(path).map(|meta| Occupant::of(&meta)) {
        Ok(occupant) => match occupant.refusal(path, force) {
            Some(refused) => return Err(refused),
            None => Some(occupant),
        },
        Err(_) => None,
    };
    let temp_path = dir.join(format!("{TEMP_PREFIX}{}", unique_suffix()));
    let mut file = create_new(&temp_path).map_err(io_error(dir))?;
    // From here the temporary file is removed on every path, success or not.
    let temp = tempfile::TempPath::try_from_path(&temp_path).map_err(io_error(dir))?;
    file.write_all(contents).map_err(io_error(path))?;
    file.sync_all().map_err(io_error(path))?;
    if let Some(Occupant::File(permissions)) = existing {
        std::fs::set_permissions(&temp, permissions).map_err(io_error(path))?;
    }
    persist(temp, path, force)
}

pub(super) fn persist(temp: tempfile::TempPath, path: &Path, force: bool) -> Result<(), OutputError> {
    let result = if force { temp.persist(path) } else { temp.persist_noclobber(path) };
    result.map_err(|e| match e.error.kind() {
        std::io::ErrorKind::AlreadyExists => OutputError::Exists(path.to_path_buf()),
        _ => OutputError::Io { path: path.to_path_buf(), cause: e.error },
    })
}
