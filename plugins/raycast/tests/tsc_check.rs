//! Written extensions against the real `@raycast/api` from npm (`tests/tsc/`, installed with
//! `npm ci` when node_modules is missing): every fixture and corpus document converted to
//! raycast (through the built `convert`, so build the workspace first) plus the writer's own
//! test models are
//! - type-checked by one `tsc --noEmit` over all of them (a generated tsconfig; the code an
//!   extension written from a Raycast fixture carries may fail only where the fixture's own
//!   does: some import packages that are not installed here), and
//! - read by Raycast's tool-schema extraction, the step of `ray build` that refuses types it
//!   cannot describe (tests/tsc/tool-schemas.js: every tool of every extension, the tools of
//!   one extension sharing one TypeScript program), and
//! - one extension is built with the real `ray build` (it runs offline).
//!
//! Without node and npm the tests fail, unless TOOLPORT_SKIP_TSC=1 says to skip them.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use toolport_format_raycast::Raycast;
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{fixture, load, workspace_root};

#[cfg(unix)]
fn link(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink node_modules");
}

#[cfg(not(unix))]
fn link(target: &Path, link: &Path) {
    std::os::windows::fs::symlink_dir(target, link).expect("symlink node_modules");
}

/// (format, path) of every fixture and corpus input, as the conformance suite lists them.
fn inputs() -> Vec<(String, PathBuf)> {
    fn collect(format: &str, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if format == "raycast" {
                    out.push((format.to_owned(), path));
                } else {
                    collect(format, &path, out);
                }
            } else if format != "raycast"
                && !(name.ends_with(".md") || name.contains("execute_requests") || name.contains("auth_configs"))
            {
                out.push((format.to_owned(), path));
            }
        }
    }
    let mut out = Vec::new();
    for root in [workspace_root().join("fixtures"), toolport_testkit::corpus("")] {
        let mut formats: Vec<PathBuf> =
            std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
        formats.sort();
        for dir in formats {
            let format = dir.file_name().unwrap().to_string_lossy().into_owned();
            collect(&format, &dir, &mut out);
        }
    }
    out
}

/// Models written in process: the writer's HTTP model, the requests' (pinned values too), the raycast fixtures, and the fixture
/// extension changed after reading (its carried tool files rewritten where the model changed).
fn models() -> Vec<(String, ToolSet)> {
    let mut models =
        vec![("http-model".to_owned(), common::http_model()), ("requests-model".to_owned(), crate::requests::model())];
    for name in ["forms", "types", "ai-yaml"] {
        let model = Raycast.read(&load(&fixture(&format!("raycast/{name}"))), &Options::default()).value.expect("read");
        models.push((format!("fixture-{name}"), model));
    }
    models.push(("fixture-extension-changed".to_owned(), changed_extension()));
    models
}

/// The fixture extension with every part a tool file says changed: a parameter re-described,
/// one made required (its type imported from the extension's models), the tools re-described,
/// a confirmation added and one changed.
fn changed_extension() -> ToolSet {
    let mut model = Raycast.read(&load(&fixture("raycast/extension")), &Options::default()).value.expect("read");
    for tool in &mut model.tools {
        tool.description = Some(format!("{} (curated)", tool.description.as_deref().unwrap_or_default()));
        match tool.name.as_str() {
            "add-note" => {
                tool.parameters[1].schema.description = Some("The note's text, in Markdown".into());
                tool.hints.destructive = Some(true);
            }
            "find-notes" => tool.parameters[1].required = true,
            _ => {
                tool.confirmation = Some(Box::new(toolport_plugin::Confirmation {
                    message: Some("Sure?".into()),
                    ..Default::default()
                }))
            }
        }
    }
    model
}

