//! The commit target with real signals (`toolport_fuzz::signal`): `convert` over a batch, sent
//! SIGINT or SIGTERM at random moments, a few runs per test run. Needs the command line and
//! its plugins built (`cargo build --workspace --lib --bins`), as the command line's tests do.

use std::path::PathBuf;

use toolport_fuzz::signal::{self, SignalCase};

/// How many signalled runs each test run makes (each one a whole batch).
const RUNS: usize = 4;

/// The `convert` built beside this test (target/<profile>/convert).
fn convert() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let built = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps").join("convert");
    assert!(built.is_file(), "{} is missing: cargo build --workspace --lib --bins", built.display());
    built
}

#[test]
fn convert_signalled_at_random_moments_places_all_or_nothing() {
    let seed = toolport_fuzz::test_seed();
    let findings = signal::fuzz(seed, RUNS, &convert()).unwrap_or_else(|why| panic!("{why}"));
    if let Some(message) = toolport_fuzz::findings_message(seed, RUNS, &findings) {
        panic!("{message}");
    }
}

/// The judge can fail: an input half placed, or a staging folder left, is caught.
#[test]
fn the_signal_judge_catches_half_an_input_and_staging() {
    let dir = toolport_fuzz::walk::scratch().unwrap();
    let out = dir.path().join("out");
    let case = SignalCase { inputs: 2, replaced: vec![1], signal: "TERM".into(), after_ms: 0 };
    let full = [("t0/package.json", "new 0"), ("t0/src/a.ts", "a"), ("t1/package.json", "new 1")]
        .map(|(p, t)| (p.to_owned(), t.as_bytes().to_vec()))
        .into_iter()
        .collect();
    std::fs::create_dir_all(out.join("t1")).unwrap();
    std::fs::write(out.join("t1/package.json"), "old 1\n").unwrap();
    assert_eq!(signal::judge(&case, &out, &full, false), Ok(()));
    std::fs::create_dir_all(out.join("t0")).unwrap();
    std::fs::write(out.join("t0/package.json"), "new 0").unwrap();
    assert!(signal::judge(&case, &out, &full, false).is_err(), "half of t0 placed");
    assert!(signal::judge(&case, &out, &full, true).is_err(), "t1 still old, t0 half new");
    std::fs::remove_dir_all(out.join("t0")).unwrap();
    std::fs::create_dir_all(out.join(".toolport-staging-1")).unwrap();
    std::fs::write(out.join(".toolport-staging-1/x"), "").unwrap();
    assert!(signal::judge(&case, &out, &full, false).is_err(), "staging left");
}
