//! Decoding JSON into the model's types while keeping the fields they do not know.
//!
//! The model's types ignore unknown fields (a newer minor may add optional ones), which serde
//! does by deserializing each such value as `IgnoredAny`. [`decode`] wraps serde_json's
//! deserializer in [`Track`], which follows where each value sits (a chain of keys and indexes
//! on the stack, allocated only when needed) and turns every `IgnoredAny` into a captured
//! `(JSON pointer, value)` instead. Every nested value passes through the wrappers, so fields
//! are found at any depth. The two model enums serde would buffer (untagged and internally
//! tagged ones decode through serde's private buffer, out of our sight) have hand-written
//! `Deserialize` impls in toolport-core that go through the deserializer they are given.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::Value;
use toolport_core::source::escape_pointer_segment;

/// A field the types did not know: its JSON pointer in the decoded document and its value.
pub(crate) type Unknown = (String, Value);

/// Decodes `bytes` as `T` (serde_json's recursion limit lifted, as in
/// [`crate::abi::decode_message`]), returning the fields `T` does not know.
pub(crate) fn decode<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> serde_json::Result<(T, Vec<Unknown>)> {
    let found = RefCell::new(Vec::new());
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(Track { de: &mut deserializer, path: &Path::Root, found: &found })?;
    deserializer.end()?;
    Ok((value, found.into_inner()))
}

type Found = RefCell<Vec<Unknown>>;

/// Where a value sits: a chain of links on the stack.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn pointer(&self) -> String {
        let mut segments = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Root => break,
                Path::Key(parent, key) => {
                    segments.push(escape_pointer_segment(key));
                    at = parent;
                }
                Path::Index(parent, index) => {
                    segments.push(index.to_string());
                    at = parent;
                }
            }
        }
        segments.iter().rev().fold(String::new(), |pointer, segment| pointer + "/" + segment)
    }
}

/// Forwards `deserialize_*` methods to the wrapped deserializer with the visitor wrapped by
/// the type's own `wrap`.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
            let (de, visitor) = self.wrap(visitor);
            de.$method($($arg,)* visitor)
        }
    )*};
}

macro_rules! forward_common {
    () => {
        forward! {
            deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16(); deserialize_i32();
            deserialize_i64(); deserialize_i128(); deserialize_u8(); deserialize_u16(); deserialize_u32();
            deserialize_u64(); deserialize_u128(); deserialize_f32(); deserialize_f64(); deserialize_char();
            deserialize_str(); deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
            deserialize_option(); deserialize_unit(); deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str); deserialize_seq(); deserialize_tuple(len: usize);
            deserialize_tuple_struct(name: &'static str, len: usize); deserialize_map();
            deserialize_struct(name: &'static str, fields: &'static [&'static str]);
            deserialize_enum(name: &'static str, variants: &'static [&'static str]);
            deserialize_identifier();
        }
    };
}

/// A deserializer that knows where its value sits.
struct Track<'a, D> {
    de: D,
    path: &'a Path<'a>,
    found: &'a Found,
}

impl<'a, D> Track<'a, D> {
    fn wrap<V>(self, visitor: V) -> (D, Wrap<'a, V>) {
        (self.de, Wrap { inner: visitor, path: self.path, found: self.found })
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Track<'_, D> {
    type Error = D::Error;

    forward_common!();

    /// Only unknown fields are skipped: keep the value and where it was.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let value = Value::deserialize(self.de)?;
        self.found.borrow_mut().push((self.path.pointer(), value));
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// A visitor whose nested values are tracked too.
struct Wrap<'a, V> {
    inner: V,
    path: &'a Path<'a>,
    found: &'a Found,
}

macro_rules! visit_scalars {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

macro_rules! visit_all_scalars {
    () => {
        visit_scalars! {
            visit_bool(bool); visit_i8(i8); visit_i16(i16); visit_i32(i32); visit_i64(i64); visit_i128(i128);
            visit_u8(u8); visit_u16(u16); visit_u32(u32); visit_u64(u64); visit_u128(u128); visit_f32(f32);
            visit_f64(f64); visit_char(char); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]);
            visit_byte_buf(Vec<u8>);
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            self.inner.visit_none()
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.inner.visit_unit()
        }
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(f)
    }

    visit_all_scalars!();
    visit_scalars! { visit_str(&str); visit_borrowed_str(&'de str); visit_string(String); }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_some(Track { de, path: self.path, found: self.found })
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_newtype_struct(Track { de, path: self.path, found: self.found })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_seq(TrackSeq { seq, path: self.path, found: self.found, index: 0 })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_map(TrackMap { map, path: self.path, found: self.found, key: None })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_enum(TrackEnum { data, path: self.path, found: self.found })
    }
}

/// A seed whose value is tracked.
struct TrackSeed<'a, S> {
    seed: S,
    path: &'a Path<'a>,
    found: &'a Found,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for TrackSeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Track { de, path: self.path, found: self.found })
    }
}

struct TrackSeq<'a, A> {
    seq: A,
    path: &'a Path<'a>,
    found: &'a Found,
    index: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for TrackSeq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        let path = Path::Index(self.path, self.index);
        self.index += 1;
        self.seq.next_element_seed(TrackSeed { seed, path: &path, found: self.found })
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

struct TrackMap<'a, 'de, A> {
    map: A,
    path: &'a Path<'a>,
    found: &'a Found,
    /// The key of the entry being read, borrowed from the input unless it had escapes.
    key: Option<Cow<'de, str>>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TrackMap<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.key = None;
        self.map.next_key_seed(KeySeed { seed, key: &mut self.key })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        let key = self.key.take();
        let path = Path::Key(self.path, key.as_deref().unwrap_or_default());
        self.map.next_value_seed(TrackSeed { seed, path: &path, found: self.found })
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

struct TrackEnum<'a, A> {
    data: A,
    path: &'a Path<'a>,
    found: &'a Found,
}

impl<'a, 'de, A: EnumAccess<'de>> EnumAccess<'de> for TrackEnum<'a, A> {
    type Error = A::Error;
    type Variant = TrackVariant<'a, 'de, A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant), A::Error> {
        let mut name = None;
        let (value, variant) = self.data.variant_seed(KeySeed { seed, key: &mut name })?;
        Ok((value, TrackVariant { variant, name, path: self.path, found: self.found }))
    }
}

