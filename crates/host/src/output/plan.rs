//! Checking a whole plan before anything is written (placing each file checks again, through
//! folder handles: `place.rs`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::{Occupant, OutputError, PlannedFile};

/// A reason a plan cannot be carried out, and the input whose file it concerns.
#[derive(Debug)]
pub struct PlanProblem {
    pub owner: String,
    pub error: OutputError,
}

/// Refuses an output place (`-o`) that is neither a file nor a folder: a device, FIFO or
/// socket can be neither written over nor written into. Checked before a run stages anything:
/// `-o /dev/null` would otherwise stage in `/dev`.
pub fn check_destination(path: &Path) -> Result<(), OutputError> {
    match std::fs::symlink_metadata(path).map(|meta| Occupant::of(&meta)) {
        Ok(Occupant::Special(kind)) => Err(OutputError::NotAFile { path: path.to_path_buf(), kind }),
        _ => Ok(()),
    }
}

/// The inputs a plan must neither write over nor write into.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlanInputs<'a> {
    /// Inputs known to be files (read as files, or found as files): an output is compared with
    /// them only when something is at its path already (a path with nothing at it is no
    /// input's), so a plan into a new folder looks at none of them.
    pub files: &'a [PathBuf],
    /// Every other input (folders, or inputs not known to be files): looked at before the
    /// outputs, since nothing may be written inside a folder input either.
    pub others: &'a [PathBuf],
    /// A folder this run made before converting (the output folder `-o` named, when it did
    /// not exist): nothing of anyone's was in it, so an output planned below it is not looked
    /// for (a batch into a new folder spares a system call per file). Whatever appears there
    /// meanwhile is still found when each file is placed, which never replaces what `--force`
    /// does not allow.
    pub made_folder: Option<&'a Path>,
}

impl<'a> PlanInputs<'a> {
    /// Inputs nothing is known of.
    pub fn unknown(inputs: &'a [PathBuf]) -> Self {
        PlanInputs { files: &[], others: inputs, made_folder: None }
    }
}

/// Checks a whole plan before anything is written: no collisions, no input overwritten, no
/// link written through, no directory or special file replaced, no existing file overwritten
/// without `force`.
/// Returns every problem, one per path.
pub fn check_plan(plan: &[PlannedFile], inputs: &PlanInputs, force: bool) -> Vec<PlanProblem> {
    let mut resolver = Resolver::default();
    let mut input_dirs: Vec<PathBuf> = Vec::new();
    let mut input_files: HashSet<PathBuf> = HashSet::new();
    let unique: HashSet<&PathBuf> = inputs.others.iter().collect();
    for (path, is_dir) in unique.into_iter().filter_map(|p| resolver.comparable_input(p)) {
        if is_dir {
            input_dirs.push(path);
        } else {
            input_files.insert(path);
        }
    }
    // The known files' comparable forms, made when an output is first found in place.
    let mut known_files: Option<HashSet<PathBuf>> = None;
    let mut links = LinkCheck::default();
    let mut owners: HashMap<PathBuf, &str> = HashMap::new();
    let mut problems = Vec::new();
    for file in plan {
        // One lstat of the output serves both the comparison and the link check.
        let made_here = inputs.made_folder.is_some_and(|folder| file.path.starts_with(folder));
        let existing = if made_here { None } else { std::fs::symlink_metadata(&file.path).ok() };
        let key = resolver.comparable(&file.path, existing.as_ref()).unwrap_or_else(|| file.path.clone());
        let mut is_known_file = || {
            existing.is_some()
                && known_files
                    .get_or_insert_with(|| {
                        let unique: HashSet<&PathBuf> = inputs.files.iter().collect();
                        unique.into_iter().filter_map(|p| resolver.comparable_input(p)).map(|(key, _)| key).collect()
                    })
                    .contains(&key)
        };
        let problem = if let Some(first) = owners.insert(key.clone(), &file.owner) {
            Some(OutputError::Collision {
                path: file.path.clone(),
                first: first.to_owned(),
                second: file.owner.clone(),
            })
        } else if input_files.contains(&key) || input_dirs.iter().any(|dir| key.starts_with(dir)) || is_known_file() {
            // Directory inputs (Raycast extensions): nothing may be written inside one.
            Some(OutputError::IsInput(file.path.clone()))
        } else {
            match links.check_with(file, existing) {
                Err(e) => Some(e),
                Ok(Some(meta)) => Occupant::of(&meta).refusal(&file.path, force),
                Ok(None) => None,
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
    /// Checks the folders from `file.root` down to the file, then the file itself, given its
    /// lstat (`None`: it does not exist); returns that metadata if it is not a link.
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
