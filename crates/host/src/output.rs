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

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// A reason a plan cannot be carried out, and the input whose file it concerns.
#[derive(Debug)]
pub struct PlanProblem {
    pub owner: String,
    pub error: OutputError,
}

/// Checks a whole plan before anything is written: no collisions, no input overwritten, no
/// link written through, no directory replaced, no existing file overwritten without `force`.
/// Returns every problem, one per path.
pub fn check_plan(plan: &[PlannedFile], inputs: &[PathBuf], force: bool) -> Vec<PlanProblem> {
    let mut resolver = Resolver::default();
    let mut input_dirs: Vec<PathBuf> = Vec::new();
    let mut input_files: HashSet<PathBuf> = HashSet::new();
    let unique: HashSet<&PathBuf> = inputs.iter().collect();
    for (path, is_dir) in unique.into_iter().filter_map(|p| resolver.comparable_input(p)) {
        if is_dir {
            input_dirs.push(path);
        } else {
            input_files.insert(path);
        }
    }
    let mut links = LinkCheck::default();
    let mut owners: HashMap<PathBuf, &str> = HashMap::new();
    let mut problems = Vec::new();
    for file in plan {
        // One lstat of the output serves both the comparison and the link check.
        let existing = std::fs::symlink_metadata(&file.path).ok();
        let key = resolver.comparable(&file.path, existing.as_ref()).unwrap_or_else(|| file.path.clone());
        let problem = if let Some(first) = owners.insert(key.clone(), &file.owner) {
            Some(OutputError::Collision {
                path: file.path.clone(),
                first: first.to_owned(),
                second: file.owner.clone(),
            })
        } else if input_files.contains(&key) || input_dirs.iter().any(|dir| key.starts_with(dir)) {
            // Directory inputs (Raycast extensions): nothing may be written inside one.
            Some(OutputError::IsInput(file.path.clone()))
        } else {
            match links.check_with(file, existing) {
                Err(e) => Some(e),
                Ok(Some(meta)) if meta.is_dir() => Some(OutputError::IsDirectory(file.path.clone())),
                Ok(Some(_)) if !force => Some(OutputError::Exists(file.path.clone())),
                Ok(_) => None,
            }
        };
        if let Some(error) = problem {
            problems.push(PlanProblem { owner: file.owner.clone(), error });
        }
    }
    problems
}

/// Refuses links below a plan's root, remembering folders already checked (a batch writes
/// thousands of files into a few folders).
#[derive(Default)]
struct LinkCheck {
    folders: HashMap<PathBuf, Result<(), PathBuf>>,
}

impl LinkCheck {
    /// Checks the folders from `file.root` down to the file, then the file itself; returns the
    /// file's metadata if it exists (it is not a link).
    fn check(&mut self, file: &PlannedFile) -> Result<Option<std::fs::Metadata>, OutputError> {
        self.check_with(file, std::fs::symlink_metadata(&file.path).ok())
    }

    /// [`LinkCheck::check`] with the file's own lstat already taken (`None`: it does not exist).
    fn check_with(
        &mut self,
        file: &PlannedFile,
        existing: Option<std::fs::Metadata>,
    ) -> Result<Option<std::fs::Metadata>, OutputError> {
        let link = |link: PathBuf| OutputError::Link { path: file.path.clone(), link };
        if let Some(parent) = file.path.parent() {
            self.folder(&file.root, parent).map_err(link)?;
        }
        match existing {
            Some(meta) if meta.file_type().is_symlink() => Err(link(file.path.clone())),
            existing => Ok(existing),
        }
    }

    fn folder(&mut self, root: &Path, dir: &Path) -> Result<(), PathBuf> {
        if dir == root || !dir.starts_with(root) {
            return Ok(());
        }
        if let Some(known) = self.folders.get(dir) {
            return known.clone();
        }
        let result = match dir.parent() {
            Some(parent) => self.folder(root, parent),
            None => Ok(()),
        }
        .and_then(|()| match std::fs::symlink_metadata(dir) {
            Ok(meta) if meta.file_type().is_symlink() => Err(dir.to_path_buf()),
            _ => Ok(()),
        });
        self.folders.insert(dir.to_path_buf(), result.clone());
        result
    }
}

