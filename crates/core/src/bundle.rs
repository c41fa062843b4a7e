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
    /// Files present in the input but not loaded as text (images, binaries), by relative path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_files: Vec<String>,
}

impl Bundle {
    /// A bundle of one file, which is its entry.
    pub fn single(path: impl Into<String>, text: impl Into<String>) -> Self {
        let path = path.into();
        let mut files = BTreeMap::new();
        files.insert(path.clone(), text.into());
        Bundle { entry: Some(path), files, other_files: Vec::new() }
    }

    pub fn get(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    pub fn insert(&mut self, path: impl Into<String>, text: impl Into<String>) {
        self.files.insert(path.into(), text.into());
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
