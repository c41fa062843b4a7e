//! A Raycast extension converted to Raycast gives back the extension: every file of it, text
//! and binary, as it was (package.json and the AI file too while what they hold is unchanged),
//! and only what the model changed rewritten, each rewrite said. Through the built `convert`
//! for the fixture extension (fixtures/raycast/extension: tools importing the extension's own
//! modules, a confirmation, a command, an icon, dot files, evals with mocks) and the corpus, and
//! in process for models a curation stage changed.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use toolport_format_raycast::Raycast;
use toolport_plugin::{Bundle, Confirmation, Diagnostic, Format, Options, ToolSet};
use toolport_testkit::{assert_same_json, corpus, fixture, load, read_ok, render};

/// Every file under `dir` as the host reads a folder (dot files too, not node_modules).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let relative = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            if path.is_dir() {
                if relative != "node_modules" {
                    walk(root, &path, out);
                }
            } else {
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `convert --from raycast --to raycast input -o out/`: the output tree and every diagnostic.
fn convert_to_raycast(input: &Path, out: &Path) -> (BTreeMap<String, Vec<u8>>, Vec<Diagnostic>) {
    let report = out.with_extension("report.json");
    let output = Command::new(common::convert_exe())
        .args(["-q", "--from", "raycast", "--to", "raycast"])
        .arg(input)
        .arg("-o")
        .arg(format!("{}/", out.display()))
        .arg("--report")
        .arg(&report)
        .env_remove("TOOLPORT_PLUGIN_PATH")
        .output()
        .expect("run convert");
    assert!(output.status.success(), "{}: {}", input.display(), String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let diagnostics = serde_json::from_value(report["inputs"][0]["diagnostics"].clone()).unwrap();
    (tree(out), diagnostics)
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn the_fixture_extension_converts_to_itself_file_by_file() {
    let source = fixture("raycast/extension");
    let out = tempfile::tempdir().unwrap();
    let (written, diagnostics) = convert_to_raycast(&source, &out.path().join("ext"));
    let expected = tree(&source);
    assert!(expected.contains_key(".prettierrc") && expected.contains_key("assets/extension-icon.png"));
    let names = |t: &BTreeMap<String, Vec<u8>>| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&written), names(&expected), "the output's files are the input's");
    for (path, bytes) in &expected {
        if path == "package.json" {
            assert_same_json(&json(bytes), &json(&written[path]), path);
        } else {
            assert!(
                written[path] == *bytes,
                "{path} is not carried as it was:\n{}",
                String::from_utf8_lossy(&written[path])
            );
        }
    }
    assert!(diagnostics.is_empty(), "nothing changed, so nothing is said:\n{}", render(&diagnostics));
}

/// The corpus extensions have no code: each comes back with its own files as they were
/// (package.json with only keys Raycast requires added, each said), plus only the files a
/// buildable extension needs that it lacks, each said (tool and command stubs, icon
/// placeholders, tsconfig.json).
#[test]
fn every_corpus_extension_converts_to_itself_with_only_reported_additions() {
    let out = tempfile::tempdir().unwrap();
    let mut dirs: Vec<_> = std::fs::read_dir(corpus("raycast")).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let (written, diagnostics) = convert_to_raycast(&dir, &out.path().join(&name));
        for (path, bytes) in tree(&dir) {
            let Some(again) = written.get(&path) else { panic!("{name}: {path} is not written") };
            if path == "package.json" {
                let (source, mut again) = (json(&bytes), json(again));
                crate::corpus::remove_generated_keys(&source, &mut again, &diagnostics, &name);
                assert_same_json(&source, &again, &format!("{name}/{path}"));
            } else {
                assert!(*again == bytes, "{name}: {path} is not carried as it was");
            }
        }
        let said = |code: &str| diagnostics.iter().any(|d| d.code == code);
        for path in written.keys().filter(|p| !dir.join(p).exists()) {
            let reported = match path.as_str() {
                "tsconfig.json" => said("generated/content"),
                p if p.starts_with("assets/") => said("generated/placeholder"),
                p if p.starts_with("src/") && p.ends_with(".ts") => said("generated/stub"),
                _ => false,
            };
            assert!(reported, "{name}: {path} is added without a diagnostic that says so:\n{}", render(&diagnostics));
        }
    }
}

