//! Three formats linked into one test binary convert between one another in process: read a
//! fixture with one, write it with the others, and read each output back.

use toolport_core::{Bundle, Options, Tool, ToolSet};
use toolport_host::pipeline::{Status, convert};
use toolport_linked_formats::registry;
use toolport_testkit::{fixture, load, read_ok, render};

/// Converts `bundle` from one linked format to another through the host's pipeline, and reads
/// the output back with the target format.
fn through(from: &str, to: &str, bundle: &Bundle) -> (Bundle, ToolSet) {
    let registry = registry();
    let (from, to) = (registry.format(from).unwrap(), registry.format(to).unwrap());
    assert!(from.plugin.is_none() && to.plugin.is_none(), "linked formats, not plugins");
    let conversion = convert(from, to, bundle, &Options::default(), false);
    let (from, to) = (&from.info.id, &to.info.id);
    assert!(
        matches!(conversion.status, Status::Converted | Status::ConvertedWithLosses),
        "{from} -> {to}: {:?}\n{}",
        conversion.status,
        render(&conversion.diagnostics)
    );
    let output = conversion.output.expect("a converted bundle");
    let (model, _) = read_ok(&*registry.format(to).unwrap().format, &output);
    (output, model)
}

fn tool_parameters(tool: &Tool) -> Vec<&str> {
    tool.parameters.iter().map(|p| p.name.as_str()).collect()
}

/// The parameter names of each tool, in order.
fn parameters(model: &ToolSet) -> Vec<Vec<&str>> {
    model.tools.iter().map(tool_parameters).collect()
}

fn tool_names(model: &ToolSet) -> Vec<&str> {
    model.tools.iter().map(|t| t.name.as_str()).collect()
}

#[test]
fn the_registry_holds_three_linked_formats() {
    let registry = registry();
    let ids: Vec<&str> = registry.formats().iter().map(|f| f.info.id.as_str()).collect();
    assert_eq!(ids, ["gloodata", "skydeck", "mcp"]);
    assert!(registry.formats().iter().all(|f| f.plugin.is_none() && f.plugin_path.is_none()));
}

#[test]
fn mcp_to_skydeck_and_gloodata_and_back() {
    let input = load(&fixture("mcp/weather-tool.json"));
    let (original, _) = read_ok(&toolport_format_mcp::Mcp, &input);

    let (skydeck, via_skydeck) = through("mcp", "skydeck", &input);
    assert_eq!(parameters(&via_skydeck), parameters(&original));
    assert_eq!(via_skydeck.tools[0].description, original.tools[0].description);

    let (gloodata, via_gloodata) = through("mcp", "gloodata", &input);
    assert_eq!(parameters(&via_gloodata), parameters(&original));
    assert_eq!(tool_names(&via_gloodata), tool_names(&original));

    // And on to mcp again, from each.
    for (format, bundle) in [("skydeck", &skydeck), ("gloodata", &gloodata)] {
        let (_, back) = through(format, "mcp", bundle);
        assert_eq!(parameters(&back), parameters(&original), "mcp -> {format} -> mcp");
    }
}

#[test]
fn gloodata_to_mcp_and_skydeck_and_back() {
    let input = load(&fixture("gloodata/show-map.json"));
    let (original, _) = read_ok(&toolport_format_gloodata::Gloodata, &input);

    let (mcp, via_mcp) = through("gloodata", "mcp", &input);
    assert_eq!(tool_names(&via_mcp), tool_names(&original));
    assert_eq!(parameters(&via_mcp), parameters(&original));
    let (_, again) = through("mcp", "gloodata", &mcp);
    assert_eq!(parameters(&again), parameters(&original));

    // SkyDeck holds one tool per file: each file reads back as one of the tools.
    let (skydeck, _) = through("gloodata", "skydeck", &input);
    assert_eq!(skydeck.files.len(), original.tools.len());
    for (path, text) in &skydeck.files {
        let (model, _) = read_ok(&toolport_format_skydeck::SkyDeck, &Bundle::single(path.clone(), text.clone()));
        assert_eq!(model.tools.len(), 1, "{path}");
        let tool = &model.tools[0];
        let source = original.tools.iter().find(|t| t.description == tool.description).expect("a tool of the source");
        assert_eq!(tool_parameters(tool), tool_parameters(source), "{path}");
    }
}

#[test]
fn each_format_detects_its_own_fixture() {
    let cases =
        [("gloodata", "gloodata/show-map.json"), ("skydeck", "skydeck/minimal.json"), ("mcp", "mcp/weather-tool.json")];
    let registry = registry();
    for (id, path) in cases {
        let bundle = load(&fixture(path));
        let best = registry.detect(&bundle, false).into_iter().max_by_key(|(_, score)| *score).expect("a detection");
        assert_eq!(best.0.info.id, id, "{path}");
    }
}
