//! The integration tests, one module per file of tests/, built as one test binary so the
//! dependency graph is linked once, not once per file.

#[cfg(unix)]
mod commit;
mod regressions;
#[cfg(unix)]
mod signal;
#[cfg(unix)]
mod walk;
