//! `cargo xtask bench --peers` (`--peers-only` runs just this): toolport's OpenAPI to MCP
//! conversion side by side with its peers, on petstore, GitHub, Stripe, OpenAI's spec and
//! Twilio's REST API, in the same run. The specs are read from the corpus (`TOOLPORT_CORPUS`,
//! else ../shared/corpus, as the Python tests read it); one that is not there is skipped.
//!
//! - toolport: `convert --from openapi --to mcp SPEC -o OUT` (the tools/list document).
//! - openapi-mcp-generator (npm): generates an MCP server project (TypeScript) from the spec;
//!   the generation run is measured, not a build of the project.
//! - FastMCP (PyPI), the newest that installs here and 2.12.5: a Python process that reads the
//!   spec, builds `FastMCP.from_openapi`, lists the tools and writes their MCP form (compact JSON,
//!   Python's fast encoder) to a file; the whole process is measured, and the part after the
//!   imports is reported on its own.
//! - openapi-llm (PyPI): a Python process that reads the spec and writes its OpenAI function
//!   definitions (`OpenAPISpecification.from_file`, `ClientConfig.get_tool_definitions`), the
//!   same way measured.
//!
//! The peers are installed at pinned versions into target/peers (git-ignored with target/), once.
//! Each spec: 3 rounds, the tools alternating (their order rotating each round), medians of
//! CPU time (user + system of the process and what it waited for) and of wall time, with the
//! peak memory of the median run. The goal is judged by CPU time, which a loaded machine
//! inflates least. A peer that fails on a spec is reported as failed with its reason, and is
//! not a complete peer for that spec.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::{children_cpu, mib, path, run_measured_within, secs};
use crate::root;

const OPENAPI_MCP_GENERATOR: &str = "4.0.1";
/// The newest FastMCP whose dependencies the registry here can satisfy (4.1.x wants a newer certifi).
const FASTMCP: &str = "4.0.11";
/// The FastMCP of the 2.x line most used (and the version the issue names).
const FASTMCP_2: &str = "2.12.5";
/// What FastMCP 2.12.5's dependencies need of theirs: its `mcp` (1.16) imports a pydantic
/// internal that pydantic 2.13 removed.
const FASTMCP_2_WITH: &[&str] = &["pydantic<2.13"];
const OPENAPI_LLM: &str = "0.4.3";
/// How long one run of a peer may take: past it, the peer failed on that spec (openapi-llm
/// on Stripe grew past 2.7 GB in minutes).
const PEER_LIMIT: Duration = Duration::from_secs(120);
/// toolport should be at least this many times faster than the fastest complete peer.
const GOAL: f64 = 3.0;

/// Lists the tools as an MCP server's tools/list would: argv is SPEC OUT TIMING; writes to TIMING
/// the seconds spent after the imports (read, parse, from_openapi, list, serialize, write).
const FASTMCP_SCRIPT: &str = r#"
import asyncio, json, sys, time
from pathlib import Path
try:
    import httpx2 as httpx  # FastMCP 4
except ImportError:
    import httpx  # FastMCP 2
import yaml
from fastmcp import FastMCP
start = time.perf_counter()
spec_path, out_path, timing_path = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
text = spec_path.read_text()
spec = json.loads(text) if spec_path.suffix == ".json" else yaml.safe_load(text)
server = FastMCP.from_openapi(openapi_spec=spec, client=httpx.AsyncClient(base_url="http://localhost"))
if hasattr(server, "list_tools"):
    tools = asyncio.run(server.list_tools())
else:  # FastMCP 2: a dict by name
    tools = list(asyncio.run(server.get_tools()).values())
listing = {"tools": [t.to_mcp_tool().model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]}
out_path.write_text(json.dumps(listing))
timing_path.write_text(str(time.perf_counter() - start))
"#;

/// Writes the OpenAI tool definitions openapi-llm makes of a spec: argv is SPEC OUT TIMING, as
/// for FastMCP.
const OPENAPI_LLM_SCRIPT: &str = r#"
import json, sys, time
from pathlib import Path
from openapi_llm.client.config import ClientConfig
from openapi_llm.core.spec import OpenAPISpecification
start = time.perf_counter()
spec_path, out_path, timing_path = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
tools = ClientConfig(openapi_spec=OpenAPISpecification.from_file(spec_path)).get_tool_definitions()
out_path.write_text(json.dumps(tools))
timing_path.write_text(str(time.perf_counter() - start))
"#;

/// A command line for (spec, output path, timing file).
type ArgsFor = Box<dyn Fn(&str, &str, &str) -> Vec<String>>;

