//! Loss reporting shared by every writer: a writer declares which model fields it carries,
//! and [`uncarried`] reports each present field it does not, with its model path. A writer
//! then adds diagnostics only for partial losses it alone can see (an expectation kind it
//! cannot express, a value it had to change).
//!
//! References: a writer that writes [`crate::ToolSet::definitions`] declares `definitions` in
//! [`Carried::tool_set`] and `reference` in [`Carried::schema`] (each definition's schema is
//! then checked like any other). A writer whose target cannot refer to schemas calls
//! [`crate::definitions::resolve`] first and passes the resolved model here, so it reports only
//! the cuts `resolve` itself reports.

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, ser};

use crate::json_kind::kind_in_plain_words;
use crate::model::SchemaAt;
use crate::source::child;
use crate::{
    AdditionalProperties, Detail, Diagnostic, Example, Extras, Options, Parameter, Said, Schema, Severity, Tally, Tool,
    ToolSet, codes,
};

/// The model fields (by their JSON names) a writer carries, per level of the model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Carried<'a> {
    /// Keys of the tool set (`id`, `title`, `servers`, …). `tools` is always carried.
    pub tool_set: &'a [&'a str],
    /// Keys of a tool (`title`, `prompt`, …). `name` and `parameters` are always carried.
    pub tool: &'a [&'a str],
    /// Keys of a parameter besides `name` and `schema` (`required`, `location`).
    pub parameter: &'a [&'a str],
    /// Keys of a schema (`type`, `enum`, `items`, …), at every depth.
    pub schema: &'a [&'a str],
    /// Keys of an example (`prompt`, `expected`, …), when the writer carries `examples`.
    pub example: &'a [&'a str],
}

impl Carried<'_> {
    /// The names listed that are not fields of the model level they are listed for, as
    /// (level, name): the fields are the JSON names the model types declare to serde (read
    /// from their `Deserialize`), so a field added to the model is known here at once.
    pub fn unknown_names(&self) -> Vec<(&'static str, &str)> {
        let levels = [
            ("tool_set", self.tool_set, declared_fields::<ToolSet>()),
            ("tool", self.tool, declared_fields::<Tool>()),
            ("parameter", self.parameter, declared_fields::<Parameter>()),
            ("schema", self.schema, declared_fields::<Schema>()),
            ("example", self.example, declared_fields::<Example>()),
        ];
        let mut unknown = Vec::new();
        for (level, listed, fields) in levels {
            unknown.extend(listed.iter().filter(|name| !fields.contains(name)).map(|name| (level, *name)));
        }
        unknown
    }
}

/// Every field present in `model` that `carried` leaves out, as loss diagnostics. Extras of
/// formats other than `format_id` are reported too (a writer keeps only its own).
///
/// The model is walked typed; at each level the present fields are the keys its JSON form
/// would have (`field_names`), so nothing is serialized (a resolved model can be huge).
///
/// In debug builds (every test), a name in `carried` that is not a field of the model level it
/// is listed for panics ([`Carried::unknown_names`]): a typo would otherwise report nothing.
pub fn uncarried(model: &ToolSet, format_id: &str, carried: &Carried) -> Vec<Diagnostic> {
    let mut said = Said::new(Detail::All);
    uncarried_said(model, format_id, carried, &mut said);
    said.into_parts().0
}

/// [`uncarried`] kept to the detail the caller asked for ([`Options::DIAGNOSTIC_DETAIL`]): the
/// losses it keeps in full, in their order, and the count of the others, whose messages are
/// never formatted. A writer that says every other diagnostic after these returns both, and the
/// SDK's fold of the rest keeps and counts what it would have of all of them made.
pub fn uncarried_as_asked(
    model: &ToolSet,
    format_id: &str,
    carried: &Carried,
    options: &Options,
) -> (Vec<Diagnostic>, Tally) {
    let mut said = Said::new(options.detail());
    uncarried_said(model, format_id, carried, &mut said);
    said.into_parts()
}

