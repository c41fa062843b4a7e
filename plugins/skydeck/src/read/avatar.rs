//! The avatar, flat or as an object, as the tool set's icon.

use serde_json::{Map, Value};
use toolport_plugin::source::child;
use toolport_plugin::{Icon, Severity, codes};

use super::{Kept, Reader};
use crate::kept;

impl Reader<'_> {
    /// The avatar, flat (`avatar_type` + `avatar` in `metadata`, as the spec's sample shows) or
    /// an object (`avatar: {avatar_type, avatar}`, as its field list says; `type`/`image`
    /// are read as the same). An avatar that is no URL or base64 image is kept as written.
    pub(super) fn avatar(&mut self, metadata: &Map<String, Value>, own: &mut Kept, kept: &mut Kept) -> Option<Icon> {
        let path = "/metadata";
        let flat_type = metadata.get("avatar_type");
        let avatar = metadata.get("avatar");
        let (avatar_type, data, data_path) = match avatar {
            Some(Value::Object(fields)) => {
                let opath = child(path, "avatar");
                if let Some(flat) = flat_type {
                    self.invalid(Severity::Warning, kept, path, "avatar_type", flat, "inside the avatar object");
                }
                let type_key = ["avatar_type", "type"].into_iter().find(|k| fields.contains_key(*k));
                let data_key = ["avatar", "image", "url", "data"].into_iter().find(|k| fields.contains_key(*k));
                let mut kept_avatar = Kept::new();
                for (key, value) in fields {
                    if Some(key.as_str()) != type_key && Some(key.as_str()) != data_key {
                        self.unknown_key(&mut kept_avatar, &opath, key, value);
                    }
                }
                let mut form = Map::new();
                form.insert("type_key".into(), type_key.map_or(Value::Null, Value::from));
                form.insert("data_key".into(), data_key.map_or(Value::Null, Value::from));
                if !kept_avatar.is_empty() {
                    form.insert("keys".into(), Value::Object(kept_avatar));
                }
                if type_key.is_some_and(|k| k != "avatar_type") || data_key.is_some_and(|k| k != "avatar") {
                    self.report(
                        Severity::Warning,
                        codes::INPUT_TOLERATED,
                        &opath,
                        format!(
                            "the avatar object uses `{}`/`{}`; read as `avatar_type`/`avatar`",
                            type_key.unwrap_or("-"),
                            data_key.unwrap_or("-")
                        ),
                    );
                }
                let data_path = child(&opath, data_key.unwrap_or("avatar"));
                (type_key.and_then(|k| fields.get(k)), data_key.and_then(|k| fields.get(k)), (data_path, Some(form)))
            }
            Some(_) => (flat_type, avatar, (child(path, "avatar"), None)),
            None => {
                if let Some(flat) = flat_type {
                    self.invalid(Severity::Warning, kept, path, "avatar_type", flat, "next to an `avatar`");
                }
                return None;
            }
        };
        let (data_path, form) = data_path;
        let icon = match (avatar_type.map(|t| t.as_str()), data.and_then(Value::as_str)) {
            (Some(Some("url")), Some(data)) => Some(Icon::Url { url: data.to_owned() }),
            (Some(Some("base64")), Some(data)) => Some(Icon::Base64 { data: data.to_owned(), media_type: None }),
            (None, Some(data)) => {
                own.insert(kept::AVATAR_TYPE_MISSING.into(), Value::Bool(true));
                let url = data.starts_with("http://") || data.starts_with("https://");
                self.report(
                    Severity::Info,
                    codes::INPUT_TOLERATED,
                    &data_path,
                    format!("the avatar has no `avatar_type`; read as {}", if url { "a URL" } else { "base64 data" }),
                );
                Some(if url {
                    Icon::Url { url: data.to_owned() }
                } else {
                    Icon::Base64 { data: data.to_owned(), media_type: None }
                })
            }
            _ => None,
        };
        if icon.is_none() {
            self.report(
                Severity::Warning,
                codes::INPUT_INVALID,
                &data_path,
                "the avatar is not a `url` or `base64` string; it is kept as written",
            );
            match form {
                Some(_) => {
                    kept.insert("avatar".into(), avatar.cloned().unwrap_or_default());
                }
                None => {
                    if let Some(flat) = flat_type {
                        kept.insert("avatar_type".into(), flat.clone());
                    }
                    kept.insert("avatar".into(), avatar.cloned().unwrap_or_default());
                }
            }
            return None;
        }
        if let Some(form) = form {
            own.insert(kept::AVATAR_FORM.into(), Value::Object(form));
        }
        icon
    }
}
