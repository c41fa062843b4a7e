//! Test helpers shared by toolport's crates. Not part of the product.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;
use toolport_core::{Bundle, Detail, Diagnostic, Format, Options, Outcome, Tally, ToolSet};

/// The workspace root (where the top Cargo.toml is).
pub fn workspace_root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !dir.join("Cargo.lock").exists() && !dir.join(".git").exists() {
        assert!(dir.pop(), "no workspace root above {}", env!("CARGO_MANIFEST_DIR"));
    }
    dir
}

/// A path in the shared real-world corpus (`../shared/corpus/` beside the checkout). Tests
/// read it in place; it is never copied into the repository.
pub fn corpus(relative: &str) -> PathBuf {
    let root = workspace_root().join("../shared/corpus");
    assert!(root.is_dir(), "the shared corpus is missing: expected it at {}", root.display());
    root.join(relative)
}

/// A path under `fixtures/`.
pub fn fixture(relative: &str) -> PathBuf {
    workspace_root().join("fixtures").join(relative)
}

/// Loads a file as a one-file bundle, or a directory as a bundle of its files (relative
/// `/`-separated paths; text as text, others as bytes; `node_modules` and hidden entries
/// skipped).
pub fn load(path: &Path) -> Bundle {
    if path.is_dir() {
        let mut bundle = Bundle::default();
        collect(path, path, &mut bundle);
        bundle
    } else {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Bundle::single(file_name(path), text)
    }
}

/// Loads a file together with the text files beside it (for `InputShape::FileWithSiblings`).
pub fn load_with_siblings(path: &Path) -> Bundle {
    let mut bundle = load(path.parent().expect("a file has a parent"));
    bundle.entry = Some(file_name(path));
    bundle
}

fn file_name(path: &Path) -> String {
    path.file_name().expect("a file name").to_string_lossy().into_owned()
}

fn collect(root: &Path, dir: &Path, bundle: &mut Bundle) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let name = file_name(&path);
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        let relative = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if path.is_dir() {
            collect(root, &path, bundle);
        } else {
            // As the host loads a folder: text as text, other files (icons) as bytes.
            match String::from_utf8(std::fs::read(&path).unwrap()) {
                Ok(text) => bundle.insert(relative, text),
                Err(e) => {
                    bundle.binary_files.insert(relative, e.into_bytes());
                }
            }
        }
    }
}

/// Files directly in a corpus folder with one of the extensions, sorted.
pub fn files_in(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)))
        .collect();
    files.sort();
    files
}

/// Unwraps a successful outcome, or fails the test listing every diagnostic.
pub fn expect_ok<T>(outcome: Outcome<T>, context: &str) -> (T, Vec<Diagnostic>) {
    match outcome.value {
        Some(value) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => (value, outcome.diagnostics),
        _ => panic!("{context} failed:\n{}", render(&outcome.diagnostics)),
    }
}

/// Diagnostics one per line, as `convert` prints them.
pub fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| format!("  {d}\n")).collect()
}

/// Reads with `format`, failing the test on errors.
pub fn read_ok(format: &dyn Format, bundle: &Bundle) -> (ToolSet, Vec<Diagnostic>) {
    expect_ok(format.read(bundle, &Options::default()), "read")
}

/// Writes with `format`, failing the test on errors.
pub fn write_ok(format: &dyn Format, model: &ToolSet) -> (Bundle, Vec<Diagnostic>) {
    expect_ok(format.write(model, &Options::default()), "write")
}

/// Asked for less than every diagnostic (the default summary, `-q`), `format` writes `model`
/// keeping in full and counting exactly what writing them all and folding gives
/// ([`Detail::fold`]), with the same output: what a writer says through core's `Said` (counted,
/// never made) must agree with the rule the SDK folds by. `all_at_least` is how many diagnostics
/// writing all must give, so the check is not vacuous.
pub fn check_detail_folds(format: &dyn Format, model: &ToolSet, all_at_least: usize, context: &str) {
    let all = format.write(model, &Options::default());
    assert!(all.tally.is_empty() && all.diagnostics.len() >= all_at_least, "{context}: {:?}", all.diagnostics);
    for detail in [Detail::Summary, Detail::Errors] {
        let mut options = Options::default();
        options.set(Options::DIAGNOSTIC_DETAIL, detail.as_str());
        let said = format.write(model, &options);
        let (mut folded, mut tally) = (all.diagnostics.clone(), Tally::default());
        detail.fold(&mut folded, &mut tally);
        assert_eq!(said.diagnostics, folded, "{context} {detail:?}");
        assert_eq!(said.tally, tally, "{context} {detail:?}");
        assert_eq!(said.value, all.value, "{context} {detail:?}");
    }
}