/// [`uncarried`], said to `out`: what its detail only counts is counted, its message never
/// formatted (a batch run with `-q` or a summary formats none of a file's losses).
pub fn uncarried_said(model: &ToolSet, format_id: &str, carried: &Carried, out: &mut Said) {
    #[cfg(debug_assertions)]
    {
        let unknown = carried.unknown_names();
        assert!(unknown.is_empty(), "`Carried` lists names that are not model fields (level, name): {unknown:?}");
    }
    let target = format_id;
    let every_field = carries_every_schema_field(carried.schema);
    for key in field_names(model) {
        match key {
            "tools" => {}
            "extras" => foreign_extras(&model.extras, "", format_id, out),
            _ if !carried.tool_set.contains(&key) => {
                say_loss(out, key, "", &|| format!("the tool set's `{key}`"), target);
            }
            "definitions" => {
                for (name, schema) in &model.definitions {
                    let what = || format!("definition `{name}`");
                    let path = child(&child("", "definitions"), name);
                    schema_level(schema, &path, carried.schema, every_field, &what, format_id, out);
                }
            }
            "examples" => {
                for (i, example) in model.examples.iter().enumerate() {
                    let path = child(&child("", "examples"), i.to_string());
                    level(example, &path, carried.example, &["extras"], &|| "example".to_owned(), target, out);
                    foreign_extras(&example.extras, &path, format_id, out);
                }
            }
            _ => {}
        }
    }
    for (i, tool) in model.tools.iter().enumerate() {
        let path = child("/tools", i.to_string());
        let name = &tool.name;
        let what = || format!("tool `{name}`");
        level(tool, &path, carried.tool, &["name", "parameters", "extras"], &what, target, out);
        foreign_extras(&tool.extras, &path, format_id, out);
        for (j, parameter) in tool.parameters.iter().enumerate() {
            let ppath = child(&child(&path, "parameters"), j.to_string());
            let pname = &parameter.name;
            let what = || format!("parameter `{pname}` of tool `{name}`");
            level(parameter, &ppath, carried.parameter, &["name", "schema", "extras"], &what, target, out);
            foreign_extras(&parameter.extras, &ppath, format_id, out);
            schema_level(
                &parameter.schema,
                &child(&ppath, "schema"),
                carried.schema,
                every_field,
                &what,
                format_id,
                out,
            );
        }
        if let Some(schema) = tool.output.as_ref().and_then(|o| o.schema.as_ref())
            && carried.tool.contains(&"output")
        {
            let what = || format!("the output of tool `{name}`");
            let path = child(&child(&path, "output"), "schema");
            schema_level(schema, &path, carried.schema, every_field, &what, format_id, out);
        }
    }
}

/// Tool-set fields present in `model` that a writer keeps only in its own bookkeeping (so that
/// toolport reads them back) and in no place the target's consumers read: a loss for anyone
/// else, reported like one, with the field's code, saying where the value is still kept.
pub fn kept_only_as_bookkeeping(model: &ToolSet, target: &str, tool_set: &[&str], kept_in: &str) -> Vec<Diagnostic> {
    #[cfg(debug_assertions)]
    {
        let listed = Carried { tool_set, ..Carried::default() };
        let unknown = listed.unknown_names();
        assert!(unknown.is_empty(), "names that are not model fields (level, name): {unknown:?}");
    }
    field_names(model)
        .into_iter()
        .filter(|key| tool_set.contains(key))
        .map(|key| {
            let mut diagnostic = loss(key, &child("", key), &format!("the tool set's `{key}`"), target);
            diagnostic.message = format!(
                "{target} has no place for the tool set's `{key}`: kept only in {kept_in} for toolport to read back, which no {target} consumer reads"
            );
            diagnostic
        })
        .collect()
}

/// What a level of the model is, in a message (`tool `x``), made only for a message kept.
type What<'a> = dyn Fn() -> String + 'a;

fn level<T: Serialize>(
    value: &T,
    path: &str,
    carried: &[&str],
    always: &[&str],
    what: &What,
    target: &str,
    out: &mut Said,
) {
    for key in field_names(value) {
        if !carried.contains(&key) && !always.contains(&key) {
            say_loss(out, key, path, &|| format!("`{key}` of {}", what()), target);
        }
    }
}

/// Whether `carried` holds every field of a schema (`extras` aside: other formats' extras are
/// said, the target's kept, never carried as a field).
fn carries_every_schema_field(carried: &[&str]) -> bool {
    every_schema_field().iter().all(|field| *field == "extras" || carried.contains(field))
}