fn extension_model() -> ToolSet {
    read_ok(&Raycast, &load(&fixture("raycast/extension"))).0
}

fn write(model: &ToolSet) -> (Bundle, Vec<Diagnostic>) {
    let outcome = Raycast.write(model, &Options::default());
    (outcome.value.expect("write"), outcome.diagnostics)
}

#[test]
fn an_unchanged_model_gives_back_the_same_files_in_process() {
    let source = load(&fixture("raycast/extension"));
    let (written, diagnostics) = write(&extension_model());
    assert_eq!(written.files, source.files);
    assert_eq!(written.binary_files, source.binary_files);
    assert!(diagnostics.is_empty(), "{}", render(&diagnostics));
}

/// A model changed after reading (as a curation stage would) and written: what each changed
/// tool file looks like, what is said about it, and what reading the file back gives.
fn check(change: impl Fn(&mut ToolSet), file: &str, expect_in_file: &[&str], expect_said: &[(&str, &str)]) {
    let mut model = extension_model();
    change(&mut model);
    let (written, diagnostics) = write(&model);
    let source = load(&fixture("raycast/extension"));
    let text = written.get(file).unwrap_or_else(|| panic!("{file} not written:\n{}", render(&diagnostics)));
    for expected in expect_in_file {
        assert!(text.contains(expected), "{file} lacks {expected:?}:\n{text}");
    }
    for (code, words) in expect_said {
        assert!(
            diagnostics.iter().any(|d| d.code == *code && d.message.contains(words)),
            "no {code} saying {words:?}:\n{}",
            render(&diagnostics)
        );
    }
    // Only tool files and package.json may differ from the source; no stub is written.
    for (path, original) in &source.files {
        if !path.starts_with("src/tools/") && path != "package.json" {
            assert_eq!(written.get(path), Some(original.as_str()), "{path} changed");
        }
    }
    assert!(!diagnostics.iter().any(|d| d.code == "generated/stub"), "{}", render(&diagnostics));
    // The rewritten file reads back as the model says.
    let again = read_ok(&Raycast, &written).0;
    for tool in &model.tools {
        let back = again.tool(&tool.name).unwrap_or_else(|| panic!("{} not read back", tool.name));
        assert_eq!(back.parameters, tool.parameters, "{}", tool.name);
        assert_eq!(back.confirmation, tool.confirmation, "{}", tool.name);
    }
}

fn tool<'m>(model: &'m mut ToolSet, name: &str) -> &'m mut toolport_plugin::Tool {
    model.tools.iter_mut().find(|t| t.name == name).unwrap()
}

#[test]
fn a_changed_input_type_is_rewritten_and_the_body_kept() {
    // Declared in the file: the declaration is rewritten in place.
    check(
        |m| tool(m, "add-note").parameters[1].schema.description = Some("The note's text, in Markdown".into()),
        "src/tools/add-note.ts",
        &[
            "import { addNote } from \"../api\";\n",
            "type Input = {\n  /** The note's title */\n  title: string;\n  /** The note's text, in Markdown */\n  body: string;\n};\n\n/**\n",
            "  const note = await addNote(input.title.trim(), input.body);\n",
        ],
        &[("changed/value", "src/tools/add-note.ts: the tool's input type changed")],
    );
    // Imported from the extension's models: the annotation becomes the type itself.
    check(
        |m| tool(m, "find-notes").parameters[1].required = true,
        "src/tools/find-notes.ts",
        &[
            "import { Query } from \"../models\";\n",
            "export default async function (input: {\n  /** A word the note's title or body contains */\n  word: string;\n  /** At most this many notes */\n  limit: number;\n}) {\n",
            "  return (await findNotes(input.word, input.limit)).reverse();\n",
        ],
        &[("changed/value", "src/tools/find-notes.ts: the tool's input type changed")],
    );
}

