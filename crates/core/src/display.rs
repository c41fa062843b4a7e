//! Renders a tool's display line from its [`crate::Display`] hints and call arguments, the way a
//! Gloodata tile does: `Show Map Of "Cairo" At Zoom Level 12`.

use serde_json::{Map, Value};

use crate::Tool;

/// The tool's display line for these arguments. Arguments are shown in the order of the
/// display hints (then any other parameters, in parameter order); missing ones are skipped.
/// Strings are quoted; other values are shown as JSON.
pub fn display_line(tool: &Tool, arguments: &Map<String, Value>) -> String {
    let display = tool.display.clone().unwrap_or_default();
    let mut parts: Vec<String> = Vec::new();
    let mut push = |text: &Option<String>| {
        if let Some(text) = text.as_deref().filter(|t| !t.is_empty()) {
            parts.push(text.to_owned());
        }
    };
    push(&display.prefix);
    let ordered = display
        .args
        .keys()
        .map(String::as_str)
        .chain(tool.parameters.iter().map(|p| p.name.as_str()).filter(|n| !display.args.contains_key(*n)));
    for name in ordered {
        let Some(value) = arguments.get(name) else { continue };
        let hints = display.args.get(name).cloned().unwrap_or_default();
        push(&hints.prefix);
        push(&Some(match value {
            Value::String(s) => format!("\"{s}\""),
            other => other.to_string(),
        }));
        push(&hints.suffix);
    }
    push(&display.suffix);
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ArgDisplay, Display};
    use serde_json::json;

    #[test]
    fn renders_the_gloodata_map_tile() {
        let mut tool = Tool::new("showMapAtAddressAndZoom");
        let mut display = Display { prefix: Some("Show Map".into()), ..Display::default() };
        display.args.insert("address".into(), ArgDisplay { prefix: Some("Of".into()), suffix: None });
        display.args.insert("zoom".into(), ArgDisplay { prefix: Some("At Zoom Level".into()), suffix: None });
        tool.display = Some(Box::new(display));
        let args = json!({"zoom": 12, "address": "Cairo"});
        assert_eq!(display_line(&tool, args.as_object().unwrap()), "Show Map Of \"Cairo\" At Zoom Level 12");
        let args = json!({"address": "Rio"});
        assert_eq!(display_line(&tool, args.as_object().unwrap()), "Show Map Of \"Rio\"");
    }
}
