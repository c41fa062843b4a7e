//! The integration tests, one module per file of tests/, built as one test binary so the
//! dependency graph is linked once, not once per file.

mod bedrock_agent;
mod common;
mod corpus;
mod fixtures;
mod gpt_actions;
mod outputs;
mod reading;

// The reader's helper, compiled here too so tests/reading.rs checks it (the crate has no unit
// tests: `test = false`).
#[path = "../src/read/map_copy.rs"]
mod map_copy;
