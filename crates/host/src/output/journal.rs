//! A commit's journal, so that a commit killed outright (SIGKILL, a crash) is undone by the next
//! run in the same folder rather than left with inputs part old, part new.
//!
//! Written into the staging folder before the first file is placed, it names every staged file
//! (its name there, which file it is: device and inode, and where it goes), then each folder
//! the commit makes, before it is made; it is removed once the commit has ended. A
//! run that finds it in an abandoned staging folder (staging.rs, from [`read`]) takes back every file still in
//! place as the very file that was staged (restoring the file it replaced, kept beside it in
//! the staging folder), and removes the folders made that stayed empty. A file that is not the
//! staged one (never placed, already taken back, or replaced since) is left alone.
//!
//! It protects against a killed process, not a lost machine: neither it nor the staged files
//! are synced to disk (the commit's renames are not either).
//!
//! One line per entry, every path byte outside a plain set percent-encoded:
//! `file NAME DEVICE INODE ROOT RELATIVE` and `folder ROOT RELATIVE`, after the header line.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use super::{FileId, PlannedFile, below, owned_by_this_user};

const HEADER: &str = "toolport commit journal 1";

/// The journal's place in a staging folder.
pub(super) fn path(staging: &Path) -> PathBuf {
    staging.join("journal")
}

/// The journal of the commit under way.
pub(super) struct Journal {
    file: File,
    path: PathBuf,
    /// Each output root as given, absolute and encoded.
    roots: HashMap<PathBuf, String>,
}

impl Journal {
    /// Writes the journal of a commit of `files` (each: its staged path, which file it is,
    /// where it goes). Files that cannot be told apart (no [`FileId`]) are left out: nothing
    /// could tell them from someone else's.
    pub(super) fn begin<'a>(
        staging: &Path,
        files: impl Iterator<Item = (&'a Path, Option<FileId>, &'a PlannedFile)>,
    ) -> std::io::Result<Journal> {
        let path = path(staging);
        let mut journal = Journal { file: super::atomic::create_new(&path)?, path, roots: HashMap::new() };
        let mut text = format!("{HEADER}\n");
        for (staged, id, file) in files {
            let (Some(id), Some(name)) = (id, staged.file_name()) else { continue };
            let place = journal.place(file);
            let _ = writeln!(text, "file {} {} {} {place}", encode(name.as_encoded_bytes()), id.device, id.inode);
        }
        journal.file.write_all(text.as_bytes())?;
        Ok(journal)
    }

    /// Records a folder the commit is about to make (`path`, below `root`), written at once. A
    /// failure only means a killed commit's empty folder may stay.
    pub(super) fn folder(&mut self, root: &Path, path: &Path) {
        let file = PlannedFile { path: path.to_path_buf(), owner: String::new(), root: root.to_path_buf() };
        let line = format!("folder {}\n", self.place(&file));
        let _ = self.file.write_all(line.as_bytes());
    }

    /// The commit has ended: nothing is left to undo.
    pub(super) fn end(self) {
        drop(self.file);
        let _ = std::fs::remove_file(&self.path);
    }

    /// `ROOT RELATIVE` for a file: its root made absolute (once per root), and its path below it.
    fn place(&mut self, file: &PlannedFile) -> String {
        let (root, relative) = match below(&file.path, &file.root) {
            Some(relative) => {
                let root = self.roots.entry(file.root.clone()).or_insert_with(|| {
                    let absolute = std::path::absolute(&file.root).unwrap_or_else(|_| file.root.clone());
                    encode(absolute.as_os_str().as_encoded_bytes())
                });
                (root.clone(), relative)
            }
            // Not below its root (no run plans that): the whole path, from the file system's root.
            None => {
                let absolute = std::path::absolute(&file.path).unwrap_or_else(|_| file.path.clone());
                let relative = absolute.components().skip(1).collect();
                ("/".to_owned(), relative)
            }
        };
        format!("{root} {}", encode(relative.as_os_str().as_encoded_bytes()))
    }
}

/// What a journal recorded: each staged file (its path in the staging folder, which file it
/// is, where it went) and each folder the commit made, in the order they were written.
pub(super) struct Recorded {
    pub(super) files: Vec<(PathBuf, FileId, PlannedFile)>,
    pub(super) made: Vec<PlannedFile>,
}

/// The journal of a staging folder, if there is one of this user's (see the module).
pub(super) fn read(staging: &Path) -> Option<Recorded> {
    let journal = path(staging);
    // Only a journal of this user's is followed, and only to places below the folder the
    // staging is in (where its run wrote): a journal made up by someone else leads nowhere.
    let ours = std::fs::symlink_metadata(&journal).is_ok_and(|meta| meta.is_file() && owned_by_this_user(&meta));
    let (true, Some(output)) = (ours, staging.parent()) else { return None };
    let text = std::fs::read_to_string(&journal).ok()?;
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return None;
    }
    let mut files = Vec::new();
    let mut made = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split(' ').collect();
        match fields[..] {
            ["file", name, device, inode, root, relative] => {
                let (Some(name), Ok(device), Ok(inode), Some(file)) =
                    (decode(name), device.parse(), inode.parse(), planned(output, root, relative))
                else {
                    continue;
                };
                files.push((staging.join(name), FileId { device, inode }, file));
            }
            ["folder", root, relative] => made.extend(planned(output, root, relative)),
            // A line cut short by the kill, or not ours: nothing to undo for it.
            _ => {}
        }
    }
    Some(Recorded { files, made })
}

/// A journaled place as a planned file, walked below its root as a commit walks it; `None`
/// unless the root is `output` or below it and the rest plain names.
fn planned(output: &Path, root: &str, relative: &str) -> Option<PlannedFile> {
    let (root, relative) = (decode(root)?, decode(relative)?);
    let plain = |path: &Path| path.components().all(|c| matches!(c, Component::Normal(_)));
    let below = root.strip_prefix(output).is_ok_and(plain);
    (below && plain(&relative)).then(|| PlannedFile { path: root.join(relative), owner: String::new(), root })
}

/// Bytes outside `[A-Za-z0-9/._+-]` as `%XX`: no spaces or line breaks are left.
fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &byte in bytes {
        if byte.is_ascii_alphanumeric() || b"/._+-".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

fn decode(text: &str) -> Option<PathBuf> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        if byte == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(byte);
            rest = tail;
        }
    }
    #[cfg(unix)]
    let name: OsString = std::os::unix::ffi::OsStringExt::from_vec(bytes);
    #[cfg(not(unix))]
    let name = OsString::from(String::from_utf8(bytes).ok()?);
    Some(PathBuf::from(name))
}
