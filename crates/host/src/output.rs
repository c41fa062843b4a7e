//! Where written bundles go, and writing them safely:
//!
//! - a bundle path never escapes the output directory ([`safe_join`]);
//! - an input is never overwritten, and an existing file only with `--force`;
//! - two outputs never claim the same path ([`check_plan`]), checked before anything is written;
//! - every file is written to a temporary file in the output tree and renamed into place, so a
//!   reader never sees half a file and an interrupted run leaves no partial outputs.
//!
//! Batches stage each conversion's files as soon as it finishes ([`Staging`]), so memory is
//! bounded by the largest input rather than by the batch, and commit them all after the checks.

use std::collections::{HashMap, HashSet};
use std::io::Write;
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
    #[error("{}: cannot be written: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: path.to_path_buf(), source }
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
}

/// Checks a whole plan before anything is written: no collisions, no input overwritten, no
/// existing file overwritten without `force`. Returns every problem, one per path.
pub fn check_plan(plan: &[PlannedFile], inputs: &[PathBuf], force: bool) -> Vec<OutputError> {
    let mut resolver = Resolver::default();
    let inputs: HashSet<PathBuf> = inputs.iter().filter_map(|p| resolver.comparable(p)).collect();
    // Directory inputs (Raycast extensions): nothing may be written inside one.
    let input_dirs: Vec<&PathBuf> = inputs.iter().filter(|p| p.is_dir()).collect();
    let mut owners: HashMap<PathBuf, &str> = HashMap::new();
    let mut problems = Vec::new();
    for file in plan {
        let key = resolver.comparable(&file.path).unwrap_or_else(|| file.path.clone());
        if let Some(first) = owners.insert(key.clone(), &file.owner) {
            problems.push(OutputError::Collision {
                path: file.path.clone(),
                first: first.to_owned(),
                second: file.owner.clone(),
            });
        } else if inputs.contains(&key) || input_dirs.iter().any(|dir| key.starts_with(dir)) {
            problems.push(OutputError::IsInput(file.path.clone()));
        } else if !force && file.path.exists() {
            problems.push(OutputError::Exists(file.path.clone()));
        }
    }
    problems
}

/// Turns paths into absolute, normalised forms for comparison, whether or not they exist
/// yet: the longest existing ancestor is canonicalised (resolving links) and the rest
/// appended. Canonical folders are cached: a batch writes thousands of files into a few.
#[derive(Default)]
struct Resolver {
    folders: HashMap<PathBuf, Option<PathBuf>>,
}

impl Resolver {
    fn comparable(&mut self, path: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(path).ok()?;
        let (Some(parent), Some(name)) = (absolute.parent(), absolute.file_name()) else {
            return std::fs::canonicalize(&absolute).ok();
        };
        let parent = match self.folders.get(parent) {
            Some(known) => known.clone(),
            None => {
                let resolved = std::fs::canonicalize(parent).ok().or_else(|| self.comparable(parent));
                self.folders.insert(parent.to_path_buf(), resolved.clone());
                resolved
            }
        };
        let joined = parent?.join(name);
        // Only a link needs resolving further (it may point at an input); one lstat says.
        match std::fs::symlink_metadata(&joined) {
            Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(&joined).ok(),
            _ => Some(joined),
        }
    }
}

/// Writes one file atomically: a temporary file beside it, then a rename. Without `force`
/// an existing file is refused even if it appeared after planning.
pub fn write_atomic(path: &Path, contents: &[u8], force: bool) -> Result<(), OutputError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let mut temp = tempfile::Builder::new().prefix(".toolport-").tempfile_in(dir).map_err(io_error(dir))?;
    temp.write_all(contents).map_err(io_error(path))?;
    temp.as_file().sync_all().map_err(io_error(path))?;
    persist(temp, path, force)
}

fn persist(temp: tempfile::NamedTempFile, path: &Path, force: bool) -> Result<(), OutputError> {
    let result = if force { temp.persist(path).map(drop) } else { temp.persist_noclobber(path).map(drop) };
    result.map_err(|e| match e.error.kind() {
        std::io::ErrorKind::AlreadyExists => OutputError::Exists(path.to_path_buf()),
        _ => OutputError::Io { path: path.to_path_buf(), source: e.error },
    })
}

