//! The integration tests, one module per file of tests/, built as one test binary so the
//! dependency graph is linked once, not once per file.

mod carry;
mod common;
mod corpus;
mod fixtures;
mod limits;
mod requests;
mod required;
mod tsc_check;
mod units;
mod writer;
