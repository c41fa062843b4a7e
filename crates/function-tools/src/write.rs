//! What every function-tool writer shares, mirroring [`crate::read`]: the keys a reader kept
//! given back ([`give_back_kept`]), the parts of an output only a schema can say, and the
//! document written in the shape its source had ([`by_shape`]) as a one-file bundle, either a
//! `Value` or a [`Written`] document that borrows the texts it copies verbatim from the model.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value};
use toolport_core::source::child;
use toolport_core::{Bundle, Diagnostic, Options, Outcome, Output, Tally, ToolSet, codes};

use crate::common::Shape;

mod print;

pub use print::{Printed, ToolsPrinter, json_string};

/// A written document that may borrow text from the model it was written from: a text copied
/// verbatim (a description) is serialized from the model itself, so a large one is held once
/// beside the output's text rather than twice (a `Value` tree owns a copy of every string).
#[derive(Clone, Debug, PartialEq)]
pub enum Written<'a> {
    /// A part the writer built.
    Value(Value),
    /// A text, borrowed from the model where it is written as it is there.
    Text(Cow<'a, str>),
    /// An object whose members may borrow, in their order.
    Object(WrittenObject<'a>),
    /// An array whose items may borrow.
    Array(Vec<Written<'a>>),
    /// A part printed already ([`Written::printed`]).
    Printed(Printed),
}

impl Written<'_> {
    /// `self` printed as it will read at nesting `depth` of the document (a part of a tool at
    /// one more than [`ToolsPrinter::depth`]), its tree dropped: a part printed as soon as it
    /// is made is never held beside the trees of the others.
    pub fn printed(self, depth: usize) -> Written<'static> {
        Written::Printed(Printed::new(&self, depth))
    }
}

/// The members of a [`Written::Object`], in their order.
pub type WrittenObject<'a> = IndexMap<String, Written<'a>>;

impl From<Value> for Written<'_> {
    fn from(value: Value) -> Self {
        Written::Value(value)
    }
}

impl<'a> From<Cow<'a, str>> for Written<'a> {
    fn from(text: Cow<'a, str>) -> Self {
        Written::Text(text)
    }
}

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Written::Value(value) => value.serialize(serializer),
            Written::Text(text) => serializer.serialize_str(text),
            Written::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            Written::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            // Through serde (not how a document is printed: [`Document::pretty`]), as its value.
            Written::Printed(printed) => printed.value().map_err(serde::ser::Error::custom)?.serialize(serializer),
        }
    }
}

/// A JSON object a writer builds, `Map<String, Value>` or [`WrittenObject`]: what
/// [`give_back_kept`], [`wrapped`] and [`in_envelope`] need of it.
pub trait Members<T>: Default {
    fn has(&self, key: &str) -> bool;
    fn put(&mut self, key: String, value: T);
}

impl Members<Value> for Map<String, Value> {
    fn has(&self, key: &str) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: String, value: Value) {
        self.insert(key, value);
    }
}

impl<'a> Members<Written<'a>> for WrittenObject<'a> {
    fn has(&self, key: &str) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: String, value: Written<'a>) {
        self.insert(key, value);
    }
}

/// A written document's node type, `Value` or [`Written`]: how [`by_shape`] builds around
/// the tools a writer made.
pub trait Node: From<Value> + Sized {
    type Fields: Members<Self>;
    fn array(items: Vec<Self>) -> Self;
    fn object(members: Self::Fields) -> Self;
}

impl Node for Value {
    type Fields = Map<String, Value>;
    fn array(items: Vec<Self>) -> Self {
        Value::Array(items)
    }
    fn object(members: Self::Fields) -> Self {
        Value::Object(members)
    }
}

impl<'a> Node for Written<'a> {
    type Fields = WrittenObject<'a>;
    fn array(items: Vec<Self>) -> Self {
        Written::Array(items)
    }
    fn object(members: Self::Fields) -> Self {
        Written::Object(members)
    }
}

/// Gives back the keys a reader kept as written (`keep` in the tool's `extras`,
/// [`crate::read::keep_unknown`]) where the writer did not write a key of its own.
pub fn give_back_kept<T: From<Value>>(out: &mut impl Members<T>, extras: &Map<String, Value>) {
    if let Some(Value::Object(keep)) = extras.get("keep") {
        for (key, value) in keep {
            if !out.has(key) {
                out.put(key.clone(), T::from(value.clone()));
            }
        }
    }
}