/// The schema's uncarried fields and other formats' extras, and those of the schemas in it.
/// `every_field`: [`carries_every_schema_field`] of `carried`, asked once per walk of a model.
fn schema_level(
    schema: &Schema,
    path: &str,
    carried: &[&str],
    every_field: bool,
    what: &What,
    format_id: &str,
    out: &mut Said,
) {
    if every_field {
        // Nothing of a schema can be uncarried but other formats' extras: no field names asked.
        foreign_extras_within(schema, &SchemaAt::Root(path), format_id, out);
    } else {
        schema_level_at(schema, &SchemaAt::Root(path), carried, what, format_id, out);
    }
}

/// The names of every field of a [`Schema`], set or not, in their order.
fn every_schema_field() -> &'static [&'static str] {
    static FIELDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let mut names = Vec::new();
        let _ = Schema::default().serialize(FieldNames { each: &mut |name| names.push(name), unset_too: true });
        names
    })
}

/// What [`schema_level_at`] says of `schema` and the schemas in it when every field is carried:
/// other formats' extras, in the same order (a schema's own after those of the schemas in it,
/// as its fields come).
fn foreign_extras_within(schema: &Schema, at: &SchemaAt, format_id: &str, out: &mut Said) {
    if let Some(items) = &schema.items {
        foreign_extras_within(items, &SchemaAt::Items(at), format_id, out);
    }
    for (i, property) in schema.properties.iter().enumerate() {
        foreign_extras_within(&property.schema, &SchemaAt::Property(at, i), format_id, out);
    }
    if let Some(AdditionalProperties::Schema(extra)) = &schema.additional_properties {
        foreign_extras_within(extra, &SchemaAt::AdditionalProperties(at), format_id, out);
    }
    for (i, member) in schema.any_of.iter().enumerate() {
        foreign_extras_within(member, &SchemaAt::AnyOf(at, i), format_id, out);
    }
    if schema.extras.keys().any(|key| key != format_id && key != "jsonschema") {
        foreign_extras(&schema.extras, &at.path(), format_id, out);
    }
}

fn schema_level_at(schema: &Schema, at: &SchemaAt, carried: &[&str], what: &What, format_id: &str, out: &mut Said) {
    for_each_field_name(schema, &mut |key| {
        if key == "extras" {
            if schema.extras.keys().any(|key| key != format_id && key != "jsonschema") {
                foreign_extras(&schema.extras, &at.path(), format_id, out);
            }
            return;
        }
        if !carried.contains(&key) {
            out.say(Severity::Warning, codes::LOSS_SCHEMA, || {
                Diagnostic::loss(
                    codes::LOSS_SCHEMA,
                    child(&at.path(), key),
                    format!("{format_id} cannot express `{key}` in the schema of {}", what()),
                )
            });
            return;
        }
        match key {
            "items" => {
                if let Some(items) = &schema.items {
                    schema_level_at(items, &SchemaAt::Items(at), carried, what, format_id, out);
                }
            }
            "additional_properties" => {
                if let Some(AdditionalProperties::Schema(extra)) = &schema.additional_properties {
                    let at = SchemaAt::AdditionalProperties(at);
                    schema_level_at(extra, &at, carried, what, format_id, out);
                }
            }
            "properties" => {
                for (i, property) in schema.properties.iter().enumerate() {
                    let at = SchemaAt::Property(at, i);
                    schema_level_at(&property.schema, &at, carried, what, format_id, out);
                }
            }
            "any_of" => {
                for (i, s) in schema.any_of.iter().enumerate() {
                    schema_level_at(s, &SchemaAt::AnyOf(at, i), carried, what, format_id, out);
                }
            }
            _ => {}
        }
    });
}

/// The names of the fields `value` serializes, in order: the keys of its JSON object, found
/// without serializing any field's value. Empty for a value that is not a struct.
fn field_names<T: Serialize + ?Sized>(value: &T) -> Vec<&'static str> {
    let mut names = Vec::new();
    for_each_field_name(value, &mut |name| names.push(name));
    names
}

/// [`field_names`] given one by one to `each`, nothing collected (the schema walk asks this of
/// every schema).
fn for_each_field_name<T: Serialize + ?Sized>(value: &T, each: &mut dyn FnMut(&'static str)) {
    // Only structs are accepted; anything else ends the walk with an error and no names.
    let _ = value.serialize(FieldNames { each, unset_too: false });
}

/// The JSON names of every field of the struct `T`, present or not: the list its derived
/// `Deserialize` gives the deserializer (empty for a type that does not deserialize a struct).
fn declared_fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The deserializer only records the list and fails, so no value is ever made.
    let _ = T::deserialize(DeclaredFields(&mut fields));
    fields
}

