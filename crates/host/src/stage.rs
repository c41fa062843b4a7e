//! The stage between reading and writing, the same for every format (DESIGN's curate and
//! fit): the model read is shaped here before the target's writer sees it. This file holds
//! fitting: the target's declared [`PlatformLimits`] checked (`limit/*`), descriptions past a
//! limit cut, and a tool set one request cannot carry split (`--split`). The checks and
//! fitting themselves are core's pure functions ([`toolport_core::fit`]).

use toolport_core::fit::{self, Part, SplitBy};
use toolport_core::{Diagnostic, FormatInfo, Limit, Options, Strictness, ToolSet, codes};

/// What the user asked of the fit stage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FitSettings {
    /// `--split`: write one document per request when the target's tool cap is exceeded.
    pub split: Option<SplitBy>,
}

/// Whether the fit stage has work for `target`: limits to check, or a split asked for. Only
/// then is the model decoded between the plugins.
pub fn has_fit_work(target: &FormatInfo, settings: &FitSettings) -> bool {
    !target.limits.is_empty() || settings.split.is_some()
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
    let cut_description = Diagnostic::warning(codes::LIMIT_DESCRIPTION, "", "");
    let mut changed = false;
    if !strict.refuses(&cut_description) {
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

        let split = FitSettings { split: Some(SplitBy::Count) };
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