/// Reports each field of `output` (at `path`) besides its schema as lost, for a format that
/// describes a result only by a schema: "`how`; the output's `<field>` was left out".
pub fn report_output_fields(output: &Output, path: &str, how: &str, diagnostics: &mut Vec<Diagnostic>) {
    for (field, present) in [
        ("description", output.description.is_some()),
        ("kind", output.kind.is_some()),
        ("format", output.format.is_some()),
        ("language", output.language.is_some()),
        ("allowed_values", output.allowed_values.is_some()),
        ("content_type", output.content_type.is_some()),
    ] {
        if present {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_FIELD,
                child(path, field),
                format!("{how}; the output's `{field}` was left out"),
            ));
        }
    }
}

/// `tools` as a document of the shape its source had (`shape` in the tool set's extras,
/// recorded by [`crate::read::tool_list`]), else of `default`: wrapped (`{"<key>": [...]}`
/// followed by the source's other top-level keys, [`wrapped`]), a bare array, or the one tool.
/// A one-tool shape holds exactly one; other counts are written in `default` (an array when
/// that is one-tool too). A document read from a JSON-RPC response goes back into it
/// ([`in_envelope`]).
pub fn by_shape<T: Node>(tools: Vec<T>, set_extras: &Map<String, Value>, default: Shape, key: &str) -> T {
    let shape = written_shape(tools.len(), set_extras, default);
    in_shape(tools, shape, set_extras, key)
}

/// `tools` in `shape` ([`by_shape`]'s, for however many tools it was chosen).
fn in_shape<T: Node>(mut tools: Vec<T>, shape: Shape, set_extras: &Map<String, Value>, key: &str) -> T {
    let document = match shape {
        Shape::Single => tools.remove(0),
        Shape::Array => T::array(tools),
        Shape::Wrapped => wrapped(key, tools, set_extras),
    };
    in_envelope(document, set_extras)
}

/// The nesting at which [`by_shape`] puts each of `count` tools (the document itself is 0), for
/// tools printed as they come ([`ToolsPrinter`]).
fn tool_depth(count: usize, set_extras: &Map<String, Value>, default: Shape) -> usize {
    let in_shape = match written_shape(count, set_extras, default) {
        Shape::Single => 0,
        Shape::Array => 1,
        Shape::Wrapped => 2,
    };
    in_shape + usize::from(matches!(set_extras.get("envelope"), Some(Value::Object(_))))
}

/// The shape [`by_shape`] writes `count` tools in: the recorded one, else `default`; a one-tool
/// shape only for exactly one tool (an array otherwise).
fn written_shape(count: usize, set_extras: &Map<String, Value>, default: Shape) -> Shape {
    let recorded = set_extras.get("shape").and_then(Value::as_str).and_then(Shape::parse);
    match recorded.unwrap_or(default) {
        Shape::Single if count != 1 => match default {
            Shape::Single => Shape::Array,
            other => other,
        },
        shape => shape,
    }
}

/// `document` as the `result` of the JSON-RPC response the source came in (`envelope` in the
/// tool set's extras, recorded by [`crate::read::tool_list`]), its other keys in their order;
/// else `document` itself.
pub fn in_envelope<T: Node>(document: T, set_extras: &Map<String, Value>) -> T {
    match set_extras.get("envelope") {
        Some(Value::Object(envelope)) => {
            let mut response = T::Fields::default();
            for (key, value) in envelope {
                response.put(key.clone(), T::from(value.clone()));
            }
            response.put("result".into(), document);
            T::object(response)
        }
        _ => document,
    }
}

/// `{"<key>": [...]}` followed by the source's other top-level keys (`document` in the tool
/// set's extras, recorded by [`crate::read::tool_list`]).
pub fn wrapped<T: Node>(key: &str, tools: Vec<T>, set_extras: &Map<String, Value>) -> T {
    let mut document = T::Fields::default();
    document.put(key.into(), T::array(tools));
    if let Some(Value::Object(others)) = set_extras.get("document") {
        for (key, value) in others {
            document.put(key.clone(), T::from(value.clone()));
        }
    }
    T::object(document)
}

/// A written document as a one-file bundle, `<output name>.json`, pretty-printed.
pub fn json_bundle(document: &(impl Document + ?Sized), options: &Options) -> Bundle {
    text_bundle(document.pretty(), options)
}

/// `text` as the one-file bundle [`json_bundle`] makes.
fn text_bundle(text: String, options: &Options) -> Bundle {
    let mut bundle = Bundle::default();
    bundle.insert(format!("{}.json", options.output_name("tools")), text);
    bundle
}

/// What a function-tool format's writer makes: a [`Written`] document borrowing from the
/// model, or a `Value`. Printed by this crate, not by each format's: serde_json's printing
/// (escaping byte by byte) is compiled where it is instantiated, and in dev builds the format
/// crates are not optimised (this crate is, at opt-level 1): the command line's test of a 40 and
/// an 80 MB description written by mcp, anthropic and gemini took 29 s, now 23.
pub trait Document: Serialize {
    /// The document as pretty JSON ([`pretty`]).
    fn pretty(&self) -> String;

