//! The commit's fuzz target (`toolport_fuzz::commit`) for a fixed budget, and the batches kept
//! in fuzz/regressions/commit/: each commit stopped or killed at a file, then a next run in the
//! same folder, leaves every input's files all old (all new when not interrupted), nothing
//! else, and no staging.

use std::path::Path;
use std::time::Duration;

use toolport_fuzz::commit::{self, Batch, Interrupt};

const BUDGET: Duration = Duration::from_secs(3);

fn child() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_toolport-fuzz"))
}

#[test]
fn random_commits_interrupted_anywhere_are_all_or_nothing() {
    let seed = toolport_fuzz::test_seed();
    let (cases, findings) = commit::fuzz(seed, BUDGET, child());
    assert!(cases > 0, "no batch was committed");
    if let Some(message) = toolport_fuzz::findings_message(seed, cases, &findings) {
        panic!("{message}");
    }
}

#[test]
fn every_kept_batch_is_all_or_nothing() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/commit");
    let kept = commit::kept(&dir);
    assert!(!kept.is_empty(), "no batches in {}", dir.display());
    for (path, batch) in kept {
        commit::check(&batch, child()).unwrap_or_else(|why| panic!("{}: {why}", path.display()));
    }
}

/// The judge can fail: an input half placed, or a stray file, is caught.
#[test]
fn the_judge_catches_half_an_input() {
    let dir = toolport_fuzz::walk::scratch().unwrap();
    let batch = Batch {
        before: vec![("a.json".into(), "old a.json\n".into())],
        inputs: vec![vec![("a.json".into(), "new a.json\n".into()), ("b.json".into(), "new b.json\n".into())]],
        interrupt: Interrupt::Stop(1),
    };
    commit::prepare(&batch, dir.path()).unwrap();
    assert_eq!(commit::judge(&batch, dir.path()), Ok(()));
    std::fs::write(dir.path().join("b.json"), "new b.json\n").unwrap();
    assert!(commit::judge(&batch, dir.path()).unwrap_err().contains("input 0 is not all old"));
    std::fs::remove_file(dir.path().join("b.json")).unwrap();
    std::fs::write(dir.path().join(".toolport-staging-x"), "").unwrap();
    assert!(commit::judge(&batch, dir.path()).unwrap_err().contains("staging or strays left"));
}