/// `tools` tools returning the definition `Result`, an object of 40 fields each a small enum
/// definition of long values (expanded in place in a shallow output schema, each charged to the
/// document's budget), a large `Detail` (written loose) and a list of unique tags
/// (`uniqueItems`, which not every target holds), every third tool a list of results. `beside`: each output schema has a description beside
/// its reference, so no two are the same bare reference.
pub fn shared_outputs_model(tools: usize, beside: bool) -> ToolSet {
    use toolport_core::{EnumValue, Output, Property, Schema, SchemaType, Tool};
    let reference = |name: &str| Schema { reference: Some(name.into()), ..Schema::default() };
    let mut model = ToolSet::default();
    let mut result = Schema::of(SchemaType::Object);
    for i in 0..40 {
        let values = (0..8).map(|v| EnumValue::new(format!("label {i} value {v} {}", "x".repeat(60)))).collect();
        let label = Schema { enumeration: Some(values), ..Schema::of(SchemaType::String) };
        model.definitions.insert(format!("Label{i}"), label);
        result.properties.push(Property {
            name: format!("field_{i}"),
            required: false,
            schema: reference(&format!("Label{i}")),
        });
    }
    // Too large to expand in a shallow schema: written loose, the schema said to be shortened.
    let detail = (0..40).map(|i| Property {
        name: format!("part_{i}"),
        required: false,
        schema: Schema::of(SchemaType::String),
    });
    model
        .definitions
        .insert("Detail".into(), Schema { properties: detail.collect(), ..Schema::of(SchemaType::Object) });
    result.properties.push(Property { name: "detail".into(), required: false, schema: reference("Detail") });
    let mut tags = Schema { items: Some(Box::new(Schema::of(SchemaType::String))), ..Schema::of(SchemaType::Array) };
    tags.constraints.unique_items = true;
    result.properties.push(Property { name: "tags".into(), required: false, schema: tags });
    model.definitions.insert("Result".into(), result);
    let list = Schema { items: Some(Box::new(reference("Result"))), ..Schema::of(SchemaType::Array) };
    model.definitions.insert("Results".into(), list);
    for i in 0..tools {
        let mut tool = Tool::new(format!("op_{i}"));
        let description = beside.then(|| "beside".to_owned());
        let name = if i % 3 == 0 { "Results" } else { "Result" };
        let schema = Schema { description, ..reference(name) };
        tool.output = Some(Box::new(Output { schema: Some(schema), ..Output::default() }));
        model.tools.push(tool);
    }
    model
}

/// Tools whose results are the same bare reference ([`shared_outputs_model`]) written by
/// `format` give the document and diagnostics of the same tools written one by one (each output
/// schema made distinct by a description beside its reference, taken out again), before the
/// document's budget runs out, as it does, and after. `outputs` gives the written tools'
/// output schemas (each the object whose `description` is the one beside the reference), in
/// order; `said_at_least` is how many diagnostics the shared writing must say.
pub fn check_shared_outputs(format: &dyn Format, outputs: fn(&mut Value) -> Vec<&mut Value>, said_at_least: usize) {
    let write = |model: &ToolSet| {
        let (bundle, diagnostics) = expect_ok(format.write(model, &Options::default()), "write");
        let (_, text) = bundle.files.iter().next().expect("a file");
        (serde_json::from_str::<Value>(text).unwrap(), diagnostics)
    };
    let tools = 300;
    let (mut shared, shared_said) = write(&shared_outputs_model(tools, false));
    let (mut alone, alone_said) = write(&shared_outputs_model(tools, true));
    for output in outputs(&mut alone) {
        let root = output.as_object_mut().unwrap();
        assert_eq!(root.remove("description"), Some(Value::from("beside")));
    }
    assert_same_json(&alone, &shared, "shared output schemas");
    assert_eq!(shared_said, alone_said);
    assert!(shared_said.len() >= said_at_least, "{}", render(&shared_said));
    // The budget ran out on the way: the first result has its fields' values, the last not.
    let written = outputs(&mut shared);
    assert_eq!(written.len(), tools);
    assert!(written[1]["properties"]["field_0"].get("enum").is_some(), "{}", written[1]);
    assert!(written[tools - 1]["properties"]["field_0"].get("enum").is_none(), "{}", written[tools - 1]);
}

