//! ARCHITECTURE.md's claims that a test can hold, checked against the workspace itself: every
//! crate has a row in the code map, depends only on what its row lists (and, for the crates of
//! this workspace, on everything it lists), and `unsafe` is allowed only where the invariants
//! name it. The dependencies come from `cargo metadata`, not from reading Cargo.toml by hand.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// One row of the code map: the crate's path column and the names its "may depend on" lists.
struct Row {
    paths: Vec<String>,
    allowed: BTreeSet<String>,
    /// A row shared by many crates (`plugins/<format>`) allows; it does not promise each name.
    shared: bool,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the workspace").to_owned()
}

/// The code map's rows, from the table under "## Code map".
fn code_map(text: &str) -> Vec<Row> {
    let section = text.split("## Code map").nth(1).unwrap_or_default();
    section
        .lines()
        .take_while(|line| !line.starts_with("## ") && !line.starts_with("### "))
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let columns: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            let paths = columns[1].split(", ").map(|path| path.trim().trim_end_matches('/').to_owned()).collect();
            let shared = columns[1].contains('<');
            Row { paths, allowed: listed_names(columns.last().copied().unwrap_or_default()), shared }
        })
        .collect()
}

/// The names a "may depend on" cell lists: items split at commas and semicolons, remarks in
/// parentheses left out, each item's last word (so "own parsers: json5" names json5), and a
/// closing sentence ("Never another format.") read as prose.
fn listed_names(cell: &str) -> BTreeSet<String> {
    let mut plain = String::new();
    let mut depth = 0usize;
    for ch in cell.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    let plain = plain.split(". ").next().unwrap_or_default();
    plain
        .split([',', ';'])
        .filter_map(|item| item.split_whitespace().last())
        .map(|word| word.trim_end_matches('.').to_owned())
        .filter(|word| !word.is_empty() && word != "std")
        .collect()
}

/// A dependency as the code map names it: our own crates without their `toolport(er)-` prefix.
fn short_name(dependency: &Value) -> String {
    let name = dependency["rename"].as_str().or(dependency["name"].as_str()).unwrap_or_default();
    name.strip_prefix("toolporter-").or_else(|| name.strip_prefix("toolport-")).unwrap_or(name).to_owned()
}

/// Where a crate sits relative to the workspace root, as the code map's path column writes it.
fn crate_path(root: &Path, package: &Value) -> String {
    let manifest = Path::new(package["manifest_path"].as_str().unwrap_or_default());
    let dir = manifest.parent().unwrap_or(manifest);
    dir.strip_prefix(root).unwrap_or(dir).to_string_lossy().into_owned()
}

/// Does a path column entry (`plugins/<format>/plugin`) cover this crate's path?
fn covers(pattern: &str, path: &str) -> Option<String> {
    match pattern.split_once("<format>") {
        None => (pattern == path).then(String::new),
        Some((before, after)) => {
            let format = path.strip_prefix(before)?.strip_suffix(after)?;
            (!format.is_empty() && !format.contains('/')).then(|| format.to_owned())
        }
    }
}

/// What is wrong between the code map and the crates' real dependencies, one line each.
fn dependency_mismatches(root: &Path, architecture: &str, metadata: &Value) -> Vec<String> {
    let rows = code_map(architecture);
    let mut problems = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let name = package["name"].as_str().unwrap_or_default();
        let path = crate_path(root, package);
        let Some((row, format)) = rows
            .iter()
            .find_map(|row| row.paths.iter().find_map(|pattern| covers(pattern, &path)).map(|format| (row, format)))
        else {
            problems.push(format!("{name} ({path}) has no row in the code map"));
            continue;
        };
        let mut allowed = row.allowed.clone();
        // Words that stand for a family: "its format" in a plugin's row, "every format library".
        if allowed.remove("format") {
            allowed.insert(format!("format-{format}"));
        }
        let every_format = allowed.remove("library");
        let actual: BTreeSet<String> = package["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|dependency| dependency["kind"].is_null())
            .map(short_name)
            .collect();
        for dependency in &actual {
            let listed = allowed.contains(dependency) || (every_format && dependency.starts_with("format-"));
            if !listed {
                problems.push(format!("{name} ({path}) depends on {dependency}, which its code-map row does not list"));
            }
        }
        if !row.shared {
            for listed in allowed.difference(&actual) {
                problems.push(format!("{name} ({path}): the code map lists {listed}, which it does not depend on"));
            }
        }
    }
    problems
}

