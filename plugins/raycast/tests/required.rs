//! What Raycast requires of every written extension (its manifest schema and `ray lint`'s icon
//! rule), raycast → raycast included: every icon package.json names is a file in assets/, every
//! required key is there (generated with a diagnostic when the source lacks it), and what the
//! source has is given back as it was.

use serde_json::{Value, json};
use toolport_format_raycast::Raycast;
use toolport_plugin::{Bundle, Diagnostic, Format, Options};
use toolport_testkit::render;

const TOOL_SOURCE: &str = "/** Says hello. */\nexport default async function tool() {\n  return \"hello\";\n}\n";

/// raycast → raycast of an extension with this package.json and one `src/tools/<name>.ts` per
/// tool entry: the written bundle, its package.json and the diagnostics.
fn round(package: &Value) -> (Bundle, Value, Vec<Diagnostic>) {
    let mut input = Bundle::default();
    input.insert("package.json", serde_json::to_string_pretty(package).unwrap());
    for tool in package["tools"].as_array().into_iter().flatten() {
        input.insert(format!("src/tools/{}.ts", tool["name"].as_str().unwrap()), TOOL_SOURCE);
    }
    let model = Raycast.read(&input, &Options::default()).value.expect("read");
    let outcome = Raycast.write(&model, &Options::default());
    let bundle = outcome.value.expect("write");
    let written = serde_json::from_str(bundle.get("package.json").expect("package.json")).unwrap();
    (bundle, written, outcome.diagnostics)
}

/// The diagnostic with this code at this path.
fn said<'d>(diagnostics: &'d [Diagnostic], code: &str, path: &str) -> &'d Diagnostic {
    diagnostics
        .iter()
        .find(|d| d.code == code && d.path == path)
        .unwrap_or_else(|| panic!("no {code} at {path}:\n{}", render(diagnostics)))
}

/// Width and height of a PNG, from its IHDR chunk (what `ray lint` reads).
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR", "not a PNG");
    let number = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn every_icon_the_manifest_names_is_written_as_a_placeholder_under_its_name() {
    let package = json!({
        "name": "icons",
        "title": "Icons",
        "description": "Icons everywhere",
        "icon": "logo.png",
        "author": "someone",
        "categories": ["Productivity"],
        "license": "MIT",
        "commands": [
            {"name": "main", "title": "Main", "description": "The main command", "mode": "view", "icon": "images/main.png"},
            {"name": "away", "title": "Away", "description": "Names a file outside assets/", "mode": "view", "icon": "../away.png"}
        ],
        "tools": [
            {"name": "greet", "title": "Greet", "description": "Says hello", "icon": "logo.png"},
            {"name": "wave", "title": "Wave", "description": "Waves", "icon": "wave.png"}
        ]
    });
    let (bundle, written, diagnostics) = round(&package);
    let assets: Vec<&str> = bundle.binary_files.keys().map(String::as_str).collect();
    assert_eq!(assets, ["assets/images/main.png", "assets/logo.png", "assets/wave.png"]);
    for bytes in bundle.binary_files.values() {
        assert_eq!(png_size(bytes), (512, 512));
    }
    // One warning per file, where it is first named, naming the file to replace and why.
    let logo = said(&diagnostics, "generated/placeholder", "/icon");
    for words in ["`logo.png`", "names it 2 times", "assets/logo.png", "not among the source's files", "replace it"] {
        assert!(logo.message.contains(words), "{words:?} in {}", logo.message);
    }
    assert!(said(&diagnostics, "generated/placeholder", "/tools/1/icon").message.contains("assets/wave.png"));
    let command = said(&diagnostics, "generated/placeholder", "/extras/raycast/manifest/commands/0/icon");
    assert!(command.message.contains("assets/images/main.png"), "{}", command.message);
    let away = said(&diagnostics, "generated/placeholder", "/extras/raycast/manifest/commands/1/icon");
    assert!(away.message.contains("no placeholder is written"), "{}", away.message);
    // The manifest still names the icons as the source did.
    assert_eq!(written, package);
}