/// Writes every extension under `root`: the models, and each input converted by `convert`
/// (inputs it refuses with an error are left out; the conformance suite checks those). Each
/// comes with the Raycast fixture it was written from, if it was.
fn write_extensions(root: &Path) -> Vec<(PathBuf, Option<String>)> {
    let raycast_fixture = |dir: &Path| {
        let parent = dir.parent()?;
        (parent == fixture("raycast") && dir.is_dir()).then(|| dir.file_name().unwrap().to_string_lossy().into_owned())
    };
    let mut dirs = Vec::new();
    for (name, model) in models() {
        let bundle = Raycast.write(&model, &Options::default()).value.expect("write");
        let dir = root.join(&name);
        common::write_to_disk(&bundle, &dir);
        dirs.push((
            dir,
            name.strip_prefix("fixture-").and_then(|f| raycast_fixture(&fixture(&format!("raycast/{f}")))),
        ));
    }
    let exe = common::convert_exe();
    let inputs = inputs();
    let converted: Vec<Option<(PathBuf, Option<String>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = inputs
            .chunks(inputs.len().div_ceil(2))
            .enumerate()
            .map(|(w, chunk)| {
                let exe = &exe;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .enumerate()
                        .map(|(i, (from, input))| {
                            let dir = root.join(format!("{w}-{i}-{from}"));
                            let output = Command::new(exe)
                                .args(["-q", "--from", from, "--to", "raycast"])
                                .arg(input)
                                .arg("-o")
                                .arg(format!("{}/", dir.display()))
                                .env_remove("TOOLPORT_PLUGIN_PATH")
                                .output()
                                .expect("run convert");
                            let stderr = String::from_utf8_lossy(&output.stderr);
                            match output.status.code() {
                                Some(0) => Some((dir, raycast_fixture(input))),
                                Some(1) if stderr.contains("error[") => None,
                                other => panic!("{from} {}: exit {other:?}:\n{stderr}", input.display()),
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    dirs.extend(converted.into_iter().flatten());
    assert!(dirs.len() >= 60, "expected every fixture and corpus conversion, found {}", dirs.len());
    dirs
}

/// The findings (tsc errors, refused tool inputs, each starting with its file's path in the
/// extensions' folder) that are not the Raycast fixture's own: an extension written from one
/// (`source_of`: its folder's name → the fixture's) carries its code, and the fixture's copy
/// `source-<fixture>/` has the same finding at the same place when that code is the cause.
fn not_in_sources<'f>(findings: &'f [String], source_of: &HashMap<String, &str>) -> Vec<&'f String> {
    findings
        .iter()
        .filter(|finding| !finding.starts_with("source-"))
        .filter(|finding| {
            let (dir, rest) = finding.split_once('/').unwrap_or_default();
            !source_of.get(dir).is_some_and(|source| findings.contains(&format!("source-{source}/{rest}")))
        })
        .collect()
}

/// The extensions in two halves of about as many tools each (the largest APIs have hundreds),
/// the largest first to the lighter half.
fn halves_by_tools(dirs: &[PathBuf]) -> [Vec<&PathBuf>; 2] {
    let tools = |dir: &PathBuf| std::fs::read_dir(dir.join("src/tools")).map_or(0, |files| files.count());
    let mut sized: Vec<(usize, &PathBuf)> = dirs.iter().map(|dir| (tools(dir), dir)).collect();
    sized.sort_by_key(|&(n, dir)| (std::cmp::Reverse(n), dir));
    let mut halves: [Vec<&PathBuf>; 2] = [Vec::new(), Vec::new()];
    let mut loads = [0usize; 2];
    for (n, dir) in sized {
        let lighter = usize::from(loads[1] < loads[0]);
        halves[lighter].push(dir);
        // A program costs about as much as a few tools.
        loads[lighter] += n + 5;
    }
    halves
}

/// tsc's errors, one per entry (a message's indented continuation lines joined to it).
fn tsc_errors(text: &str) -> Vec<String> {
    let mut errors: Vec<String> = Vec::new();
    for line in text.lines() {
        match errors.last_mut() {
            Some(last) if line.starts_with(' ') => {
                last.push('\n');
                last.push_str(line);
            }
            _ if !line.trim().is_empty() => errors.push(line.to_owned()),
            _ => {}
        }
    }
    errors
}

fn run(command: &mut Command, what: &str) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{what} failed:\n{text}");
    text
}

#[test]
fn every_written_extension_type_checks_and_raycast_reads_its_tools() {
    if !common::node_ready() {
        return;
    }
    let project = common::npm_project();
    let root = tempfile::tempdir().unwrap();
    let written = write_extensions(root.path());
    let dirs: Vec<PathBuf> = written.iter().map(|(dir, _)| dir.clone()).collect();
    link(&project.join("node_modules"), &root.path().join("node_modules"));
    // The Raycast fixtures themselves, beside: an extension written from one carries its code,
    // which type-checks where the fixture's does (some import packages that are not here). A
    // fixture without a tsconfig.json gets the one its written extension gets.
    let tsconfig = std::fs::read_to_string(dirs[0].join("tsconfig.json")).unwrap();
    for name in written.iter().filter_map(|(_, source)| source.as_deref()) {
        let mut source = load(&fixture(&format!("raycast/{name}")));
        if source.get("tsconfig.json").is_none() {
            source.insert("tsconfig.json", tsconfig.as_str());
        }
        common::write_to_disk(&source, &root.path().join(format!("source-{name}")));
    }

    // One tsc run over every extension: their own compiler options, all sources included.
    let own: serde_json::Value = serde_json::from_str(&tsconfig).unwrap();
    let config = serde_json::json!({"include": ["*/src/**/*"], "compilerOptions": own["compilerOptions"]});
    std::fs::write(root.path().join("tsconfig.json"), config.to_string()).unwrap();
    let output = Command::new("node")
        .arg(project.join("node_modules/typescript/bin/tsc"))
        .args(["--noEmit", "--pretty", "false", "-p", "tsconfig.json"])
        .current_dir(root.path())
        .output()
        .expect("run tsc");
    let errors = tsc_errors(&String::from_utf8_lossy(&output.stdout));
    assert!(output.status.success() || !errors.is_empty(), "tsc failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let source_of: HashMap<String, &str> = written
        .iter()
        .filter_map(|(dir, source)| Some((dir.file_name()?.to_string_lossy().into_owned(), source.as_deref()?)))
        .collect();
    let new_errors = not_in_sources(&errors, &source_of);
    assert!(
        new_errors.is_empty(),
        "tsc --noEmit over every written extension: errors the sources do not have:\n{}",
        new_errors.iter().map(|e| e.as_str()).collect::<Vec<_>>().join("\n")
    );

    // Raycast's tool-schema extraction, in two processes (one per core).
    let sources =
        written.iter().filter_map(|(_, source)| Some(root.path().join(format!("source-{}", source.as_deref()?))));
    let mut with_tools: Vec<PathBuf> =
        dirs.iter().cloned().chain(sources).filter(|d| d.join("src/tools").exists()).collect();
    with_tools.sort();
    with_tools.dedup();
    for dir in &with_tools {
        link(&project.join("node_modules"), &dir.join("node_modules"));
    }
    let children: Vec<_> = halves_by_tools(&with_tools)
        .iter()
        .filter(|half| !half.is_empty())
        .map(|chunk| {
            Command::new("node")
                .arg(project.join("tool-schemas.js"))
                .args(chunk.iter())
                .current_dir(&project)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run tool-schemas.js")
        })
        .collect();
    let mut refused = Vec::new();
    let in_root = format!("{}/", root.path().display());
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "tool-schemas.js failed:\n{}", String::from_utf8_lossy(&output.stderr));
        refused.extend(String::from_utf8_lossy(&output.stdout).lines().map(|line| line.replace(&in_root, "")));
    }
    let refused = not_in_sources(&refused, &source_of);
    assert!(
        refused.is_empty(),
        "Raycast's schema generator refuses these tool inputs (the sources' own are accepted):\n{}",
        refused.iter().map(|r| r.as_str()).collect::<Vec<_>>().join("\n")
    );
}

/// `ray build` builds what the writer writes from another format, from a Raycast extension that
/// lacks the command Raycast requires (ai-yaml: `commands` is empty), and from one with code of
/// its own whose tool files are rewritten where the model changed. (The fixture extension read
/// and written unchanged is given back file for file, which carry.rs asserts: building it would
/// only build the fixture again, 10 CPU seconds of every run.)
#[test]
fn ray_build_builds_a_written_extension() {
    if !common::node_ready() {
        return;
    }
    let project = common::npm_project();
    let from_raycast = Raycast.read(&load(&fixture("raycast/ai-yaml")), &Options::default()).value.expect("read");
    for (name, model) in
        [("http model", common::http_model()), ("ai-yaml", from_raycast), ("extension changed", changed_extension())]
    {
        let bundle = Raycast.write(&model, &Options::default()).value.expect("write");
        let dir = tempfile::tempdir().unwrap();
        common::write_to_disk(&bundle, dir.path());
        link(&project.join("node_modules"), &dir.path().join("node_modules"));
        let out = tempfile::tempdir().unwrap();
        let text = run(
            Command::new("node")
                .arg(project.join("node_modules/@raycast/api/bin/run.js"))
                .args(["build", "--non-interactive", "-e", "dist", "-o"])
                .arg(out.path())
                .current_dir(dir.path()),
            "ray build",
        );
        assert!(text.contains("built extension successfully"), "{name}: {text}");
    }
}

/// An extension of the given files in a folder of its own.
fn extension_on_disk(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut extension = toolport_plugin::Bundle::default();
    for (name, text) in files {
        extension.insert(*name, *text);
    }
    common::write_to_disk(&extension, dir.path());
    dir
}

/// The fidelity oracle's reading of a tool file (conformance/oracle/raycast_inputs.cjs) is
/// Raycast's own (`getSchemas`, which `ray build` runs) on what the oracle compares: each
/// property's type, enum, description and whether it is required (a `| undefined` without `?`
/// is), and the function's JSDoc, which Raycast hands the model as the tool's instructions.
#[test]
fn the_oracles_reading_of_a_tool_is_raycasts() {
    if !common::node_ready() {
        return;
    }
    let project = common::npm_project();
    let dir = extension_on_disk(&[
        (
            "package.json",
            r#"{"name": "pin", "title": "Pin", "description": "d", "tools": [{"name": "arrow", "title": "Arrow"}, {"name": "modes", "title": "Modes", "description": "Modes"}]}"#,
        ),
        (
            "src/tools/arrow.ts",
            "type ContactInput = {\n  /** The contact's name. */\n  name: string;\n};\n\n/**\n * Find a contact.\n */\nconst tool = async (input: ContactInput) => input.name;\n\nexport default tool;\n",
        ),
        (
            "src/tools/modes.ts",
            "type Input = {\n  /** Mode */\n  mode: \"fast\" | \"deep\" | undefined;\n  limit?: number;\n  tags: string[];\n  nested?: { a: string; b?: boolean };\n};\n\n/** Runs in a mode. */\nexport default async function tool(input: Input) {\n  return input;\n}\n",
        ),
    ]);
    let node_path = project.join("node_modules");
    let script = r#"const { getSchemas } = require("@raycast/api/dist/utils/extract-tools-info.js");
const manifest = require(process.argv[1] + "/package.json");
const [schemas, errors] = getSchemas(process.argv[1], manifest.tools, {});
process.stdout.write(JSON.stringify({ schemas, errors: errors.map((e) => e.message) }));"#;
    let raycast: serde_json::Value = serde_json::from_str(&run(
        Command::new("node").args(["-e", script]).arg(dir.path()).env("NODE_PATH", &node_path).current_dir(&project),
        "getSchemas",
    ))
    .unwrap();
    let oracle: serde_json::Value = serde_json::from_str(&run(
        Command::new("node")
            .arg(workspace_root().join("conformance/oracle/raycast_inputs.cjs"))
            .arg(dir.path())
            .env("NODE_PATH", &node_path),
        "raycast_inputs.cjs",
    ))
    .unwrap();
    assert_eq!(raycast["errors"], serde_json::json!([]), "{raycast}");
    let oracle = oracle.as_object().unwrap().values().next().unwrap().as_array().unwrap();
    for (theirs, ours) in raycast["schemas"].as_array().unwrap().iter().zip(oracle) {
        assert_eq!(theirs["name"], ours["name"]);
        assert_eq!(theirs["instructions"], ours["description"], "{theirs}\n{ours}");
        assert_eq!(theirs["input"], ours["input"], "{theirs}\n{ours}");
    }
    assert_eq!(oracle.len(), 2);
}

/// tool-schemas.js runs Raycast's extraction with one program for the tools of an extension
/// instead of one per tool: what it reads and refuses is what the unchanged extraction
/// (TOOL_SCHEMAS_SHARED=0) reads and refuses, for tools that share a models file, a tool whose
/// type Raycast cannot describe, a `.tsx` tool and one without a default export.
#[test]
fn one_program_per_extension_reads_tools_as_raycasts_extraction_does() {
    if !common::node_ready() {
        return;
    }
    let project = common::npm_project();
    let dir = extension_on_disk(&[
        (
            "package.json",
            r#"{"name": "shared", "title": "Shared", "description": "d", "tools": [{"name": "find", "title": "Find"}, {"name": "add", "title": "Add"}, {"name": "shape", "title": "Shape"}, {"name": "nothing", "title": "Nothing"}, {"name": "view", "title": "View"}]}"#,
        ),
        ("src/models.ts", "/** A colour. */\nexport type Colour = \"red\" | \"blue\";\n"),
        (
            "src/tools/find.ts",
            "import { Colour } from \"../models\";\n\ntype Input = {\n  /** What to find. */\n  query: string;\n  colour?: Colour;\n};\n\n/** Finds things. */\nexport default async function tool(input: Input) {\n  return input.query;\n}\n",
        ),
        (
            "src/tools/add.ts",
            "import { Colour } from \"../models\";\n\n/** Adds a thing. */\nexport default async function (input: { name: string; colour: Colour; count: number }) {\n  return input.name;\n}\n",
        ),
        (
            "src/tools/shape.ts",
            "type Input = { when: Map<string, number>; both: { a: string } & { b: string } };\n\nexport default async function tool(input: Input) {\n  return input;\n}\n",
        ),
        ("src/tools/nothing.ts", "export const value = 1;\n"),
        (
            "src/tools/view.tsx",
            "/** Views a thing. */\nexport default async function tool(input: { id: string }) {\n  return input.id;\n}\n",
        ),
        (
            "tsconfig.json",
            r#"{"compilerOptions": {"strict": true, "target": "ES2022", "module": "commonjs", "jsx": "react-jsx", "skipLibCheck": true}}"#,
        ),
    ]);
    link(&project.join("node_modules"), &dir.path().join("node_modules"));
    let read = |shared: &str| -> serde_json::Value {
        let text = run(
            Command::new("node")
                .arg(project.join("tool-schemas.js"))
                .arg("--json")
                .arg(dir.path())
                .env("TOOL_SCHEMAS_SHARED", shared)
                .current_dir(&project),
            "tool-schemas.js",
        );
        let json = text.lines().next().unwrap_or_default();
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {text}"))
    };
    let (one_program, per_tool) = (read("1"), read("0"));
    assert_eq!(one_program, per_tool);
    let answer = &per_tool[dir.path().to_str().unwrap()];
    let names: Vec<&str> = answer["schemas"].as_array().unwrap().iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["find", "add", "shape", "nothing", "view"], "{answer}");
    assert_eq!(answer["schemas"][0]["input"]["properties"]["colour"]["enum"], serde_json::json!(["red", "blue"]));
    assert!(answer["errors"].to_string().contains("Default exported function not found"), "{answer}");
}
