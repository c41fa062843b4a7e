//! Staging a batch's files as conversions finish and committing them input by input, taking
//! back an input whose files cannot all be placed, or the whole commit when it is stopped;
//! removing staging folders, and the folders a run made, on every exit.
//!
//! A staging folder is toolport's own by a marker file inside it ([`MARKER`]), and alive while
//! its run holds an advisory lock on that file (`flock` on Unix): a later run removes only
//! marked folders no one holds, whatever process ids say (a run in another PID namespace, a
//! container sharing the volume, has ids of its own). The lock goes with the process, however
//! it ends.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use super::atomic::{create_new, unique_suffix};
use super::journal::{self, Journal};
use super::place::{Folders, Place};
use super::{FileId, Occupant, OutputError, PlannedFile, io_error, owned_by_this_user};

/// The name of a staging folder, before [`unique_suffix`].
pub(super) const STAGING_PREFIX: &str = ".toolport-staging-";

/// The marker file inside a staging folder, and the file its run holds a lock on.
pub(super) const MARKER: &str = "TOOLPORT-STAGING";

/// What the marker holds: a folder with another file of that name is not toolport's.
pub(super) const MARKER_TEXT: &str = "toolport staging 1: the files a run of convert is writing. \
A later run removes this folder once no run holds a lock on this file.\n";

/// Staging folders of this process, for [`abandon_live_staging`].
static LIVE_STAGING: Mutex<LiveStaging> = Mutex::new(LiveStaging { live: Vec::new(), closed: false });

/// Held by [`Staging::new`] from before it makes anything until its folder is listed, and by
/// [`abandon_live_staging`] while it abandons: a signal that ends the process while a staging is
/// being made waits for it to be listed, and none is made after (a run that was still loading
/// its plugins when the signal came left a marked folder behind).
struct LiveStaging {
    live: Vec<Arc<Live>>,
    /// Set once every staging was abandoned for the process to end: none is made after.
    closed: bool,
}

fn live_staging() -> std::sync::MutexGuard<'static, LiveStaging> {
    LIVE_STAGING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One staging folder as a signal handler sees it.
#[derive(Debug)]
struct Live {
    dir: PathBuf,
    /// Folders made for the output, outermost first, removed again if left empty.
    made: Vec<PathBuf>,
    /// Staging files holds it shared; abandoning or starting the commit, exclusive.
    phase: RwLock<Phase>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Staging,
    Committing,
    Abandoned,
}

impl Live {
    /// Removes the staging folder, then the folders made for the output that stayed empty.
    /// See [`abandon_live_staging`]; false if it is being committed.
    fn abandon(&self) -> bool {
        // Waits for files being staged: none is left half written in a removed folder.
        let mut phase = self.phase.write().unwrap_or_else(PoisonError::into_inner);
        match *phase {
            Phase::Committing => return false,
            Phase::Staging => self.remove(),
            Phase::Abandoned => {}
        }
        *phase = Phase::Abandoned;
        true
    }

    fn remove(&self) {
        // Everything inside is toolport's (and staging writes have stopped: see `phase`).
        let _ = std::fs::remove_dir_all(&self.dir);
        remove_empty_folders(&self.made);
    }
}

/// Removes folders a run made (outermost first) that nothing stays in, deepest first.
fn remove_empty_folders(made: &[PathBuf]) {
    for folder in made.iter().rev() {
        let _ = std::fs::remove_dir(folder);
    }
}

/// Abandons every staging folder of this process that is not being committed: staging stops
/// (a conversion that finishes later stages nothing), and the folder and the output folders
/// the run made are removed. For a signal handler about to end the process; false if a
/// commit is under way, which must then be left to end (it can be stopped, and takes back
/// what it placed). Once it says true, no staging is made in this process
/// ([`Staging::new`] says [`OutputError::Stopped`]).
pub fn abandon_live_staging() -> bool {
    let mut registry = live_staging();
    // Every one is abandoned that can be, before saying whether one could not.
    let committing = registry.live.iter().filter(|staging| !staging.abandon()).count();
    registry.closed |= committing == 0;
    committing == 0
}

/// Removes the staging folders that ended runs left in `dir`: those marked as toolport's that
/// no live run holds, and this user owns. A commit one of them was in is undone first, from
/// its journal.
fn remove_stale_staging(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        if !entry.file_name().to_str().is_some_and(|name| name.starts_with(STAGING_PREFIX)) {
            continue;
        }
        // Not followed if a link: a link by that name is no staging of ours.
        if !std::fs::symlink_metadata(entry.path()).is_ok_and(|meta| meta.is_dir() && owned_by_this_user(&meta)) {
            continue;
        }
        let path = entry.path();
        // Held until the folder is gone, so no other run undoes the same commit.
        let Some(_lock) = lock_if_abandoned(&path) else { continue };
        undo_commit(&path);
        let _ = std::fs::remove_dir_all(&path);
    }
}