    /// [`Document::pretty`], taking the document, which is then freed as `options` ask
    /// ([`Options::free`]).
    fn into_pretty(self, options: &Options) -> String
    where
        Self: Sized,
    {
        let text = self.pretty();
        options.free(self);
        text
    }
}

impl Document for Written<'_> {
    fn pretty(&self) -> String {
        let mut text = print::document(self);
        text.push('\n');
        text
    }

    /// A document printed already ([`ToolsPrinter`]) is its text, not copied.
    fn into_pretty(self, options: &Options) -> String {
        match self {
            Written::Printed(printed) if printed.depth() == 0 => {
                let mut text = printed.into_text();
                text.push('\n');
                text
            }
            other => {
                let text = other.pretty();
                options.free(other);
                text
            }
        }
    }
}

impl Document for Value {
    fn pretty(&self) -> String {
        pretty(self)
    }
}

/// Pretty JSON, 2-space indented, with a trailing newline.
pub fn pretty(value: &(impl Serialize + ?Sized)) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// What a function-tool format's `document` makes: the document, the diagnostics said in full,
/// and those only counted: the losses its caller's detail counts
/// ([`loss::uncarried_as_asked`](toolport_core::loss::uncarried_as_asked), said first) are never
/// formatted.
pub type Made<D> = (D, Vec<Diagnostic>, Tally);

