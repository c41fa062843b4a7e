//! A map copied without some keys, for the leftovers the reader keeps. Its own file so the
//! tests compile it into their binary too (tests/reading.rs): the crate has no unit tests.

use serde_json::{Map, Value};

/// A copy of `map` without `keys`, in the order removing them one by one with `Map::remove`
/// leaves (each removal moves the last entry into the gap), copying only the entries kept:
/// what is left out is often the schema the model holds, the largest part.
pub(crate) fn copy_without(map: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    let entries: Vec<(&String, &Value)> = map.iter().collect();
    let mut order: Vec<usize> = (0..entries.len()).collect();
    for key in keys {
        if let Some(at) = order.iter().position(|&i| entries[i].0 == key) {
            order.swap_remove(at);
        }
    }
    order.into_iter().map(|i| (entries[i].0.clone(), entries[i].1.clone())).collect()
}
