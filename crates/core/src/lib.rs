//! toolport's core: the canonical model every format reads into and writes out of.
//!
//! Nothing here does I/O or uses `unsafe`: a format maps a [`Bundle`] (relative path → text)
//! to a [`ToolSet`] and back, reporting what it could not carry as [`Diagnostic`]s.
#![forbid(unsafe_code)]

pub mod bundle;
pub mod definitions;
pub mod diagnostic;
pub mod display;
pub mod fingerprint;
pub mod fit;
pub mod format;
pub mod json_kind;
pub mod limits;
pub mod loss;
pub mod model;
pub mod names;
pub mod nesting;
pub mod platform_limits;
pub mod schema_merge;
pub mod source;
pub mod suggest;
pub mod template;

pub use bundle::Bundle;
pub use diagnostic::{
    Detail, Diagnostic, Explanation, Family, Renamed, Said, Severity, SourceSpan, Strictness, Tally, codes,
};
pub use format::{Detection, Format, FormatInfo, InputShape, OptionKind, OptionSpec, Options, Outcome};
pub use model::*;
pub use platform_limits::{Limit, LimitKind, PlatformLimits};