/// The lock on a staging folder's marker, if the folder is toolport's and no run holds it.
fn lock_if_abandoned(dir: &Path) -> Option<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Neither a link nor a FIFO that would block the open is taken for a marker.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags((nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK).bits());
    }
    let file = options.open(dir.join(MARKER)).ok()?;
    if !file.metadata().is_ok_and(|meta| meta.is_file() && owned_by_this_user(&meta)) {
        return None;
    }
    let mut text = Vec::with_capacity(MARKER_TEXT.len());
    (&file).take(MARKER_TEXT.len() as u64 + 1).read_to_end(&mut text).ok()?;
    if text != MARKER_TEXT.as_bytes() {
        return None;
    }
    file.try_lock().ok()?;
    Some(file)
}

/// Makes the marker of a new staging folder, locked before it has its name: no other run can
/// see the folder as toolport's before it is held.
fn mark_and_lock(dir: &Path) -> std::io::Result<std::fs::File> {
    let unnamed = dir.join(format!("{MARKER}.new"));
    let mut file = create_new(&unnamed)?;
    file.try_lock().map_err(std::io::Error::from)?;
    file.write_all(MARKER_TEXT.as_bytes())?;
    std::fs::rename(&unnamed, dir.join(MARKER))?;
    Ok(file)
}

/// Makes `dir` and any missing folder above it; returns those it made, outermost first.
fn make_folders(dir: &Path) -> Result<Vec<PathBuf>, OutputError> {
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && std::fs::symlink_metadata(a).is_err())
        .map(Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    Ok(missing.into_iter().rev().collect())
}

/// A staging area inside the output directory: files are written here as conversions finish
/// and renamed into place by [`Staging::commit`]. Dropping it removes whatever is left, and the
/// folders made for the output that nothing was placed in.
///
/// Staging takes `&self` so that parallel conversions write their files concurrently; only
/// recording a staged file takes the lock. Files are not fsynced one by one: the rename is
/// what makes each file appear whole, and a batch of thousands would spend its time syncing.
#[derive(Debug)]
pub struct Staging {
    live: Arc<Live>,
    next: AtomicU64,
    staged: Mutex<Vec<Staged>>,
    /// The staging folder, open: each staged file is created through it, so a batch does not
    /// walk the folder's whole path again for every file.
    #[cfg(unix)]
    handle: std::os::fd::OwnedFd,
    /// The marker, locked for as long as this staging lives.
    _lock: std::fs::File,
}

/// One staged file: its name in the staging folder, which file it is, and where it goes.
#[derive(Debug)]
struct Staged {
    temp: PathBuf,
    id: Option<FileId>,
    file: PlannedFile,
}