struct DeclaredFields<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for DeclaredFields<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("only the field names were wanted"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// Gives `each` the name of every field a struct serializes, and of those it skips with
/// `unset_too`.
struct FieldNames<'a> {
    each: &'a mut dyn FnMut(&'static str),
    unset_too: bool,
}

fn not_a_struct() -> serde_json::Error {
    ser::Error::custom("not a struct")
}

macro_rules! refuse {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $ty),*) -> Result<(), serde_json::Error> {
            Err(not_a_struct())
        })*
    };
}

impl<'a> ser::Serializer for FieldNames<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = ser::Impossible<(), serde_json::Error>;
    type SerializeTuple = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = ser::Impossible<(), serde_json::Error>;
    type SerializeMap = ser::Impossible<(), serde_json::Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = ser::Impossible<(), serde_json::Error>;

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, serde_json::Error> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, serde_json::Error> {
        Err(not_a_struct())
    }
}

impl ser::SerializeStruct for FieldNames<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, _: &T) -> Result<(), serde_json::Error> {
        (self.each)(key);
        Ok(())
    }
    fn skip_field(&mut self, key: &'static str) -> Result<(), serde_json::Error> {
        if self.unset_too {
            (self.each)(key);
        }
        Ok(())
    }
    fn end(self) -> Result<(), serde_json::Error> {
        Ok(())
    }
}

fn foreign_extras(extras: &Extras, path: &str, format_id: &str, out: &mut Said) {
    for (key, value) in extras {
        // `jsonschema` holds schema keywords outside the canonical subset; any schema-rich
        // writer may carry it, so it is reported by the schema walk's `carried` list instead.
        if key != format_id && key != "jsonschema" {
            out.say(Severity::Warning, codes::LOSS_EXTRAS, || {
                foreign_extras_loss(&child(path, "extras"), format_id, key, value)
            });
        }
    }
}

/// Under a format's extras (`extras[<format>][SOURCE_FILES]`), the source's own files (code,
/// assets, READMEs) that only a writer of that format gives back, as Raycast keeps an
/// extension's files. A writer that keeps other formats' extras (OpenAPI's
/// `x-toolport-extras`) leaves them out with [`without_source_files`]: a tool definition is no
/// place to publish an extension's code.
pub const SOURCE_FILES: &str = "source_files";

/// The `extras` (at `extras_path`) of the formats `wanted` names, without other formats'
/// [`SOURCE_FILES`], and a `loss/extras` for each format's files left out (wanted or not:
/// `target` writes none of them), saying how many. Only the wanted records are copied.
pub fn without_source_files(
    extras: &Extras,
    extras_path: &str,
    target: &str,
    wanted: impl Fn(&str) -> bool,
    out: &mut Vec<Diagnostic>,
) -> Extras {
    let mut kept = Extras::new();
    for (format, value) in extras {
        let files = (format != target).then(|| value.get(SOURCE_FILES)).flatten();
        if let Some(files) = files {
            let count: usize = match files {
                serde_json::Value::Object(parts) => parts.values().filter_map(|v| v.as_object()).map(|m| m.len()).sum(),
                _ => 0,
            };
            let message = format!(
                "the {format} source's own files ({count} of them: code, assets, documents) are not written into {target}: only a {format} writer gives them back"
            );
            out.push(Diagnostic::loss(codes::LOSS_EXTRAS, child(&child(extras_path, format), SOURCE_FILES), message));
        }
        if !wanted(format) {
            continue;
        }
        let value = match (value, files) {
            (serde_json::Value::Object(own), Some(_)) => serde_json::Value::Object(
                own.iter().filter(|(key, _)| *key != SOURCE_FILES).map(|(k, v)| (k.clone(), v.clone())).collect(),
            ),
            _ => value.clone(),
        };
        kept.insert(format.clone(), value);
    }
    kept
}

/// The extras key under which the host keeps model fields from a newer plugin that this
/// version does not know (JSON pointer → value).
pub const UNKNOWN_FIELDS: &str = "toolport-unknown";

