//! The integration tests, one module per file of tests/, built as one test binary so the
//! dependency graph is linked once, not once per file.

mod bedrock_agent;
mod common;
mod corpus;
mod fixtures;
mod gpt_actions;
mod outputs;
