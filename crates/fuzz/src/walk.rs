//! The walker's fuzz target: random trees of folders, files, links (to themselves, to their
//! parents, in loops, out of the folder walked, to nothing), named pipes and sockets, walked
//! by [`pipeline::find_inputs`] as `convert DIR` walks them. A tree is a [`Tree`], a list of
//! entries made in order, so a finding is kept as data (fuzz/regressions/walk/) and replayed.
//!
//! What must hold ([`check`]): the walk ends (within [`WALK_LIMIT`]), every input it takes
//! lies inside the folder walked and is a regular file, no folder is walked twice (no file is
//! taken twice under the same name in the same real folder), and the directory probe reads
//! none of the pipes (a pipe opened for reading would block the walk, so it would not end).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toolport_core::{Bundle, Detection, Format, FormatInfo, InputShape, Options, Outcome, ToolSet};
use toolport_host::Registry;
use toolport_host::pipeline;

use crate::Rng;

/// Longer than a walk of a few dozen entries may take.
pub const WALK_LIMIT: Duration = Duration::from_secs(10);

/// One entry of a tree, made below the tree's folder (`root/…` is inside the folder walked,
/// `outside/…` beside it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Node {
    Folder {
        path: String,
    },
    File {
        path: String,
    },
    Fifo {
        path: String,
    },
    Socket {
        path: String,
    },
    /// A symbolic link at `path` whose text is `target` (relative or absolute, as given).
    Link {
        path: String,
        target: String,
    },
}

/// A tree to walk: its entries, made in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

/// A random tree of about `size` entries.
pub fn random_tree(rng: &mut Rng, size: usize) -> Tree {
    let mut folders = vec!["root".to_owned(), "outside".to_owned()];
    let mut entries: Vec<String> = Vec::new();
    let mut nodes = vec![Node::Folder { path: "root".into() }, Node::Folder { path: "outside".into() }];
    for n in 0..size {
        let parent = if rng.below(6) == 0 { "outside".to_owned() } else { folders[rng.below(folders.len())].clone() };
        let ext = ["json", "json", "yaml", "txt", ""][rng.below(5)];
        let name = if ext.is_empty() { format!("e{n}") } else { format!("e{n}.{ext}") };
        let path = format!("{parent}/{name}");
        let node = match rng.below(10) {
            0 | 1 => {
                folders.push(format!("{parent}/e{n}"));
                Node::Folder { path: format!("{parent}/e{n}") }
            }
            2 | 3 => Node::File { path },
            4 => Node::Fifo { path },
            5 => Node::Socket { path },
            _ => {
                let depth = parent.matches('/').count() + 1;
                let target = match rng.below(8) {
                    0 => ".".to_owned(),
                    1 => "..".to_owned(),
                    2 => vec![".."; depth].join("/"),
                    3 => format!("{}/outside", vec![".."; depth].join("/")),
                    4 => "/dev/zero".to_owned(),
                    5 => "missing".to_owned(),
                    // A link to another entry, possibly a link itself (loops).
                    _ if !entries.is_empty() => {
                        format!("{}/{}", vec![".."; depth].join("/"), entries[rng.below(entries.len())])
                    }
                    _ => path.clone(),
                };
                // Links to folders need a folder-like name too, so walks meet them.
                Node::Link { path: if rng.below(2) == 0 { format!("{parent}/l{n}") } else { path }, target }
            }
        };
        if let Node::Link { path, .. } | Node::File { path } | Node::Fifo { path } | Node::Socket { path } = &node {
            entries.push(path.clone());
        }
        nodes.push(node);
    }
    Tree { nodes }
}

/// Makes `tree` below `dir`; an entry that cannot be made (a device without privileges, a
/// name taken) is left out. The sockets' listeners are returned to keep them open.
pub fn make(tree: &Tree, dir: &Path) -> Vec<std::os::unix::net::UnixListener> {
    let mut listeners = Vec::new();
    for node in &tree.nodes {
        let _ = match node {
            Node::Folder { path } => std::fs::create_dir_all(dir.join(path)),
            Node::File { path } => std::fs::write(dir.join(path), "{\"tools\": []}\n"),
            Node::Fifo { path } => std::process::Command::new("mkfifo").arg(dir.join(path)).status().map(|_| ()),
            Node::Socket { path } => std::os::unix::net::UnixListener::bind(dir.join(path)).map(|l| listeners.push(l)),
            Node::Link { path, target } => std::os::unix::fs::symlink(target, dir.join(path)),
        };
    }
    listeners
}

