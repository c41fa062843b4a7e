//! What describes a tool set or a tool: its version, creator, icon and timestamps.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

/// A version as the source wrote it: SkyDeck allows a string or an integer and we keep which.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Version {
    Integer(i64),
    Text(String),
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Version::Integer(n) => write!(f, "{n}"),
            Version::Text(s) => f.write_str(s),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Creator {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An icon or avatar. Raycast uses relative paths, SkyDeck a URL or base64 data.
///
/// Decoded by hand rather than as serde's internally tagged enum, which buffers the object and
/// would hide unknown fields inside it from the SDK's decoder.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Icon {
    Url {
        url: String,
    },
    /// Inline image data; `media_type` is known only when the source said it.
    Base64 {
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        media_type: Option<String>,
    },
    /// A path relative to the source (Raycast `assets/icon.png`).
    Path {
        path: String,
    },
}

impl<'de> Deserialize<'de> for Icon {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(IconVisitor)
    }
}

struct IconVisitor;

impl<'de> Visitor<'de> for IconVisitor {
    type Value = Icon;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an icon: {\"kind\": \"url\" | \"base64\" | \"path\", …}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Icon, A::Error> {
        const KINDS: &[&str] = &["url", "base64", "path"];
        let mut kind: Option<String> = None;
        // url, data, media_type, path: each belongs to one kind.
        let mut fields: [Option<String>; 4] = Default::default();
        const NAMES: [&str; 4] = ["url", "data", "media_type", "path"];
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "kind" => &mut kind,
                name => match NAMES.iter().position(|n| *n == name) {
                    Some(i) => &mut fields[i],
                    None => {
                        // A field of a newer minor: skipped here, kept by the SDK's decoder.
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    }
                },
            };
            if slot.is_some() {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            *slot = Some(map.next_value()?);
        }
        let kind = kind.ok_or_else(|| de::Error::missing_field("kind"))?;
        let own: &[&str] = match kind.as_str() {
            "url" => &["url"],
            "base64" => &["data", "media_type"],
            "path" => &["path"],
            other => return Err(de::Error::unknown_variant(other, KINDS)),
        };
        if let Some(i) = (0..4).find(|&i| fields[i].is_some() && !own.contains(&NAMES[i])) {
            return Err(de::Error::unknown_field(NAMES[i], own));
        }
        let [url, data, media_type, path] = fields;
        Ok(match kind.as_str() {
            "url" => Icon::Url { url: url.ok_or_else(|| de::Error::missing_field("url"))? },
            "base64" => Icon::Base64 { data: data.ok_or_else(|| de::Error::missing_field("data"))?, media_type },
            _ => Icon::Path { path: path.ok_or_else(|| de::Error::missing_field("path"))? },
        })
    }
}

/// Timestamps as the source wrote them (ISO 8601 / RFC 3339 text, kept verbatim).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timestamps {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
}

impl Timestamps {
    pub fn is_empty(&self) -> bool {
        self.created.is_none() && self.updated.is_none()
    }
}
