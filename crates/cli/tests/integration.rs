//! The integration tests, one module per file of tests/, built as one test binary so the
//! dependency graph is linked once, not once per file.

mod batch;
mod command_line;
mod conformance;
mod curate;
mod foundation;
mod function_tools;
mod handover;
mod hostile;
mod isolation;
mod leaving_vertex;
mod limits;
mod matrix;
mod output_schemas;
mod support;
mod third_party;