#[test]
fn a_changed_description_rewrites_only_the_jsdoc() {
    check(
        |m| tool(m, "add-note").description = Some("Add a note".into()),
        "src/tools/add-note.ts",
        &["  body: string;\n};\n\n/** Add a note */\nexport default async function tool(input: Input) {\n"],
        &[("changed/value", "description (JSDoc)")],
    );
    // No JSDoc in the file: one is written before the default export.
    check(
        |m| tool(m, "find-notes").description = Some("Find notes".into()),
        "src/tools/find-notes.ts",
        &[
            "import { Query } from \"../models\";\n\n/** Find notes */\nexport default async function (input: Query) {\n",
        ],
        &[("changed/value", "src/tools/find-notes.ts")],
    );
}

#[test]
fn a_changed_confirmation_is_rewritten_with_what_it_imports() {
    check(
        |m| {
            tool(m, "delete-note").confirmation =
                Some(Box::new(Confirmation { message: Some("Delete it?".into()), ..Confirmation::default() }))
        },
        "src/tools/delete-note.ts",
        &[
            "import { Action, Tool } from \"@raycast/api\";\n",
            "export const confirmation: Tool.Confirmation<Input> = async () => {\n  return {\n    message: \"Delete it?\",\n  };\n};\n\n/** Deletes",
        ],
        &[("changed/value", "confirmation")],
    );
    // A tool now destructive gets a confirmation, and the import it needs.
    check(
        |m| {
            let add = tool(m, "add-note");
            add.hints.destructive = Some(true);
            add.confirmation =
                Some(Box::new(Confirmation { style: Some("destructive".into()), ..Confirmation::default() }));
        },
        "src/tools/add-note.ts",
        &[
            "import { Action, Tool } from \"@raycast/api\";\nimport { addNote } from \"../api\";\n",
            "};\n\nexport const confirmation: Tool.Confirmation<Input> = async () => {\n  return {\n    style: Action.Style.Destructive,\n  };\n};\n\n/**\n * Adds a note",
        ],
        &[("changed/value", "src/tools/add-note.ts: the tool's confirmation changed")],
    );
}

#[test]
fn a_renamed_tool_takes_its_file_along_and_a_removed_ones_file_is_left_out() {
    let mut model = extension_model();
    tool(&mut model, "add-note").name = "create-note".into();
    model.tools.retain(|t| t.name != "delete-note");
    let (written, diagnostics) = write(&model);
    let source = load(&fixture("raycast/extension"));
    assert_eq!(written.get("src/tools/create-note.ts"), source.get("src/tools/add-note.ts"));
    assert!(written.get("src/tools/add-note.ts").is_none() && written.get("src/tools/delete-note.ts").is_none());
    let said = |code: &str, words: &str| diagnostics.iter().any(|d| d.code == code && d.message.contains(words));
    assert!(
        said("changed/name", "src/tools/add-note.ts is written as src/tools/create-note.ts"),
        "{}",
        render(&diagnostics)
    );
    assert!(said("changed/value", "src/tools/delete-note.ts is left out"), "{}", render(&diagnostics));
}

/// A model from another format has no files of an extension: its tools are stubs, as before.
#[test]
fn a_model_from_another_format_still_gets_stubs() {
    let mut model = extension_model();
    model.extras.clear();
    for tool in &mut model.tools {
        tool.extras.clear();
    }
    let (written, diagnostics) = write(&model);
    assert!(written.get("src/tools/add-note.ts").unwrap().contains("throw new Error(\"not implemented: add-note\")"));
    assert!(written.get("src/api.ts").is_none());
    assert_eq!(diagnostics.iter().filter(|d| d.code == "generated/stub").count(), 3, "{}", render(&diagnostics));
}