/// Options naming the output as the host does for an input called `name` (its stem).
pub fn output_named(name: &str) -> Options {
    let mut options = Options::default();
    options.set(Options::OUTPUT_NAME, name);
    options
}

/// What one read then write gave: the model read, the bundle written, and each side's
/// diagnostics.
#[derive(Debug)]
pub struct Trip {
    pub model: ToolSet,
    pub read_diagnostics: Vec<Diagnostic>,
    pub written: Bundle,
    pub write_diagnostics: Vec<Diagnostic>,
}

impl Trip {
    /// The written entry file, path and text (the only file, for a writer that writes one).
    pub fn output(&self) -> (&str, &str) {
        self.written.entry_file().unwrap_or_else(|| {
            let paths: Vec<&String> = self.written.files.keys().collect();
            panic!("no single output file among {paths:?}")
        })
    }
}

/// Reads `input` with `format` (default options) and writes the model back with `options`,
/// failing the test on errors.
pub fn read_write(format: &dyn Format, input: &Bundle, options: &Options, context: &str) -> Trip {
    let (model, read_diagnostics) = expect_ok(format.read(input, &Options::default()), &format!("{context}: read"));
    let (written, write_diagnostics) = expect_ok(format.write(&model, options), &format!("{context}: write"));
    Trip { model, read_diagnostics, written, write_diagnostics }
}

/// A same-format round trip of a JSON document: [`read_write`], then the written file is the
/// same JSON as the input's entry file, and reading it back gives the same model.
#[track_caller]
pub fn round_trip(format: &dyn Format, input: &Bundle, options: &Options, context: &str) -> Trip {
    let trip = read_write(format, input, options, context);
    let (_, original) = input.entry_file().expect("the input has an entry file");
    let (path, text) = trip.output();
    assert_same_json(&json(original), &json(text), context);
    let (again, _) = read_ok(format, &Bundle::single(path, text));
    assert_eq!(again, trip.model, "{context}: read -> write -> read changed the model");
    trip
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// The round trip of `fixtures/<folder>/<file>`, a JSON document, written as `<stem>.json` and
/// reporting nothing on writing. See [`assert_fixture_round_trip!`] for its snapshots.
#[track_caller]
pub fn fixture_round_trip(format: &dyn Format, folder: &str, file: &str) -> Trip {
    let stem = file.trim_end_matches(".json");
    let trip = round_trip(format, &load(&fixture(&format!("{folder}/{file}"))), &output_named(stem), file);
    assert!(trip.write_diagnostics.is_empty(), "same-format write reported:\n{}", render(&trip.write_diagnostics));
    assert_eq!(trip.output().0, format!("{stem}.json"), "the output file");
    trip
}

#[doc(hidden)]
pub use insta;

/// [`fixture_round_trip`] with golden snapshots of the model (`<stem>.model`), the read
/// diagnostics (`<stem>.read-diagnostics`) and the written text (`<stem>.written`). A macro,
/// so the snapshots are named after the calling module and kept beside its file.
#[macro_export]
macro_rules! assert_fixture_round_trip {
    ($format:expr, $folder:expr, $file:expr) => {{
        let file: &str = $file;
        let stem = file.trim_end_matches(".json");
        let trip = $crate::fixture_round_trip(&$format, $folder, file);
        $crate::insta::assert_json_snapshot!(format!("{stem}.model"), trip.model);
        $crate::insta::assert_snapshot!(format!("{stem}.read-diagnostics"), $crate::render(&trip.read_diagnostics));
        $crate::insta::assert_snapshot!(format!("{stem}.written"), trip.output().1);
    }};
}

/// Asserts two JSON values are equal as JSON (object key order ignored, `1` ≠ `1.0`), showing
/// a line diff of their pretty forms when not.
#[track_caller]
pub fn assert_same_json(expected: &Value, actual: &Value, context: &str) {
    if expected != actual {
        let left = serde_json::to_string_pretty(&sorted(expected)).unwrap();
        let right = serde_json::to_string_pretty(&sorted(actual)).unwrap();
        let diff = similar::TextDiff::from_lines(&left, &right)
            .unified_diff()
            .context_radius(3)
            .header("expected", "actual")
            .to_string();
        panic!("{context}: JSON differs\n{diff}");
    }
}

/// A copy with object keys sorted, so diffs show content changes rather than order.
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Diagnostic codes, for asserting which kinds of loss a conversion reported.
pub fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
    diagnostics.iter().map(|d| d.code.as_str()).collect()
}
