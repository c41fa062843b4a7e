//! The integration tests, one module per file of tests/, built as one test binary so the
//! dependency graph is linked once, not once per file.

mod locate;
mod yaml;