/// An externally tagged variant: its content sits under the variant's name.
struct TrackVariant<'a, 'de, A> {
    variant: A,
    name: Option<Cow<'de, str>>,
    path: &'a Path<'a>,
    found: &'a Found,
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for TrackVariant<'_, 'de, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.variant.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        let TrackVariant { variant, name, path, found } = self;
        let path = Path::Key(path, name.as_deref().unwrap_or_default());
        variant.newtype_variant_seed(TrackSeed { seed, path: &path, found })
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let TrackVariant { variant, name, path, found } = self;
        let path = Path::Key(path, name.as_deref().unwrap_or_default());
        variant.tuple_variant(len, Wrap { inner: visitor, path: &path, found })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let TrackVariant { variant, name, path, found } = self;
        let path = Path::Key(path, name.as_deref().unwrap_or_default());
        variant.struct_variant(fields, Wrap { inner: visitor, path: &path, found })
    }
}

/// A key's seed that remembers the key's text.
struct KeySeed<'k, 'de, S> {
    seed: S,
    key: &'k mut Option<Cow<'de, str>>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, 'de, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(KeyDe { de, key: self.key })
    }
}

struct KeyDe<'k, 'de, D> {
    de: D,
    key: &'k mut Option<Cow<'de, str>>,
}

impl<'k, 'de, D> KeyDe<'k, 'de, D> {
    fn wrap<V>(self, visitor: V) -> (D, KeyVisitor<'k, 'de, V>) {
        (self.de, KeyVisitor { inner: visitor, key: self.key })
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDe<'_, 'de, D> {
    type Error = D::Error;

    forward_common!();
    forward! { deserialize_ignored_any(); }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

struct KeyVisitor<'k, 'de, V> {
    inner: V,
    key: &'k mut Option<Cow<'de, str>>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<'_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(f)
    }

    visit_all_scalars!();

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        *self.key = Some(Cow::Owned(v.to_owned()));
        self.inner.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        *self.key = Some(Cow::Borrowed(v));
        self.inner.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        *self.key = Some(Cow::Owned(v.clone()));
        self.inner.visit_string(v)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_core::ToolSet;

    /// Each case: a tool set with unknown fields, and the pointers they must be found at.
    #[test]
    fn unknown_fields_are_found_at_any_depth() {
        let cases = [
            (json!({"tools": [], "new": 1}), vec!["/new"]),
            (json!({"tools": [{"name": "a", "deprecated": true}]}), vec!["/tools/0/deprecated"]),
            (json!({"creator": {"name": "x", "phone": "1"}, "tools": []}), vec!["/creator/phone"]),
            (json!({"icon": {"kind": "url", "url": "u", "alt": "a"}, "tools": []}), vec!["/icon/alt"]),
            (
                json!({"tools": [{"name": "a", "parameters": [{"name": "p", "schema": {"type": "object",
                    "additional_properties": {"type": "string", "const": "c"},
                    "properties": [{"name": "q", "schema": {"items": {"x~/y": 2}}}]}}]}]}),
                vec![
                    "/tools/0/parameters/0/schema/additional_properties/const",
                    "/tools/0/parameters/0/schema/properties/0/schema/items/x~0~1y",
                ],
            ),
            (
                json!({"tools": [], "examples": [{"prompt": "p", "expected": [
                    {"calls_tool": {"tool": "t", "times": 2, "arguments": {"a": {"eq": {"value": 1, "fuzzy": true}}}}},
                    {"not": {"includes": "x"}}
                ]}]}),
                vec![
                    "/examples/0/expected/0/calls_tool/times",
                    "/examples/0/expected/0/calls_tool/arguments/a/eq/fuzzy",
                ],
            ),
            (json!({"tools": [{"name": "a", "extras": {"mcp": {"anything": 1}}}]}), vec![]),
        ];
        for (model, expected) in cases {
            let text = model.to_string();
            let (_, found): (ToolSet, _) = super::decode(text.as_bytes()).unwrap();
            let pointers: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
            assert_eq!(pointers, expected, "{text}");
        }
    }

    #[test]
    fn values_are_kept_and_known_fields_decoded() {
        let text = json!({"tools": [{"name": "a", "deprecated": {"since": "2"}, "description": "d"}]}).to_string();
        let (model, found): (ToolSet, _) = super::decode(text.as_bytes()).unwrap();
        assert_eq!(model.tools[0].description.as_deref(), Some("d"));
        assert_eq!(found, vec![("/tools/0/deprecated".to_owned(), json!({"since": "2"}))]);
    }
}
