//! `cargo xtask bench`: builds release binaries and reports, as ratios measured in one run:
//!
//! - a batch of 10,000 generated SkyDeck files converted to gloodata: files per second, and
//!   the ratio to `bench-baseline` (read + JSON parse + JSON write of the same files);
//! - the cost of isolation: the batch with every plugin in its own process vs in process;
//! - start-up: `convert formats` with every plugin loaded (median wall time of 21 runs), in
//!   process and isolated;
//! - peak memory (max RSS) of the batch and of the GitHub spec conversion;
//! - the GitHub, Stripe and Twilio REST 2010 OpenAPI specs (Twilio's when the corpus has it:
//!   `TOOLPORT_CORPUS`) converted to vertex, openai, mcp, gloodata and gemini, as a ratio to a
//!   bare parse + serialize of the same file with the same libraries (alternating with it,
//!   medians of 7), and the cost of detecting the format (no `--from`);
//! - memory per tool: an MCP list of 100,000 small tools (generated, about 32 MB) to openapi,
//!   openai and mcp, peak memory per tool against the floor's on the same file;
//! - the Python API (a release wheel installed in target/python/bench-venv) against `convert`
//!   on the same input, Stripe to openai, files written by both;
//! - scaling (`--scaling-only` runs just this, `--scaling-only CASE` the cases whose name
//!   holds it): inputs that once made readers or writers super-linear or their output explode,
//!   generated at 1x, 2x, 4x and 8x their base size, with wall time, CPU time, peak memory and
//!   bytes written at each size and the growth from 1x to 8x (linear is about 8x);
//! - with `--peers` (`--peers-only` runs just this): OpenAPI to MCP side by side with
//!   openapi-mcp-generator, two FastMCPs and openapi-llm, installed at pinned versions into
//!   target/peers (bench/peers.rs), and OpenAI tool lists translated to Anthropic's form inside
//!   Python by `toolport.convert` and by LiteLLM (bench/translation.rs). Real-world specs come
//!   from the corpus (`TOOLPORT_CORPUS`, else ../shared/corpus).
//!
//! `--only SECTIONS` runs some of these (batch, isolation, start-up, specs, memory, python,
//! scaling), or `translation`, the in-Python half of the peers alone. CPU time (user + system) is shown beside wall time: on a shared machine it is the
//! steadier measure. Only the ratios are meant to be compared.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::{cargo, root};

mod peers;
mod translation;

const BATCH: usize = 10_000;
/// Rounds of the batch (and of its isolated form), alternating with the floor: its floor's CPU
/// time moves by a tenth between runs of three.
const BATCH_ROUNDS: usize = 5;
/// Rounds of each large spec's conversions, alternating with the floor.
const SPEC_ROUNDS: usize = 7;

/// The sections `--only` picks from, in the order they run.
const SECTIONS: [&str; 7] = ["batch", "isolation", "start-up", "specs", "memory", "python", "scaling"];

/// Sections `--only` may name that a run without it leaves out (they install peers).
const ON_REQUEST: [&str; 1] = ["translation"];

/// How many tools the memory benchmark's MCP list has.
const MEMORY_TOOLS: usize = 100_000;

/// The CASE operand (the one argument that is neither a flag nor `--files`'s value): which
/// scaling cases run, by a part of their name; empty for all.
fn case_filter(args: &[String]) -> &str {
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--files" | "--only" => {
                rest.next();
            }
            flag if flag.starts_with("--") => {}
            case => return case,
        }
    }
    ""
}

/// The sections `--only` names (all of them without it), checked against [`SECTIONS`].
fn sections(args: &[String]) -> Result<Vec<&str>> {
    let only = args.iter().position(|a| a == "--only").and_then(|i| args.get(i + 1));
    let sections: Vec<&str> = only.map_or(SECTIONS.to_vec(), |only| only.split(',').map(str::trim).collect());
    if let Some(unknown) = sections.iter().find(|s| !SECTIONS.contains(s) && !ON_REQUEST.contains(s)) {
        bail!("--only {unknown}: no such section; the sections are {}, {}", SECTIONS.join(", "), ON_REQUEST.join(", "));
    }
    Ok(sections)
}