/// Turns paths into absolute, normalised forms for comparison, whether or not they exist
/// yet: the longest existing ancestor is canonicalised (resolving links) and the rest
/// appended. Canonical folders are cached: a batch writes thousands of files into a few.
#[derive(Default)]
struct Resolver {
    folders: HashMap<PathBuf, Option<PathBuf>>,
    /// The working directory, read once (a batch compares thousands of relative paths).
    cwd: Option<PathBuf>,
}

impl Resolver {
    /// `path` made absolute like [`std::path::absolute`] (`.` components dropped, `..` kept).
    fn absolute(&mut self, path: &Path) -> Option<PathBuf> {
        if path.is_absolute() {
            return Some(path.components().collect());
        }
        if self.cwd.is_none() {
            self.cwd = Some(std::env::current_dir().ok()?);
        }
        Some(self.cwd.as_deref()?.join(path).components().collect())
    }

    /// An input's comparable form, and whether it is a directory.
    fn comparable_input(&mut self, path: &Path) -> Option<(PathBuf, bool)> {
        let meta = std::fs::symlink_metadata(path).ok();
        let key = self.comparable(path, meta.as_ref())?;
        let is_dir = match &meta {
            Some(meta) if meta.file_type().is_symlink() => key.is_dir(),
            Some(meta) => meta.is_dir(),
            None => false,
        };
        Some((key, is_dir))
    }

    /// `path` absolute with its existing folders canonicalised; `lstat` is the path's own
    /// lstat (`None` when it does not exist).
    fn comparable(&mut self, path: &Path, lstat: Option<&std::fs::Metadata>) -> Option<PathBuf> {
        let absolute = self.absolute(path)?;
        let (Some(parent), Some(name)) = (absolute.parent(), absolute.file_name()) else {
            return std::fs::canonicalize(&absolute).ok();
        };
        let parent = match self.folders.get(parent) {
            Some(known) => known.clone(),
            None => {
                let resolved = std::fs::canonicalize(parent).ok().or_else(|| {
                    let lstat = std::fs::symlink_metadata(parent).ok();
                    self.comparable(parent, lstat.as_ref())
                });
                self.folders.insert(parent.to_path_buf(), resolved.clone());
                resolved
            }
        };
        let joined = parent?.join(name);
        // Only a link needs resolving further (it may point at an input).
        match lstat {
            Some(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(&joined).ok(),
            _ => Some(joined),
        }
    }
}

/// Names of toolport's temporary files and folders: `<prefix><pid>-<n>`, so a later run can
/// tell a dead run's leftovers from a live one's.
const STAGING_PREFIX: &str = ".toolport-staging-";
const TEMP_PREFIX: &str = ".toolport-tmp-";

fn unique_suffix() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    format!("{}-{nanos:x}{:x}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Creates a new file that no one else has opened. Its mode is the platform default (0666 on
/// Unix) less the umask, as for any file a program creates.
fn create_new(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).create_new(true).open(path)
}

/// Writes one file atomically: a temporary file beside it, then a rename. Without `force`
/// an existing file is refused even if it appeared after planning; with it, the file keeps
/// its mode. A link in the file's place is refused.
pub fn write_atomic(path: &Path, contents: &[u8], force: bool) -> Result<(), OutputError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let existing = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(OutputError::Link { path: path.to_path_buf(), link: path.to_path_buf() });
        }
        Ok(meta) if meta.is_dir() => return Err(OutputError::IsDirectory(path.to_path_buf())),
        Ok(_) if !force => return Err(OutputError::Exists(path.to_path_buf())),
        Ok(meta) => Some(meta),
        Err(_) => None,
    };
    let temp_path = dir.join(format!("{TEMP_PREFIX}{}", unique_suffix()));
    let mut file = create_new(&temp_path).map_err(io_error(dir))?;
    // From here the temporary file is removed on every path, success or not.
    let temp = tempfile::TempPath::try_from_path(&temp_path).map_err(io_error(dir))?;
    file.write_all(contents).map_err(io_error(path))?;
    file.sync_all().map_err(io_error(path))?;
    if let Some(meta) = &existing {
        std::fs::set_permissions(&temp, meta.permissions()).map_err(io_error(path))?;
    }
    persist(temp, path, force)
}

