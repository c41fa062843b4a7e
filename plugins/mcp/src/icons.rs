//! MCP icons (`icons: [{src, mimeType?, sizes?}]`) and the canonical icon: the first icon's
//! `src`, a URL or a `data:` URI.

use serde_json::Value;
use toolport_plugin::Icon;

/// The canonical icon of a tool's `icons`: its first entry's `src`.
pub fn first_icon(icons: &Value) -> Option<Icon> {
    icons.get(0).and_then(|i| i.get("src")).and_then(Value::as_str).map(icon_from_src)
}

fn icon_from_src(src: &str) -> Icon {
    if let Some(rest) = src.strip_prefix("data:")
        && let Some((media_type, data)) = rest.split_once(";base64,")
    {
        return Icon::Base64 {
            data: data.to_owned(),
            media_type: (!media_type.is_empty()).then(|| media_type.to_owned()),
        };
    }
    Icon::Url { url: src.to_owned() }
}

/// An icon's `src`; `None` for a relative path, which MCP cannot say.
pub fn icon_src(icon: &Icon) -> Option<String> {
    match icon {
        Icon::Url { url } => Some(url.clone()),
        Icon::Base64 { data, media_type } => {
            Some(format!("data:{};base64,{data}", media_type.as_deref().unwrap_or("application/octet-stream")))
        }
        Icon::Path { .. } => None,
    }
}
