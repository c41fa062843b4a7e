//! A tool set → an ADK agent folder: `<package>/openapi.json` (the `openapi` format's writer),
//! `<package>/agent.py` (the agent over ADK's `OpenAPIToolset`) and `<package>/__init__.py`.

use toolport_format_openapi::OpenApi;
use toolport_plugin::{Bundle, Diagnostic, Options, Outcome, ToolSet, codes};

use crate::auth::auth_code;
use crate::python::{comment, identifier, string};
use crate::{DEFAULT_MODEL, ID};

/// The spec's file name inside the package: JSON, which ADK (and Python) parse many times
/// faster than YAML (a 376 KB spec: ADK builds its toolset in 0.8 s from JSON, 12 s from YAML, at every
/// start of the agent).
pub(crate) const SPEC_FILE: &str = "openapi.json";

/// Past this size a spec makes an impractical agent: ADK's toolset expands every reference in
/// memory (the conformance check builds agents of specs up to 1 MiB; GitHub's and Stripe's took
/// over 6 GB).
const LARGE_SPEC_BYTES: usize = 1 << 20;

/// Writes the agent folder for `set`.
pub(crate) fn agent_folder(set: &ToolSet, options: &Options) -> Outcome<Bundle> {
    let package = identifier(options.output_name("agent"), "agent");
    let agent = identifier(set.id.as_deref().or(set.title.as_deref()).unwrap_or(&package), &package);
    let mut spec_options = options.clone();
    spec_options.set("syntax", "json");
    spec_options.set(Options::OUTPUT_NAME, SPEC_FILE.trim_end_matches(".json"));
    // ADK parses the spec with FastAPI's OpenAPI 3.1 models: a 3.0 boolean `exclusiveMinimum`
    // makes the response unreadable ("Unsupported response"), so the spec is written as 3.1.0.
    let spec = OpenApi.write_as_openapi_31(set, &spec_options);
    let mut diagnostics = spec.diagnostics;
    let Some(spec_text) = spec.value.as_ref().and_then(|b| b.get(SPEC_FILE)) else {
        return Outcome::failed(diagnostics);
    };
    if spec_text.len() > LARGE_SPEC_BYTES {
        diagnostics.push(Diagnostic::warning(
            codes::LIMIT_SCHEMA,
            "",
            format!(
                "the agent's spec is {:.1} MB: ADK expands every $ref of it in memory when it builds the toolset, and agents of specs this large are impractical (GitHub's 3.6 MB spec took over 6 GB before it was stopped); keep the operations the agent needs with --select or --exclude",
                spec_text.len() as f64 / 1e6
            ),
        ));
    }
    if !set.runtime_defaults.is_empty() {
        let keys: Vec<&str> = set.runtime_defaults.keys().map(String::as_str).collect();
        diagnostics.push(Diagnostic::loss(
            codes::LOSS_FIELD,
            "/runtime_defaults",
            format!(
                "ADK's OpenAPIToolset sends no default parameters of its own: {} (kept only in the spec's x-toolport section) must be given by the model or the spec's defaults",
                keys.join(", ")
            ),
        ));
    }
    let module = agent_module(set, &agent, options.get("model").unwrap_or(DEFAULT_MODEL), &mut diagnostics);
    let mut bundle = Bundle::default();
    bundle.insert(format!("{package}/{SPEC_FILE}"), spec_text);
    bundle.insert(format!("{package}/agent.py"), module);
    bundle.insert(format!("{package}/__init__.py"), "from . import agent\n");
    Outcome::ok(bundle, diagnostics)
}

/// `agent.py`: the instruction, the auth, the toolset over the spec beside it, `root_agent`.
fn agent_module(set: &ToolSet, agent: &str, model: &str, out: &mut Vec<Diagnostic>) -> String {
    let auth = auth_code(set, agent, out);
    let mut imports = vec!["import os", "from pathlib import Path", "", "from google.adk.agents import Agent"];
    imports.push("from google.adk.tools.openapi_tool import OpenAPIToolset");
    if let Some(auth) = &auth {
        for line in &auth.imports {
            let place = if line.starts_with("import ") { 0 } else { imports.len() };
            if !imports.contains(line) {
                imports.insert(place, line);
            }
        }
    }
    let title = set.title.as_deref().or(set.id.as_deref()).unwrap_or(agent);
    let mut py = comment(&format!(
        "The ADK agent of {title}, written by toolport ({ID} format) from its tool set.\n\nRun it with `adk run` or `adk web` from the folder above this one."
    ));
    py.push('\n');
    py.push_str(&imports.join("\n"));
    py.push_str(&format!("\n\nSPEC = Path(__file__).with_name({})\n", string(SPEC_FILE)));
    let instruction = set.instructions.as_deref().or(set.description.as_deref()).filter(|t| !t.trim().is_empty());
    if let Some(text) = instruction {
        py.push_str(&format!("\nINSTRUCTION = {}\n", string(text)));
    }
    // ADK reads `{name}` in a plain instruction as session state and fails on a name it lacks;
    // an instruction provider's text is taken as it is.
    let braces = instruction.is_some_and(|t| t.contains('{'));
    if braces {
        py.push_str("\n\ndef instruction(_context):\n    \"\"\"The instruction as written: ADK fills no {placeholders} in a provider's text.\"\"\"\n    return INSTRUCTION\n");
    }
    if let Some(auth) = &auth {
        py.push('\n');
        py.push_str(&auth.code);
    }
    py.push_str(
        "\ntoolset = OpenAPIToolset(\n    spec_str=SPEC.read_text(encoding=\"utf-8\"),\n    spec_str_type=\"json\",\n",
    );
    if auth.is_some() {
        py.push_str("    auth_scheme=auth_scheme,\n    auth_credential=auth_credential,\n");
    }
    py.push_str(")\n\n");
    py.push_str(&format!(
        "root_agent = Agent(\n    name={},\n    model=os.environ.get(\"ADK_MODEL\", {}),\n",
        string(agent),
        string(model)
    ));
    if let Some(description) = set.description.as_deref().or(set.title.as_deref()).filter(|t| !t.trim().is_empty()) {
        py.push_str(&format!("    description={},\n", string(description)));
    }
    match (instruction, braces) {
        (Some(_), true) => py.push_str("    instruction=instruction,\n"),
        (Some(_), false) => py.push_str("    instruction=INSTRUCTION,\n"),
        (None, _) => {
            py.push_str(&indent(&comment("The tool set had no instructions or description to give the agent.")))
        }
    }
    py.push_str("    tools=[toolset],\n)\n");
    py
}

/// `text`'s lines indented by four spaces.
fn indent(text: &str) -> String {
    text.lines().map(|line| format!("    {line}\n")).collect()
}
