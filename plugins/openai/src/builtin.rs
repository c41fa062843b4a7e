//! Built-in tools (`web_search`, `file_search`, …): not functions, so not in the model; a read
//! keeps each with its position (`otherTools` in the tool set's extras) and a write puts it
//! back there.

use serde_json::{Map, Value};

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
