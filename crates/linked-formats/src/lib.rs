//! Formats linked into one program, as a library user converts: no plugin is loaded. The
//! format libraries (`toolport-format-*`) export no entry symbol (only their plugin crates,
//! plugins/<format>/plugin, do), so any number of them link into one binary.
#![forbid(unsafe_code)]

use std::sync::Arc;

use toolport_host::Registry;

/// A registry of the gloodata, skydeck and mcp formats, all linked into this program; convert
/// with [`toolport_host::pipeline::convert`].
pub fn registry() -> Registry {
    let mut registry = Registry::default();
    registry.add_linked(Arc::new(toolport_format_gloodata::Gloodata));
    registry.add_linked(Arc::new(toolport_format_skydeck::SkyDeck));
    registry.add_linked(Arc::new(toolport_format_mcp::Mcp));
    registry
}