pub fn run(args: &[String]) -> Result<()> {
    let files =
        args.iter().position(|a| a == "--files").and_then(|i| args.get(i + 1)).map_or(Ok(BATCH), |n| n.parse())?;
    // Checked before the release build, which takes minutes.
    let sections = sections(args)?;
    cargo(&["build", "--release", "--workspace", "--lib", "--bins"])?;
    let release = root().join("target/release");
    let convert = release.join("convert");
    let baseline = release.join("bench-baseline");
    // On a RAM file system when there is one: the batch compares conversion work, and a
    // disk's flushing of earlier runs otherwise swamps it (seen: the floor varying tenfold).
    let shm = Path::new("/dev/shm");
    let work = if shm.is_dir() { shm.join("toolport-bench") } else { root().join("target/bench") };
    let _ = std::fs::remove_dir_all(&work);
    if args.iter().any(|a| a == "--scaling-only") {
        scaling(&convert, &work, case_filter(args))?;
        let _ = std::fs::remove_dir_all(&work);
        return Ok(());
    }
    if args.iter().any(|a| a == "--peers-only") {
        peers::run(&convert, &work)?;
        println!();
        translation::run(&convert, &toolport_python()?, &work)?;
        let _ = std::fs::remove_dir_all(&work);
        return Ok(());
    }
    let runs = |section: &str| sections.contains(&section);
    let inputs = work.join("skydeck");
    if runs("batch") || runs("isolation") {
        generate_skydeck(&inputs, files)?;
    }

    println!("toolport benchmarks ({} cores)", std::thread::available_parallelism().map_or(1, |n| n.get()));
    println!();
    if runs("batch") {
        batch(&convert, &baseline, &inputs, &work, files)?;
        println!();
    }
    if runs("isolation") {
        isolation(&convert, &inputs, &work)?;
        println!();
    }
    if runs("start-up") {
        start_up(&convert, &work)?;
        println!();
    }
    if runs("specs") {
        large_specs(&convert, &baseline, &work)?;
        println!();
    }
    if runs("memory") {
        memory_per_tool(&convert, &baseline, &work)?;
        println!();
    }
    let mut python = None;
    if runs("python") {
        python = python_api(&convert, &work)?;
        println!();
    }
    if runs("scaling") {
        scaling(&convert, &work, "")?;
        println!();
    }
    if args.iter().any(|a| a == "--peers") {
        peers::run(&convert, &work)?;
        println!();
    }
    if args.iter().any(|a| a == "--peers") || runs("translation") {
        translation::run(&convert, &python.map_or_else(toolport_python, Ok)?, &work)?;
        println!();
    }
    println!("(work files in {}; removed)", work.display());
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// (a) The batch, and its floor.
fn batch(convert: &Path, baseline: &Path, inputs: &Path, work: &Path, files: usize) -> Result<()> {
    // (a) the batch, and its floor: alternate the two five times and take medians, after
    // flushing the generated inputs, so that the disk's own catching up lands on neither.
    let _ = Command::new("sync").status();
    let mut batch = Vec::new();
    let mut floor = Vec::new();
    for round in 0..BATCH_ROUNDS {
        let out = work.join(format!("out-{round}"));
        batch.push(sample(convert, &["--from", "skydeck", "--to", "gloodata", "-q", path(inputs), "-o", path(&out)])?);
        floor.push(sample(baseline, &[path(inputs), path(&work.join(format!("floor-{round}")))])?);
    }
    let (batch, floor) = (Sample::median(batch), Sample::median(floor));
    println!("batch: {files} SkyDeck files -> gloodata (median of {BATCH_ROUNDS}, alternating)");
    let rate = |d: Duration| files as f64 / secs(d);
    println!("  convert:  {}  {:>9.0} files/s", batch.shown(), rate(batch.wall));
    println!("  baseline: {}  {:>9.0} files/s  (read + JSON parse + JSON write)", floor.shown(), rate(floor.wall));
    println!("  ratio convert/baseline: {} (goal: within 2.5x)", batch.ratio_to(&floor));
    Ok(())
}

/// (a') The cost of isolation.
fn isolation(convert: &Path, inputs: &Path, work: &Path) -> Result<()> {
    // (a') the cost of isolation: the same batch with every plugin in its own process,
    // alternating with in-process runs.
    let mut isolated = Vec::new();
    let mut in_process = Vec::new();
    for round in 0..BATCH_ROUNDS {
        for (mode, runs) in [("always", &mut isolated), ("never", &mut in_process)] {
            let out = work.join(format!("isolate-{mode}-{round}"));
            runs.push(measure(
                convert,
                &["--isolate", mode, "--from", "skydeck", "--to", "gloodata", "-q", path(inputs), "-o", path(&out)],
            )?);
        }
    }
    let ((isolated_time, isolated_rss), (in_process_time, _)) = (median(isolated), median(in_process));
    println!("isolation: the same batch with every plugin in its own process (median of {BATCH_ROUNDS}, alternating)");
    println!(
        "  --isolate always: {:.3} s, peak {:.1} MiB (convert alone); --isolate never: {:.3} s; ratio {:.2}x (goal: within 1.2x)",
        secs(isolated_time),
        mib(isolated_rss),
        secs(in_process_time),
        secs(isolated_time) / secs(in_process_time)
    );
    Ok(())
}

/// (b) Start-up, in process and isolated.
fn start_up(convert: &Path, work: &Path) -> Result<()> {
    // (b) start-up: `convert formats`, which loads every plugin to show what loads, in process
    // and isolated; and the smallest conversion, a one-tool MCP file to openai, its plugins
    // known from the description cache (as every run after the first finds them) and, with the
    // cache off, every plugin loaded (as on a first run).
    let median = |args: &[&str], cache: Option<&str>| -> Result<f64> {
        let mut times = Vec::new();
        for _ in 0..21 {
            let mut command = Command::new(convert);
            command.args(args).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
            if let Some(cache) = cache {
                command.env("TOOLPORT_PLUGIN_CACHE", cache);
            }
            let start = Instant::now();
            let status = command.status()?;
            if !status.success() {
                bail!("convert {} failed with {status}", args.join(" "));
            }
            times.push(start.elapsed());
        }
        times.sort();
        Ok(times[10].as_secs_f64() * 1000.0)
    };
    let (listed, isolated) = (median(&["formats"], None)?, median(&["--isolate", "always", "formats"], None)?);
    println!(
        "start-up: convert formats (every plugin loaded): median {listed:.1} ms, {isolated:.1} ms with every plugin isolated (goal: under 10 ms)"
    );
    std::fs::create_dir_all(work)?;
    let input = root().join("fixtures/mcp/weather-tool.json");
    let out = work.join("start-up.json");
    let one = ["--from", "mcp", "--to", "openai", "-q", "--force", path(&input), "-o", path(&out)];
    // Once, so the cache describes this build's plugins.
    median(&one, None)?;
    let (cached, every) = (median(&one, None)?, median(&one, Some("off"))?);
    println!(
        "start-up of a conversion (one MCP tool to openai): median {cached:.1} ms, its plugins known from the description cache; {every:.1} ms with every plugin loaded (cache off, as on a first run)"
    );
    Ok(())
}

/// (c) Large specs into each target, against their floor, and the cost of detection.
fn large_specs(convert: &Path, baseline: &Path, work: &Path) -> Result<()> {
    // (c) large specs
    let corpus = corpus().join("openapi");
    for (name, spec) in [
        ("GitHub", corpus.join("github/api.github.com.json")),
        ("Stripe", corpus.join("stripe/spec3.json")),
        // Not among ../shared/corpus's documents: spec/json/twilio_api_v2010.json of
        // twilio/twilio-oai, in a corpus folder given with TOOLPORT_CORPUS (as for the peers).
        ("Twilio REST 2010", corpus.join("twilio/twilio_api_v2010.json")),
    ] {
        if !spec.exists() {
            println!("{name}: {} missing, skipped", spec.display());
            continue;
        }
        // Each target alternates with the floor, seven rounds, medians: a loaded machine
        // slows both alike, so the ratios hold, and a run slowed on its own (the machine is
        // shared) is outvoted.
        const TARGETS: [&str; 5] = ["vertex", "openai", "mcp", "gloodata", "gemini"];
        let mut floors = Vec::new();
        let mut runs: Vec<Vec<Sample>> = vec![Vec::new(); TARGETS.len() + 1];
        for round in 0..SPEC_ROUNDS {
            floors.push(sample(baseline, &[path(&spec), path(&work.join(format!("{name}-floor-{round}")))])?);
            for (i, to) in TARGETS.iter().enumerate() {
                let out = work.join(format!("{name}-{round}.{to}"));
                runs[i].push(sample(convert, &["--from", "openapi", "--to", to, "-q", path(&spec), "-o", path(&out)])?);
            }
            // Detection: the same conversion to openai without --from.
            let out = work.join(format!("{name}-{round}-detected.openai"));
            runs[TARGETS.len()].push(sample(convert, &["--to", "openai", "-q", path(&spec), "-o", path(&out)])?);
        }
        let floor = Sample::median(floors);
        println!(
            "{name} ({:.1} MB): bare parse + serialize {} (median of {SPEC_ROUNDS}, alternating)",
            mb(&spec),
            floor.shown()
        );
        let medians: Vec<Sample> = runs.into_iter().map(Sample::median).collect();
        for (to, run) in TARGETS.iter().zip(&medians) {
            println!("  -> {to:<8} {}, ratio to the floor {} (goal: within 2x)", run.shown(), run.ratio_to(&floor));
        }
        let (detected, given) = (&medians[TARGETS.len()], &medians[1]);
        println!(
            "  detection (-> openai without --from): CPU {:+.0}%, wall {:+.0}% over --from openapi (goal: at most +10%)",
            (secs(detected.cpu) / secs(given.cpu) - 1.0) * 100.0,
            (secs(detected.wall) / secs(given.wall) - 1.0) * 100.0
        );
    }
    Ok(())
}

/// (d) Memory per tool: an MCP list of many small tools to openapi, openai and mcp, against
/// the floor's peak on the same file.
fn memory_per_tool(convert: &Path, baseline: &Path, work: &Path) -> Result<()> {
    let list = work.join("many-tools.mcp.json");
    std::fs::create_dir_all(work)?;
    std::fs::write(&list, mcp_tool_list(MEMORY_TOOLS))?;
    const TARGETS: [&str; 3] = ["openapi", "openai", "mcp"];
    let mut floors = Vec::new();
    let mut runs: Vec<Vec<Sample>> = vec![Vec::new(); TARGETS.len()];
    for round in 0..3 {
        floors.push(sample(baseline, &[path(&list), path(&work.join(format!("tools-floor-{round}")))])?);
        for (i, to) in TARGETS.iter().enumerate() {
            let out = work.join(format!("tools-{round}.{to}"));
            runs[i].push(sample(convert, &["--from", "mcp", "--to", to, "-q", path(&list), "-o", path(&out)])?);
            let _ = std::fs::remove_dir_all(&out);
        }
        let _ = std::fs::remove_dir_all(work.join(format!("tools-floor-{round}")));
    }
    let per_tool = |s: &Sample| s.peak_kib as f64 / MEMORY_TOOLS as f64;
    let floor = Sample::median(floors);
    println!("memory: an MCP list of {MEMORY_TOOLS} small tools ({:.1} MB) (median of 3, alternating)", mb(&list));
    println!("  floor (read + parse + serialize + write): {}, {:.2} KiB per tool", floor.shown(), per_tool(&floor));
    for (to, run) in TARGETS.iter().zip(runs.into_iter().map(Sample::median)) {
        println!(
            "  -> {to:<8} {}, {:.2} KiB per tool, {:.2}x the floor's peak (goal: within 2x); CPU {}",
            run.shown(),
            per_tool(&run),
            per_tool(&run) / per_tool(&floor),
            run.ratio_to(&floor)
        );
    }
    let _ = std::fs::remove_file(&list);
    Ok(())
}

/// An MCP `tools/list` result of `n` small tools, each three parameters (compact JSON, about
/// 330 bytes a tool).
fn mcp_tool_list(n: usize) -> String {
    let tools: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "name": format!("get_weather_{i}"),
                "description": format!("Gets the weather forecast for a city (variant {i})."),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "description": "City name"},
                        "units": {"type": "string", "enum": ["metric", "imperial"]},
                        "days": {"type": "integer", "minimum": 1, "maximum": 14}
                    },
                    "required": ["city"]
                }
            })
        })
        .collect();
    serde_json::json!({ "tools": tools }).to_string()
}

