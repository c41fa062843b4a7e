//! In-process translation from Python, part of `cargo xtask bench --peers`: an OpenAI tool list
//! (Python dicts and lists) to Anthropic's form by `toolport.convert(tools, from_="openai",
//! to="anthropic").json()` (the release wheel) against LiteLLM's own translation of the same list,
//! `AnthropicConfig()._map_tools(tools)` (what `litellm.completion` runs for an Anthropic model),
//! and that translation with its result deep-copied (LiteLLM's shares the caller's dicts;
//! toolport's result is the caller's own).
//! Each contender runs in its own Python process, warmed up, then timed per call (median of 5
//! batches; CPU time beside wall time). LiteLLM is installed at a pinned version into
//! target/peers/litellm-venv, once.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::path;
use crate::root;

const LITELLM: &str = "1.110.2";

/// Prints, per call: wall milliseconds and CPU milliseconds (argv: WHO LIST).
const SCRIPT: &str = r#"
import json, os, statistics, sys, time
who, listing = sys.argv[1], sys.argv[2]
tools = json.load(open(listing))
if who == "toolport":
    import toolport
    call = lambda: toolport.convert(tools, from_="openai", to="anthropic").json()
else:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    config = AnthropicConfig()
    if who == "litellm":
        call = lambda: config._map_tools(tools)
    else:
        # Its result shares the caller's dicts (each tool's `parameters`): a copy makes it the
        # caller's own, as toolport's is.
        import copy
        call = lambda: copy.deepcopy(config._map_tools(tools))
produced = call()
produced = produced if who == "toolport" else produced[0]
assert len(produced) == len(tools), (who, len(produced), len(tools))
calls = max(5, 2000 // len(tools))
walls, cpus = [], []
for _ in range(5):
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        call()
    walls.append((time.perf_counter() - wall) / calls * 1000)
    cpus.append((time.process_time() - cpu) / calls * 1000)
print(statistics.median(walls), statistics.median(cpus))
"#;

pub fn run(convert: &Path, toolport_python: &Path, work: &Path) -> Result<()> {
    let litellm = install_litellm(&root().join("target/peers"))?;
    let work = work.join("translation");
    std::fs::create_dir_all(&work)?;
    let script = work.join("translate.py");
    std::fs::write(&script, SCRIPT)?;
    let corpus = super::corpus().join("openapi");
    let sources = [
        ("fixture chat-tools", root().join("fixtures/openai/chat-tools.json")),
        ("petstore", corpus.join("oai-examples/petstore-expanded.yaml")),
        ("Twilio Verify", corpus.join("twilio/twilio_verify_v2.json")),
        ("GitHub", corpus.join("github/api.github.com.json")),
    ];
    println!("In-process translation, OpenAI tools (dicts) -> Anthropic, per call (median of 5 batches):");
    println!(
        "  toolport.convert(tools, from_=\"openai\", to=\"anthropic\").json() vs LiteLLM {LITELLM} AnthropicConfig()._map_tools(tools)"
    );
    println!();
    println!(
        "| list | tools | toolport wall / CPU ms | LiteLLM wall / CPU ms | CPU ratio (toolport / LiteLLM; goal <= 1) | LiteLLM, its result deep-copied, wall / CPU ms | CPU ratio to that |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, source) in &sources {
        if !source.exists() {
            println!("| {name} | {} missing, skipped | | | |", source.display());
            continue;
        }
        let listing = openai_list(convert, source, &work, name)?;
        let tools = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&listing)?)?
            .as_array()
            .map_or(0, Vec::len);
        if tools == 0 {
            bail!("{}: not an OpenAI tool list", listing.display());
        }
        let ours = per_call(toolport_python, &script, "toolport", &listing)?;
        let theirs = per_call(&litellm, &script, "litellm", &listing)?;
        let owned = per_call(&litellm, &script, "litellm-owned", &listing)?;
        println!(
            "| {name} | {tools} | {:.3} / {:.3} | {:.3} / {:.3} | {:.2}x | {:.3} / {:.3} | {:.2}x |",
            ours.0,
            ours.1,
            theirs.0,
            theirs.1,
            ours.1 / theirs.1,
            owned.0,
            owned.1,
            ours.1 / owned.1
        );
    }
    Ok(())
}

/// The source as an OpenAI tool list (a JSON array), written by `convert` unless it is one.
fn openai_list(convert: &Path, source: &Path, work: &Path, name: &str) -> Result<PathBuf> {
    if source.extension().is_some_and(|e| e == "json")
        && serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(source)?).is_ok_and(|v| v.is_array())
    {
        return Ok(source.to_owned());
    }
    let out = work.join(format!("{}.json", name.replace(' ', "-")));
    let status =
        Command::new(convert).args(["--to", "openai", "-q", "--force", path(source), "-o", path(&out)]).status()?;
    if !status.success() {
        bail!("convert --to openai {} failed ({status})", source.display());
    }
    Ok(out)
}

fn per_call(python: &Path, script: &Path, who: &str, listing: &Path) -> Result<(f64, f64)> {
    let output = Command::new(python).args([path(script), who, path(listing)]).output()?;
    if !output.status.success() {
        bail!("{who} on {}: {}", listing.display(), String::from_utf8_lossy(&output.stderr));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut numbers = text.split_whitespace().filter_map(|n| n.parse::<f64>().ok());
    Ok((numbers.next().context("wall time")?, numbers.next().context("CPU time")?))
}

fn install_litellm(peers: &Path) -> Result<PathBuf> {
    super::peers::install_pinned(&peers.join("litellm-venv"), "litellm", LITELLM, &[])
}
