//! Where a value is in a YAML text, by JSON pointer: the YAML counterpart of core's
//! `source::Locator`, from the same parser events [`crate::parse`] builds values from, so block
//! and flow style, quoted keys and comments are placed alike. A mapping's value is placed at
//! its key (what a reader looks for), a sequence item at its first character.

use std::cell::OnceCell;
use std::collections::HashMap;

use saphyr_parser::{Event, Marker, Parser};
use serde_json::Value;
use toolport_core::source::child;

use crate::read::scalar;

/// Positions of one YAML text's values, built by the first lookup in one pass over its events.
#[derive(Debug)]
pub struct Locator<'t> {
    text: &'t str,
    places: OnceCell<HashMap<String, (u32, u32)>>,
}

impl<'t> Locator<'t> {
    pub fn new(text: &'t str) -> Self {
        Locator { text, places: OnceCell::new() }
    }

    /// 1-based line and column of the value at `pointer` (of its key, for a mapping's value);
    /// `None` when the text has no such value (or is not YAML up to it).
    pub fn locate(&self, pointer: &str) -> Option<(u32, u32)> {
        self.places.get_or_init(|| places(self.text)).get(pointer).copied()
    }
}

/// A collection being walked: its pointer and what comes next in it.
enum Frame {
    Sequence {
        pointer: String,
        next: usize,
    },
    /// `key`: the key read and where it is, while its value is awaited.
    Mapping {
        pointer: String,
        key: Option<(String, Marker)>,
    },
    /// A collection used as a mapping key: nothing in it has a pointer.
    Key,
}

fn place(marker: Marker) -> (u32, u32) {
    let number = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    (number(marker.line()), number(marker.col() + 1))
}

/// Every value's pointer and place, as far as the text parses.
fn places(text: &str) -> HashMap<String, (u32, u32)> {
    let mut places = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else { break };
        let opens = match &event {
            Event::SequenceStart(..) | Event::MappingStart(..) => true,
            Event::Scalar(..) | Event::Alias(_) => false,
            Event::SequenceEnd | Event::MappingEnd => {
                stack.pop();
                continue;
            }
            _ => continue,
        };
        // Where this node goes: the root, the next item, a key, or a key's value.
        let pointer = match stack.last_mut() {
            None => Some((String::new(), span.start)),
            Some(Frame::Key) => None,
            Some(Frame::Sequence { pointer, next }) => {
                *next += 1;
                Some((child(pointer, (*next - 1).to_string()), span.start))
            }
            Some(Frame::Mapping { pointer, key }) => match key.take() {
                Some((name, at)) => Some((child(pointer, &name), at)),
                None => {
                    // A key: its text as the value reader makes it (`200` → "200").
                    if let Event::Scalar(text, style, _, tag) = &event {
                        let name = match scalar(text, *style, tag.as_deref()).0 {
                            Value::String(s) => s,
                            other => other.to_string(),
                        };
                        *key = Some((name, span.start));
                    } else {
                        *key = Some((String::new(), span.start));
                    }
                    if opens {
                        stack.push(Frame::Key);
                    }
                    continue;
                }
            },
        };
        let Some((pointer, at)) = pointer else {
            if opens {
                stack.push(Frame::Key);
            }
            continue;
        };
        places.entry(pointer.clone()).or_insert(place(at));
        match event {
            Event::SequenceStart(..) => stack.push(Frame::Sequence { pointer, next: 0 }),
            Event::MappingStart(..) => stack.push(Frame::Mapping { pointer, key: None }),
            _ => {}
        }
    }
    places
}
