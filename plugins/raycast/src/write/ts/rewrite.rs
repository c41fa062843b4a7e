//! A tool file carried from the source extension, with the parts whose model changed since it
//! was read (a curation stage renamed a parameter, re-described the tool, …) rewritten in place:
//! the input type, the default export's JSDoc, the `confirmation` export. The rest (the body,
//! imports of the extension's own modules) stays as written. Each rewrite is said, naming the file.

use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Tool, ToolSet, codes};

use super::jsdoc::jsdoc;
use super::{confirmation, input_members};
use crate::extension::{Fingerprints, InputPlace, SourceParts, TextRange, ToolSource};

/// One replacement in the file; at one place, lower `rank`s come first.
struct Edit {
    range: TextRange,
    rank: u8,
    text: String,
}

/// The text of the tool's file: the source's `text`, with what changed in the model rewritten.
pub(super) fn tool_text(
    model: &ToolSet,
    index: usize,
    tool: &Tool,
    origin: &ToolSource,
    text: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let path = child("/tools", index.to_string());
    let now = Fingerprints::of(tool);
    let read = &origin.read;
    let mut changed = Vec::new();
    if now.input != read.input {
        changed.push("input type");
    }
    if now.description != read.description {
        changed.push("description (JSDoc)");
    }
    if now.confirmation != read.confirmation {
        changed.push("confirmation");
    }
    if changed.is_empty() {
        return text.to_owned();
    }
    let file = &origin.file;
    let what = changed.join(", ");
    let edits = origin.parts.as_ref().map(|parts| edits(model, tool, &path, parts, &now, read, text, diagnostics));
    match edits.and_then(|edits| apply(text, edits)) {
        Some(rewritten) => {
            diagnostics.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                &path,
                format!("{file}: the tool's {what} changed since it was read, and is rewritten to match (the rest of the file is kept as written)"),
            ));
            rewritten
        }
        None => {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_FIELD,
                &path,
                format!("{file}: the tool's {what} changed since it was read, but the file has no default-exported function to rewrite it in; the file is kept as written"),
            ));
            text.to_owned()
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn edits(
    model: &ToolSet,
    tool: &Tool,
    path: &str,
    parts: &SourceParts,
    now: &Fingerprints,
    read: &Fingerprints,
    text: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Edit> {
    let mut edits = Vec::new();
    // The input's type as the file names it (a confirmation is typed with it).
    let mut input_type = match &parts.input {
        InputPlace::Declaration { name, .. } => name.clone(),
        InputPlace::Annotation { range } if range.start < range.end => {
            text.get(range.start as usize..range.end as usize).unwrap_or("void").to_owned()
        }
        _ => "void".to_owned(),
    };
    if now.input != read.input {
        let members = input_members(model, tool, path, None, diagnostics).map(|(members, _)| members);
        let literal = members.map_or_else(|| "{}".to_owned(), |members| format!("{{\n{members}}}"));
        let (range, replacement) = match &parts.input {
            InputPlace::Declaration { name, range } => (*range, format!("type {name} = {literal};")),
            InputPlace::Annotation { range } if range.start == range.end => (*range, format!(": {literal}")),
            InputPlace::Annotation { range } => (*range, literal.clone()),
            InputPlace::Parameters { range } if tool.parameters.is_empty() => (*range, "()".to_owned()),
            InputPlace::Parameters { range } => (*range, format!("(input: {literal})")),
        };
        if !matches!(parts.input, InputPlace::Declaration { .. }) {
            input_type = if tool.parameters.is_empty() { "void".to_owned() } else { literal };
        }
        edits.push(Edit { range, rank: 3, text: replacement });
    }
    if now.description != read.description {
        let doc = jsdoc(tool.description.as_deref(), None, &[], "").unwrap_or_default();
        // A doc comment replaced keeps the line break after it; a new one brings its own.
        let doc = if parts.doc.start < parts.doc.end { doc.trim_end().to_owned() } else { doc };
        edits.push(Edit { range: parts.doc, rank: 2, text: doc });
    }
    if now.confirmation != read.confirmation {
        let export = confirmation::decide(tool, path, diagnostics);
        let code = export.as_ref().map(|e| confirmation::export_code(e, &input_type)).unwrap_or_default();
        let code = if parts.confirmation.start < parts.confirmation.end { code.trim_end().to_owned() } else { code };
        edits.push(Edit { range: parts.confirmation, rank: 1, text: code });
        let missing: Vec<&str> = export
            .iter()
            .flat_map(confirmation::Export::raycast_names)
            .filter(|name| !parts.raycast_imports.iter().any(|imported| imported == name))
            .collect();
        if !missing.is_empty() {
            let import = format!("import {{ {} }} from \"@raycast/api\";\n", missing.join(", "));
            edits.push(Edit { range: TextRange::default(), rank: 0, text: import });
        }
    }
    edits
}

/// `text` with the edits made, or `None` when one does not fit it (ranges out of the text, off
/// a character boundary, or overlapping).
fn apply(text: &str, mut edits: Vec<Edit>) -> Option<String> {
    edits.sort_by_key(|e| (e.range.start, e.range.end, e.rank));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        let (start, end) = (edit.range.start as usize, edit.range.end as usize);
        if start < at || start > end {
            return None;
        }
        out.push_str(text.get(at..start)?);
        text.get(start..end)?;
        out.push_str(&edit.text);
        at = end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}
