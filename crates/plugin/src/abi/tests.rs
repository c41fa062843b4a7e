use super::*;
use serde_json::json;
use std::borrow::Cow;
use toolport_core::{Bundle, MODEL_SCHEMA_MINOR, Options, ToolSet, UNKNOWN_FIELDS};

/// The version read from a model's leading keys is the one a full decode finds, for the
/// SDK's own output and for any other spelling of the envelope.
#[test]
fn a_models_version_is_read_from_its_leading_keys() {
    let written = serde_json::to_string(&ToolSet::default().versioned()).unwrap();
    let full: ModelVersion = decode_message(written.as_bytes()).unwrap();
    assert_eq!(ModelVersion::of(&written).unwrap().version(), full.version());
    for (text, expect) in [
        (r#"{"schema_version":7,"schema_minor":3,"tool_set":{}}"#, Some((7, 3))),
        (r#"{"schema_version":2,"tool_set":{}}"#, Some((2, 0))),
        (r#"{ "tool_set": {}, "schema_minor": 4, "schema_version": 1 }"#, Some((1, 4))),
        (r#"{"schema_version":99999999999,"tool_set":{}}"#, None),
        (r#"{"schema_version":1"#, None),
        (r#"{"tool_set":{}}"#, None),
    ] {
        let got = ModelVersion::of(text).ok().map(|v| (v.schema_version, v.schema_minor));
        assert_eq!(got, expect, "{text}");
    }
}

/// What the host writes from borrowed data is what the plugin reads into owned data.
#[test]
fn borrowed_requests_decode_into_owned_ones() {
    let bundle = Bundle::single("in.json", "{}");
    let mut options = Options::default();
    options.set("k", "v");
    let model = ToolSet { title: Some("t".into()), ..ToolSet::default() };

    let sent =
        serde_json::to_vec(&ReadRequest { bundle: Cow::Borrowed(&bundle), options: Cow::Borrowed(&options) }).unwrap();
    let got: ReadRequest = decode_message(&sent).unwrap();
    assert!(matches!(got.bundle, Cow::Owned(_)));
    assert_eq!((&*got.bundle, &*got.options), (&bundle, &options));

    let sent = serde_json::to_vec(&DetectRequest { bundle: Cow::Borrowed(&bundle) }).unwrap();
    assert_eq!(*decode_message::<DetectRequest>(&sent).unwrap().bundle, bundle);

    for with_minor in [true, false] {
        let request = WriteRequest {
            model: ModelJson::Decoded(VersionedRef::new(&model, with_minor)),
            options: Cow::Borrowed(&options),
        };
        let sent = serde_json::to_vec(&request).unwrap();
        let got: WriteRequest = decode_message(&sent).unwrap();
        let raw = got.model.raw().unwrap();
        let (decoded, diagnostics) = decode_model(raw.get().as_bytes(), "test").unwrap();
        assert_eq!(decoded.tool_set, model);
        assert_eq!(decoded.schema_minor, if with_minor { MODEL_SCHEMA_MINOR } else { 0 });
        assert!(diagnostics.is_empty());
        // The raw form passes the same JSON on.
        let again = serde_json::to_vec(&WriteRequest { model: ModelJson::Raw(raw), options: got.options }).unwrap();
        assert_eq!(again, sent);
    }
}

/// Unknown model fields cross with a diagnostic instead of a refusal, kept in extras.
#[test]
fn unknown_model_fields_are_kept_and_reported() {
    let model = json!({"schema_version": 1, "schema_minor": 7, "producer": "new toolport", "tool_set": {
        "tools": [
            {"name": "a", "deprecated": true, "parameters": [{"name": "p", "schema": {"type": "string", "const": "x"}}]},
            {"name": "b", "deprecated": false}
        ],
        "extras": {"toolport-unknown": {"/old": 1}}
    }});
    let (decoded, diagnostics) = decode_model(model.to_string().as_bytes(), "plugin test").unwrap();
    assert_eq!((decoded.schema_version, decoded.schema_minor), (1, 7));
    assert_eq!(decoded.tool_set.tools.len(), 2);
    assert_eq!(
        decoded.tool_set.extras[UNKNOWN_FIELDS],
        json!({"/old": 1, "/tools/0/deprecated": true, "/tools/0/parameters/0/schema/const": "x", "/tools/1/deprecated": false})
    );
    let lines: Vec<(&str, &str, &str)> =
        diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_str(), d.message.as_str())).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!((lines[0].0, lines[0].1), ("input/unknown-key", "/tools/0/deprecated"));
    assert!(lines[0].2.contains("`deprecated` (and at 1 more places) is unknown to plugin test"), "{}", lines[0].2);
    assert!(lines[0].2.contains(&format!("reads model schema {MODEL_SCHEMA} (this model is 1.7)")), "{}", lines[0].2);
    assert_eq!(lines[1].1, "/tools/0/parameters/0/schema/const");
    assert!(diagnostics.iter().all(|d| d.severity == toolport_core::Severity::Warning));
}

#[test]
fn another_model_major_is_refused_naming_both_versions() {
    let model = json!({"schema_version": 2, "schema_minor": 0, "tool_set": {"tools": [], "renamed": 1}});
    let error = decode_model(model.to_string().as_bytes(), "convert").unwrap_err();
    assert!(error.contains("the model is schema version 2.0, convert reads model schema 1.x"), "{error}");
    assert!(error.contains(&format!("it speaks {MODEL_SCHEMA}")), "{error}");
}

#[test]
fn each_minors_table_is_the_prefix_of_the_next() {
    let free_end = std::mem::offset_of!(PluginTable, free) + std::mem::size_of::<FreeFn>();
    assert_eq!(PluginTable::SIZE_1_0 as usize, free_end);
    assert_eq!(PluginTable::SIZE_1_1, PluginTable::SIZE_1_0 + 8);
    // 1.3's three native entries, appended without padding.
    assert_eq!(PluginTable::SIZE_1_3, PluginTable::SIZE_1_1 + 3 * 8);
    assert_eq!(TableHeader::CURRENT.table_size, PluginTable::SIZE_1_3);
}

/// A bundle's texts beside the JSON decode to the bundle sent, whatever they hold; plain JSON
/// still decodes, and says so.
#[test]
fn texts_beside_the_json_decode_to_the_bundle_sent() {
    let mut bundle = Bundle::single("spec.json", r#"{"a": "\"quoted\" \\ back\nslash", "é": "🦀"}"#);
    bundle.files.insert("empty.txt".into(), String::new());
    bundle.files.insert("z/nested.yaml".into(), "k: v\n".into());
    bundle.other_files.push("icon.png".into());
    let options = Options::default();

    let (shell, texts) = texts::hollow(&bundle);
    assert!(shell.files.values().all(String::is_empty));
    let sent = texts::encode(&ReadRequest { bundle: Cow::Borrowed(&shell), options: Cow::Borrowed(&options) }, &texts)
        .unwrap();
    assert!(sent.starts_with(texts::TEXTS_MAGIC));
    let (got, beside) = texts::decode::<ReadRequest>(&sent).unwrap();
    assert!(beside);
    assert_eq!(*got.bundle, bundle);

    let plain = serde_json::to_vec(&DetectRequest { bundle: Cow::Borrowed(&bundle) }).unwrap();
    let (got, beside) = texts::decode::<DetectRequest>(&plain).unwrap();
    assert!(!beside);
    assert_eq!(*got.bundle, bundle);

    // A response: the texts are taken out of the bundle, and come back.
    let mut outcome = toolport_core::Outcome::ok(bundle.clone(), Vec::new());
    let taken = texts::take_texts(outcome.value.as_mut().unwrap());
    let refs: Vec<&str> = taken.iter().map(String::as_str).collect();
    let sent = texts::encode(&outcome, &refs).unwrap();
    let (got, _) = texts::decode::<WriteResponse>(&sent).unwrap();
    assert_eq!(got.value.unwrap(), bundle);
    // Framed in the last text's own memory, the message is the same, with any number of texts.
    assert_eq!(texts::encode_taken(&outcome, taken).unwrap(), sent);
    let one = Bundle::single("out.json", "{\"tools\": []}\n");
    let mut outcome = toolport_core::Outcome::ok(one.clone(), Vec::new());
    let taken = texts::take_texts(outcome.value.as_mut().unwrap());
    let sent = texts::encode_taken(&outcome, taken).unwrap();
    assert_eq!(texts::decode::<WriteResponse>(&sent).unwrap().0.value.unwrap(), one);
    let empty = toolport_core::Outcome::ok(Bundle::default(), Vec::new());
    assert_eq!(texts::encode_taken(&empty, Vec::new()).unwrap(), texts::encode(&empty, &[]).unwrap());
}

/// Each damaged message in the texts-beside form is refused with a reason, never a panic or
/// an allocation its length fields ask for.
#[test]
fn damaged_messages_with_texts_beside_are_refused() {
    let bundle = Bundle::single("a.json", "{}");
    let (shell, texts) = texts::hollow(&bundle);
    let good = texts::encode(&DetectRequest { bundle: Cow::Borrowed(&shell) }, &texts).unwrap();
    for cut in 1..good.len() {
        let error = texts::decode::<DetectRequest>(&good[..cut]).map(|_| ()).unwrap_err();
        assert!(!error.is_empty(), "cut at {cut}");
    }
    let header = |count: u32, lengths: &[u64], json: &str| {
        let mut m = texts::TEXTS_MAGIC.to_vec();
        m.extend_from_slice(&count.to_le_bytes());
        lengths.iter().for_each(|l| m.extend_from_slice(&l.to_le_bytes()));
        m.extend_from_slice(&(json.len() as u64).to_le_bytes());
        m.extend_from_slice(json.as_bytes());
        m
    };
    let request = r#"{"bundle": {"files": {"a.json": ""}}}"#;
    let mut extra = good.clone();
    extra.push(b'x');
    let mut not_utf8 = header(1, &[2], request);
    not_utf8.extend_from_slice(&[0xff, 0xfe]);
    let cases: [(Vec<u8>, &str); 7] = [
        (header(0, &[], request), "0 texts came beside a bundle of 1 files"),
        (header(u32::MAX, &[], request), "cut short"),
        (header(1, &[u64::MAX], request), "cut short"),
        (header(2, &[0, 0], request), "2 texts came beside a bundle of 1 files"),
        (not_utf8, "the text of a.json is not UTF-8"),
        (extra, "1 bytes follow the last text"),
        (b"\0not the magic".to_vec(), "not with the texts magic"),
    ];
    for (message, says) in cases {
        let error = texts::decode::<DetectRequest>(&message).map(|_| ()).unwrap_err();
        assert!(error.contains(says), "{error}");
    }
    let error = texts::decode::<WriteResponse>(&header(1, &[0], r#"{"value": null}"#)).map(|_| ()).unwrap_err();
    assert!(error.contains("beside a message that carries no bundle"), "{error}");
}

/// A build in a workspace has a fingerprint; only the very same one is the same build, and an
/// empty one (a build without a lock file) matches nothing, not even itself.
#[test]
fn only_the_same_fingerprint_is_the_same_build() {
    let ours = super::native::fingerprint();
    assert_eq!(toolport_core::fingerprint::BUILD_FINGERPRINT.len(), 32);
    assert!(ours.starts_with(toolport_core::fingerprint::BUILD_FINGERPRINT) && ours.contains("TypeId("), "{ours}");
    assert!(super::native::same_build(ours));
    for other in ["", " ", &ours[1..], &format!("{ours} ")] {
        assert!(!super::native::same_build(other), "{other:?}");
    }
}
