//! A tool list's items that are not functions (OpenAI's built-in `web_search`, Bedrock's
//! `cachePoint` and `systemTool`): not in the model; a read keeps each with its position
//! (`otherTools` in the tool set's extras, [`keep`]) and a same-format write puts it back there
//! ([`put_back`]). Other formats name them as lost (`crate::carry`).

use serde_json::{Map, Value, json};
use toolport_core::{Diagnostic, codes};

use crate::read::Reading;

/// Keeps `item`, the list's item `at` (at `path`), for a same-format write to put back, and
/// says so: "`what` is not a function: kept as written for a `platform` output, left out of
/// every other format".
pub fn keep(reading: &mut Reading, item: &Value, at: usize, path: &str, what: &str, platform: &str) {
    reading.diagnostics.push(reading.source.at(Diagnostic::info(
        codes::INPUT_UNKNOWN_KEY,
        path,
        format!(
            "{what} is not a function: kept as written for {} {platform} output, left out of every other format",
            article(platform)
        ),
    )));
    let others = reading.set_extras.entry("otherTools").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(others) = others {
        others.push(json!({"at": at, "tool": item}));
    }
}

fn article(word: &str) -> &'static str {
    if word.to_ascii_lowercase().starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// What a kept item is, for messages: its `type` (`web_search`), else its one key
/// (`cachePoint`), with its `name` when it has one.
pub fn describe(tool: &Value) -> String {
    let kind = tool
        .get("type")
        .and_then(Value::as_str)
        .or_else(|| tool.as_object().filter(|m| m.len() == 1).and_then(|m| m.keys().next()).map(String::as_str))
        .unwrap_or("?");
    let name = tool.get("name").or_else(|| tool.get(kind).and_then(|inner| inner.get("name")));
    match name.and_then(Value::as_str) {
        Some(name) => format!("`{kind}` (`{name}`)"),
        None => format!("`{kind}`"),
    }
}

/// `tools` with the built-in tools the source had put back at their positions.
pub fn put_back(tools: Vec<Value>, set_extras: &Map<String, Value>) -> Vec<Value> {
    let Some(Value::Array(others)) = set_extras.get("otherTools") else { return tools };
    let others = others.iter().map(|other| {
        let at = other.get("at").and_then(Value::as_u64).unwrap_or(u64::MAX) as usize;
        (at, other.get("tool").cloned().unwrap_or(Value::Null))
    });
    insert_all(tools, others.collect())
}

/// `items` with each of `inserts` inserted in turn at its index (the end when past it), as a
/// `Vec::insert` per entry would, in O(n log n) rather than a shift of the list per entry: in
/// reverse order, each entry takes the free slot of the final list that has as many free
/// slots before it as its index (a Fenwick tree counts them); `items` fill the slots left.
fn insert_all(items: Vec<Value>, inserts: Vec<(usize, Value)>) -> Vec<Value> {
    if inserts.is_empty() {
        return items;
    }
    let total = items.len() + inserts.len();
    // free[i] counts the free slots in a range ending at slot i (Fenwick tree, 1-based).
    let mut free = vec![0usize; total + 1];
    for i in 1..=total {
        free[i] += 1;
        let parent = i + (i & i.wrapping_neg());
        if parent <= total {
            free[parent] += free[i];
        }
    }
    let mut slots: Vec<Option<Value>> = (0..total).map(|_| None).collect();
    let top = total.next_power_of_two();
    for (k, (at, value)) in inserts.into_iter().enumerate().rev() {
        // The (rank + 1)-th free slot: the largest position with at most `rank` free before it.
        let mut rank = at.min(items.len() + k);
        let mut position = 0;
        let mut step = top;
        while step > 0 {
            if position + step <= total && free[position + step] <= rank {
                position += step;
                rank -= free[position];
            }
            step /= 2;
        }
        slots[position] = Some(value);
        let mut i = position + 1;
        while i <= total {
            free[i] -= 1;
            i += i & i.wrapping_neg();
        }
    }
    let mut items = items.into_iter();
    slots.into_iter().map(|slot| slot.or_else(|| items.next()).unwrap_or(Value::Null)).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// [`insert_all`] against a `Vec::insert` per entry.
    fn check(items: usize, inserts: &[usize]) {
        let base: Vec<Value> = (0..items).map(|i| json!(i)).collect();
        let entries: Vec<(usize, Value)> =
            inserts.iter().enumerate().map(|(k, at)| (*at, json!(format!("x{k}")))).collect();
        let mut expect = base.clone();
        for (at, value) in entries.clone() {
            expect.insert(at.min(expect.len()), value);
        }
        assert_eq!(insert_all(base, entries), expect, "{items} items, inserts at {inserts:?}");
    }

    #[test]
    fn other_tools_go_back_where_they_were() {
        check(0, &[]);
        check(3, &[]);
        check(0, &[5, 0, 7]);
        check(4, &[0, 2, 5]);
        check(4, &[3, 3, 3, 0, 9, 1]);
        check(5, &[usize::MAX, 2, 2, 7, 0]);
        check(10, &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 4]);
    }
}
