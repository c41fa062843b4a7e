//! Curation: choosing and shaping what a model sees before any writer runs, the same for
//! every source and target format (DESIGN's curate stage). No I/O: the host reads the files
//! and hands their text here.
//!
//! - [`select`]: `--select`/`--exclude` patterns on tool names, OpenAPI tags, paths and methods;
//! - [`overlay`]: toolport's own overlay file (rename, re-describe, hide or pin parameters, hints);
//! - [`openapi_overlay`]: the OpenAPI Overlay Specification 1.0, applied to an OpenAPI source
//!   document before it is read;
//! - [`names_map`]: for every written tool and parameter, its source name and how to call it.
#![forbid(unsafe_code)]

pub mod names_map;
pub mod openapi_overlay;
pub mod overlay;
pub mod select;
mod text;

use toolport_core::{Diagnostic, Expectation, ToolSet, codes};

pub use names_map::NamesMap;
pub use openapi_overlay::OpenApiOverlay;
pub use overlay::{Overlay, OverlayFile};
pub use select::{Pattern, Selection};

/// What to do to a model: the tools to keep and the overlay to apply.
#[derive(Clone, Debug, Default)]
pub struct Curation {
    pub selection: Selection,
    pub overlay: Option<Overlay>,
}

/// A curated model and, per tool, its name in the source (the names map's way back).
#[derive(Debug)]
pub struct Curated {
    pub model: ToolSet,
    pub source_names: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Curation {
    /// Whether curating changes anything.
    pub fn is_empty(&self) -> bool {
        self.selection.is_empty() && self.overlay.is_none()
    }

    /// Applies the overlay (its names checked against every tool of the source), then keeps
    /// the tools the selection selects by their source names. Errors (an overlay naming a tool
    /// or parameter the source lacks, nothing left to write) are in the diagnostics.
    pub fn apply(&self, mut model: ToolSet) -> Curated {
        let mut diagnostics = Vec::new();
        let mut source_names: Vec<String> = model.tools.iter().map(|t| t.name.clone()).collect();
        if let Some(overlay) = &self.overlay {
            diagnostics.extend(overlay.apply(&mut model));
        }
        if !self.selection.is_empty() {
            let keep = self.selection.keep(&model, &source_names, &mut diagnostics);
            let removed: Vec<String> =
                model.tools.iter().zip(&keep).filter(|(_, k)| !**k).map(|(t, _)| t.name.clone()).collect();
            let mut flags = keep.iter();
            model.tools.retain(|_| *flags.next().unwrap_or(&true));
            let mut flags = keep.iter();
            source_names.retain(|_| *flags.next().unwrap_or(&true));
            drop_examples_calling(&mut model, &removed, &mut diagnostics);
            if model.tools.is_empty() {
                diagnostics.push(Diagnostic::error(
                    codes::CURATE_EMPTY,
                    "/tools",
                    "--select/--exclude left no tool to write",
                ));
            }
        }
        Curated { model, source_names, diagnostics }
    }
}

/// Every tool call an expectation expects, nested ones too.
pub(crate) fn calls_mut(expectation: &mut Expectation, f: &mut impl FnMut(&mut toolport_core::ToolCall)) {
    match expectation {
        Expectation::CallsTool(call) => f(call),
        Expectation::Not(inner) => calls_mut(inner, f),
        Expectation::Or(all) | Expectation::And(all) => all.iter_mut().for_each(|e| calls_mut(e, f)),
        Expectation::Includes(_) | Expectation::Matches(_) | Expectation::MeetsCriteria(_) => {}
    }
}

/// Examples that expect a call to a tool no longer written are dropped: they would test a
/// tool the target does not have.
fn drop_examples_calling(model: &mut ToolSet, removed: &[String], diagnostics: &mut Vec<Diagnostic>) {
    if removed.is_empty() {
        return;
    }
    let mut index = 0;
    model.examples.retain_mut(|example| {
        let mut calls_removed = None;
        for expectation in &mut example.expected {
            calls_mut(expectation, &mut |call| {
                if removed.contains(&call.tool) {
                    calls_removed.get_or_insert_with(|| call.tool.clone());
                }
            });
        }
        let at = index;
        index += 1;
        match calls_removed {
            None => true,
            Some(tool) => {
                diagnostics.push(Diagnostic::info(
                    codes::CURATE_EXCLUDED,
                    format!("/examples/{at}"),
                    format!(
                        "example {at} expects a call to `{tool}`, which the selection left out: it is left out too"
                    ),
                ));
                false
            }
        }
    });
}
