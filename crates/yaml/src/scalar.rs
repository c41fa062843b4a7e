//! What a plain scalar means when read, and which strings a writer must quote.
//!
//! Reading follows the YAML 1.2 core schema as serde_yaml applied it (toolport's reader before
//! this crate had its own): `null`/`~`/empty, `true`/`false` in three casings, decimal, `0x`,
//! `0o` and `0b` integers, floats, `.inf` and `.nan`. Digits with a leading zero (`0123`) stay
//! strings. Writing must also survive YAML 1.1 readers (PyYAML, SnakeYAML, older tools), which
//! retype many more plain scalars: `yes`/`no`/`on`/`off`/`y`/`n`, sexagesimal `1:20`, `1_000`,
//! `0777` octal, timestamps, `=` and `<<`.

use serde_json::{Number, Value};

/// The value of a plain (unquoted) scalar, or `None` when it is a string.
///
/// Integers that fit `i64` or `u64` stay integers; larger ones become the nearest `f64` (JSON
/// has no exact form for them), never an error. Infinities and NaN have no JSON form: `null`.
/// [`approximated`] says which values are not what the text says.
pub(crate) fn resolve_plain(text: &str) -> Option<Value> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        ".nan" | ".NaN" | ".NAN" => return Some(Value::Null),
        _ => {}
    }
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(Value::Null);
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = unsigned.strip_prefix(prefix) {
            return (!digits.is_empty() && digits.chars().all(|c| c.is_digit(radix)))
                .then(|| integer(negative, digits, radix));
        }
    }
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        // Leading zeros make a string (YAML 1.2 has no octal `0123`; serde_yaml kept it text).
        return (unsigned.len() == 1 || !unsigned.starts_with('0')).then(|| integer(negative, unsigned, 10));
    }
    if is_core_float(unsigned) {
        return Some(float(text.parse::<f64>().unwrap_or(f64::NAN)));
    }
    None
}

/// `digits` (non-empty, valid in `radix`) with a sign, as an integer when it fits, else the
/// nearest float.
fn integer(negative: bool, digits: &str, radix: u32) -> Value {
    if let Ok(magnitude) = u64::from_str_radix(digits, radix) {
        if !negative {
            return Value::from(magnitude);
        }
        if let Some(value) = 0i64.checked_sub_unsigned(magnitude) {
            return Value::from(value);
        }
    }
    let magnitude = match u128::from_str_radix(digits, radix) {
        Ok(m) => m as f64,
        Err(_) if radix == 10 => digits.parse::<f64>().unwrap_or(f64::INFINITY),
        Err(_) => digits.chars().fold(0.0, |acc, c| acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))),
    };
    float(if negative { -magnitude } else { magnitude })
}

/// How `value`, resolved from the plain scalar `text`, differs from what the text says: an
/// integer beyond 64 bits read as the nearest float, or a number with no JSON form read as
/// null. `None` when it is exact (every value but a float or a null is).
pub(crate) fn approximated(text: &str, value: &Value) -> Option<String> {
    match value {
        Value::Null if !matches!(text, "" | "~" | "null" | "Null" | "NULL") => {
            Some(format!("`{text}` has no JSON form (it is infinite or not a number): it is read as null"))
        }
        Value::Number(number) if number.is_f64() => {
            let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
            let integer = unsigned.bytes().all(|b| b.is_ascii_digit())
                || unsigned.starts_with(['0'])
                    && unsigned.len() > 2
                    && matches!(unsigned.as_bytes()[1], b'x' | b'o' | b'b');
            integer.then(|| {
                format!("the integer {text} does not fit in 64 bits: it is read as the nearest float, {value}")
            })
        }
        _ => None,
    }
}

fn float(value: f64) -> Value {
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// `( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`, the YAML 1.2 core float.
fn is_core_float(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = digits(b, 0, |c| c.is_ascii_digit());
    let whole = i > 0;
    if b.get(i) == Some(&b'.') {
        let end = digits(b, i + 1, |c| c.is_ascii_digit());
        if !whole && end == i + 1 {
            return false;
        }
        i = end;
    } else if !whole {
        return false;
    }
    exponent(b, i, true) == Some(b.len())
}

/// The end of the run of bytes from `start` that satisfy `is_digit`.
fn digits(b: &[u8], start: usize, is_digit: impl Fn(u8) -> bool) -> usize {
    start + b.get(start..).unwrap_or_default().iter().take_while(|&&c| is_digit(c)).count()
}

/// Where an optional exponent `[eE][-+]?[0-9]+` starting at `i` ends (`i` when there is none;
/// `None` when it starts but is malformed). `sign_optional` is false for PyYAML's `[eE][-+]`.
fn exponent(b: &[u8], i: usize, sign_optional: bool) -> Option<usize> {
    if !matches!(b.get(i), Some(b'e' | b'E')) {
        return Some(i);
    }
    let mut j = i + 1;
    if matches!(b.get(j), Some(b'-' | b'+')) {
        j += 1;
    } else if !sign_optional {
        return None;
    }
    let end = digits(b, j, |c| c.is_ascii_digit());
    (end > j).then_some(end)
}

/// Whether a reader would read `text`, written plain, as something other than this string:
/// toolport's own reader (YAML 1.2 core schema) or a YAML 1.1 reader (PyYAML, SnakeYAML).
pub(crate) fn retyped_when_plain(text: &str) -> bool {
    // Asked of every string a document writes plain: most start with a letter no other type
    // starts with (the tests' debug builds hold the shortcut to the full rules on every string).
    if text.as_bytes().first().is_some_and(|&c| !may_start_another_type(c)) {
        debug_assert!(!retyped_by_either(text), "{text:?}");
        return false;
    }
    retyped_by_either(text)
}

/// Whether `c` is the first byte of some text [`retyped_when_plain`] (the empty text aside):
/// a digit, a sign, `.`, `_` (YAML 1.1 numbers), or the first letter of a word of either
/// schema.
fn may_start_another_type(c: u8) -> bool {
    matches!(
        c,
        b'0'..=b'9'
            | b'+'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'='
            | b'<'
            | b'y'
            | b'Y'
            | b'n'
            | b'N'
            | b't'
            | b'T'
            | b'f'
            | b'F'
            | b'o'
            | b'O'
    )
}

fn retyped_by_either(text: &str) -> bool {
    resolve_plain(text).is_some() || retyped_by_yaml_1_1(text)
}

/// The YAML 1.1 implicit types (<https://yaml.org/type/>) as PyYAML and SnakeYAML resolve them,
/// a little wider where they differ: bool, null, int, float, timestamp, merge and value.
fn retyped_by_yaml_1_1(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "", "=", "<<",
    ];
    WORDS.contains(&text) || number_1_1(text) || timestamp_1_1(text)
}

