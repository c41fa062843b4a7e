//! Every real Gloodata document reads without error and writes back as the same JSON.

use serde_json::Value;
use toolport_format_gloodata::Gloodata;
use toolport_plugin::{Format, ToolSet};
use toolport_testkit::{assert_same_json, corpus, files_in, load, read_ok, render, write_ok};

#[test]
fn corpus_documents_round_trip_exactly() {
    let files = files_in(&corpus("gloodata"), &["json"]);
    assert!(files.len() >= 5, "expected the Gloodata corpus, found {} files", files.len());
    for path in files {
        let name = path.display().to_string();
        let bundle = load(&path);
        let (_, original) = bundle.entry_file().unwrap();
        let original: Value = serde_json::from_str(original).unwrap();
        assert!(Gloodata.detect(&bundle) >= 90, "{name}: not detected");

        let (model, read_diagnostics) = read_ok(&Gloodata, &bundle);
        let unexpected: Vec<_> = read_diagnostics.iter().filter(|d| d.code != "input/unknown-key").cloned().collect();
        assert!(unexpected.is_empty(), "{name}: unexpected diagnostics\n{}", render(&unexpected));

        // The model crosses the plugin boundary as JSON: residues and explicit nulls survive it.
        let via_json: ToolSet = serde_json::from_value(serde_json::to_value(&model).unwrap()).unwrap();
        assert_eq!(via_json, model, "{name}: model changed through its JSON form");

        let (written, write_diagnostics) = write_ok(&Gloodata, &model);
        assert!(write_diagnostics.is_empty(), "{name}: writing back reported\n{}", render(&write_diagnostics));
        let (_, text) = written.entry_file().unwrap();
        assert!(text.ends_with("}\n"), "{name}: output ends with a newline");
        let rewritten: Value = serde_json::from_str(text).unwrap();
        assert_same_json(&original, &rewritten, &name);

        // And the model survives a second trip unchanged.
        let (again, _) = read_ok(&Gloodata, &written);
        assert_eq!(model, again, "{name}: model changed on a second trip");
        let (rewritten_again, _) = write_ok(&Gloodata, &again);
        assert_eq!(written.files.values().next(), rewritten_again.files.values().next(), "{name}: output not stable");
    }
}