/// Source files that allow `unsafe_code`, relative to the root.
fn files_allowing_unsafe(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut folders: Vec<PathBuf> = ["crates", "plugins", "xtask"].iter().map(|dir| root.join(dir)).collect();
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() && entry.file_name() != "target" && entry.file_name() != "node_modules" {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|text| text.contains(concat!("allow(", "unsafe_code)")))
            {
                found.push(path.strip_prefix(root).unwrap_or(&path).to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

/// The places the invariant "core does no I/O and has no `unsafe`" names, as files.
const UNSAFE_PLACES: &[(&str, &str)] = &[
    ("crates/plugin/src/export.rs", "`toolport-plugin::export`"),
    ("crates/plugin/src/lib.rs", "`declare_plugin!`"),
    ("crates/host/src/plugin/load.rs", "`toolport-host::plugin::load`"),
    ("crates/host/src/allocator.rs", "`toolport-host::allocator`"),
];

/// The `use` declarations of a Rust file, each as one line of text (rustfmt may wrap them).
fn use_declarations(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let line = line.trim();
        if current.is_none()
            && ["use ", "pub use ", "pub(super) use ", "pub(crate) use "].iter().any(|start| line.starts_with(start))
        {
            current = Some(String::new());
        }
        if let Some(declaration) = current.as_mut() {
            declaration.push_str(line);
            if line.ends_with(';') {
                found.push(current.take().unwrap());
            }
        }
    }
    found
}

/// The first segments of each path a `use super::…` declaration names: `use super::{a::B, c};`
/// gives `a` and `c`, `use super::operation::X;` gives `operation`.
fn super_imports(declaration: &str) -> Vec<String> {
    let Some(rest) = declaration.split_once("super::").map(|(_, rest)| rest.trim_end_matches(';')) else {
        return Vec::new();
    };
    let items = match rest.strip_prefix('{') {
        Some(group) => {
            let group = group.strip_suffix('}').unwrap_or(group);
            // Split at the group's own commas, not those of nested groups.
            let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
            for (i, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items.push(&group[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            items.push(&group[start..]);
            items
        }
        None => vec![rest],
    };
    items
        .iter()
        .map(|item| item.trim().split("::").next().unwrap_or_default().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Sibling files that import each other through `use super::…` (module A names module B and B
/// names A), in every folder of `src/` trees: the circles between files the code map forbids.
fn import_circles(root: &Path) -> Vec<String> {
    let mut circles = Vec::new();
    let mut folders: Vec<PathBuf> = ["crates", "plugins"].iter().map(|dir| root.join(dir)).collect();
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        let mut modules: Vec<(String, BTreeSet<String>)> = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            // A folder module (`read/`) is a sibling too, speaking through its mod.rs.
            let (module, source) = if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                if entry.file_name() == "target" || entry.file_name() == "node_modules" {
                    continue;
                }
                folders.push(path.clone());
                (entry.file_name().to_string_lossy().into_owned(), path.join("mod.rs"))
            } else {
                let Some(module) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".rs")) else {
                    continue;
                };
                if matches!(module, "mod" | "lib" | "main") {
                    continue;
                }
                (module.to_owned(), path)
            };
            let Ok(text) = std::fs::read_to_string(&source) else { continue };
            // Only the module's own code: its tests may reach anywhere.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let names = use_declarations(code).iter().flat_map(|d| super_imports(d)).collect();
            modules.push((module, names));
        }
        for (a, a_names) in &modules {
            for (b, b_names) in &modules {
                if a < b && a_names.contains(b) && b_names.contains(a) {
                    let folder = folder.strip_prefix(root).unwrap_or(&folder).display().to_string();
                    circles.push(format!("{folder}: {a} and {b} import each other"));
                }
            }
        }
    }
    circles.sort();
    circles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_names_reads_a_cell_as_the_code_map_writes_it() {
        let names =
            listed_names("plugin (the SDK: core, yaml), serde; own parsers: json5 (raycast). Never another format.");
        assert_eq!(names, ["json5", "plugin", "serde"].map(String::from).into());
    }

    #[test]
    fn every_crate_depends_only_on_what_its_code_map_row_lists() {
        let root = workspace_root();
        let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let problems = dependency_mismatches(&root, &architecture, &crate::metadata(&root).unwrap());
        assert!(problems.is_empty(), "ARCHITECTURE.md's code map is not true:\n{}", problems.join("\n"));
    }

    #[test]
    fn a_dependency_the_code_map_does_not_list_is_found() {
        let root = workspace_root();
        let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let mut metadata = crate::metadata(&root).unwrap();
        let core = metadata["packages"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|package| package["name"] == "toolporter-core")
            .unwrap();
        core["dependencies"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"name": "toolporter-host", "rename": "toolport-host", "kind": null}));
        let problems = dependency_mismatches(&root, &architecture, &metadata);
        assert_eq!(problems, ["toolporter-core (crates/core) depends on host, which its code-map row does not list"]);
    }

    /// Crates the build leaves out on purpose, each with what would bring it back.
    const LEFT_OUT: &[(&str, &str)] = &[("icu_segmenter", "textwrap above 0.16.2, see Cargo.toml's note")];

    #[test]
    fn the_lock_file_leaves_out_what_the_workspace_says() {
        let lock = std::fs::read_to_string(workspace_root().join("Cargo.lock")).unwrap();
        for (name, brought_by) in LEFT_OUT {
            assert!(!lock.contains(&format!("name = \"{name}\"\n")), "Cargo.lock has {name} again: {brought_by}");
        }
    }

    #[test]
    fn the_code_map_names_every_xtask_task() {
        let architecture = std::fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).unwrap();
        let row = architecture.lines().find(|line| line.starts_with("| `xtask` |")).unwrap();
        let listed = row.split('`').nth(3).unwrap().strip_prefix("cargo xtask ").unwrap();
        let names: Vec<&str> = crate::tasks::TASKS.iter().map(|task| task.name).collect();
        assert_eq!(listed.split(" | ").collect::<Vec<_>>(), names, "the xtask row's task list");
    }

    #[test]
    fn super_imports_name_the_sibling_modules() {
        assert_eq!(
            super_imports("use super::{OperationContext, body, parameter::{A, b}};"),
            ["OperationContext", "body", "parameter"]
        );
        assert_eq!(super_imports("use super::operation::OpWriter;"), ["operation"]);
        assert!(super_imports("use crate::ID;").is_empty());
        let wrapped = "use super::{\n    a,\n    b,\n};\nfn f() {}";
        assert_eq!(use_declarations(wrapped), ["use super::{a,b,};"]);
    }

    #[test]
    fn no_two_files_import_each_other() {
        let circles = import_circles(&workspace_root());
        assert!(
            circles.is_empty(),
            "circles between files (move the shared type to the file that owns it, or to a neutral one):\n{}",
            circles.join("\n")
        );
    }

    #[test]
    fn unsafe_is_allowed_only_where_the_invariants_say() {
        let root = workspace_root();
        let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let invariants = architecture.split("## Invariants").nth(1).unwrap();
        for (_, named) in UNSAFE_PLACES {
            assert!(invariants.contains(named), "the invariants no longer name {named}");
        }
        let unexpected: Vec<String> = files_allowing_unsafe(&root)
            .into_iter()
            .filter(|file| !UNSAFE_PLACES.iter().any(|(place, _)| place == file))
            // The deliberately broken plugins: "and the broken test plugins".
            .filter(|file| !file.starts_with("crates/test-plugins/"))
            .collect();
        assert!(
            unexpected.is_empty(),
            "`unsafe` allowed where ARCHITECTURE.md's invariants do not say: {unexpected:?}"
        );
        assert!(invariants.contains("the broken test plugins"));
        // The workspace's deny reaches only crates that take the workspace's lints.
        let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(workspace.contains("unsafe_code = \"deny\""));
        for package in crate::metadata(&root).unwrap()["packages"].as_array().unwrap() {
            let manifest = std::fs::read_to_string(package["manifest_path"].as_str().unwrap()).unwrap();
            assert!(
                manifest.contains("[lints]\nworkspace = true"),
                "{} does not take the workspace's lints",
                package["name"]
            );
        }
    }
}
