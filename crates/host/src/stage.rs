//! The stage between reading and writing (DESIGN's curate and fit), the same for every pair of
//! formats: `pipeline::convert_staged` calls it between the reader and the writer, and the
//! model read is shaped here before the target's writer sees it.
//! - Curation (`--select`, `--exclude`, `--overlay`, and what `--names-map` needs) is
//!   [`Curate`]; its logic is the `toolport-curate` crate, its I/O (reading the overlay file)
//!   the caller's.
//! - Fitting: the target's declared [`PlatformLimits`](toolport_core::PlatformLimits) checked
//!   (`limit/*`), descriptions past a limit cut, and a tool set one request cannot carry split
//!   (`--split`); the checks and fitting themselves are core's pure functions
//!   ([`toolport_core::fit`]).
//!
//! The model crosses between plugins undecoded; it is decoded only when the stage has work
//! ([`Curate::needs_model`], [`has_fit_work`]), so plain conversions stay as fast.

use std::borrow::Cow;

use toolport_core::fit::{self, Part, SplitBy};
use toolport_core::source::parse_json;
use toolport_core::{Bundle, Diagnostic, FormatInfo, Limit, Options, Severity, Strictness, ToolSet, codes};
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

/// What the user asked of the fit stage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FitSettings {
    /// `--split`: write one document per request when the target's tool cap is exceeded.
    pub split: Option<SplitBy>,
}

/// Whether the fit stage has work for `target`: limits to check (not those its writer keeps
/// itself), or a split asked for. Only then is the model decoded between the plugins.
pub fn has_fit_work(target: &FormatInfo, settings: &FitSettings) -> bool {
    target.limits.0.iter().any(|l| !l.kept_by_writer) || settings.split.is_some()
}

/// What to ask the reader (`Options::CUT_DESCRIPTIONS`) so that fitting has nothing left to
/// change: the description cuts, made in the plugin that owns the model, when they are all
/// fitting would change (no `--split`, cuts allowed, and nothing curated first, which may
/// re-describe a tool). A reader that does not make them leaves them to [`fit`].
pub fn cuts_for_reader(
    target: &FormatInfo,
    strict: &Strictness,
    settings: &FitSettings,
    curates: bool,
) -> Option<String> {
    if curates || settings.split.is_some() || !cuts_allowed(strict) {
        return None;
    }
    toolport_core::fit::cut_descriptions_request(&target.limits)
}

/// What fitting made of a model: the documents to write (one, or the split's parts) and what
/// it said. `changed` is false when the one document is the model as read (it may then be
/// written from the reader's own JSON).
#[derive(Debug)]
pub struct Fitted {
    pub parts: Vec<Part>,
    pub diagnostics: Vec<Diagnostic>,
    pub changed: bool,
}

/// Fits `model` to `target`'s limits: without `--strict`, descriptions past the limit are cut
/// at a sentence (`changed/description`); every remaining breach is a `limit/*` warning (which
/// `--strict` refuses); with `--split` and more tools than a request carries, the parts, each
/// within the cap, each checked.
pub fn fit(
    mut model: ToolSet,
    target: &FormatInfo,
    options: &Options,
    strict: &Strictness,
    settings: &FitSettings,
) -> Fitted {
    let limits = &target.limits;
    let id = target.id.as_str();
    let applies = |limit: &Limit| applies(limit, target, options);
    let mut diagnostics = Vec::new();
    let mut changed = false;
    if cuts_allowed(strict) {
        let cuts = fit::cut_descriptions(&mut model, limits, id);
        changed = !cuts.is_empty();
        diagnostics.extend(cuts);
    }
    let cap = limits.tools_per_request().map(|c| c as usize);
    let parts = match (settings.split, cap) {
        (Some(by), Some(cap)) if model.tools.len() > cap => {
            let parts = fit::split(&model, by, cap);
            diagnostics.push(Diagnostic::info(
                codes::LIMIT_TOOLS,
                "/tools",
                format!(
                    "{} tools split into {} documents ({}), each within the {cap} tools a request to {id} carries",
                    model.tools.len(),
                    parts.len(),
                    part_names(&parts)
                ),
            ));
            changed = true;
            parts
        }
        (Some(_), None) => {
            let why = format!("--split: {id} declares no tool count per request, so nothing was split");
            diagnostics.push(Diagnostic::info(codes::LIMIT_TOOLS, "/tools", why));
            vec![Part { name: String::new(), tool_set: model }]
        }
        _ => vec![Part { name: String::new(), tool_set: model }],
    };
    for part in &parts {
        diagnostics.extend(fit::check_limits(&part.tool_set, limits, id, applies));
    }
    Fitted { parts, diagnostics, changed }
}

/// What [`fit`] says of a model it would leave as it is, without taking it (a model handed over
/// natively is then written borrowed, not copied for the stage): its `limit/*` warnings, or
/// `None` when fitting would change it (a description to cut) or `--split` is given.
pub fn fit_unchanged(
    model: &ToolSet,
    target: &FormatInfo,
    options: &Options,
    strict: &Strictness,
    settings: &FitSettings,
) -> Option<Vec<Diagnostic>> {
    if settings.split.is_some() || (cuts_allowed(strict) && fit::cuts_descriptions(model, &target.limits)) {
        return None;
    }
    let applies = |limit: &Limit| applies(limit, target, options);
    Some(fit::check_limits(model, &target.limits, &target.id, applies))
}