/// What the bench's Python runs: `ROUNDS` conversions of `SPEC` to openai through the API, each
/// written below `OUT` like `convert -o` writes; prints the median in-process time (seconds).
const PYTHON_API_SCRIPT: &str = r#"
import statistics, sys, time
from pathlib import Path
import toolport
spec, out, rounds = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
times = []
for i in range(rounds):
    start = time.perf_counter()
    toolport.convert(spec, from_="openapi", to="openai").write(out / str(i))
    times.append(time.perf_counter() - start)
print(statistics.median(times))
"#;

/// Conversions from Python against the command line on the same input (Stripe to openai,
/// release builds, files written by both, alternating, median of 3): the whole `python` process
/// (start-up, import, convert, write) and the conversion inside Python alone, each as a ratio
/// to `convert`.
fn python_api(convert: &Path, work: &Path) -> Result<Option<PathBuf>> {
    let spec = root().join("../shared/corpus/openapi/stripe/spec3.json");
    if !spec.exists() {
        println!("Python API: {} missing, skipped", spec.display());
        return Ok(None);
    }
    let python = toolport_python()?;
    let script = work.join("python-api.py");
    std::fs::write(&script, PYTHON_API_SCRIPT)?;
    let (mut cli, mut api) = (Vec::new(), Vec::new());
    for round in 0..3 {
        let out = work.join(format!("python-cli-{round}"));
        cli.push(measure(convert, &["--from", "openapi", "--to", "openai", "-q", path(&spec), "-o", path(&out)])?);
        let out = work.join(format!("python-api-{round}"));
        api.push(measure(&python, &[path(&script), path(&spec), path(&out), "1"])?);
    }
    let ((cli_time, cli_rss), (api_time, api_rss)) = (median(cli), median(api));
    let inside =
        Command::new(&python).args([path(&script), path(&spec), path(&work.join("python-inside")), "5"]).output()?;
    if !inside.status.success() {
        bail!("the Python API run failed: {}", String::from_utf8_lossy(&inside.stderr));
    }
    let inside: f64 = String::from_utf8_lossy(&inside.stdout).trim().parse().context("the Python API's time")?;
    println!("Python API vs convert: Stripe ({:.1} MB) -> openai, files written (release builds)", mb(&spec));
    println!("  convert:                 {:.3} s, peak {:>6.1} MiB", secs(cli_time), mib(cli_rss));
    println!(
        "  python (start, import, toolport.convert, write): {:.3} s, peak {:>6.1} MiB, ratio {:.2}x (goal: within 1x)",
        secs(api_time),
        mib(api_rss),
        secs(api_time) / secs(cli_time)
    );
    println!(
        "  toolport.convert + write inside Python: {:.3} s (median of 5), ratio {:.2}x",
        inside,
        inside / secs(cli_time)
    );
    Ok(Some(python))
}