/// One measured tool: its name with version, and how it is run on a spec.
struct Contender {
    name: String,
    program: PathBuf,
    args: ArgsFor,
}

/// One successful run of a contender on a spec.
#[derive(Clone, Copy)]
struct Run {
    time: Duration,
    /// User + system time of the process and of the processes it waited for.
    cpu: Duration,
    /// Peak resident memory, KiB.
    rss: u64,
    /// The time the process reports for its own work (FastMCP: after its imports).
    inside: Option<f64>,
    /// Bytes written (a file, or a generated project).
    output: u64,
}

/// The median run of one contender on one spec, or why it failed.
enum Outcome {
    Done(Run),
    Failed(String),
}

pub fn run(convert: &Path, work: &Path) -> Result<()> {
    let peers = root().join("target/peers");
    let generator = install_openapi_mcp_generator(&peers)?;
    let fastmcp = install_pinned(&peers.join("venv"), "fastmcp", FASTMCP, &[])?;
    let fastmcp_2 =
        install_pinned(&peers.join(format!("fastmcp-{FASTMCP_2}-venv")), "fastmcp", FASTMCP_2, FASTMCP_2_WITH)?;
    let openapi_llm = install_pinned(&peers.join("openapi-llm-venv"), "openapi-llm", OPENAPI_LLM, &[])?;
    let work = work.join("peers");
    std::fs::create_dir_all(&work)?;
    let fastmcp_script = work.join("fastmcp_tools.py");
    std::fs::write(&fastmcp_script, FASTMCP_SCRIPT)?;
    let openapi_llm_script = work.join("openapi_llm_tools.py");
    std::fs::write(&openapi_llm_script, OPENAPI_LLM_SCRIPT)?;
    let python_script = |script: &Path| -> ArgsFor {
        let script = path(script).to_owned();
        Box::new(move |spec, out, timing| [script.as_str(), spec, out, timing].map(String::from).to_vec())
    };
    let contenders = [
        Contender {
            name: "toolport".into(),
            program: convert.to_path_buf(),
            args: Box::new(|spec, out, _| {
                ["--from", "openapi", "--to", "mcp", "-q", spec, "-o", out].map(String::from).to_vec()
            }),
        },
        Contender {
            name: format!("openapi-mcp-generator {OPENAPI_MCP_GENERATOR}"),
            program: generator,
            args: Box::new(|spec, out, _| ["-i", spec, "-o", out, "--force"].map(String::from).to_vec()),
        },
        Contender {
            name: format!("FastMCP {FASTMCP}"),
            program: fastmcp.clone(),
            args: python_script(&fastmcp_script),
        },
        Contender { name: format!("FastMCP {FASTMCP_2}"), program: fastmcp_2, args: python_script(&fastmcp_script) },
        Contender {
            name: format!("openapi-llm {OPENAPI_LLM}"),
            program: openapi_llm,
            args: python_script(&openapi_llm_script),
        },
    ];

    let corpus = super::corpus().join("openapi");
    let specs = [
        ("petstore", corpus.join("oai-examples/petstore.yaml")),
        ("GitHub", corpus.join("github/api.github.com.json")),
        ("Stripe", corpus.join("stripe/spec3.json")),
        ("OpenAI", corpus.join("openai-2024-09-27/openapi.yaml")),
        ("Twilio", corpus.join("twilio/twilio_api_v2010.json")),
        ("Cloudflare", corpus.join("cloudflare/openapi.json")),
    ];
    println!(
        "peers: OpenAPI -> MCP tools (openapi-llm: OpenAI tools), toolport vs openapi-mcp-generator {OPENAPI_MCP_GENERATOR} (Node {}), FastMCP {FASTMCP} and {FASTMCP_2}, openapi-llm {OPENAPI_LLM} (Python {})",
        version_of("node", &["--version"]),
        version_of(path(&fastmcp), &["--version"]).trim_start_matches("Python "),
    );
    println!("  (median of 3 per spec, alternating; every tool reads the spec as given, petstore and OpenAI as YAML)");
    println!();
    let mut rows = Vec::new();
    for (name, spec) in &specs {
        if !spec.exists() {
            println!("{name}: {} missing, skipped", spec.display());
            continue;
        }
        let outcomes = measure_spec(&contenders, name, spec, &work)?;
        rows.push((*name, std::fs::metadata(spec)?.len(), outcomes));
    }
    print_table(&contenders, &rows);
    Ok(())
}