/// The `loss/extras` diagnostic for `extras[key]` (at `extras_path/key`) that `target` cannot
/// hold, naming what is lost: the keys another format kept, with their kinds of value, or the
/// fields of [`UNKNOWN_FIELDS`]. Writers that report extras themselves use this too.
pub fn foreign_extras_loss(extras_path: &str, target: &str, key: &str, value: &serde_json::Value) -> Diagnostic {
    let message = if key == UNKNOWN_FIELDS {
        let fields = match value {
            serde_json::Value::Object(map) => listed(map.keys().map(|k| format!("`{k}`")).collect()),
            _ => "some".to_owned(),
        };
        format!(
            "model fields from a newer plugin that this convert does not know ({fields}) were kept only as bookkeeping (extras `{UNKNOWN_FIELDS}`); {target} does not write them"
        )
    } else {
        let what = match value {
            serde_json::Value::Object(map) if !map.is_empty() => listed(
                map.iter()
                    .map(|(k, v)| match source_file_names(k, v) {
                        Some(names) => format!("its source's own files ({})", listed(names)),
                        None => format!("`{k}` ({})", kind_in_plain_words(v)),
                    })
                    .collect(),
            ),
            other => kind_in_plain_words(other).to_owned(),
        };
        format!("{target} cannot hold {key}'s own data (kept to write {key} back the same way): {what}; left out")
    };
    Diagnostic::loss(codes::LOSS_EXTRAS, child(extras_path, key), message)
}

/// The names of the files under a format's [`SOURCE_FILES`] (a bundle's `files` and
/// `binary_files`, by path), so a loss names each file and not the bookkeeping key.
fn source_file_names(key: &str, value: &serde_json::Value) -> Option<Vec<String>> {
    if key != SOURCE_FILES {
        return None;
    }
    let parts = value.as_object()?;
    let names = ["files", "binary_files"]
        .iter()
        .filter_map(|part| parts.get(*part)?.as_object())
        .flat_map(|files| files.keys().map(|name| format!("`{name}`")))
        .collect();
    Some(names)
}

/// At most six items, then how many more.
fn listed(items: Vec<String>) -> String {
    const SHOWN: usize = 6;
    let more = items.len().saturating_sub(SHOWN);
    let mut text = items.into_iter().take(SHOWN).collect::<Vec<_>>().join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// The loss code of a model field by its JSON name.
fn loss_code(key: &str) -> &'static str {
    match key {
        "prompt" => codes::LOSS_PROMPT,
        "model_settings" => codes::LOSS_MODEL_SETTINGS,
        "http" | "location" | "servers" | "pinned" => codes::LOSS_HTTP,
        "auth" => codes::LOSS_AUTH,
        "examples" | "expected" | "mocks" | "response" | "response_summary" | "used_as_example" | "name" => {
            codes::LOSS_EXAMPLES
        }
        "display" => codes::LOSS_DISPLAY,
        "confirmation" | "hints" => codes::LOSS_CONFIRMATION,
        _ => codes::LOSS_FIELD,
    }
}

fn loss(key: &str, path: &str, what: &str, target: &str) -> Diagnostic {
    Diagnostic::loss(loss_code(key), path, format!("{target} cannot hold {what}; it was left out"))
}