/// A staging area inside the output directory: files are written here as conversions finish
/// and renamed into place by [`Staging::commit`]. Dropping it removes whatever is left.
///
/// Staging takes `&self` so that parallel conversions write their files concurrently; only
/// recording a staged file takes the lock. Files are not fsynced one by one: the rename is
/// what makes each file appear whole, and a batch of thousands would spend its time syncing.
#[derive(Debug)]
pub struct Staging {
    dir: tempfile::TempDir,
    staged: std::sync::Mutex<Vec<(tempfile::TempPath, PlannedFile)>>,
}

impl Staging {
    /// Creates the output directory if needed and a hidden staging folder in it.
    pub fn new(output_dir: &Path) -> Result<Staging, OutputError> {
        std::fs::create_dir_all(output_dir).map_err(io_error(output_dir))?;
        let dir = tempfile::Builder::new()
            .prefix(".toolport-staging-")
            .tempdir_in(output_dir)
            .map_err(io_error(output_dir))?;
        Ok(Staging { dir, staged: std::sync::Mutex::new(Vec::new()) })
    }

    /// Writes `contents` to a staged file destined for `file.path`.
    pub fn stage(&self, file: PlannedFile, contents: &[u8]) -> Result<(), OutputError> {
        let mut temp = tempfile::NamedTempFile::new_in(self.dir.path()).map_err(io_error(self.dir.path()))?;
        temp.write_all(contents).map_err(io_error(&file.path))?;
        let temp = temp.into_temp_path();
        self.staged.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((temp, file));
        Ok(())
    }

    /// Moves every staged file into place, in the order they were planned. Stops at the
    /// first failure and reports it; files already moved stay (each is complete).
    pub fn commit(self, force: bool) -> Result<Vec<PathBuf>, OutputError> {
        let mut staged = self.staged.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        staged.sort_by(|a, b| a.1.path.cmp(&b.1.path));
        let mut written = Vec::with_capacity(staged.len());
        let mut made: HashSet<PathBuf> = HashSet::new();
        for (temp, file) in staged {
            if let Some(parent) = file.path.parent()
                && made.insert(parent.to_path_buf())
            {
                std::fs::create_dir_all(parent).map_err(io_error(parent))?;
            }
            // No-clobber renames refuse a file that appeared since planning, in one call.
            let persisted = if force { temp.persist(&file.path) } else { temp.persist_noclobber(&file.path) };
            persisted.map_err(|e| match e.error.kind() {
                std::io::ErrorKind::AlreadyExists => OutputError::Exists(file.path.clone()),
                _ => OutputError::Io { path: file.path.clone(), source: e.error },
            })?;
            written.push(file.path);
        }
        Ok(written)
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

    #[test]
    fn plans_refuse_collisions_inputs_and_existing_files() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.json");
        std::fs::write(&input, "{}").unwrap();
        let existing = dir.path().join("old.json");
        std::fs::write(&existing, "{}").unwrap();
        let file = |name: &str, owner: &str| PlannedFile { path: dir.path().join(name), owner: owner.into() };
        let plan = [file("a.json", "x"), file("a.json", "y"), file("in.json", "z"), file("old.json", "w")];
        let problems: Vec<String> = check_plan(&plan, std::slice::from_ref(&input), false)
            .iter()
            .map(|e| e.to_string().replace(&dir.path().display().to_string(), "TMP"))
            .collect();
        assert_eq!(
            problems,
            [
                "TMP/a.json: would be written by both x and y; nothing was written",
                "TMP/in.json: is an input; toolport never overwrites its inputs",
                "TMP/old.json: already exists; use --force to overwrite it",
            ]
        );
        assert_eq!(check_plan(&plan[3..], &[input], true).len(), 0, "--force allows overwriting outputs");
    }

    #[test]
    fn atomic_writes_refuse_existing_files_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.json");
        write_atomic(&path, b"one", false).unwrap();
        assert!(matches!(write_atomic(&path, b"two", false), Err(OutputError::Exists(_))));
        write_atomic(&path, b"three", true).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "three");
        let leftovers = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary files left behind");
    }
}
