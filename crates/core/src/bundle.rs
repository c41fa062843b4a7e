//! `Bundle`: an in-memory set of files, relative path → text. The host fills it from disk and
//! writes it back; formats only ever see bundles, never the file system.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bundle {
    /// The file the user named, when the input is one file (possibly with siblings loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// Text files by relative path, `/`-separated, in sorted order (so output is deterministic).
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// Files present in the input whose contents were not given (a library user may name
    /// them), by relative path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_files: Vec<String>,
    /// Files that are not text (an extension's icons), by relative path: read from an input
    /// folder, or produced by a writer; base64 in the JSON form, so a host that predates this
    /// field still reads the text files.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", with = "base64_map")]
    pub binary_files: BTreeMap<String, Vec<u8>>,
}

/// `binary_files` as `{path: base64}` in JSON.
mod base64_map {
    use std::collections::BTreeMap;

    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(files: &BTreeMap<String, Vec<u8>>, serializer: S) -> Result<S::Ok, S::Error> {
        let encoded: BTreeMap<&String, String> =
            files.iter().map(|(path, bytes)| (path, STANDARD.encode(bytes))).collect();
        encoded.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<BTreeMap<String, Vec<u8>>, D::Error> {
        let encoded = BTreeMap::<String, String>::deserialize(deserializer)?;
        encoded
            .into_iter()
            .map(|(path, text)| STANDARD.decode(text).map(|bytes| (path, bytes)).map_err(serde::de::Error::custom))
            .collect()
    }
}

impl Bundle {
    /// A bundle of one file, which is its entry.
    pub fn single(path: impl Into<String>, text: impl Into<String>) -> Self {
        let path = path.into();
        let mut files = BTreeMap::new();
        files.insert(path.clone(), text.into());
        Bundle { entry: Some(path), files, ..Bundle::default() }
    }

    pub fn get(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    pub fn insert(&mut self, path: impl Into<String>, text: impl Into<String>) {
        self.files.insert(path.into(), text.into());
    }

    /// Every file to write, text and binary, by relative path.
    pub fn output_files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        let text = self.files.iter().map(|(p, t)| (p.as_str(), t.as_bytes()));
        text.chain(self.binary_files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
    }

    /// The entry file, or the only file when there is just one.
    pub fn entry_file(&self) -> Option<(&str, &str)> {
        let path = match &self.entry {
            Some(path) => path.as_str(),
            None if self.files.len() == 1 => self.files.keys().next()?.as_str(),
            None => return None,
        };
        self.files.get_key_value(path).map(|(p, t)| (p.as_str(), t.as_str()))
    }

    /// Total size of the text, in bytes.
    pub fn len_bytes(&self) -> usize {
        self.files.values().map(String::len).sum()
    }
}