/// The loss of field `key` at `parent`'s child `key`, said to `out`.
fn say_loss(out: &mut Said, key: &str, parent: &str, what: &What, target: &str) {
    out.say(Severity::Warning, loss_code(key), || loss(key, &child(parent, key), &what(), target));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConstraintFields, Parameter, Schema, SchemaType, Tool};

    fn check(model: &ToolSet, carried: &Carried, expect: &[(&str, &str)]) {
        let got: Vec<(String, String)> =
            uncarried(model, "target", carried).into_iter().map(|d| (d.code, d.path)).collect();
        let want: Vec<(String, String)> = expect.iter().map(|(c, p)| (c.to_string(), p.to_string())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn reports_each_uncarried_field_with_its_path() {
        let mut tool = Tool::new("summarize");
        tool.prompt = Some("Summarize {{text}}".into());
        tool.title = Some("Summarize".into());
        let mut schema = Schema::of(SchemaType::Array);
        schema.items = Some(Box::new(Schema {
            constraints: ConstraintFields { pattern: Some("x".into()), ..ConstraintFields::NONE }.into(),
            ..Schema::of(SchemaType::String)
        }));
        tool.parameters.push(Parameter::new("text", schema));
        tool.extras.insert("skydeck".into(), serde_json::json!({"k": 1}));
        let model = ToolSet { id: Some("x".into()), tools: vec![tool], ..ToolSet::default() };
        let carried = Carried { tool_set: &["id"], tool: &["title"], schema: &["type", "items"], ..Carried::default() };
        check(
            &model,
            &carried,
            &[
                ("loss/prompt", "/tools/0/prompt"),
                ("loss/extras", "/tools/0/extras/skydeck"),
                ("loss/schema", "/tools/0/parameters/0/schema/items/pattern"),
            ],
        );
        let mut own = model.clone();
        own.tools[0].prompt = None;
        own.tools[0].parameters.clear();
        assert!(uncarried(&own, "skydeck", &carried).is_empty(), "own extras are not a loss");
    }

    #[test]
    fn a_nested_schemas_loss_has_the_path_to_it() {
        use crate::{AdditionalProperties, Property};
        let patterned = || Schema {
            constraints: ConstraintFields { pattern: Some("x".into()), ..ConstraintFields::NONE }.into(),
            ..Schema::of(SchemaType::String)
        };
        let mut foreign = Schema::of(SchemaType::Integer);
        foreign.extras.insert("skydeck".into(), serde_json::json!({"k": 1}));
        let mut object = Schema::of(SchemaType::Object);
        object.properties = vec![
            Property { name: "a".into(), required: false, schema: Schema::of(SchemaType::String) },
            Property {
                name: "b".into(),
                required: false,
                schema: Schema { any_of: vec![Schema::of(SchemaType::Null), patterned()], ..Schema::default() },
            },
        ];
        object.additional_properties = Some(AdditionalProperties::Schema(Box::new(foreign)));
        let mut tool = Tool::new("t");
        tool.parameters.push(Parameter::new("p", object));
        let model = ToolSet { tools: vec![tool], ..ToolSet::default() };
        let schema = &["type", "properties", "any_of", "additional_properties"];
        check(
            &model,
            &Carried { schema, ..Carried::default() },
            &[
                ("loss/schema", "/tools/0/parameters/0/schema/properties/1/schema/any_of/1/pattern"),
                ("loss/extras", "/tools/0/parameters/0/schema/additional_properties/extras/skydeck"),
            ],
        );
    }

    /// A writer that carries every schema field has only other formats' extras said of its
    /// schemas, without asking each schema its fields: the same diagnostics, in the same order,
    /// as the field walk gives where one field that no schema sets is not carried.
    #[test]
    fn carrying_every_schema_field_says_what_the_field_walk_says() {
        use crate::{AdditionalProperties, Property};
        let foreign = |kind: SchemaType, key: &str| {
            let mut schema = Schema::of(kind);
            schema.extras.insert(key.into(), serde_json::json!({"k": 1}));
            schema.extras.insert("jsonschema".into(), serde_json::json!({"x-kept": 1}));
            schema
        };
        let mut object = foreign(SchemaType::Object, "skydeck");
        object.items = Some(Box::new(foreign(SchemaType::String, "gloodata")));
        object.properties = vec![
            Property { name: "a".into(), required: false, schema: foreign(SchemaType::String, "raycast") },
            Property {
                name: "b".into(),
                required: false,
                schema: Schema {
                    any_of: vec![foreign(SchemaType::Null, "a"), foreign(SchemaType::Integer, "b")],
                    ..Schema::default()
                },
            },
        ];
        object.additional_properties = Some(AdditionalProperties::Schema(Box::new(foreign(SchemaType::Number, "c"))));
        let mut tool = Tool::new("t");
        tool.parameters.push(Parameter::new("p", object.clone()));
        tool.output = Some(Box::new(crate::Output { schema: Some(object.clone()), ..Default::default() }));
        let mut model = ToolSet { tools: vec![tool], ..ToolSet::default() };
        model.definitions.insert("D".into(), object);
        let every: Vec<&str> = every_schema_field().iter().copied().filter(|f| *f != "extras").collect();
        assert!(every.len() >= 25 && every.contains(&"any_of") && every.contains(&"multiline"), "{every:?}");
        let all_but_multiline: Vec<&str> = every.iter().copied().filter(|f| *f != "multiline").collect();
        let said = |schema: &[&str]| {
            let carried = Carried { tool_set: &["definitions"], tool: &["output"], schema, ..Carried::default() };
            uncarried(&model, "target", &carried).into_iter().map(|d| (d.code, d.path, d.message)).collect::<Vec<_>>()
        };
        let fast = said(&every);
        assert_eq!(fast, said(&all_but_multiline));
        assert_eq!(fast.len(), 3 * 6, "{fast:#?}");
        assert_eq!(fast[0].1, "/definitions/D/items/extras/gloodata");
    }

    #[test]
    fn fields_kept_only_as_bookkeeping_are_losses_with_their_codes() {
        let example = Example { prompt: "Hi".into(), ..Example::default() };
        let model = ToolSet { id: Some("x".into()), examples: vec![example], ..ToolSet::default() };
        let found = kept_only_as_bookkeeping(&model, "openapi", &["examples", "instructions"], "`x-toolport`");
        let got: Vec<(&str, &str)> = found.iter().map(|d| (d.code.as_str(), d.path.as_str())).collect();
        assert_eq!(got, [("loss/examples", "/examples")], "absent fields and fields not listed are not reported");
        assert!(found[0].message.contains("kept only in `x-toolport`"), "{}", found[0].message);
        assert!(kept_only_as_bookkeeping(&ToolSet::default(), "openapi", &["examples"], "x").is_empty());
    }

    #[test]
    fn declared_fields_are_the_json_names_of_every_field() {
        let fields = declared_fields::<Schema>();
        assert!(fields.contains(&"type") && fields.contains(&"enum") && fields.contains(&"additional_properties"));
        assert!(!fields.contains(&"kind") && !fields.contains(&"enumeration"), "the Rust names are not the JSON ones");
        let tool = Tool { prompt: Some("p".into()), output: Some(Default::default()), ..Tool::new("t") };
        let present = field_names(&tool);
        assert!(present.len() >= 3 && present.iter().all(|name| declared_fields::<Tool>().contains(name)));
        assert!(declared_fields::<Tool>().len() > present.len(), "absent fields are declared too");
    }

    #[test]
    fn a_name_that_is_not_a_model_field_is_caught() {
        let carried = Carried { tool: &["title", "promt"], schema: &["type", "enumeration"], ..Carried::default() };
        assert_eq!(carried.unknown_names(), [("tool", "promt"), ("schema", "enumeration")]);
        let every_level = Carried {
            tool_set: &["id", "definitions"],
            tool: &["output", "hints"],
            parameter: &["required", "location"],
            schema: &["reference", "any_of"],
            example: &["prompt", "expected"],
        };
        assert_eq!(every_level.unknown_names(), []);
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "(\"tool\", \"promt\")")]
    fn writers_fail_their_tests_on_a_misspelt_name() {
        uncarried(&ToolSet::default(), "target", &Carried { tool: &["promt"], ..Carried::default() });
    }

    #[test]
    fn extras_losses_name_what_is_lost() {
        let mut tool = Tool::new("t");
        tool.extras.insert("openai".into(), serde_json::json!({"strict": true, "form": "responses", "keep": {"x": 1}}));
        tool.extras.insert(UNKNOWN_FIELDS.into(), serde_json::json!({"/tools/0/deprecated": true}));
        let mut model = ToolSet { tools: vec![tool], ..ToolSet::default() };
        let files = serde_json::json!({"files": {"server/index.js": "…"}, "binary_files": {"icon.png": "iVBO"}});
        model.extras.insert("mcp-server".into(), serde_json::json!({"server": {}, SOURCE_FILES: files}));
        let messages: Vec<String> =
            uncarried(&model, "mcp", &Carried::default()).into_iter().map(|d| d.message).collect();
        assert_eq!(
            messages,
            [
                "mcp cannot hold mcp-server's own data (kept to write mcp-server back the same way): `server` (an object), its source's own files (`server/index.js`, `icon.png`); left out",
                "mcp cannot hold openai's own data (kept to write openai back the same way): `strict` (true/false), `form` (text), `keep` (an object); left out",
                "model fields from a newer plugin that this convert does not know (`/tools/0/deprecated`) were kept only as bookkeeping (extras `toolport-unknown`); mcp does not write them",
            ]
        );
    }
}
