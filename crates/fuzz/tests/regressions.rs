//! Replays every case `cargo xtask fuzz` found (fuzz/regressions/), through the real plugin
//! libraries in process: each must read, and write back what it read, without a panic; a
//! crash would end this test's process. Time is the benchmark's business, not asserted here.

use std::path::{Path, PathBuf};

use toolport_fuzz::{Verdict, check_expectation, regressions, run};
use toolport_host::Registry;

fn build_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_toolport-fuzz")).parent().unwrap().to_path_buf()
}

#[test]
fn every_kept_finding_reads_as_expected_without_a_panic() {
    let registry = Registry::discover(&toolport_fuzz::in_process(vec![build_dir()]));
    assert!(registry.format("skydeck").is_ok(), "plugins are built next to the binaries; run `cargo xtask test`");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let cases = regressions(&dir);
    // Conversions get the stack the nesting limit was sized for, as in `convert`.
    let replay =
        std::thread::Builder::new().stack_size(toolport_core::limits::CONVERSION_STACK_BYTES).spawn(move || {
            let mut failures = Vec::new();
            for (path, case) in &cases {
                let format = registry.format(&case.format).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                if let Verdict::Panicked(message) = run(format, case) {
                    failures.push(format!("{}: {message}", path.display()));
                } else if let Err(message) = check_expectation(format, case) {
                    failures.push(format!("{}: {message}", path.display()));
                }
            }
            (cases.len(), failures)
        });
    let (count, failures) = replay.unwrap().join().unwrap();
    assert!(failures.is_empty(), "{} of {count} cases fail:\n{}", failures.len(), failures.join("\n"));
}
