//! The walker's fuzz target (`toolport_fuzz::walk`) for a fixed budget, and the trees kept in
//! fuzz/regressions/walk/, each walked as `convert DIR` walks: the walk ends, takes nothing
//! outside the folder walked and nothing but regular files, walks no folder twice, and opens
//! no pipe.

use std::path::Path;
use std::time::Duration;

use toolport_fuzz::walk;

/// Seconds of random trees per run: a few, so every test run tries new ones (the seed changes
/// with the time; a failure prints it and the tree, to keep under fuzz/regressions/walk/).
const BUDGET: Duration = Duration::from_secs(3);

#[test]
fn random_trees_walk_inside_and_end() {
    let seed = toolport_fuzz::test_seed();
    let (cases, findings) = walk::fuzz(seed, BUDGET);
    assert!(cases > 0, "no tree was walked");
    if let Some(message) = toolport_fuzz::findings_message(seed, cases, &findings) {
        panic!("{message}");
    }
}

#[test]
fn every_kept_tree_walks_inside_and_ends() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/walk");
    let kept = walk::kept(&dir);
    assert!(!kept.is_empty(), "no trees in {}", dir.display());
    for (path, tree) in kept {
        walk::check(&tree).unwrap_or_else(|why| panic!("{}: {why}", path.display()));
    }
}

/// The check can fail: an input outside the folder walked, one that is not a regular file, and
/// a file taken twice under one name (its folder walked twice) are each caught.
#[test]
fn the_check_catches_what_a_walk_must_not_take() {
    let dir = walk::scratch().unwrap();
    let tree = walk::Tree {
        nodes: vec![
            walk::Node::Folder { path: "root".into() },
            walk::Node::Folder { path: "outside".into() },
            walk::Node::File { path: "root/a.json".into() },
            walk::Node::File { path: "outside/b.json".into() },
            walk::Node::Fifo { path: "root/pipe.json".into() },
        ],
    };
    let _listeners = walk::make(&tree, dir.path());
    let root = dir.path().join("root");
    let item = |path: &str| toolport_host::pipeline::InputItem::given(&dir.path().join(path));
    assert_eq!(walk::judge(&root, &[item("root/a.json")]), Ok(()));
    for (items, says) in [
        (vec![item("outside/b.json")], "lies outside the folder walked"),
        (vec![item("root/pipe.json")], "is not a regular file"),
        (vec![item("root/a.json"), item("root/a.json")], "is taken twice"),
    ] {
        let why = walk::judge(&root, &items).unwrap_err();
        assert!(why.contains(says), "{why}");
    }
}
