//! The stage between reading and writing (DESIGN's curate and fit), the same for every pair of
//! formats: `pipeline::convert_curated` calls it between the reader and the writer. Curation
//! (`--select`, `--exclude`, `--overlay`, and what `--names-map` needs) is [`Curate`]; its
//! logic is the `toolport-curate` crate, its I/O (reading the overlay file) the caller's.
//!
//! The model crosses between plugins undecoded; it is decoded here only when curation has work
//! ([`Curate::needs_model`]), so plain conversions stay as fast.

use std::borrow::Cow;

use toolport_core::source::parse_json;
use toolport_core::{Bundle, Diagnostic, FormatInfo, ToolSet, codes};
use toolport_curate::{Curated, Curation, OpenApiOverlay, OverlayFile, Pattern, Selection};

pub use toolport_curate::NamesMap;

/// What curation does to every input of a run.
#[derive(Clone, Debug, Default)]
pub struct Curate {
    pub curation: Curation,
    /// An OpenAPI Overlay, applied to OpenAPI sources before they are read, and its file.
    pub openapi_overlay: Option<(String, OpenApiOverlay)>,
    /// Build the names map of each conversion.
    pub names_map: bool,
}

impl Curate {
    /// Curation from the command line's patterns and the overlay file's name and text; the
    /// error says which pattern is wrong, or where in the overlay file.
    pub fn new(
        select: &[String],
        exclude: &[String],
        overlay: Option<(&str, &str)>,
        names_map: bool,
    ) -> Result<Curate, Vec<Diagnostic>> {
        let patterns = |all: &[String], flag: &str| -> Result<Vec<Pattern>, Vec<Diagnostic>> {
            all.iter()
                .map(|p| {
                    Pattern::parse(p)
                        .map_err(|e| vec![Diagnostic::error(codes::CURATE_OVERLAY, "", format!("{flag} {e}"))])
                })
                .collect()
        };
        let selection = Selection { select: patterns(select, "--select")?, exclude: patterns(exclude, "--exclude")? };
        let mut curate = Curate { curation: Curation { selection, overlay: None }, openapi_overlay: None, names_map };
        if let Some((file, text)) = overlay {
            match OverlayFile::parse(file, text)? {
                OverlayFile::Toolport(overlay) => curate.curation.overlay = Some(overlay),
                OverlayFile::OpenApi(overlay) => curate.openapi_overlay = Some((file.to_owned(), overlay)),
            }
        }
        Ok(curate)
    }

    /// Whether the model must be decoded between reader and writer.
    pub fn needs_model(&self) -> bool {
        self.names_map || !self.curation.is_empty()
    }
}

/// The source `bundle` with the OpenAPI Overlay applied to its document, when there is one,
/// and the overlay's warnings (an action that selects nothing); an OpenAPI Overlay given for a
/// source of another format is an error.
pub fn prepare_source<'b>(
    bundle: &'b Bundle,
    from: &FormatInfo,
    curate: &Curate,
) -> Result<(Cow<'b, Bundle>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let Some((overlay_file, overlay)) = &curate.openapi_overlay else { return Ok((Cow::Borrowed(bundle), Vec::new())) };
    let refuse = |message: String| vec![Diagnostic::error(codes::CURATE_OVERLAY, "", message)];
    if from.id != "openapi" {
        return Err(refuse(format!(
            "{overlay_file} is an OpenAPI Overlay, which applies to OpenAPI documents; this input is read as {}",
            from.id
        )));
    }
    let Some((path, text)) = bundle.entry_file() else {
        return Err(refuse(format!("{overlay_file}: this input has no single OpenAPI document to apply it to")));
    };
    let json = text.trim_start().starts_with('{');
    let parsed = if json { parse_json(path, text) } else { toolport_yaml::parse(path, text) };
    let mut document = parsed.map_err(|d| vec![d])?.value;
    let diagnostics = overlay.apply(&mut document);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    // The reader's positions are then those of the overlaid document, written the same way.
    let written = if json {
        serde_json::to_string_pretty(&document).map_err(|e| e.to_string())
    } else {
        toolport_yaml::to_string(&document)
    };
    let written =
        written.map_err(|e| refuse(format!("{overlay_file}: the overlaid document cannot be written: {e}")))?;
    let mut overlaid = bundle.clone();
    overlaid.insert(path.to_owned(), written);
    Ok((Cow::Owned(overlaid), diagnostics))
}

/// Curates `model`: the overlay, then the selection.
pub fn curate(model: ToolSet, curate: &Curate) -> Curated {
    curate.curation.apply(model)
}
