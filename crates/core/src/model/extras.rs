//! [`Extras`]: format-specific data that has no canonical home, keyed by format id.

use std::sync::LazyLock;

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::boxed::{BoxedUntilSet, Unset};

/// The map an [`Extras`] holds: values by format id.
pub type ExtrasMap = IndexMap<String, Value>;

/// Format-specific data that has no canonical home, keyed by format id
/// (`"gloodata"`, `"vertex"`, …). A writer reads only its own key; other writers report the
/// presence of foreign keys as loss (see [`crate::diagnostic::codes::LOSS_EXTRAS`]).
///
/// Used as the map it holds, but boxed and absent until something is put in: most tools,
/// parameters and schemas have none, and an empty map inline is 72 bytes, six to eight of them
/// a small tool's. Serialized as the map.
pub type Extras = BoxedUntilSet<ExtrasMap>;

/// What an absent map reads as.
static EMPTY: LazyLock<ExtrasMap> = LazyLock::new(ExtrasMap::default);

impl Unset for ExtrasMap {
    fn unset() -> &'static Self {
        &EMPTY
    }
}

impl Extras {
    pub fn new() -> Self {
        Extras::default()
    }

    pub fn is_empty(&self) -> bool {
        (**self).is_empty()
    }

    /// The map, taken out (empty when there was none).
    pub fn into_map(self) -> ExtrasMap {
        self.into_inner()
    }

    // Lookups and removals of what may be there, which must not box an empty map (as the
    // map's own methods would, reached through `DerefMut`): readers and writers ask them of
    // every tool and schema.

    /// The value under `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.boxed_mut()?.get_mut(key)
    }

    /// Takes out the value under `key`, keeping the others' order.
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        self.boxed_mut()?.shift_remove(key)
    }

    /// Takes out the value under `key`, the last entry taking its place.
    pub fn swap_remove(&mut self, key: &str) -> Option<Value> {
        self.boxed_mut()?.swap_remove(key)
    }
}

impl FromIterator<(String, Value)> for Extras {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        ExtrasMap::from_iter(iter).into()
    }
}

impl Extend<(String, Value)> for Extras {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        let mut iter = iter.into_iter().peekable();
        if iter.peek().is_some() {
            (**self).extend(iter);
        }
    }
}

impl<'a> IntoIterator for &'a Extras {
    type Item = (&'a String, &'a Value);
    type IntoIter = indexmap::map::Iter<'a, String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        (**self).iter()
    }
}

impl IntoIterator for Extras {
    type Item = (String, Value);
    type IntoIter = indexmap::map::IntoIter<String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_map().into_iter()
    }
}

impl Serialize for Extras {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Extras {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ExtrasMap::deserialize(deserializer).map(Extras::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extras_is_its_map_boxed_only_once_something_is_in_it() {
        assert_eq!(std::mem::size_of::<Extras>(), 8);
        let mut extras = Extras::new();
        assert!(extras.is_empty() && extras.get("gloodata").is_none());
        extras.insert("gloodata".into(), Value::from(1));
        assert_eq!(extras.get("gloodata"), Some(&Value::from(1)));
        extras.shift_remove("gloodata");
        // Emptied and never filled are the same.
        assert_eq!(extras, Extras::new());
        assert!(extras.is_empty());
        // Looking up or taking out of an absent map boxes none.
        let mut absent = Extras::new();
        assert!(absent.get_mut("openapi").is_none() && absent.shift_remove("openapi").is_none());
        assert!(absent.swap_remove("openapi").is_none() && !absent.is_boxed());
        assert_eq!(format!("{absent:?}"), "{}", "shown as the map");
        let text = serde_json::to_string(&[("vertex".to_owned(), Value::from("x"))].into_iter().collect::<Extras>());
        assert_eq!(text.unwrap(), r#"{"vertex":"x"}"#);
        let read: Extras = serde_json::from_str("{}").unwrap();
        assert!(!read.is_boxed(), "an empty map read is not boxed");
    }
}
