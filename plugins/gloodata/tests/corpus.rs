//! Every real Gloodata document reads without error and writes back as the same JSON.

use toolport_format_gloodata::Gloodata;
use toolport_plugin::{Format, Options, ToolSet};
use toolport_testkit::{corpus, files_in, load, render, round_trip, write_ok};

#[test]
fn corpus_documents_round_trip_exactly() {
    let files = files_in(&corpus("gloodata"), &["json"]);
    assert!(files.len() >= 5, "expected the Gloodata corpus, found {} files", files.len());
    for path in files {
        let name = path.display().to_string();
        let bundle = load(&path);
        assert!(Gloodata.detect(&bundle) >= 90, "{name}: not detected");
        // Written back as the same JSON, and read again as the same model.
        let trip = round_trip(&Gloodata, &bundle, &Options::default(), &name);
        let model = &trip.model;

        let unexpected: Vec<_> =
            trip.read_diagnostics.iter().filter(|d| d.code != "input/unknown-key").cloned().collect();
        assert!(unexpected.is_empty(), "{name}: unexpected diagnostics\n{}", render(&unexpected));

        // The model crosses the plugin boundary as JSON: residues and explicit nulls survive it.
        let via_json: ToolSet = serde_json::from_value(serde_json::to_value(model).unwrap()).unwrap();
        assert_eq!(&via_json, model, "{name}: model changed through its JSON form");

        let write_diagnostics = &trip.write_diagnostics;
        assert!(write_diagnostics.is_empty(), "{name}: writing back reported\n{}", render(write_diagnostics));
        let (_, text) = trip.output();
        assert!(text.ends_with("}\n"), "{name}: output ends with a newline");

        let (rewritten_again, _) = write_ok(&Gloodata, model);
        assert_eq!(
            trip.written.files.values().next(),
            rewritten_again.files.values().next(),
            "{name}: output not stable"
        );
    }
}
