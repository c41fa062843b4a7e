//! The tool's `confirmation` export: the model's confirmation, or a destructive one for a tool
//! whose hints say it is destructive. Raycast's only hint is that style, so the others are
//! reported here as losses.

use toolport_plugin::source::child;
use toolport_plugin::{Confirmation, Diagnostic, Tool, codes};

use super::syntax::json_string;

/// A confirmation to export, and the `Action.Style` it names.
#[derive(Debug)]
pub(super) struct Export {
    confirmation: Confirmation,
    /// `Action.Style.Destructive` or `Action.Style.Regular`, when the style is one of those.
    pub(super) style: Option<&'static str>,
}

/// The confirmation the tool file exports, if any; each hint Raycast cannot say is a loss.
pub(super) fn decide(tool: &Tool, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Export> {
    let style = tool.confirmation.as_ref().and_then(|c| c.style.as_deref());
    let wants_destructive = tool.hints.destructive == Some(true);
    let confirmation = tool.confirmation.as_deref().cloned().or_else(|| {
        wants_destructive.then(|| {
            diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                child(path, "confirmation"),
                "the tool is destructive: a confirmation with the destructive style is written",
            ));
            Confirmation { style: Some("destructive".into()), ..Default::default() }
        })
    });
    let style_code = match style.or(confirmation.as_ref().and_then(|c| c.style.as_deref())) {
        Some("destructive") => Some("Action.Style.Destructive"),
        Some("regular") => Some("Action.Style.Regular"),
        Some(other) => {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_CONFIRMATION,
                child(&child(path, "confirmation"), "style"),
                format!("Raycast confirmation styles are destructive and regular; `{other}` is left out"),
            ));
            None
        }
        None => None,
    };
    let hints = &tool.hints;
    for (key, value) in
        [("read_only", hints.read_only), ("idempotent", hints.idempotent), ("open_world", hints.open_world)]
    {
        if value.is_some() {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_CONFIRMATION,
                child(&child(path, "hints"), key),
                format!("Raycast has no `{key}` hint; it is left out"),
            ));
        }
    }
    if hints.destructive == Some(false) {
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_CONFIRMATION,
            child(&child(path, "hints"), "destructive"),
            "Raycast cannot say a tool is not destructive; the hint is left out",
        ));
    }
    confirmation.map(|confirmation| Export { confirmation, style: style_code })
}

impl Export {
    /// The names its code uses from `@raycast/api`.
    pub(super) fn raycast_names(&self) -> Vec<&'static str> {
        if self.style.is_some() { vec!["Action", "Tool"] } else { vec!["Tool"] }
    }
}

/// `export const confirmation: Tool.Confirmation<Input> = async () => ({ … })`, for a tool whose
/// input is `input_type`.
pub(super) fn export_code(export: &Export, input_type: &str) -> String {
    let confirmation = &export.confirmation;
    let mut out = format!("export const confirmation: Tool.Confirmation<{input_type}> = async () => {{\n");
    let mut fields = Vec::new();
    if let Some(style) = export.style {
        fields.push(format!("    style: {style},\n"));
    }
    if let Some(message) = &confirmation.message {
        fields.push(format!("    message: {},\n", json_string(message)));
    }
    if !confirmation.info.is_empty() {
        let mut rows = String::from("    info: [\n");
        for row in &confirmation.info {
            match &row.value {
                Some(value) => rows.push_str(&format!(
                    "      {{ name: {}, value: {} }},\n",
                    json_string(&row.name),
                    json_string(value)
                )),
                None => rows.push_str(&format!("      {{ name: {} }},\n", json_string(&row.name))),
            }
        }
        rows.push_str("    ],\n");
        fields.push(rows);
    }
    if fields.is_empty() {
        // An empty object still asks; the source's message was computed, not a literal.
        out.push_str("  return {};\n};\n\n");
    } else {
        out.push_str(&format!("  return {{\n{}  }};\n}};\n\n", fields.concat()));
    }
    out
}