fn measure_spec(contenders: &[Contender], name: &str, spec: &Path, work: &Path) -> Result<Vec<Outcome>> {
    let mut runs: Vec<Vec<Run>> = contenders.iter().map(|_| Vec::new()).collect();
    let mut failures: Vec<Option<String>> = contenders.iter().map(|_| None).collect();
    for round in 0..3 {
        let mut order: Vec<usize> = (0..contenders.len()).collect();
        order.rotate_left(round % contenders.len());
        for index in order {
            if failures[index].is_some() {
                continue;
            }
            let contender = &contenders[index];
            let out = work.join(format!("{name}-{index}-{round}.out"));
            let timing = work.join(format!("{name}-{index}-{round}.seconds"));
            let args = (contender.args)(path(spec), path(&out), path(&timing));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let cpu_before = children_cpu();
            let (time, rss, status) = run_measured_within(&contender.program, &args, Some(PEER_LIMIT))?;
            let cpu = children_cpu().saturating_sub(cpu_before);
            if time > PEER_LIMIT {
                failures[index] = Some(format!("did not finish within {} s (stopped)", PEER_LIMIT.as_secs()));
            } else if status.success() {
                let inside = std::fs::read_to_string(&timing).ok().and_then(|s| s.trim().parse().ok());
                runs[index].push(Run { time, cpu, rss, inside, output: bytes_written(&out) });
            } else {
                failures[index] = Some(failure_reason(&contender.program, &args, &status.to_string()));
            }
            // Outputs go at once: FastMCP's Stripe listing alone is hundreds of MB, in RAM.
            let _ = std::fs::remove_dir_all(&out);
            let _ = std::fs::remove_file(&out);
            let _ = std::fs::remove_file(&timing);
        }
    }
    Ok(runs
        .into_iter()
        .zip(failures)
        .map(|(mut runs, failure)| match failure {
            Some(reason) => Outcome::Failed(reason),
            None => {
                let mut inside: Vec<f64> = runs.iter().filter_map(|r| r.inside).collect();
                inside.sort_by(f64::total_cmp);
                let mut cpu: Vec<Duration> = runs.iter().map(|r| r.cpu).collect();
                cpu.sort();
                runs.sort_by_key(|r| r.time);
                Outcome::Done(Run {
                    inside: inside.get(inside.len() / 2).copied(),
                    cpu: cpu[cpu.len() / 2],
                    ..runs[runs.len() / 2]
                })
            }
        })
        .collect())
}

/// Runs a failed command again with its output kept, for the one line that says why: the last
/// line naming an error (`SomethingError: ...`, as Python and Node print them), else the last line.
fn failure_reason(program: &Path, args: &[&str], status: &str) -> String {
    let Ok(output) = Command::new(program).args(args).output() else {
        return format!("failed ({status})");
    };
    let text = format!("{}\n{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let named = lines.iter().rev().find_map(|line| {
        let at = line.find("Error: ")?;
        let start = line[..at].rfind(|c: char| !c.is_alphanumeric()).map_or(0, |i| i + 1);
        Some(&line[start..])
    });
    let reason = named.or(lines.last().copied()).unwrap_or("no output");
    let reason = reason.trim_end_matches(['+', ' ', '\'']).trim_end_matches("\\n");
    let mut short: String = reason.chars().take(160).collect();
    if short.len() < reason.len() {
        short.push('…');
    }
    short
}