/// A Python with the release wheel installed (target/python/bench-venv), built now.
fn toolport_python() -> Result<PathBuf> {
    let wheel = crate::setup::python_wheel(true, false)?;
    crate::setup::python_venv(&root().join("target/python/bench-venv"), &wheel, None)
}

/// One scaling case: a generator of an input with `n` units, the file or folder name it
/// needs, and how convert reads and writes it.
struct ScalingCase {
    name: &'static str,
    base: usize,
    file: &'static str,
    args: &'static [&'static str],
    generate: fn(usize) -> Input,
}

/// A generated input: one file, or a folder of files (relative path, text).
enum Input {
    File(String),
    Folder(Vec<(&'static str, String)>),
}

impl Input {
    fn write(&self, at: &Path) -> Result<()> {
        let _ = std::fs::remove_dir_all(at);
        let _ = std::fs::remove_file(at);
        match self {
            Input::File(text) => std::fs::write(at, text)?,
            Input::Folder(files) => {
                for (name, text) in files {
                    let file = at.join(name);
                    std::fs::create_dir_all(file.parent().expect("a file in the folder"))?;
                    std::fs::write(file, text)?;
                }
            }
        }
        Ok(())
    }
}

const SCALING: &[ScalingCase] = &[
    ScalingCase {
        name: "skydeck: nested arrays at depth 100 (lenient reader)",
        base: 400,
        file: "deep.json",
        args: &["--from", "skydeck", "--to", "gloodata"],
        generate: |n| {
            let nest = format!("{}1{}", "[".repeat(100), "]".repeat(100));
            let list = vec![nest; n].join(", ");
            Input::File(format!(
                "{{\"model_prompt\": \"Say {{{{x}}}}\", \"metadata\": {{\"prompt_name\": \"deep\", \"variables\": [{{\"name\": \"x\", \"type\": \"text\"}}], \"extra\": [{list}],}}}}"
            ))
        },
    },
    ScalingCase {
        name: "mcp: one located diagnostic per tool",
        base: 2_000,
        file: "many.json",
        args: &["--from", "mcp", "--to", "openai"],
        generate: |n| {
            let tools: Vec<String> = (0..n)
                .map(|i| format!("{{\"name\": \"t{i}\", \"description\": \"d\", \"inputSchema\": {{\"type\": \"object\"}}, \"x-unknown-{i}\": {i}}}"))
                .collect();
            Input::File(format!("{{\"tools\": [\n{}\n]}}", tools.join(",\n")))
        },
    },
    ScalingCase {
        name: "openapi YAML: flow collections nested 60 deep",
        base: 300,
        file: "flow.yaml",
        args: &["--from", "openapi", "--to", "vertex"],
        generate: |n| {
            let nest = format!("{}1{}", "[".repeat(60), "]".repeat(60));
            let list = vec![nest; n].join(", ");
            Input::File(format!("openapi: 3.0.0\ninfo: {{title: t, version: '1'}}\nx-deep: [{list}]\npaths: {{}}\n"))
        },
    },
    ScalingCase {
        name: "one tool with N properties -> skydeck",
        base: 5_000,
        file: "wide.json",
        args: &["--from", "mcp", "--to", "skydeck"],
        generate: wide_tool,
    },
    ScalingCase {
        name: "one tool with N properties -> gloodata",
        base: 5_000,
        file: "wide.json",
        args: &["--from", "mcp", "--to", "gloodata"],
        generate: wide_tool,
    },
    ScalingCase {
        name: "one definition used by N operations -> mcp",
        base: 250,
        file: "shared.json",
        args: &["--from", "openapi", "--to", "mcp"],
        generate: |n| {
            let properties: Vec<String> = (0..40)
                .map(|i| format!("\"p{i}\": {{\"type\": \"string\", \"description\": \"field {i}\"}}"))
                .collect();
            let paths: Vec<String> = (0..n)
                .map(|i| format!("\"/r{i}\": {{\"post\": {{\"operationId\": \"op{i}\", \"requestBody\": {{\"content\": {{\"application/json\": {{\"schema\": {{\"$ref\": \"#/components/schemas/Big\"}}}}}}}}, \"responses\": {{\"200\": {{\"description\": \"ok\", \"content\": {{\"application/json\": {{\"schema\": {{\"$ref\": \"#/components/schemas/Big\"}}}}}}}}}}}}}}"))
                .collect();
            Input::File(format!(
                "{{\"openapi\": \"3.0.3\", \"info\": {{\"title\": \"t\", \"version\": \"1\"}}, \"paths\": {{{}}}, \"components\": {{\"schemas\": {{\"Big\": {{\"type\": \"object\", \"properties\": {{{}, \"self\": {{\"$ref\": \"#/components/schemas/Big\"}}}}}}}}}}}}",
                paths.join(", "),
                properties.join(", ")
            ))
        },
    },
    ScalingCase {
        name: "a chain of definitions shared by N operations -> mcp ($defs)",
        base: 400,
        file: "chain.json",
        args: &["--from", "openapi", "--to", "mcp"],
        generate: shared_chain,
    },
    ScalingCase {
        name: "a chain of definitions shared by N operations -> gemini (inlined)",
        base: 400,
        file: "chain.json",
        args: &["--from", "openapi", "--to", "gemini"],
        generate: shared_chain,
    },
    ScalingCase {
        name: "a chain of definitions shared by N operations -> raycast (inlined)",
        base: 400,
        file: "chain.json",
        args: &["--from", "openapi", "--to", "raycast"],
        generate: shared_chain,
    },
    ScalingCase {
        name: "a chain of definitions shared by N operations -> anthropic (strict check per tool)",
        base: 400,
        file: "chain.json",
        args: &["--from", "openapi", "--to", "anthropic"],
        generate: shared_chain,
    },
    ScalingCase {
        name: "a value set of 20,000 values used by N fields -> mcp (enum per field)",
        base: 25,
        file: "value-set.json",
        args: &["--from", "gloodata", "--to", "mcp"],
        generate: shared_value_set,
    },
    ScalingCase {
        name: "a value set of 20,000 values used by N fields -> openapi (enum per field)",
        base: 25,
        file: "value-set.json",
        args: &["--from", "gloodata", "--to", "openapi"],
        generate: shared_value_set,
    },
    ScalingCase {
        name: "a value set of 20,000 values used by N fields -> vertex (enum per field)",
        base: 25,
        file: "value-set.json",
        args: &["--from", "gloodata", "--to", "vertex"],
        generate: shared_value_set,
    },
    ScalingCase {
        name: "a value set of 20,000 values used by N fields -> skydeck (enum per field)",
        base: 25,
        file: "value-set.json",
        args: &["--from", "gloodata", "--to", "skydeck"],
        generate: shared_value_set,
    },
    ScalingCase {
        name: "a value set of 20,000 values used by N fields -> raycast (enum per field)",
        base: 25,
        file: "value-set.json",
        args: &["--from", "gloodata", "--to", "raycast"],
        generate: shared_value_set,
    },
    ScalingCase {
        name: "enums of N values, plain and in a union -> raycast",
        base: 15_000,
        file: "enums.json",
        args: &["--from", "mcp", "--to", "raycast"],
        generate: |n| {
            let values =
                |from: usize, to: usize| (from..to).map(|i| format!("\"v{i}\"")).collect::<Vec<_>>().join(", ");
            let (half, quarter) = (n / 2, n / 4);
            Input::File(format!(
                "{{\"tools\": [{{\"name\": \"e\", \"description\": \"d\", \"inputSchema\": {{\"type\": \"object\", \"properties\": {{\"one\": {{\"type\": \"string\", \"enum\": [{}]}}, \"two\": {{\"anyOf\": [{{\"type\": \"string\", \"enum\": [{}]}}, {{\"type\": \"string\", \"enum\": [{}]}}]}}}}}}}}]}}",
                values(0, half),
                values(half, half + quarter),
                values(half + quarter, n)
            ))
        },
    },
    ScalingCase {
        name: "gloodata: N tools with 5 example prompts each -> vertex",
        base: 1_000,
        file: "examples.json",
        args: &["--from", "gloodata", "--to", "vertex"],
        generate: many_examples,
    },
    ScalingCase {
        name: "gloodata: N tools with 5 example prompts each -> raycast",
        base: 1_000,
        file: "examples.json",
        args: &["--from", "gloodata", "--to", "raycast"],
        generate: many_examples,
    },
    ScalingCase {
        name: "raycast: N documented members on one line (minified TypeScript) -> openai",
        base: 6_000,
        file: "minified",
        args: &["--from", "raycast", "--to", "openai"],
        generate: |n| {
            let members: String = (0..n).map(|i| format!("/** p{i} */p{i}?:string;")).collect();
            raycast_tool(format!(
                "type Input={{{members}}};export default async function tool(input:Input){{return input}}"
            ))
        },
    },
    ScalingCase {
        name: "raycast: a union of N string literals, 10 MB at 8x -> gemini",
        base: 114_000,
        file: "wide",
        args: &["--from", "raycast", "--to", "gemini"],
        generate: |n| {
            let union = (0..n).map(|i| format!("\"w{i}\"")).collect::<Vec<_>>().join(" | ");
            raycast_tool(format!(
                "type Input = {{\n  /** the choice */\n  choice: {union};\n}};\nexport default async function tool(input: Input) {{\n  return input;\n}}\n"
            ))
        },
    },
];

fn wide_tool(n: usize) -> Input {
    let properties: Vec<String> =
        (0..n).map(|i| format!("\"field_{i}\": {{\"type\": \"string\", \"description\": \"Field {i}\"}}")).collect();
    Input::File(format!(
        "{{\"tools\": [{{\"name\": \"wide\", \"description\": \"d\", \"inputSchema\": {{\"type\": \"object\", \"properties\": {{{}}}}}}}]}}",
        properties.join(", ")
    ))
}

/// An OpenAPI document whose `n` operations all take `D0`, the head of a chain of `n`
/// definitions (`D0.next` is `D1`, …): each tool's closure is the whole chain, so a writer
/// that copies or inlines it per tool would write `n` times the input.
fn shared_chain(n: usize) -> Input {
    let schemas: Vec<String> = (0..n)
        .map(|i| {
            let next =
                if i + 1 < n { format!(", \"next\": {{\"$ref\": \"#/components/schemas/D{}\"}}", i + 1) } else { String::new() };
            format!("\"D{i}\": {{\"type\": \"object\", \"properties\": {{\"f{i}\": {{\"type\": \"string\", \"description\": \"field {i}\"}}{next}}}}}")
        })
        .collect();
    let paths: Vec<String> = (0..n)
        .map(|i| format!("\"/r{i}\": {{\"post\": {{\"operationId\": \"op{i}\", \"requestBody\": {{\"content\": {{\"application/json\": {{\"schema\": {{\"$ref\": \"#/components/schemas/D0\"}}}}}}}}, \"responses\": {{\"200\": {{\"description\": \"ok\"}}}}}}}}"))
        .collect();
    Input::File(format!(
        "{{\"openapi\": \"3.0.3\", \"info\": {{\"title\": \"t\", \"version\": \"1\"}}, \"paths\": {{{}}}, \"components\": {{\"schemas\": {{{}}}}}}}",
        paths.join(", "),
        schemas.join(", ")
    ))
}

/// A Gloodata document whose `n` tools each have a field of the value set `Big` (20,000
/// labelled values): a writer that lists the set's values in every field writes it `n` times.
fn shared_value_set(n: usize) -> Input {
    let entries: Vec<String> = (0..20_000).map(|i| format!("[\"v{i}\", \"value {i}\"]")).collect();
    let tools: Vec<String> = (0..n)
        .map(|i| format!("\"tool{i}\": {{\"title\": \"Tool {i}\", \"schema\": {{\"fields\": {{\"pick\": {{\"type\": \"string\", \"description\": \"a pick\"}}}}}}, \"ui\": {{\"prefix\": \"Pick\", \"args\": {{\"pick\": {{\"prefix\": \"pick\", \"dtypeName\": \"Big\"}}}}}}, \"examples\": [\"pick {i}\"]}}"))
        .collect();
    Input::File(format!(
        "{{\"ns\": \"bench\", \"title\": \"Bench\", \"tools\": {{{}}}, \"tagValues\": {{\"Big\": {{\"id\": \"Big\", \"name\": \"Big\", \"entries\": [{}]}}}}}}",
        tools.join(", "),
        entries.join(", ")
    ))
}

/// A Gloodata document of `n` tools with five example prompts each (every prompt an example
/// that calls its tool, looked up by name in the writers).
fn many_examples(n: usize) -> Input {
    let tools: Vec<String> = (0..n)
        .map(|i| {
            let prompts: Vec<String> = (0..5).map(|j| format!("\"prompt {j} for tool {i}\"")).collect();
            format!("\"tool{i}\": {{\"title\": \"Tool {i}\", \"examples\": [{}]}}", prompts.join(", "))
        })
        .collect();
    Input::File(format!("{{\"ns\": \"bench\", \"title\": \"Bench\", \"tools\": {{{}}}}}", tools.join(", ")))
}

/// A Raycast extension of one tool, `t`, whose file is `source`.
fn raycast_tool(source: String) -> Input {
    let package = r#"{"name": "bench", "title": "Bench", "description": "d", "icon": "icon.png", "author": "bench", "license": "MIT", "commands": [], "tools": [{"name": "t", "title": "T", "description": "d"}], "dependencies": {"@raycast/api": "^1.104.0"}}"#;
    Input::Folder(vec![("package.json", package.to_owned()), ("src/tools/t.ts", source)])
}

/// Each scaling case at 1x, 2x, 4x and 8x: wall and CPU time, peak memory and bytes written,
/// and growth from 1x to 8x. `only`: run the cases whose name holds it (all when empty).
fn scaling(convert: &Path, work: &Path, only: &str) -> Result<()> {
    println!(
        "scaling: each input at 1x, 2x, 4x, 8x its base size (median of 3 by wall time; linear growth is about 8x)"
    );
    for case in SCALING.iter().filter(|case| case.name.contains(only)) {
        let dir = work.join("scaling");
        std::fs::create_dir_all(&dir)?;
        let mut row = Vec::new();
        for factor in [1, 2, 4, 8] {
            let input = dir.join(case.file);
            (case.generate)(case.base * factor).write(&input)?;
            let out = dir.join("out");
            let mut args: Vec<&str> = case.args.to_vec();
            args.extend(["-q", "--force", path(&input), "-o", path(&out)]);
            let mut runs = Vec::new();
            for _ in 0..3 {
                let _ = std::fs::remove_dir_all(&out);
                let _ = std::fs::remove_file(&out);
                let (time, rss, cpu) = measure_cpu(convert, &args)?;
                runs.push((time, rss, cpu, bytes_in(&out)));
            }
            runs.sort_by_key(|r| r.0);
            let (time, rss, cpu, written) = runs[1];
            row.push((bytes_in(&input), time, cpu, rss, written));
            let _ = std::fs::remove_dir_all(&out);
            let _ = std::fs::remove_file(&out);
        }
        println!("  {}", case.name);
        for (bytes, time, cpu, rss, written) in &row {
            println!(
                "    {:>8.1} KB  {:>8.3} s wall  {:>8.3} s CPU  peak {:>7.1} MiB  wrote {:>9.1} KB",
                *bytes as f64 / 1e3,
                secs(*time),
                secs(*cpu),
                mib(*rss),
                *written as f64 / 1e3
            );
        }
        let (first, last) = (&row[0], &row[3]);
        let growth = |a: f64, b: f64| b / a.max(1e-6);
        println!(
            "    growth 1x -> 8x: wall {:.1}x, CPU {:.1}x, memory {:.1}x, written {:.1}x",
            growth(secs(first.1), secs(last.1)),
            growth(secs(first.2), secs(last.2)),
            growth(first.3 as f64, last.3 as f64),
            growth(first.4 as f64, last.4 as f64)
        );
    }
    Ok(())
}

/// The bytes of a file, or of every file under a folder.
fn bytes_in(at: &Path) -> u64 {
    match std::fs::symlink_metadata(at) {
        Ok(meta) if meta.is_dir() => {
            std::fs::read_dir(at).map(|entries| entries.flatten().map(|e| bytes_in(&e.path())).sum()).unwrap_or(0)
        }
        Ok(meta) => meta.len(),
        Err(_) => 0,
    }
}

/// The run with the median time (its peak memory with it).
fn median(mut runs: Vec<(Duration, u64)>) -> (Duration, u64) {
    runs.sort_by_key(|r| r.0);
    runs[runs.len() / 2]
}

/// One run measured: wall time, peak resident memory (KiB) and CPU time (user + system).
#[derive(Clone, Copy)]
struct Sample {
    wall: Duration,
    peak_kib: u64,
    cpu: Duration,
}

impl Sample {
    /// Each measure's median over `runs`, taken on its own.
    fn median(runs: Vec<Sample>) -> Sample {
        let mid = |mut values: Vec<u64>| {
            values.sort_unstable();
            values[values.len() / 2]
        };
        let nanos = |f: fn(&Sample) -> Duration| mid(runs.iter().map(|s| f(s).as_nanos() as u64).collect());
        Sample {
            wall: Duration::from_nanos(nanos(|s| s.wall)),
            cpu: Duration::from_nanos(nanos(|s| s.cpu)),
            peak_kib: mid(runs.iter().map(|s| s.peak_kib).collect()),
        }
    }

    fn shown(&self) -> String {
        format!("CPU {:.3} s, wall {:.3} s, peak {:.1} MiB", secs(self.cpu), secs(self.wall), mib(self.peak_kib))
    }

    /// The ratio of CPU times, then of wall times, to `floor`'s.
    fn ratio_to(&self, floor: &Sample) -> String {
        format!("{:.2}x (wall {:.2}x)", secs(self.cpu) / secs(floor.cpu), secs(self.wall) / secs(floor.wall))
    }
}

/// Like [`measure`], with the CPU time the command used.
fn sample(program: &Path, args: &[&str]) -> Result<Sample> {
    let before = children_cpu();
    let (wall, peak_kib, status) = run_measured(program, args)?;
    if !status.success() {
        bail!("{} {} failed with {status}", program.display(), args.join(" "));
    }
    Ok(Sample { wall, peak_kib, cpu: children_cpu().saturating_sub(before) })
}

/// The real-world documents (`TOOLPORT_CORPUS`, else ../shared/corpus beside the checkout), as
/// the Python tests find them.
fn corpus() -> PathBuf {
    std::env::var_os("TOOLPORT_CORPUS").map_or_else(|| root().join("../shared/corpus"), PathBuf::from)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("bench paths are UTF-8")
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn mb(path: &Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6)
}

/// Runs a command to completion; returns its wall time and peak resident memory (KiB).
/// Output is discarded; a failure is an error.
fn measure(program: &Path, args: &[&str]) -> Result<(Duration, u64)> {
    let (elapsed, peak, status) = run_measured(program, args)?;
    if !status.success() {
        bail!("{} {} failed with {status}", program.display(), args.join(" "));
    }
    Ok((elapsed, peak))
}

/// Like [`measure`], but a refusal of the input (exit 1) is a result too (only a crash or a
/// usage error is an error), and with the CPU time (user and system) the command used.
fn measure_cpu(program: &Path, args: &[&str]) -> Result<(Duration, u64, Duration)> {
    let before = children_cpu();
    let (elapsed, peak, status) = run_measured(program, args)?;
    if !matches!(status.code(), Some(0 | 1)) {
        bail!("{} {} failed with {status}", program.display(), args.join(" "));
    }
    Ok((elapsed, peak, children_cpu().saturating_sub(before)))
}

/// The CPU time (user + system) of this process's waited-for children so far, in
/// microseconds from `getrusage` (/proc/self/stat's `cutime` counts 10 ms ticks, a quarter of
/// a large spec's floor).
#[cfg(unix)]
pub(crate) fn children_cpu() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    let Ok(usage) = getrusage(UsageWho::RUSAGE_CHILDREN) else { return Duration::ZERO };
    let duration = |time: nix::sys::time::TimeVal| {
        Duration::from_secs(time.tv_sec().max(0) as u64) + Duration::from_micros(time.tv_usec().max(0) as u64)
    };
    duration(usage.user_time()) + duration(usage.system_time())
}

#[cfg(not(unix))]
pub(crate) fn children_cpu() -> Duration {
    Duration::ZERO
}

fn run_measured(program: &Path, args: &[&str]) -> Result<(Duration, u64, std::process::ExitStatus)> {
    run_measured_within(program, args, None)
}

/// [`run_measured`], the child killed once it has run `limit` (its status then says so).
fn run_measured_within(
    program: &Path,
    args: &[&str],
    limit: Option<Duration>,
) -> Result<(Duration, u64, std::process::ExitStatus)> {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("running {}", program.display()))?;
    let pid = child.id();
    // Peak RSS: poll the child's VmHWM (the kernel's high-water mark) while it runs.
    let mut peak = 0;
    let status = loop {
        if let Some(hwm) = vm_hwm(pid) {
            peak = peak.max(hwm);
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if limit.is_some_and(|limit| start.elapsed() > limit) {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    Ok((start.elapsed(), peak, status))
}

fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Writes `n` varied, valid SkyDeck files (deterministic content).
fn generate_skydeck(dir: &PathBuf, n: usize) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    for i in 0..n {
        let doc = serde_json::json!({
            "version": i % 7 + 1,
            "model_prompt": format!("Summarize {{{{text}}}} for {{{{audience}}}} in {{{{tone}}}} tone, variant {i}."),
            "metadata": {
                "prompt_name": format!("Summarizer {i}"),
                "description": format!("Summarizes text for a given audience (case {i})."),
                "usage_notes": "Keep inputs under 10,000 words.",
                "model_version": ["gpt-4", "gpt-4o"],
                "creator": {"name": "Bench", "email": "bench@example.com", "organization": "toolport"},
                "parameters": {"temperature": 0.7, "max_tokens": 512, "top_p": 1, "frequency_penalty": 0, "presence_penalty": 0},
                "variables": [
                    {"name": "text", "type": "text", "description": "The text to summarize", "default": ""},
                    {"name": "audience", "type": "single-select", "description": "Who reads it", "default": "engineers", "allowed_values": ["engineers", "managers", "customers"]},
                    {"name": "tone", "type": "multi-select", "description": "Tones", "default": ["neutral"], "allowed_values": ["neutral", "friendly", "formal"]}
                ],
                "expected_output": {"type": "text", "format": "Markdown"},
                "avatar_type": "url",
                "avatar": "https://example.com/a.png",
                "timestamp": "2024-05-01T12:00:00Z"
            }
        });
        std::fs::write(dir.join(format!("tool-{i:05}.json")), serde_json::to_string_pretty(&doc)?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{case_filter, sections};

    #[test]
    fn only_names_known_sections_and_is_checked_before_building() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(sections(&args(&["--only", "batch, memory"])).unwrap(), ["batch", "memory"]);
        assert_eq!(sections(&args(&[])).unwrap().len(), super::SECTIONS.len());
        let error = sections(&args(&["--only", "batch,speed"])).unwrap_err().to_string();
        assert!(error.contains("--only speed: no such section"), "{error}");
    }

    /// Children's CPU time is counted finer than the 10 ms ticks of /proc/PID/stat: five runs
    /// of `true`, each well under a tick, add up to more than nothing.
    #[test]
    fn childrens_cpu_is_counted_below_a_tick() {
        let before = super::children_cpu();
        for _ in 0..5 {
            assert!(std::process::Command::new("true").status().unwrap().success());
        }
        let used = super::children_cpu() - before;
        assert!(used > std::time::Duration::ZERO && used < std::time::Duration::from_secs(1), "{used:?}");
    }

    #[test]
    fn the_case_is_the_operand_not_a_flags_value() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(case_filter(&args(&["--scaling-only", "chain"])), "chain");
        assert_eq!(case_filter(&args(&["--files", "50", "--scaling-only"])), "");
        assert_eq!(case_filter(&args(&["enum", "--scaling-only"])), "enum");
    }
}
