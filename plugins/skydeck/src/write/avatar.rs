//! The avatar, flat or in the object form the source used.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Icon, Severity, codes};

use super::Writer;
use crate::kept;

impl Writer<'_> {
    pub(super) fn avatar(
        &mut self,
        icon: &Icon,
        own: &Map<String, Value>,
        path: &str,
        metadata: &mut Map<String, Value>,
    ) {
        let (avatar_type, data) = match icon {
            Icon::Url { url } => ("url", url.clone()),
            Icon::Base64 { data, media_type: None } => ("base64", data.clone()),
            Icon::Base64 { data, media_type: Some(media_type) } => {
                self.note(
                    Severity::Info,
                    codes::CHANGED_VALUE,
                    child(path, "media_type"),
                    format!(
                        "SkyDeck avatars have no media type; `{media_type}` is kept by writing the avatar as a data URL"
                    ),
                );
                ("base64", format!("data:{media_type};base64,{data}"))
            }
            Icon::Path { path: icon_path } => {
                self.note(
                    Severity::Warning,
                    codes::LOSS_FIELD,
                    path.to_owned(),
                    format!("a SkyDeck avatar is a URL or base64 data; the relative path `{icon_path}` was left out"),
                );
                return;
            }
        };
        let type_missing = own.get(kept::AVATAR_TYPE_MISSING).and_then(Value::as_bool).unwrap_or(false);
        match own.get(kept::AVATAR_FORM).and_then(Value::as_object) {
            // Read as an object: written back as one, with the keys it used.
            Some(form) => {
                let mut object = Map::new();
                if let Some(type_key) = form.get("type_key").and_then(Value::as_str) {
                    object.insert(type_key.into(), avatar_type.into());
                }
                let data_key = form.get("data_key").and_then(Value::as_str).unwrap_or("avatar");
                object.insert(data_key.into(), data.into());
                if let Some(keys) = form.get("keys").and_then(Value::as_object) {
                    object.extend(keys.clone());
                }
                metadata.insert("avatar".into(), Value::Object(object));
            }
            None => {
                if !type_missing {
                    metadata.insert("avatar_type".into(), avatar_type.into());
                }
                metadata.insert("avatar".into(), data.into());
            }
        }
    }
}