/// Whether descriptions past the limit are cut: unless `--strict` refuses the breach, which
/// keeps them whole.
fn cuts_allowed(strict: &Strictness) -> bool {
    !strict.refuses_code(Severity::Warning, codes::LIMIT_DESCRIPTION)
}

/// Whether `limit` holds in this conversion: always, or when its `when` option (`strict=true`)
/// is given so, or not given and declared with that default.
fn applies(limit: &Limit, target: &FormatInfo, options: &Options) -> bool {
    let Some((key, value)) = limit.when.as_deref().and_then(|w| w.split_once('=')) else { return true };
    match options.get(key) {
        Some(given) => given == value,
        None => target.options.iter().flatten().any(|spec| spec.key == key && spec.default == value),
    }
}

/// The first few parts' names, for a message.
fn part_names(parts: &[Part]) -> String {
    let mut names: Vec<&str> = parts.iter().take(4).map(|p| p.name.as_str()).collect();
    if parts.len() > names.len() {
        names.push("...");
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use toolport_core::platform_limits::sources;
    use toolport_core::{LimitKind, OptionSpec, PlatformLimits, Tool};

    use super::*;

    fn target() -> FormatInfo {
        let source = sources::OPENAI_FUNCTION_CALLING;
        FormatInfo {
            id: "t".into(),
            aliases: vec![],
            description: String::new(),
            version: "1".into(),
            reads: false,
            writes: true,
            input: toolport_core::InputShape::File,
            extensions: vec![],
            options: Some(vec![OptionSpec::one_of("strict", &["true", "false"], "false", "")]),
            limits: PlatformLimits(vec![
                Limit::at_most(LimitKind::ToolsPerRequest, 2, source),
                Limit::at_most(LimitKind::DescriptionChars, 6, source),
                Limit::at_most(LimitKind::SchemaProperties, 0, source).when("strict=true"),
            ]),
        }
    }

    fn model(tools: usize) -> ToolSet {
        let tool = |n: usize| Tool {
            name: format!("t{n}"),
            description: Some("Short. Long tail.".into()),
            parameters: vec![toolport_core::Parameter::new("p", Default::default())],
            ..Tool::default()
        };
        ToolSet { tools: (0..tools).map(tool).collect(), ..ToolSet::default() }
    }

    fn codes(fitted: &Fitted) -> Vec<String> {
        fitted.diagnostics.iter().map(|d| format!("{:?} {} {}", d.severity, d.code, d.path)).collect()
    }

    /// Limits a writer keeps itself leave the stage nothing to do, so the model is not decoded
    /// for them; one it does not keep, or a split, is work.
    #[test]
    fn only_limits_the_writer_leaves_are_fit_work() {
        let source = sources::OPENAI_FUNCTION_CALLING;
        let mut info = target();
        info.limits = PlatformLimits(vec![Limit::at_most(LimitKind::DescriptionChars, 6, source).kept_by_writer()]);
        assert!(!has_fit_work(&info, &FitSettings::default()));
        assert!(has_fit_work(&info, &FitSettings { split: Some(SplitBy::Count) }));
        assert!(has_fit_work(&target(), &FitSettings::default()));
    }

    /// Descriptions are cut unless --strict, which keeps them and reports the breach; a limit
    /// with `when` holds only with its option; a split leaves every part within the cap.
    #[test]
    fn the_stage_cuts_checks_and_splits() {
        let (off, strict) = (Strictness::Off, Strictness::Meaning);
        let none = FitSettings::default();
        let fitted = fit(model(2), &target(), &Options::default(), &off, &none);
        assert_eq!(
            codes(&fitted),
            ["Warning changed/description /tools/0/description", "Warning changed/description /tools/1/description"]
        );
        assert!(fitted.changed && fitted.parts[0].tool_set.tools[0].description.as_deref() == Some("Short."));

        let fitted = fit(model(3), &target(), &Options::default(), &strict, &none);
        let found = codes(&fitted);
        assert_eq!(found[0], "Warning limit/tools /tools");
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(!fitted.changed && fitted.diagnostics.iter().any(|d| strict.refuses(d)));

        let mut options = Options::default();
        options.set("strict", "true");
        let fitted = fit(model(1), &target(), &options, &strict, &none);
        assert!(codes(&fitted).contains(&"Warning limit/schema /tools/0/parameters".to_owned()));

        // What fitting says of a model it leaves as it is is said without taking it.
        for (tools, strictness) in [(3, &strict), (1, &strict)] {
            let unchanged = fit_unchanged(&model(tools), &target(), &options, strictness, &none);
            let fitted = fit(model(tools), &target(), &options, strictness, &none);
            assert!(!fitted.changed);
            assert_eq!(unchanged, Some(fitted.diagnostics));
        }
        assert_eq!(fit_unchanged(&model(1), &target(), &options, &off, &none), None, "a description to cut");

        let split = FitSettings { split: Some(SplitBy::Count) };
        assert_eq!(fit_unchanged(&model(1), &target(), &options, &strict, &split), None);
        let fitted = fit(model(5), &target(), &Options::default(), &off, &split);
        let sizes: Vec<usize> = fitted.parts.iter().map(|p| p.tool_set.tools.len()).collect();
        assert_eq!(sizes, [2, 2, 1]);
        assert!(!codes(&fitted).iter().any(|c| c.contains("Warning limit/tools")));
        assert!(
            fitted
                .diagnostics
                .iter()
                .any(|d| d.message.starts_with("5 tools split into 3 documents (part-1, part-2, part-3)"))
        );
    }
}