fn persist(temp: tempfile::TempPath, path: &Path, force: bool) -> Result<(), OutputError> {
    let result = if force { temp.persist(path) } else { temp.persist_noclobber(path) };
    result.map_err(|e| match e.error.kind() {
        std::io::ErrorKind::AlreadyExists => OutputError::Exists(path.to_path_buf()),
        _ => OutputError::Io { path: path.to_path_buf(), cause: e.error },
    })
}

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
    dir: PathBuf,
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
    path: PathBuf,
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
        let mut links = LinkCheck::default();
        let mut made: HashSet<PathBuf> = HashSet::new();
        for mut group in groups {
            group.sort_by(|a, b| a.1.path.cmp(&b.1.path));
            let mut placed = Vec::with_capacity(group.len());
            let mut failure = None;
            for (temp, file) in &group {
                match self.place(temp, file, force, &mut links, &mut made) {
                    Ok(p) => placed.push(p),
                    Err(error) => {
                        failure = Some((file.owner.clone(), error));
                        break;
                    }
                }
            }
            match failure {
                None => committed.placed.extend(placed.into_iter().map(|p| p.path)),
                Some((owner, error)) => {
                    let left_in_place = take_back(placed);
                    committed.failed.push(CommitFailure { owner, error, left_in_place });
                }
            }
        }
        committed
    }

    fn place(
        &self,
        temp: &Path,
        file: &PlannedFile,
        force: bool,
        links: &mut LinkCheck,
        made: &mut HashSet<PathBuf>,
    ) -> Result<Placed, OutputError> {
        if let Some(parent) = file.path.parent()
            && !made.contains(parent)
        {
            std::fs::create_dir_all(parent).map_err(io_error(parent))?;
            made.insert(parent.to_path_buf());
        }
        // Checked again at the last moment: the tree may have changed since planning.
        let existing = links.check(file)?;
        let temp = tempfile::TempPath::try_from_path(temp).map_err(io_error(&self.dir))?;
        match existing {
            Some(meta) if meta.is_dir() => Err(OutputError::IsDirectory(file.path.clone())),
            Some(_) if !force => Err(OutputError::Exists(file.path.clone())),
            Some(meta) => {
                std::fs::set_permissions(&temp, meta.permissions()).map_err(io_error(&file.path))?;
                // A second link to the old file lets a failed input restore it; where links
                // are not possible, the replaced file cannot be restored (said if it matters).
                let backup = self.new_name();
                let backup = std::fs::hard_link(&file.path, &backup).ok().map(|()| backup);
                persist(temp, &file.path, true)?;
                Ok(Placed { path: file.path.clone(), backup, created: false })
            }
            None => {
                persist(temp, &file.path, false)?;
                Ok(Placed { path: file.path.clone(), backup: None, created: true })
            }
        }
    }
}