/// A function-tool format's `Format::write`: the format's own `document` (a `Value` or a
/// [`Written`] document borrowing from the model), as one JSON file named after the output
/// ([`json_bundle`]).
pub fn write_entry<'m, D: Document>(
    model: &'m ToolSet,
    options: &Options,
    document: fn(&'m ToolSet, &Options) -> Made<D>,
) -> Outcome<Bundle> {
    let (written, diagnostics, counted) = document(model, options);
    let bundle = text_bundle(written.into_pretty(options), options);
    Outcome::with(Some(bundle), diagnostics, counted)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A document of borrowed texts is written byte for byte as the same document built as a
    /// `Value`, in every shape and envelope a source may have had.
    #[test]
    fn a_written_document_is_the_text_of_the_same_value() {
        fn tool(text: Cow<'_, str>) -> Written<'_> {
            let mut members = WrittenObject::new();
            members.insert("name".into(), Value::from("a").into());
            members.insert("description".into(), text.into());
            members.insert("inputSchema".into(), json!({"type": "object", "properties": {}}).into());
            Written::Object(members)
        }
        let description = String::from("Says \"hi\"\n\u{1F980}");
        let value_tool =
            json!({"name": "a", "description": description, "inputSchema": {"type": "object", "properties": {}}});
        let extras = [
            json!({}),
            json!({"shape": "array"}),
            json!({"shape": "single"}),
            json!({"document": {"nextCursor": "c", "tools": "overwritten"}}),
            json!({"envelope": {"jsonrpc": "2.0", "result": null, "id": 1}}),
        ];
        for extras in extras {
            let extras = extras.as_object().unwrap();
            let value = pretty(&by_shape(vec![value_tool.clone()], extras, Shape::Wrapped, "tools"));
            for text in [Cow::Borrowed(description.as_str()), Cow::Owned(description.clone())] {
                let written = by_shape(vec![tool(text)], extras, Shape::Wrapped, "tools");
                assert_eq!(written.pretty(), value, "{extras:?}");
            }
            // Printed as each tool is made, at the depth the document puts it.
            let depth = tool_depth(1, extras, Shape::Wrapped);
            let printed =
                by_shape(vec![tool(description.as_str().into()).printed(depth)], extras, Shape::Wrapped, "tools");
            assert_eq!(printed.pretty(), value, "{extras:?}");
            // A part printed at another depth than where it lands is indented again there, and
            // serializes through serde as the value it was printed from.
            for other in [0, depth + 1, depth + 3] {
                let part = tool(description.as_str().into()).printed(other);
                assert_eq!(serde_json::to_value(&part).unwrap(), value_tool, "{extras:?} {other}");
                let elsewhere = by_shape(vec![part], extras, Shape::Wrapped, "tools");
                assert_eq!(elsewhere.pretty(), value, "{extras:?} {other}");
            }
        }
        assert_eq!(Written::Array(vec![]).pretty(), pretty(&json!([])));
        assert_eq!(Written::Object(WrittenObject::new()).pretty(), pretty(&json!({})));
    }

    /// A document printed tool by tool as the tools come is the text of the same document
    /// built whole, for every count of tools, shape, envelope, and a source's top-level key of
    /// the tools' name (which takes their place).
    #[test]
    fn a_document_printed_as_its_tools_come_is_the_text_of_the_whole() {
        let tool = |i: usize| json!({"name": format!("t{i}"), "inputSchema": {"type": "object", "properties": {}, "x": [[], {}]}});
        let extras = [
            json!({}),
            json!({"shape": "array"}),
            json!({"shape": "single"}),
            json!({"document": {"nextCursor": "c"}}),
            json!({"document": {"tools": "theirs", "more": 1}}),
            json!({"envelope": {"jsonrpc": "2.0", "result": null, "id": 1}}),
            json!({"shape": "single", "envelope": {"id": 2}}),
        ];
        for extras in &extras {
            let extras = extras.as_object().unwrap();
            for default in [Shape::Wrapped, Shape::Array, Shape::Single] {
                for count in 0..4 {
                    let tools: Vec<Value> = (0..count).map(tool).collect();
                    let whole = pretty(&by_shape(tools.clone(), extras, default, "tools"));
                    let mut printer = ToolsPrinter::new(count, extras, default, "tools");
                    for each in tools {
                        printer.push(&Written::Value(each));
                    }
                    let printed = printer.finish();
                    assert_eq!(printed.pretty(), whole, "{extras:?} {default:?} {count}");
                    assert_eq!(printed.into_pretty(&Options::default()), whole, "{extras:?} {default:?} {count}");
                }
            }
        }
    }

    /// Texts long enough for `json_string`'s line-by-line copy, each escaped as serde_json
    /// escapes it: line feeds, quotes and backslashes anywhere (first, last, repeated), other
    /// characters beside them, and other control characters (escaped by serde_json).
    fn long_texts() -> Vec<String> {
        let line = "A line of a description, long enough to be copied whole: é \u{1F980} \u{2028} \u{7f}.";
        let texts = [
            format!("{line}\n{line}\n\n\"{line}\"\\n\\"),
            format!("\n\"\\{line}\\\"\n"),
            format!("{line}\ttabbed\n{line}"),
            format!("{line}\r\n{line}\u{1}"),
            line.repeat(40),
        ];
        for text in &texts {
            let mut escaped = Vec::new();
            print::json_string(text, &mut escaped);
            assert_eq!(String::from_utf8(escaped).unwrap(), serde_json::to_string(text).unwrap(), "{text:?}");
        }
        texts.to_vec()
    }

    /// Short texts, copied whole when nothing in them needs escaping, are escaped as serde_json
    /// escapes them: every ASCII character and some others, alone, first, last, and at the
    /// end of the longest text copied whole.
    #[test]
    fn short_texts_are_escaped_as_serde_json_escapes_them() {
        let characters = (0u8..=0x7f).map(char::from).chain(['é', '\u{2028}', '\u{1F980}']);
        for c in characters {
            for text in [format!("{c}"), format!("ab{c}"), format!("{c}cd"), format!("{}{c}", "x".repeat(62))] {
                let mut escaped = Vec::new();
                print::json_string(&text, &mut escaped);
                assert_eq!(String::from_utf8(escaped).unwrap(), serde_json::to_string(&text).unwrap(), "{text:?}");
            }
        }
    }

    /// The document printer writes what serde_json's pretty printer writes, for every kind of
    /// value and nesting, empty containers and escapes included; each tool of a list printed
    /// ahead at its depth gives the same text, in every shape.
    #[test]
    fn the_printer_writes_serde_jsons_pretty_text() {
        let tricky = json!({
            "empty": {}, "none": [], "nested": [[], {}, [[{}]], {"a": []}],
            "numbers": [0, -1, 18446744073709551615u64, -9223372036854775808i64, 1.5, -0.0, 1e300, 2.5e-8],
            "texts": ["", "\"quoted\"\\", "tab\tnew\nline\u{1}", "\u{1F980} é \u{2028}", long_texts()],
            "flags": [true, false, null],
            "": {"": ""}
        });
        assert_eq!(Written::Value(tricky.clone()).pretty(), pretty(&tricky));
        let tools = vec![tricky.clone(), json!({"name": "b"}), json!([])];
        for shape in [json!({}), json!({"shape": "array"}), json!({"envelope": {"id": 1, "result": null}})] {
            let extras = shape.as_object().unwrap();
            let expected = pretty(&by_shape(tools.clone(), extras, Shape::Wrapped, "tools"));
            let depth = tool_depth(tools.len(), extras, Shape::Wrapped);
            let printed = tools.iter().map(|t| Written::Value(t.clone()).printed(depth)).collect();
            assert_eq!(by_shape(printed, extras, Shape::Wrapped, "tools").pretty(), expected, "{extras:?}");
        }
    }
}