/// YAML 1.1 ints and floats: `0b`, `0x`, `0o` (1.2) and `0`-led octal, underscores anywhere
/// after the first digit, sexagesimal `190:20:30(.5)`, `.inf`/`.nan`, and floats with or without
/// a dot or exponent sign (SnakeYAML's `[0-9_]+` even accepts a lone `_`).
fn number_1_1(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let b = unsigned.as_bytes();
    if matches!(unsigned, ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    for (prefix, is_digit) in [
        ("0b", (|c: u8| matches!(c, b'0' | b'1' | b'_')) as fn(u8) -> bool),
        ("0x", |c: u8| c.is_ascii_hexdigit() || c == b'_'),
        ("0o", |c: u8| matches!(c, b'0'..=b'7' | b'_')),
    ] {
        if let Some(rest) = unsigned.strip_prefix(prefix) {
            return !rest.is_empty() && rest.bytes().all(is_digit);
        }
    }
    let digit_or_underscore = |c: u8| c.is_ascii_digit() || c == b'_';
    if b.first() == Some(&b'.') {
        let end = digits(b, 1, digit_or_underscore);
        return end > 1 && exponent(b, end, true) == Some(b.len());
    }
    let whole = digits(b, 0, digit_or_underscore);
    if whole == 0 {
        return false;
    }
    match b.get(whole) {
        None => true,
        Some(b':') => {
            // Sexagesimal: (:[0-5]?[0-9])+ then an optional fraction.
            let mut i = whole;
            while b.get(i) == Some(&b':') {
                let end = digits(b, i + 1, |c| c.is_ascii_digit());
                let part = &b[i + 1..end];
                if part.is_empty() || part.len() > 2 || (part.len() == 2 && part[0] > b'5') {
                    return false;
                }
                i = end;
            }
            match b.get(i) {
                None => true,
                Some(b'.') => digits(b, i + 1, digit_or_underscore) == b.len(),
                Some(_) => false,
            }
        }
        Some(b'.') => exponent(b, digits(b, whole + 1, digit_or_underscore), true) == Some(b.len()),
        Some(_) => exponent(b, whole, true) == Some(b.len()),
    }
}

/// YAML 1.1 timestamps: `yyyy-mm-dd`, or `yyyy-m(m)-d(d)` then `T`/`t`/spaces, `h(h):mm:ss`, an
/// optional fraction and an optional zone (`Z`, `+5`, `-05:00`, after optional spaces).
fn timestamp_1_1(text: &str) -> bool {
    let b = text.as_bytes();
    let number = |at: usize, min: usize, max: usize| -> Option<usize> {
        let end = digits(b, at, |c| c.is_ascii_digit());
        (end - at >= min && end - at <= max).then_some(end)
    };
    let Some(year) = number(0, 4, 4).filter(|&i| b.get(i) == Some(&b'-')) else { return false };
    let Some(month) = number(year + 1, 1, 2).filter(|&i| b.get(i) == Some(&b'-')) else { return false };
    let Some(day) = number(month + 1, 1, 2) else { return false };
    if day == b.len() {
        return true;
    }
    let mut i = day;
    match b.get(i) {
        Some(b'T' | b't') => i += 1,
        Some(b' ' | b'\t') => i = digits(b, i, |c| c == b' ' || c == b'\t'),
        _ => return false,
    }
    let Some(hour) = number(i, 1, 2).filter(|&i| b.get(i) == Some(&b':')) else { return false };
    let Some(minute) = number(hour + 1, 2, 2).filter(|&i| b.get(i) == Some(&b':')) else { return false };
    let Some(mut i) = number(minute + 1, 2, 2) else { return false };
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1, |c| c.is_ascii_digit());
    }
    let zone = digits(b, i, |c| c == b' ' || c == b'\t');
    match b.get(zone) {
        None => zone == i,
        Some(b'Z') => zone + 1 == b.len(),
        Some(b'+' | b'-') => {
            let Some(zone_hour) = number(zone + 1, 1, 2) else { return false };
            match b.get(zone_hour) {
                None => true,
                Some(b':') => number(zone_hour + 1, 2, 2) == Some(b.len()),
                Some(_) => false,
            }
        }
        Some(_) => false,
    }
}
