//! Staging a batch's files as conversions finish and committing them input by input, taking
//! back an input whose files cannot all be placed; removing staging folders on every exit.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::atomic::{create_new, unique_suffix};
use super::place::{Folders, Occupant, Place};
use super::{OutputError, PlannedFile, io_error};

/// The name of a staging folder, before [`unique_suffix`]: the process id after it tells a
/// dead run's leftovers from a live one's.
pub(super) const STAGING_PREFIX: &str = ".toolport-staging-";

/// Staging folders of this process, for [`remove_live_staging`].
static LIVE_STAGING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live_staging() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE_STAGING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every staging folder this process has open. For a signal handler that is about to
/// end the process: nothing staged is placed, and nothing is left behind.
pub fn remove_live_staging() {
    for dir in live_staging().drain(..) {
        // Conversions may still be adding files: try again if the folder refilled meanwhile.
        for _ in 0..3 {
            if std::fs::remove_dir_all(&dir).is_ok() || !dir.exists() {
                break;
            }
        }
    }
}

/// Removes staging folders that a killed run left in `dir`: those of processes that no longer
/// run, or, where that cannot be told, those older than a day.
fn remove_stale_staging(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(STAGING_PREFIX)) else { continue };
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else { continue };
        if !meta.is_dir() {
            continue;
        }
        let pid = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
        let dead =
            pid.filter(|&pid| pid != std::process::id()).and_then(process_running).is_some_and(|running| !running);
        let old = meta.modified().ok().and_then(|m| m.elapsed().ok()).is_some_and(|age| age.as_secs() > 24 * 3600);
        if dead || old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` runs, where the platform lets us tell without `unsafe`.
fn process_running(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    (cfg!(target_os = "linux") && proc.join("self").exists()).then(|| proc.join(pid.to_string()).exists())
}

/// A staging area inside the output directory: files are written here as conversions finish
/// and renamed into place by [`Staging::commit`]. Dropping it removes whatever is left.
///
/// Staging takes `&self` so that parallel conversions write their files concurrently; only
/// recording a staged file takes the lock. Files are not fsynced one by one: the rename is
/// what makes each file appear whole, and a batch of thousands would spend its time syncing.
#[derive(Debug)]
pub struct Staging {
    /// Seen by the tests, which check it is made and removed.
    pub(super) dir: PathBuf,
    next: AtomicU64,
    staged: Mutex<Vec<(PathBuf, PlannedFile)>>,
}

/// What [`Staging::commit`] did.
#[derive(Debug, Default)]
pub struct Committed {
    /// Every file now in place.
    pub placed: Vec<PathBuf>,
    /// Inputs whose files could not all be placed; their other files were taken back.
    pub failed: Vec<CommitFailure>,
}

/// One input whose files could not all be placed.
#[derive(Debug)]
pub struct CommitFailure {
    pub owner: String,
    pub error: OutputError,
    /// Files of this input that stay in place because taking them back failed.
    pub left_in_place: Vec<PathBuf>,
}

/// One file moved into place, and how to take it back.
struct Placed {
    place: Place,
    /// The file it replaced, kept as a link in the staging folder.
    backup: Option<PathBuf>,
    created: bool,
}

impl Staging {
    /// Creates the output directory if needed and a hidden staging folder in it, after
    /// removing any a killed run left there.
    pub fn new(output_dir: &Path) -> Result<Staging, OutputError> {
        std::fs::create_dir_all(output_dir).map_err(io_error(output_dir))?;
        remove_stale_staging(output_dir);
        // Absolute, so that naming each staged file does not ask for the working directory.
        let output_dir = &std::path::absolute(output_dir).map_err(io_error(output_dir))?;
        let dir = loop {
            let dir = output_dir.join(format!("{STAGING_PREFIX}{}", unique_suffix()));
            match std::fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_error(output_dir)(e)),
            }
        };
        live_staging().push(dir.clone());
        Ok(Staging { dir, next: AtomicU64::new(0), staged: Mutex::new(Vec::new()) })
    }

    fn new_name(&self) -> PathBuf {
        self.dir.join(self.next.fetch_add(1, Ordering::Relaxed).to_string())
    }

    /// Stages every file of one input, or none of them: if one cannot be written, those
    /// already staged for it are removed.
    pub fn stage_all(&self, files: &[(PlannedFile, &[u8])]) -> Result<(), OutputError> {
        let mut staged = Vec::with_capacity(files.len());
        let mut write = |file: &PlannedFile, contents: &[u8]| -> Result<(), OutputError> {
            let temp = self.new_name();
            let mut handle = create_new(&temp).map_err(io_error(&self.dir))?;
            staged.push((temp, file.clone()));
            handle.write_all(contents).map_err(io_error(&file.path))
        };
        for (file, contents) in files {
            if let Err(e) = write(file, contents) {
                for (temp, _) in &staged {
                    let _ = std::fs::remove_file(temp);
                }
                return Err(e);
            }
        }
        self.staged.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(staged);
        Ok(())
    }

    /// Moves every staged file into place, input by input in the order they were staged,
    /// each input's files in path order. If one of an input's files cannot be placed, the
    /// ones already placed for it are taken back (removed, or the file they replaced
    /// restored) and the other inputs go on.
    pub fn commit(&self, force: bool) -> Committed {
        let staged = std::mem::take(&mut *self.staged.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let mut groups: Vec<Vec<(PathBuf, PlannedFile)>> = Vec::new();
        let mut group_of: HashMap<String, usize> = HashMap::new();
        for (temp, file) in staged {
            let index = *group_of.entry(file.owner.clone()).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[index].push((temp, file));
        }
        let mut committed = Committed::default();
        let mut folders = Folders::default();
        for mut group in groups {
            group.sort_by(|a, b| a.1.path.cmp(&b.1.path));
            let mut placed = Vec::with_capacity(group.len());
            let mut failure = None;
            for (temp, file) in &group {
                match self.place(temp, file, force, &mut folders) {
                    Ok(p) => placed.push(p),
                    Err(error) => {
                        failure = Some((file.owner.clone(), error));
                        break;
                    }
                }
            }
            match failure {
                None => committed.placed.extend(placed.into_iter().map(|p| p.place.path)),
                Some((owner, error)) => {
                    let left_in_place = take_back(placed);
                    committed.failed.push(CommitFailure { owner, error, left_in_place });
                }
            }
        }
        committed
    }

    /// Moves one staged file into place, through its folder's handle ([`Folders`]): the tree
    /// may have changed since planning, and a folder swapped for a link must not lead outside.
    fn place(
        &self,
        temp: &Path,
        file: &PlannedFile,
        force: bool,
        folders: &mut Folders,
    ) -> Result<Placed, OutputError> {
        let place = folders.place(file)?;
        let io = |cause| OutputError::Io { path: file.path.clone(), cause };
        let in_the_way = |place: &Place| match place.occupant() {
            Some(Occupant::Link) => OutputError::Link { path: file.path.clone(), link: file.path.clone() },
            Some(Occupant::Folder) => OutputError::IsDirectory(file.path.clone()),
            _ => OutputError::Exists(file.path.clone()),
        };
        if !force {
            // The rename never replaces, so the place is looked at only when it refuses, to
            // say why: one system call less per file of a batch.
            return match place.take(temp, false) {
                Ok(()) => Ok(Placed { place, backup: None, created: true }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(in_the_way(&place)),
                Err(e) => Err(io(e)),
            };
        }
        match place.occupant() {
            None => {
                place.take(temp, true).map_err(io)?;
                Ok(Placed { place, backup: None, created: true })
            }
            Some(Occupant::File(permissions)) => {
                std::fs::set_permissions(temp, permissions).map_err(io)?;
                // A second link to the old file lets a failed input restore it; where links
                // are not possible, the replaced file cannot be restored (said if it matters).
                let backup = self.new_name();
                let backup = place.link_to(&backup).ok().map(|()| backup);
                place.take(temp, true).map_err(io)?;
                Ok(Placed { place, backup, created: false })
            }
            Some(_) => Err(in_the_way(&place)),
        }
    }
}

/// Takes back files placed for an input that then failed (through their folders' handles);
/// returns those that stay.
fn take_back(placed: Vec<Placed>) -> Vec<PathBuf> {
    let mut left = Vec::new();
    for p in placed.into_iter().rev() {
        let undone = match (&p.backup, p.created) {
            (_, true) => p.place.remove().is_ok(),
            (Some(backup), false) => p.place.take(backup, true).is_ok(),
            (None, false) => false,
        };
        if !undone {
            left.push(p.place.path);
        }
    }
    left
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        live_staging().retain(|d| d != &self.dir);
    }
}