#[test]
fn keys_raycast_requires_that_the_source_lacks_are_generated_and_said() {
    let package = json!({"name": "bare", "commands": [], "tools": [{"name": "greet"}]});
    let (bundle, written, diagnostics) = round(&package);
    for key in ["name", "title", "description", "icon", "author", "categories", "license", "commands"] {
        let value = &written[key];
        assert!(!(value.is_null() || value == "" || value == &json!([])), "`{key}` missing in {written:#}");
    }
    assert_eq!(
        keys(&written),
        ["name", "title", "description", "icon", "author", "categories", "license", "commands", "tools"]
    );
    for (code, path) in [
        ("generated/content", "/title"),
        ("generated/content", "/description"),
        ("generated/placeholder", "/creator"),
        ("generated/content", "/extras/raycast/manifest/categories"),
        ("generated/content", "/extras/raycast/manifest/license"),
        ("generated/content", "/extras/raycast/manifest/commands"),
        ("generated/content", "/tools/0/title"),
        ("generated/content", "/tools/0/description"),
    ] {
        said(&diagnostics, code, path);
    }
    assert_eq!(written["author"], "unknown");
    assert!(said(&diagnostics, "generated/content", "/extras/raycast/manifest/commands").message.contains("is empty"));
    // The generated icon is the placeholder, said once, as the source having none.
    assert_eq!(written["icon"], "extension-icon.png");
    assert_eq!(png_size(&bundle.binary_files["assets/extension-icon.png"]), (512, 512));
    assert!(said(&diagnostics, "generated/placeholder", "/icon").message.contains("the source has no icon"));
    // The generated command has a real source, not a stub.
    assert_eq!(written["commands"][0]["name"], "ai-tools");
    assert!(bundle.get("src/ai-tools.ts").is_some_and(|s| s.contains("showHUD")));
    assert!(!diagnostics.iter().any(|d| d.code == "generated/stub" && d.path.contains("/commands/")));
    // A tool's description found only in its TypeScript goes into package.json too.
    assert_eq!(written["tools"][0], json!({"name": "greet", "title": "Greet", "description": "Says hello."}));
}

#[test]
fn values_the_source_has_are_given_back_as_they_were() {
    let package = json!({
        "$schema": "https://www.raycast.com/schemas/extension.json",
        "name": "kept",
        "title": "Kept",
        "description": "Nothing here is replaced",
        "icon": "extension-icon.png",
        "author": {"name": "Someone", "email": "someone@example.com"},
        "license": "Apache-2.0",
        "commands": [{"name": "search", "title": "Search", "description": "Searches", "keywords": ["find"]}],
        "tools": [{"name": "greet", "title": "Hi", "description": "Greets", "instructions": "Be kind"}],
        "platforms": ["macOS"],
        "dependencies": {"@raycast/api": "^1.90.0"}
    });
    let (bundle, written, diagnostics) = round(&package);
    // Only `categories` is added, after the keys before it in a real extension's order, and a
    // command's missing mode; everything else is the source's, in its order.
    let mut expected = package.clone();
    expected["commands"][0]["mode"] = json!("no-view");
    let order: Vec<&str> = keys(&written).into_iter().filter(|k| *k != "categories").collect();
    assert_eq!(order, keys(&package));
    assert_eq!(keys(&written)[6], "categories", "after author");
    assert_eq!(written["categories"], json!(["Other"]));
    written.as_object().unwrap().iter().filter(|(k, _)| *k != "categories").for_each(|(key, value)| {
        assert_eq!(value, &expected[key], "`{key}`");
    });
    said(&diagnostics, "generated/content", "/extras/raycast/manifest/commands/0/mode");
    let generated: Vec<&str> =
        diagnostics.iter().filter(|d| d.code == "generated/content").map(|d| d.path.as_str()).collect();
    // And tsconfig.json, which the source lacks (said at the document's root).
    assert_eq!(generated, ["/extras/raycast/manifest/categories", "/extras/raycast/manifest/commands/0/mode", ""]);
    assert!(bundle.get("tsconfig.json").is_some());
    // The source's own command keeps its (stub) source; its icon, named by the source, is said
    // to be the source's and not carried, not missing.
    assert!(bundle.get("src/search.ts").is_some());
    assert!(bundle.get("src/ai-tools.ts").is_none());
    let icon = said(&diagnostics, "generated/placeholder", "/icon");
    assert!(icon.message.contains("is not among the source's files"), "{}", icon.message);
}