/// Takes back files placed for an input that then failed; returns those that stay.
fn take_back(placed: Vec<Placed>) -> Vec<PathBuf> {
    let mut left = Vec::new();
    for p in placed.into_iter().rev() {
        let undone = match (&p.backup, p.created) {
            (_, true) => std::fs::remove_file(&p.path).is_ok(),
            (Some(backup), false) => std::fs::rename(backup, &p.path).is_ok(),
            (None, false) => false,
        };
        if !undone {
            left.push(p.path);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn check(relative: &str, expect: Option<&str>) {
        let got = safe_join(Path::new("out"), relative).ok().map(|p| p.to_string_lossy().into_owned());
        assert_eq!(got.as_deref(), expect, "{relative}");
    }

    #[test]
    fn no_path_escapes_the_output() {
        check("a.json", Some("out/a.json"));
        check("src/tools/x.ts", Some("out/src/tools/x.ts"));
        for bad in ["../x", "a/../../x", "/etc/passwd", "", "a//b", "./a", "a\\..\\b", "C:x", "a/."] {
            check(bad, None);
        }
    }

    fn planned(root: &Path, name: &str, owner: &str) -> PlannedFile {
        PlannedFile { path: root.join(name), owner: owner.into(), root: root.to_path_buf() }
    }

    fn problems(plan: &[PlannedFile], inputs: &[PathBuf], force: bool, tmp: &Path) -> Vec<String> {
        check_plan(plan, inputs, force)
            .iter()
            .map(|p| format!("{}: {}", p.owner, p.error).replace(&tmp.display().to_string(), "TMP"))
            .collect()
    }

    #[test]
    fn plans_refuse_collisions_inputs_existing_files_links_and_folders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let input = root.join("in.json");
        std::fs::write(&input, "{}").unwrap();
        std::fs::write(root.join("old.json"), "{}").unwrap();
        std::fs::create_dir(root.join("folder.json")).unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(elsewhere.path(), root.join("src")).unwrap();
        let plan = [
            planned(root, "a.json", "x"),
            planned(root, "a.json", "y"),
            planned(root, "in.json", "z"),
            planned(root, "old.json", "w"),
            planned(root, "folder.json", "v"),
            planned(root, "src/tools/t.ts", "u"),
        ];
        let mut expect = vec![
            "y: TMP/a.json: would be written by both x and y; nothing was written",
            "z: TMP/in.json: is an input; toolport never overwrites its inputs",
            "w: TMP/old.json: already exists; use --force to overwrite it",
            "v: TMP/folder.json: is a directory; an output file cannot replace it",
        ];
        if cfg!(unix) {
            expect.push(
                "u: TMP/src: is a symbolic link; toolport never writes through links (writing TMP/src/tools/t.ts)",
            );
        }
        assert_eq!(problems(&plan, std::slice::from_ref(&input), false, root), expect);
        assert_eq!(problems(&plan[3..4], &[input], true, root), Vec::<String>::new(), "--force allows overwriting");
    }

    #[test]
    fn atomic_writes_refuse_existing_files_without_force_and_keep_modes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.json");
        write_atomic(&path, b"one", false).unwrap();
        assert!(matches!(write_atomic(&path, b"two", false), Err(OutputError::Exists(_))));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
            write_atomic(&path, b"three", true).unwrap();
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        }
        write_atomic(&path, b"four", true).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "four");
        let leftovers = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary files left behind");
    }

    /// One input's files are placed all or none; the others go on.
    #[test]
    fn a_failing_input_is_taken_back_and_the_others_are_placed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("b/z.json")).unwrap();
        std::fs::write(root.join("b/old.json"), "old").unwrap();
        let staging = Staging::new(root).unwrap();
        let a = [(planned(root, "a/one.json", "a"), b"1".as_slice())];
        let b = [
            (planned(root, "b/new.json", "b"), b"2".as_slice()),
            (planned(root, "b/old.json", "b"), b"3".as_slice()),
            (planned(root, "b/z.json", "b"), b"4".as_slice()),
        ];
        staging.stage_all(&a).unwrap();
        staging.stage_all(&b).unwrap();
        let committed = staging.commit(true);
        assert_eq!(committed.placed, [root.join("a/one.json")]);
        assert_eq!(committed.failed.len(), 1);
        assert_eq!(committed.failed[0].owner, "b");
        assert!(matches!(committed.failed[0].error, OutputError::IsDirectory(_)));
        assert!(committed.failed[0].left_in_place.is_empty());
        assert!(!root.join("b/new.json").exists(), "a new file of the failed input is removed");
        assert_eq!(std::fs::read_to_string(root.join("b/old.json")).unwrap(), "old", "a replaced file is restored");
        drop(staging);
        let names: Vec<String> =
            std::fs::read_dir(root).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert!(names.iter().all(|n| !n.starts_with(".toolport")), "staging removed: {names:?}");
    }

    #[test]
    fn stale_staging_of_a_dead_run_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        // No process has this id: Linux caps ids far below it.
        let stale = dir.path().join(format!("{STAGING_PREFIX}4294967295-1"));
        std::fs::create_dir_all(stale.join("inner")).unwrap();
        let mine = Staging::new(dir.path()).unwrap();
        if cfg!(target_os = "linux") {
            assert!(!stale.exists());
        }
        assert!(mine.dir.exists());
    }
}
