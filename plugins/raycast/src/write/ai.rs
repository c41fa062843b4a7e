//! The AI part of an extension: `instructions` and `evals` in package.json's `ai`, or in the
//! AI file the source had (ai.json, ai.yaml, ai.json5; wrapped in `{"ai": …}` when it was).

use serde_json::{Map, Value, json};
use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Diagnostic, ToolSet, codes};

use super::{carry, evals, pretty};

/// Writes the AI file when the source had one (its own text while it holds the same); returns
/// what package.json's `ai` holds.
pub(super) fn place(ai: Option<Value>, set_extras: &Map<String, Value>, bundle: &mut Bundle) -> Option<Value> {
    let ai_source = set_extras.get("ai_source").and_then(Value::as_str);
    match ai_source {
        Some(file) if file != "package.json" => {
            let mut document = ai.unwrap_or_else(|| json!({}));
            if set_extras.get("ai_wrapped").is_some_and(|w| w == &Value::Bool(true)) {
                let mut wrapped = Map::new();
                wrapped.insert("ai".into(), document);
                if let Some(Value::Object(other)) = set_extras.get("ai_file_other") {
                    wrapped.extend(other.clone());
                }
                document = Value::Object(wrapped);
            }
            let text = if file.ends_with(".yaml") {
                toolport_plugin::yaml::to_string(&document).unwrap_or_default()
            } else {
                pretty(&document)
            };
            bundle.insert(file, carry::same_or_written(bundle, file, &document, text));
            set_extras.get("package_ai").cloned()
        }
        _ => ai,
    }
}

/// The `ai` object: instructions and evals, plus whatever the source's ai object had besides.
pub(super) fn ai_object(
    model: &ToolSet,
    set_extras: &Map<String, Value>,
    id: &str,
    from_raycast: bool,
    rename: &dyn Fn(&str) -> String,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Value> {
    if let Some(verbatim) = set_extras.get("ai_verbatim") {
        return Some(verbatim.clone());
    }
    let had_ai = set_extras.contains_key("ai_source");
    if !had_ai && model.instructions.is_none() && model.examples.is_empty() {
        return None;
    }
    let mut ai = Map::new();
    let mut evals_value = None;
    if !model.examples.is_empty() {
        let mut examples = model.examples.clone();
        if !from_raycast {
            // Raycast evals address the extension as `@name`.
            let mention = format!("@{id}");
            for (i, example) in examples.iter_mut().enumerate() {
                if !example.prompt.contains(&mention) {
                    example.prompt = format!("{mention} {}", example.prompt);
                    diagnostics.push(Diagnostic::info(
                        codes::CHANGED_VALUE,
                        child(&child("/examples", i.to_string()), "prompt"),
                        format!("the prompt now starts with `{mention}`: Raycast evals mention the extension"),
                    ));
                }
            }
        }
        let tools = model.tool_indices();
        for (i, example) in examples.iter().enumerate() {
            let path = child("/examples", i.to_string());
            for call in example.called_tools() {
                if !tools.contains_key(call.tool.as_str()) {
                    diagnostics.push(Diagnostic::warning(
                        codes::INPUT_UNRESOLVED,
                        child(&path, "expected"),
                        format!("the eval expects a call to `{}`, which is not one of the tools", call.tool),
                    ));
                }
            }
        }
        evals_value = Some(evals::write_evals(&examples, rename));
    }
    let evals_first = set_extras.get("ai_evals_first").is_some_and(|v| v == &Value::Bool(true));
    if evals_first && let Some(evals) = evals_value.take() {
        ai.insert("evals".into(), evals);
    }
    if let Some(instructions) = &model.instructions {
        ai.insert("instructions".into(), Value::from(instructions.as_str()));
    }
    if let Some(evals) = evals_value {
        ai.insert("evals".into(), evals);
    }
    if let Some(Value::Object(other)) = set_extras.get("ai_other") {
        ai.extend(other.clone());
    }
    Some(Value::Object(ai))
}
