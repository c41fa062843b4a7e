//! Detection claims Gloodata documents and leaves other formats' files alone.

use toolport_format_gloodata::Gloodata;
use toolport_plugin::{Bundle, Format};
use toolport_testkit::{corpus, files_in, load};

fn check(text: &str, expect: u8) {
    assert_eq!(Gloodata.detect(&Bundle::single("input.json", text)), expect, "detect({text})");
}

#[test]
fn detects_by_content() {
    check(r#"{"ns": "x", "title": "X", "tools": {}}"#, 95);
    check(r#"{"title": "X", "ns": "x", "functions": {"f": {}}}"#, 95);
    check(r#"{"ns": "x", "title": "X"}"#, 30);
    check(r#"{"ns": 5, "tools": {}}"#, 0);
    check(r#"{"ns": "x", "tools": []}"#, 0);
    check(r#"{"name": "weather", "tools": [{"name": "ns"}]}"#, 0);
    check(r#"["ns"]"#, 0);
    check("not json \"ns\"", 0);
    check("", 0);
    assert_eq!(Gloodata.detect(&Bundle::default()), 0);
}

#[test]
fn other_formats_corpus_files_are_not_claimed() {
    let mut checked = 0;
    for folder in ["skydeck", "vertex", "openapi", "raycast"] {
        let root = corpus(folder);
        let mut dirs = vec![root.clone()];
        dirs.extend(std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()));
        for dir in dirs {
            for path in files_in(&dir, &["json"]) {
                assert_eq!(Gloodata.detect(&load(&path)), 0, "{}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "only {checked} files checked");
}