/// What [`Staging::commit`] did.
#[derive(Debug, Default)]
pub struct Committed {
    /// Every file now in place.
    pub placed: Vec<PathBuf>,
    /// Inputs whose files could not all be placed; their other files were taken back.
    pub failed: Vec<CommitFailure>,
    /// Set when the commit was stopped: everything it had placed was taken back, except the
    /// files listed (taking them back failed).
    pub stopped: Option<Vec<PathBuf>>,
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

/// Where the file a staged file replaces is kept ([`Staging::commit`] with force), so that the
/// journal need not name it.
fn backup_of(staged: &Path) -> PathBuf {
    let mut name = staged.as_os_str().to_owned();
    name.push(".old");
    PathBuf::from(name)
}

/// Undoes the commit an abandoned staging folder's journal describes, if there is one: every
/// file still in place as the very file that was staged is taken back (the file it replaced,
/// kept beside it, restored), and the folders made that stayed empty are removed. A file that
/// is not the staged one (never placed, already taken back, or replaced since) is left alone.
fn undo_commit(staging: &Path) {
    let Some(recorded) = journal::read(staging) else { return };
    let mut folders = Folders::existing();
    for (staged, id, file) in recorded.files.iter().rev() {
        let Ok(place) = folders.place(file) else { continue };
        if place.file_id() != Some(*id) {
            continue;
        }
        let backup = backup_of(staged);
        let _ = if std::fs::symlink_metadata(&backup).is_ok() { place.take(&backup, true) } else { place.remove() };
    }
    for folder in recorded.made.iter().rev() {
        if let Ok(place) = folders.place(folder) {
            let _ = place.remove_empty_folder();
        }
    }
}

impl Staging {
    /// Creates the output directory if needed and a hidden staging folder in it, marked and
    /// locked, after removing any that ended runs left there (undoing a commit one was in).
    pub fn new(output_dir: &Path) -> Result<Staging, OutputError> {
        // Absolute, so that naming each staged file does not ask for the working directory.
        let output_dir = &std::path::absolute(output_dir).map_err(io_error(output_dir))?;
        // Held from before anything is made: a signal that ends the process meanwhile finds
        // nothing made, or waits until it is listed.
        let mut registry = live_staging();
        if registry.closed {
            return Err(OutputError::Stopped(output_dir.clone()));
        }
        let made = make_folders(output_dir)?;
        remove_stale_staging(output_dir);
        let dir = loop {
            let dir = output_dir.join(format!("{STAGING_PREFIX}{}", unique_suffix()));
            match std::fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    remove_empty_folders(&made);
                    return Err(io_error(output_dir)(e));
                }
            }
        };
        let live = Arc::new(Live { dir, made, phase: RwLock::new(Phase::Staging) });
        let lock = match mark_and_lock(&live.dir) {
            Ok(lock) => lock,
            Err(e) => {
                live.remove();
                return Err(io_error(&live.dir)(e));
            }
        };
        #[cfg(unix)]
        let handle = {
            use nix::fcntl::{OFlag, open};
            let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
            match open(&live.dir, flags, nix::sys::stat::Mode::empty()) {
                Ok(handle) => handle,
                Err(e) => {
                    live.remove();
                    return Err(io_error(&live.dir)(e.into()));
                }
            }
        };
        registry.live.push(Arc::clone(&live));
        drop(registry);
        Ok(Staging {
            live,
            next: AtomicU64::new(0),
            staged: Mutex::new(Vec::new()),
            #[cfg(unix)]
            handle,
            _lock: lock,
        })
    }

    /// The staging folder.
    pub fn dir(&self) -> &Path {
        &self.live.dir
    }

    /// The output folder, when this staging made it (it did not exist): nothing but what this
    /// run places is in it, short of another program writing there meanwhile.
    pub fn made_output_folder(&self) -> Option<&Path> {
        // `made` lists the folders made outermost first: the output folder is the last.
        self.live.made.last().map(PathBuf::as_path)
    }

    /// This staging alone abandoned, as [`abandon_live_staging`] does to every one.
    #[cfg(test)]
    pub(super) fn abandon(&self) -> bool {
        self.live.abandon()
    }

    /// A new file in the staging folder, created: its path and its handle.
    fn create_staged(&self) -> std::io::Result<(PathBuf, std::fs::File)> {
        let name = self.next.fetch_add(1, Ordering::Relaxed).to_string();
        let path = self.live.dir.join(&name);
        #[cfg(unix)]
        let file = {
            use nix::fcntl::{OFlag, openat};
            let flags = OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_CLOEXEC;
            // 0666 less the umask, as `create_new` makes a file.
            std::fs::File::from(openat(
                &self.handle,
                name.as_str(),
                flags,
                nix::sys::stat::Mode::from_bits_truncate(0o666),
            )?)
        };
        #[cfg(not(unix))]
        let file = create_new(&path)?;
        Ok((path, file))
    }

    /// Stages every file of one input, or none of them: if one cannot be written, those
    /// already staged for it are removed. Once the staging is abandoned ([`abandon_live_staging`])
    /// nothing is staged.
    pub fn stage_all(&self, files: &[(PlannedFile, &[u8])]) -> Result<(), OutputError> {
        let phase = self.live.phase.read().unwrap_or_else(PoisonError::into_inner);
        if *phase != Phase::Staging {
            let path = files.first().map_or_else(|| self.live.dir.clone(), |(file, _)| file.path.clone());
            return Err(OutputError::Stopped(path));
        }
        let mut staged = Vec::with_capacity(files.len());
        let mut write = |file: &PlannedFile, contents: &[u8]| -> Result<(), OutputError> {
            let (temp, mut handle) = self.create_staged().map_err(io_error(&self.live.dir))?;
            // Which file it is, for the journal: renamed into place, it stays the same file.
            let id = handle.metadata().ok().and_then(|meta| FileId::of(&meta));
            staged.push(Staged { temp, id, file: file.clone() });
            handle.write_all(contents).map_err(io_error(&file.path))
        };
        for (file, contents) in files {
            if let Err(e) = write(file, contents) {
                for file in &staged {
                    let _ = std::fs::remove_file(&file.temp);
                }
                return Err(e);
            }
        }
        self.staged.lock().unwrap_or_else(PoisonError::into_inner).extend(staged);
        Ok(())
    }

    /// [`Staging::commit_or_stop`] that is never stopped.
    pub fn commit(&self, force: bool) -> Committed {
        self.commit_or_stop(force, &|| false)
    }

    /// Moves every staged file into place, input by input in the order they were staged,
    /// each input's files in path order. If one of an input's files cannot be placed, the
    /// ones already placed for it are taken back (removed, or the file they replaced
    /// restored) and the other inputs go on. `stop` is asked before each file: once it says
    /// so, everything this commit placed is taken back ([`Committed::stopped`]). A journal in
    /// the staging folder names every file first, so a commit killed outright is undone by
    /// the next run. Folders made for files that were not placed are removed.
    pub fn commit_or_stop(&self, force: bool, stop: &dyn Fn() -> bool) -> Committed {
        {
            let mut phase = self.live.phase.write().unwrap_or_else(PoisonError::into_inner);
            if *phase == Phase::Abandoned {
                return Committed { stopped: Some(Vec::new()), ..Committed::default() };
            }
            *phase = Phase::Committing;
        }
        let staged = std::mem::take(&mut *self.staged.lock().unwrap_or_else(PoisonError::into_inner));
        let mut groups: Vec<Vec<Staged>> = Vec::new();
        let mut group_of: HashMap<String, usize> = HashMap::new();
        for file in staged {
            let index = *group_of.entry(file.file.owner.clone()).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[index].push(file);
        }
        for group in &mut groups {
            group.sort_by(|a, b| a.file.path.cmp(&b.file.path));
        }
        let mut committed = Committed::default();
        let entries = groups.iter().flatten().map(|s| (s.temp.as_path(), s.id, &s.file));
        let journal = match Journal::begin(&self.live.dir, entries) {
            Ok(journal) => journal,
            Err(error) => {
                // Without a journal a killed commit could not be undone: place nothing.
                for owner in groups.iter().filter_map(|group| group.first()).map(|first| &first.file.owner) {
                    let cause = std::io::Error::new(error.kind(), error.to_string());
                    let error = OutputError::Io { path: journal::path(&self.live.dir), cause };
                    committed.failed.push(CommitFailure { owner: owner.clone(), error, left_in_place: Vec::new() });
                }
                return committed;
            }
        };
        let mut folders = Folders::journaled(journal);
        // Everything placed so far, input by input: all of it is taken back if the commit stops.
        let mut placed_inputs: Vec<Vec<Placed>> = Vec::new();
        let mut stopped = false;
        'inputs: for group in groups {
            let mut placed = Vec::with_capacity(group.len());
            let mut failure = None;
            for staged in &group {
                if stop() {
                    placed_inputs.push(placed);
                    stopped = true;
                    break 'inputs;
                }
                let result =
                    folders.place(&staged.file).and_then(|place| self.place(place, &staged.temp, &staged.file, force));
                match result {
                    Ok(p) => placed.push(p),
                    Err(error) => {
                        failure = Some((staged.file.owner.clone(), error));
                        break;
                    }
                }
            }
            match failure {
                None => placed_inputs.push(placed),
                Some((owner, error)) => {
                    let left_in_place = take_back(placed);
                    committed.failed.push(CommitFailure { owner, error, left_in_place });
                }
            }
        }
        if stopped {
            // Stopped: the commit is undone whole, the last input placed first.
            let left = placed_inputs.into_iter().rev().flat_map(take_back).collect();
            committed = Committed { stopped: Some(left), ..Committed::default() };
        } else {
            committed.placed = placed_inputs.into_iter().flatten().map(|p| p.place.path).collect();
        }
        folders.end();
        committed
    }

    /// Moves one staged file into its place, opened through its folder's handle ([`Folders`]):
    /// the tree may have changed since planning, and a folder swapped for a link must not lead
    /// outside. Only a regular file is ever replaced, and only with `force`.
    fn place(&self, place: Place, temp: &Path, file: &PlannedFile, force: bool) -> Result<Placed, OutputError> {
        let io = |cause| OutputError::Io { path: file.path.clone(), cause };
        let in_the_way = |place: &Place| {
            place
                .occupant()
                .and_then(|o| o.refusal(&file.path, false))
                .unwrap_or(OutputError::Exists(file.path.clone()))
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
                let backup = backup_of(temp);
                let backup = place.link_to(&backup).ok().map(|()| backup);
                place.take(temp, true).map_err(io)?;
                Ok(Placed { place, backup, created: false })
            }
            Some(other) => {
                Err(other.refusal(&file.path, true).unwrap_or_else(|| OutputError::Exists(file.path.clone())))
            }
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
        live_staging().live.retain(|live| !Arc::ptr_eq(live, &self.live));
        let phase = self.live.phase.read().unwrap_or_else(PoisonError::into_inner);
        if *phase != Phase::Abandoned {
            self.live.remove();
        }
    }
}
