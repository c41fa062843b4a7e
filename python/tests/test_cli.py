"""The `convert` command the wheel installs: it works with no set-up, writes what the API
returns, reports errors with their place, and loads third-party plugins from the documented
places (isolated through the plugin host shipped in the wheel)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import toolport
from conftest import FIXTURES, corpus, result_tree, run_convert, tree

BIN = Path(toolport.__file__).parent / "_bin"


def test_convert_runs_with_no_set_up():
    done = run_convert("formats", "--json")
    assert done.returncode == 0, done.stderr
    ids = {f["id"] for f in json.loads(done.stdout)["formats"]}
    assert {"gloodata", "skydeck", "raycast", "vertex", "openapi", "mcp", "openai", "anthropic", "bedrock", "gemini", "mcp-prompts", "mcpb", "mcp-server"} <= ids


def test_python_dash_m_toolport_is_the_same_command():
    done = subprocess.run([sys.executable, "-m", "toolport", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--to" in done.stdout


@pytest.mark.parametrize(
    "source,target",
    [
        (FIXTURES / "mcp" / "weather-tool.json", "openai"),
        (FIXTURES / "gloodata" / "show-map.json", "vertex"),
        (FIXTURES / "openapi" / "tasks.yaml", "anthropic"),
        (FIXTURES / "raycast" / "ai-yaml", "gemini"),
        ("openapi/oai-examples/petstore-expanded.yaml", "mcp"),
        ("gloodata/ext-rs-service-status.json", "skydeck"),
        (FIXTURES / "mcp" / "issue-tracker.json", "raycast"),
    ],
)
def test_the_command_writes_what_the_api_returns(tmp_path, source, target):
    source = source if isinstance(source, Path) else corpus(source)
    (tmp_path / "out").mkdir()
    done = run_convert("--to", target, str(source), "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    api = toolport.convert(source, to=target)
    assert tree(tmp_path / "out") == result_tree(api)


def test_a_malformed_input_fails_with_its_place(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tools": [\n  {"name": "a",,}\n]}\n')
    done = run_convert("--to", "mcp", str(bad), "-o", str(tmp_path / "out"))
    assert done.returncode == 1
    assert "bad.json:2:" in done.stderr
    with pytest.raises(toolport.InputError) as caught:
        toolport.convert(bad, to="mcp")
    assert f"bad.json:{caught.value.line}:{caught.value.column}" in done.stderr


def test_strict_exits_3_where_the_api_raises(tmp_path):
    source = FIXTURES / "gloodata" / "show-map.json"
    done = run_convert("--strict", "--to", "gemini", str(source), "-o", str(tmp_path / "out.json"))
    assert done.returncode == 3, done.stderr
    with pytest.raises(toolport.LossError):
        toolport.convert(source, to="gemini", strict=True)


def third_party_plugin(tmp_path: Path) -> Path:
    """A plugin outside the package: a copy of the built-in SkyDeck plugin in its own folder."""
    plugins = tmp_path / "third-party"
    plugins.mkdir()
    (name,) = [p.name for p in (BIN / "plugins").iterdir() if "toolport_plugin_skydeck" in p.name]
    shutil.copy(BIN / "plugins" / name, plugins / name)
    return plugins


def test_third_party_plugins_load_isolated_in_the_command(tmp_path):
    plugins = third_party_plugin(tmp_path)
    for how in (["--plugin-dir", str(plugins)], []):
        env = dict(os.environ, TOOLPORT_PLUGIN_PATH=str(plugins)) if not how else None
        done = run_convert(*how, "formats", "--json", env=env)
        assert done.returncode == 0, done.stderr
        skydeck = next(f for f in json.loads(done.stdout)["formats"] if f["id"] == "skydeck")
        assert Path(skydeck["plugin"]).parent == plugins
        out = tmp_path / f"out{len(how)}"
        out.mkdir()
        done = run_convert(*how, "--to", "skydeck", str(FIXTURES / "mcp" / "weather-tool.json"), "-o", str(out), env=env)
        assert done.returncode == 0, done.stderr
        assert list(out.iterdir())


def test_third_party_plugins_load_isolated_in_the_api(tmp_path):
    plugins = third_party_plugin(tmp_path)
    skydeck = next(f for f in toolport.formats(plugin_dirs=[plugins]) if f.id == "skydeck")
    assert skydeck.plugin is not None and Path(skydeck.plugin).parent == plugins
    via_plugin = toolport.convert(FIXTURES / "mcp" / "weather-tool.json", to="skydeck", plugin_dirs=[plugins])
    linked = toolport.convert(FIXTURES / "mcp" / "weather-tool.json", to="skydeck")
    assert via_plugin.files == linked.files
