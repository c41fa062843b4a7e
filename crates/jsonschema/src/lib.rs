//! JSON Schema dialects <-> the canonical Schema. (being written)