/// The table, in Markdown (README shows it): each tool's time and peak memory, each peer's as
/// ratios to toolport, then the goal per spec against the fastest complete peer.
fn print_table(contenders: &[Contender], rows: &[(&str, u64, Vec<Outcome>)]) {
    let mut header = String::from("| spec | ");
    header.push_str(&contenders.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(" | "));
    header.push_str(" | fastest complete peer / toolport (CPU) |");
    println!("{header}");
    println!("|{}", "---|".repeat(contenders.len() + 2));
    let mut notes = Vec::new();
    let mut all_met = true;
    for (name, size, outcomes) in rows {
        let base = match &outcomes[0] {
            Outcome::Done(base) => *base,
            Outcome::Failed(reason) => {
                println!("| {name} | toolport failed: {reason} |");
                all_met = false;
                continue;
            }
        };
        let mut cells = vec![
            format!("{name} ({})", megabytes(*size)),
            format!("CPU {:.3} s, wall {:.3} s, {:.0} MiB", secs(base.cpu), secs(base.time), mib(base.rss)),
        ];
        let mut outputs = vec![format!("toolport {}", megabytes(base.output))];
        let mut fastest: Option<(f64, &str)> = None;
        for (contender, outcome) in contenders.iter().zip(outcomes).skip(1) {
            match outcome {
                Outcome::Done(run) => {
                    // A microsecond at least: a run that used none is not divided by.
                    let ratio = secs(run.cpu) / secs(base.cpu).max(1e-6);
                    let wall = secs(run.time) / secs(base.time);
                    if fastest.is_none_or(|(best, _)| ratio < best) {
                        fastest = Some((ratio, &contender.name));
                    }
                    cells.push(format!(
                        "CPU {:.3} s, wall {:.3} s, {:.0} MiB ({ratio:.1}x CPU, {wall:.1}x wall, {:.1}x memory)",
                        secs(run.cpu),
                        secs(run.time),
                        mib(run.rss),
                        run.rss as f64 / base.rss.max(1) as f64
                    ));
                    outputs.push(format!("{} {}", contender.name, megabytes(run.output)));
                    if let Some(inside) = run.inside {
                        notes.push(format!(
                            "{} on {name}: {inside:.3} s after its imports (read, parse, convert, list, write), {:.1}x toolport's whole process",
                            contender.name,
                            inside / secs(base.time)
                        ));
                    }
                }
                Outcome::Failed(reason) => {
                    cells.push("failed (below)".into());
                    notes.push(format!("{} failed on {name}: {reason}", contender.name));
                }
            }
        }
        cells.push(match fastest {
            Some((ratio, peer)) => {
                all_met &= ratio >= GOAL;
                format!("{ratio:.1}x ({peer})")
            }
            None => "no complete peer".into(),
        });
        println!("| {} |", cells.join(" | "));
        notes.push(format!("written on {name}: {}", outputs.join(", ")));
    }
    println!();
    for note in notes {
        println!("- {note}");
    }
    println!(
        "goal: toolport at least {GOAL:.0}x faster than the fastest complete peer on every spec: {}",
        if all_met { "met" } else { "not met" }
    );
}

fn megabytes(bytes: u64) -> String {
    if bytes < 1_000_000 { format!("{:.0} KB", bytes as f64 / 1e3) } else { format!("{:.1} MB", bytes as f64 / 1e6) }
}

/// The size of a file, or of every file below a folder.
fn bytes_written(path: &Path) -> u64 {
    let Ok(meta) = std::fs::metadata(path) else { return 0 };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path).into_iter().flatten().filter_map(|e| e.ok()).map(|e| bytes_written(&e.path())).sum()
}

/// The `openapi-mcp-generator` command, installed at its pinned version in `peers`/npm (once).
fn install_openapi_mcp_generator(peers: &Path) -> Result<PathBuf> {
    let dir = peers.join("npm");
    let installed = dir.join("node_modules/openapi-mcp-generator/package.json");
    let version = std::fs::read_to_string(&installed)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|manifest| manifest["version"].as_str().map(String::from));
    if version.as_deref() != Some(OPENAPI_MCP_GENERATOR) {
        println!("installing openapi-mcp-generator {OPENAPI_MCP_GENERATOR} into {} (once)", dir.display());
        std::fs::create_dir_all(&dir)?;
        let manifest = serde_json::json!({
            "private": true,
            "dependencies": {"openapi-mcp-generator": OPENAPI_MCP_GENERATOR}
        });
        std::fs::write(dir.join("package.json"), serde_json::to_string_pretty(&manifest)?)?;
        install_step(
            Command::new("npm")
                .args(["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&dir),
            "npm install openapi-mcp-generator",
        )?;
    }
    Ok(dir.join("node_modules/.bin/openapi-mcp-generator"))
}

/// A Python package at a pinned version in its own venv, with `with` (requirements its
/// dependencies need), installed once (a stamp says which).
pub(super) fn install_pinned(venv: &Path, package: &str, version: &str, with: &[&str]) -> Result<PathBuf> {
    let python = venv.join("bin/python");
    let stamp = venv.join(format!("{package}.installed"));
    let wanted = std::iter::once(version).chain(with.iter().copied()).collect::<Vec<_>>().join(" ");
    if std::fs::read_to_string(&stamp).is_ok_and(|done| done == wanted) {
        return Ok(python);
    }
    println!("installing {package} {version} into {} (once)", venv.display());
    let _ = std::fs::remove_dir_all(venv);
    let system_python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    install_step(
        Command::new(system_python).args(["-m", "venv", path(venv)]),
        &format!("creating the {package} venv"),
    )?;
    install_step(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"])
            .arg(format!("{package}=={version}"))
            .args(with),
        &format!("pip install {package}"),
    )?;
    std::fs::write(stamp, wanted)?;
    Ok(python)
}

fn install_step(command: &mut Command, what: &str) -> Result<()> {
    let status = command.status().with_context(|| format!("{what}: could not start"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// The first line a tool prints about its version, or "?".
fn version_of(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}
