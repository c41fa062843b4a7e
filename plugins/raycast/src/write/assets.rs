//! The files package.json names in assets/: the icons of the extension, its tools and its
//! commands. Each icon the manifest names that the source extension does not give (its files
//! are carried when it was a Raycast extension) is written as a 512x512 placeholder PNG under
//! that very name (Raycast refuses to build without it), and a warning names the file to replace.

use serde_json::Value;
use toolport_plugin::source::child;
use toolport_plugin::{Bundle, Diagnostic, codes};

use crate::FORMAT_ID;

/// The 512x512 PNG written for every icon whose file the conversion does not have.
pub(super) const PLACEHOLDER_ICON_PNG: &[u8] = include_bytes!("extension-icon.png");

/// One icon file the manifest names: where it is first named (a model path) and how often.
struct Named<'p> {
    file: &'p str,
    path: String,
    times: usize,
}

/// Writes `assets/<icon>` for every icon `package` names, each with a warning; `source_icon`
/// is the extension icon the source named, if any (any other is the writer's own).
pub(super) fn placeholder_icons(
    package: &Value,
    source_icon: Option<&str>,
    tool_names: &[String],
    bundle: &mut Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for named in named_icons(package, tool_names) {
        let asset = format!("assets/{}", named.file);
        // The source's own icon, or one already written.
        if bundle.binary_files.contains_key(&asset) || bundle.files.contains_key(&asset) {
            continue;
        }
        if !is_asset_name(named.file) {
            diagnostics.push(Diagnostic::warning(
                codes::GENERATED_PLACEHOLDER,
                &named.path,
                format!("icon `{}` is not a file name inside assets/: no placeholder is written for it; name an icon in assets/", named.file),
            ));
            continue;
        }
        let message = if named.path == "/icon" && source_icon != Some(named.file) {
            format!(
                "the source has no icon: a placeholder is written as {asset}; replace it with your own 512x512 PNG before publishing"
            )
        } else {
            let times =
                if named.times > 1 { format!(" (package.json names it {} times)", named.times) } else { String::new() };
            format!(
                "icon `{}`{times} is not among the source's files: a 512x512 placeholder is written as {asset}; replace it with the source's icon or your own before publishing",
                named.file
            )
        };
        diagnostics.push(Diagnostic::warning(codes::GENERATED_PLACEHOLDER, &named.path, message));
        bundle.binary_files.insert(asset, PLACEHOLDER_ICON_PNG.to_vec());
    }
}

/// Every icon file the manifest names, once each, in the order package.json names them.
fn named_icons<'p>(package: &'p Value, tool_names: &[String]) -> Vec<Named<'p>> {
    let mut mentions: Vec<(&str, String)> = Vec::new();
    if let Some(icon) = package.get("icon").and_then(Value::as_str) {
        mentions.push((icon, "/icon".to_owned()));
    }
    for entry in package.get("tools").and_then(Value::as_array).into_iter().flatten() {
        let Some(icon) = entry.get("icon").and_then(Value::as_str) else { continue };
        // The model's tool, when the entry is one of them (entries the reader refused are not).
        let name = entry.get("name").and_then(Value::as_str);
        let tool = tool_names.iter().position(|n| Some(n.as_str()) == name);
        let path = match tool {
            Some(tool) => child(&child("/tools", tool.to_string()), "icon"),
            None => format!("/extras/{FORMAT_ID}/invalid_tools"),
        };
        mentions.push((icon, path));
    }
    for (index, entry) in package.get("commands").and_then(Value::as_array).into_iter().flatten().enumerate() {
        if let Some(icon) = entry.get("icon").and_then(Value::as_str) {
            mentions.push((icon, format!("/extras/{FORMAT_ID}/manifest/commands/{index}/icon")));
        }
    }
    let mut named: Vec<Named> = Vec::new();
    for (file, path) in mentions {
        match named.iter_mut().find(|n| n.file == file) {
            Some(seen) => seen.times += 1,
            None => named.push(Named { file, path, times: 1 }),
        }
    }
    named
}

/// A relative path that stays inside assets/ (`icons/x.png` is one; `../x.png`, `/x.png`,
/// a URL are not).
fn is_asset_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains('\\')
        && !name.contains(':')
        && name.split('/').all(|part| !part.is_empty() && part != "." && part != "..")
}
