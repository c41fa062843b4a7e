//! The integration tests, one module per file of tests/, built as one test binary so the
//! dependency graph is linked once, not once per file.

mod corpus;
mod detect;
mod fixtures;
mod large;
mod malformed;
mod writer;