/// A file format that declares `.json` and `.yaml` (so the walk takes such files) and a folder
/// format that recognises no folder (so the walk probes each folder's top-level files).
#[derive(Debug)]
struct Declares(InputShape);

impl Format for Declares {
    fn info(&self) -> FormatInfo {
        let folder = self.0 == InputShape::Directory;
        FormatInfo {
            id: if folder { "folder" } else { "file" }.into(),
            aliases: Vec::new(),
            description: "declares extensions for the walk".into(),
            version: "0".into(),
            reads: true,
            writes: false,
            input: self.0,
            extensions: if folder { Vec::new() } else { vec!["json".into(), "yaml".into()] },
            options: None,
            limits: Default::default(),
        }
    }
    fn detect(&self, _input: &Bundle) -> Detection {
        0
    }
    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        Outcome::ok(ToolSet::default(), Vec::new())
    }
    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        Outcome::ok(Bundle::default(), Vec::new())
    }
}

/// The registry the walks use.
pub fn registry() -> Registry {
    let mut registry = Registry::default();
    registry.add_linked(std::sync::Arc::new(Declares(InputShape::File)));
    registry.add_linked(std::sync::Arc::new(Declares(InputShape::Directory)));
    registry
}

/// Makes `tree` in a new temporary folder, walks its `root` and checks what the walk took.
pub fn check(tree: &Tree) -> Result<(), String> {
    let dir = scratch()?;
    let _listeners = make(tree, dir.path());
    let root = dir.path().join("root");
    let walked = root.clone();
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(pipeline::find_inputs(&registry(), &[walked], None));
    });
    let items = result.recv_timeout(WALK_LIMIT).map_err(|_| format!("the walk did not end within {WALK_LIMIT:?}"))?;
    judge(&root, &items)
}

/// Checks what a walk of `root` took: each input inside it, a regular file, and no name of a
/// real folder twice.
pub fn judge(root: &Path, items: &[pipeline::InputItem]) -> Result<(), String> {
    let real_root = std::fs::canonicalize(root).map_err(|e| e.to_string())?;
    let mut seen = std::collections::HashSet::new();
    for item in items.iter().filter(|i| i.skipped.is_none()) {
        let shown = item.path.display();
        let real = std::fs::canonicalize(&item.path).map_err(|e| format!("{shown}: taken but {e}"))?;
        if !real.starts_with(&real_root) {
            return Err(format!("{shown} is taken but lies outside the folder walked ({})", real.display()));
        }
        let meta = std::fs::metadata(&real).map_err(|e| e.to_string())?;
        if !item.is_dir && !meta.is_file() {
            return Err(format!("{shown} is taken but is not a regular file"));
        }
        // The same name in the same real folder twice: that folder was walked twice.
        let key = (real.parent().map(Path::to_path_buf), item.path.file_name().map(ToOwned::to_owned));
        if !seen.insert(key) {
            return Err(format!("{shown} is taken twice: its folder was walked twice"));
        }
    }
    Ok(())
}

/// A temporary folder, removed when dropped.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A new temporary folder.
pub fn scratch() -> Result<TempDir, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = format!("toolport-walk-fuzz-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let path = std::env::temp_dir().join(name);
    std::fs::create_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(TempDir(path))
}

/// Walks random trees for `budget`, from `seed`; the trees that fail, with why.
pub fn fuzz(seed: u64, budget: Duration) -> (usize, Vec<(Tree, String)>) {
    let mut rng = Rng::new(seed);
    let started = std::time::Instant::now();
    let (mut cases, mut findings) = (0, Vec::new());
    while started.elapsed() < budget {
        let size = 8 + rng.below(40);
        let tree = random_tree(&mut rng, size);
        cases += 1;
        if let Err(why) = check(&tree) {
            findings.push((tree, why));
        }
    }
    (cases, findings)
}

/// Reads every tree kept in `dir` (files ending `.json`), sorted by name.
pub fn kept(dir: &Path) -> Vec<(PathBuf, Tree)> {
    crate::kept_json(dir)
}
