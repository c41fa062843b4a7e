"""The Python API over the linked formats: sources of every kind, errors, strict mode, inspect,
round trips, writing. The same conversions through the installed `convert` are in test_cli.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolport
from conftest import FIXTURES, corpus, folder_files, result_tree, tree

ALL_FORMATS = {"gloodata", "skydeck", "raycast", "vertex", "openapi", "mcp", "openai", "anthropic", "bedrock", "bedrock-agent", "gemini", "mcp-prompts", "mcpb", "mcp-server", "adk", "m365"}


def tool_names(model: dict) -> list:
    return [t["name"] for t in model["tool_set"].get("tools", [])]


def test_every_built_in_format_is_linked_in():
    formats = {f.id: f for f in toolport.formats()}
    assert ALL_FORMATS <= set(formats)
    assert all(formats[f].plugin is None for f in ALL_FORMATS), "built in, not loaded from a plugin"
    assert formats["gloodata"].aliases == ("extension-info",)
    assert formats["raycast"].input == "directory"
    assert "json" in formats["mcp"].extensions
    assert formats["mcp"].reads and formats["mcp"].writes


def test_text_bytes_and_path_sources_convert_alike():
    path = FIXTURES / "mcp" / "weather-tool.json"
    text = path.read_text(encoding="utf-8")
    from_text = toolport.convert(text, to="openai")
    from_bytes = toolport.convert(text.encode(), to="openai")
    from_path = toolport.convert(path, to="openai")
    assert from_text.source_format == "mcp" and from_text.target_format == "openai"
    assert from_text.json() == from_bytes.json() == from_path.json()
    (tool,) = from_path.json() if isinstance(from_path.json(), list) else from_path.json()["tools"]
    assert "get_weather" in json.dumps(tool)


def test_a_document_as_python_objects_converts_as_its_text_does():
    text = (FIXTURES / "openai" / "chat-tools.json").read_text(encoding="utf-8")
    tools = json.loads(text)
    from_objects = toolport.convert(tools, to="anthropic")
    assert from_objects.source_format == "openai"
    assert from_objects.json() == toolport.convert(text, to="anthropic").json()
    assert [t["name"] for t in from_objects.json()] == [t["function"]["name"] for t in tools]
    # A dict holding more than text is a document; Document() makes any object one.
    mcp = json.loads((FIXTURES / "mcp" / "weather-tool.json").read_text(encoding="utf-8"))
    assert toolport.convert(mcp, to="openai").json() == toolport.convert(toolport.Document(mcp), to="openai").json()
    assert toolport.inspect(tools)["tool_set"]["tools"][0]["name"] == tools[0]["function"]["name"]


def test_objects_and_their_json_text_convert_to_the_same_result():
    # Every kind of value the walk writes itself: escapes, non-ASCII, control characters,
    # floats (shortest form, large exponents), integers past 64 bits, booleans beside ints,
    # None, tuples as lists, and a dict nested a few levels.
    tools = [
        {
            "type": "function",
            "function": {
                "name": "quote_\u00e9",
                "description": 'Says "hi"\\ \u2028\t\x01 \U0001F600 to ünïcode',
                "parameters": {
                    "type": "object",
                    "properties": {
                        "ratio": {"type": "number", "minimum": 0.1, "maximum": 1e300, "default": -2.5e-8},
                        "count": {"type": "integer", "maximum": 2**70, "minimum": -(2**63), "default": 0},
                        "flag": {"type": "boolean", "default": True, "examples": [False, 1, 0.0]},
                        "unit": {"enum": ("a", "b", None), "description": None},
                        "deep": {"type": "object", "properties": {"x": {"type": "array", "items": {"type": "string"}}}},
                    },
                    "required": ["ratio"],
                },
            },
        }
    ]
    as_text = json.dumps(tools, ensure_ascii=False)
    for target in ("anthropic", "mcp", "gemini"):
        from_objects = toolport.convert(tools, from_="openai", to=target)
        from_text = toolport.convert(as_text, from_="openai", to=target)
        assert from_objects.files == from_text.files, target
        # The same diagnostics (their columns are in each one's own text).
        said = [[(d.code, d.path, d.message) for d in r.diagnostics] for r in (from_objects, from_text)]
        assert said[0] == said[1], target
    assert toolport.inspect(tools) == toolport.inspect(as_text)
    # The integer past 64 bits reached the reader whole, and was said as from text.
    assert any(d.code == "input/tolerated" and "1180591620717411303424" in d.message for d in from_objects.diagnostics)


def test_conversions_from_many_threads_at_once_each_get_their_own_result():
    from concurrent.futures import ThreadPoolExecutor

    def one(i: int) -> str:
        tools = [{"type": "function", "function": {"name": f"tool_{i}", "parameters": {"type": "object"}}}]
        return toolport.convert(tools, from_="openai", to="anthropic").json()[0]["name"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(one, range(64))) == [f"tool_{i}" for i in range(64)]


def test_a_schema_nested_to_the_limit_converts_from_a_thread_with_a_small_stack():
    # A conversion runs on a stack of the size `convert` gives its threads, whatever the calling
    # thread's (mapped at its first call and kept for the next: the four below share it), and
    # the walk of the Python objects into JSON text on one of its own when the caller's is
    # short: a schema nested as deep as an input may be converts from a thread given 256 KiB
    # (which the walk alone overflowed when it ran on the caller's stack).
    import threading

    schema = {"type": "string"}
    for _ in range(40):  # 40 levels of properties: 120 levels of JSON, under 128 with the list
        schema = {"type": "object", "properties": {"inner": schema}}
    tools = [{"type": "function", "function": {"name": "deep", "parameters": schema}}]
    results = {}

    def run() -> None:
        for target in ("anthropic", "gemini", "openapi", "raycast"):
            results[target] = toolport.convert(tools, from_="openai", to=target).status

    threading.stack_size(256 * 1024)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(0)
    assert set(results) == {"anthropic", "gemini", "openapi", "raycast"}
    assert all(status.startswith("converted") for status in results.values()), results


def test_a_description_past_the_targets_limit_is_cut_once_and_said():
    # The library's formats are linked in, not plugins: the host's fitting makes the cut the
    # command line's plugins make after reading (Options::CUT_DESCRIPTIONS), with the same word.
    long = "This sentence is exactly fifty characters long ok. " * 21
    tools = [{"type": "function", "function": {"name": "f", "description": long.strip(), "parameters": {"type": "object"}}}]
    result = toolport.convert(tools, from_="openai", to="openai")
    written = result.json()[0]["function"]["description"]
    assert len(written) == 50 * 20 + 19 and written.endswith("ok."), written
    cuts = [d for d in result.diagnostics if d.code == "changed/description"]
    assert [d.path for d in cuts] == ["/tools/0/description"], result.diagnostics


def test_python_objects_json_cannot_hold_are_a_type_error():
    with pytest.raises(TypeError, match="not JSON data"):
        toolport.convert([{"type": "function", "function": {"name": "f", "parameters": {1: "x"}}}], to="mcp")
    with pytest.raises(TypeError, match="not JSON data"):
        toolport.convert([object()], to="mcp")
    # Not silently null: JSON has no NaN or infinity.
    for number in (float("nan"), float("inf")):
        with pytest.raises(TypeError, match="not a JSON number"):
            toolport.convert([{"type": "function", "function": {"name": "f", "x": number}}], from_="openai", to="mcp")


def test_a_document_nested_too_deep_or_holding_itself_is_refused_not_a_crash():
    deep = []
    for _ in range(200_000):
        deep = [deep]
    # The same refusal as the same document given as text: an InputError, located by its path.
    with pytest.raises(toolport.InputError, match="deeper than 128 levels") as caught:
        toolport.convert(deep, to="mcp")
    assert caught.value.diagnostics[0].code == "input/syntax"
    assert caught.value.diagnostics[0].path == "/0" * 128
    with pytest.raises(toolport.InputError):
        toolport.convert("[" * 200 + "]" * 200, to="mcp")
    itself = {"tools": []}
    itself["tools"].append(itself)
    with pytest.raises(toolport.InputError, match="deeper than 128 levels") as caught:
        toolport.inspect(itself)
    assert caught.value.diagnostics[0].path.startswith("/tools/0/tools/0/")


def test_status_and_diagnostics_are_typed():
    result = toolport.convert(FIXTURES / "gloodata" / "show-map.json", to="skydeck")
    assert result.status in ("converted", "converted_with_losses")
    assert result.files and all(name.endswith(".json") for name in result.files)
    for d in result.diagnostics:
        assert isinstance(d, toolport.Diagnostic)
        assert d.severity in ("info", "warning", "error")
        assert "/" in d.code
    assert (result.status == "converted_with_losses") == bool(result.losses)


def test_malformed_text_raises_with_line_and_column():
    with pytest.raises(toolport.InputError) as caught:
        toolport.convert('{\n  "name": "x",\n  "description": \n}\n', from_="mcp", to="openai")
    error = caught.value
    assert isinstance(error, toolport.ToolportError)
    assert (error.line, error.column) == (4, 1), error
    assert error.diagnostics and error.diagnostics[0].code.startswith("input/")


def test_malformed_file_without_from_raises_with_line_and_column(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tools": [\n  {"name": "a",,}\n]}\n')
    with pytest.raises(toolport.InputError) as caught:
        toolport.convert(bad, to="mcp")
    assert caught.value.line == 2 and caught.value.column is not None
    assert caught.value.file == "bad.json"


def test_malformed_yaml_text_is_located():
    with pytest.raises(toolport.InputError) as caught:
        toolport.convert("openapi: 3.0.0\ninfo: [unclosed\n", to="mcp")
    assert caught.value.line is not None and caught.value.column is not None


def test_bytes_that_are_not_utf8_are_located():
    with pytest.raises(toolport.InputError) as caught:
        toolport.convert(b'{"name": "caf\xe9"}', to="mcp")
    assert (caught.value.line, caught.value.column) == (1, 14)


def test_missing_path_and_unknown_format():
    with pytest.raises(toolport.InputError, match="no such file"):
        toolport.convert(Path("/nonexistent/tools.json"), to="mcp")
    with pytest.raises(toolport.UsageError, match="unknown format `nope`"):
        toolport.convert("{}", to="nope")
    with pytest.raises(TypeError):
        toolport.convert(42, to="mcp")  # type: ignore[arg-type]


def test_strict_raises_a_loss_error_carrying_the_losses():
    source = FIXTURES / "gloodata" / "show-map.json"
    relaxed = toolport.convert(source, to="gemini")
    assert relaxed.status == "converted_with_losses" and relaxed.losses
    with pytest.raises(toolport.LossError) as caught:
        toolport.convert(source, to="gemini", strict=True)
    assert isinstance(caught.value, toolport.ToolportError)
    assert {d.code for d in caught.value.losses} == {d.code for d in relaxed.losses}
    with pytest.raises(toolport.LossError):
        toolport.convert(source, to="gemini", strict="all")
    # Only the codes named are refused, and a code must be one.
    assert toolport.convert(source, to="gemini", strict="loss/auth").files
    with pytest.raises(ValueError, match="did you mean `loss/confirmation`"):
        toolport.convert(source, to="gemini", strict="loss/confrmation")


def test_a_loss_error_names_what_strict_refused():
    source = FIXTURES / "gloodata" / "show-map.json"
    with pytest.raises(toolport.LossError) as caught:
        toolport.convert(source, to="mcp", strict="loss/display")
    refused = caught.value.refused
    assert refused and {d.code for d in refused} == {"loss/display"}
    assert all(d.severity == "error" for d in refused)
    assert caught.value.message.startswith(f"strict refuses {len(refused)} diagnostic")
    assert all(str(d) in caught.value.message for d in refused)
    # The other losses are carried, not refused.
    assert {d.code for d in caught.value.losses} > {"loss/display"}


def test_errors_name_the_api_arguments_not_the_command_lines_flags(tmp_path):
    # The host's detection hint, as the command line words it.
    hint = "this input looks like gloodata, not mcp: try --from gloodata, or leave --from out to detect the format"
    assert toolport._api_words(hint) == (
        'this input looks like gloodata, not mcp: try from_="gloodata", or leave from_ out to detect the format'
    )
    with pytest.raises(toolport.UsageError) as caught:
        toolport.convert(FIXTURES / "mcp" / "weather-tool.json", to="openai", options={"stirct": True})
    assert 'options={"stirct": "true"}' in caught.value.message and "--option" not in caught.value.message
    result = toolport.convert(FIXTURES / "mcp" / "weather-tool.json", to="openai")
    result.write(tmp_path)
    with pytest.raises(toolport.OutputError, match="pass force=True to overwrite"):
        result.write(tmp_path)


def test_options_are_the_command_lines():
    source = FIXTURES / "mcp" / "weather-tool.json"
    strict_mode = toolport.convert(source, to="openai", options={"strict": True}).text
    assert '"strict": true' in strict_mode
    as_json = toolport.convert(FIXTURES / "openapi" / "tasks.yaml", to="openapi", options={"syntax": "json"})
    json.loads(as_json.text)


def test_options_are_checked_like_the_command_lines():
    source = FIXTURES / "mcp" / "weather-tool.json"
    with pytest.raises(toolport.UsageError, match="takes no option `stirct`"):
        toolport.convert(source, to="openai", options={"stirct": True})
    with pytest.raises(toolport.UsageError):
        toolport.convert(source, to="openai", options={"strict": "maybe"})
    with pytest.raises(ValueError):
        toolport.convert(source, to="openai", strict="nonsense")


def test_a_raycast_folder_as_a_dict_of_files():
    folder = FIXTURES / "raycast" / "ai-yaml"
    from_dict = toolport.convert(folder_files(folder), to="mcp")
    from_path = toolport.convert(folder, to="mcp")
    assert from_dict.source_format == "raycast"
    assert from_dict.json() == from_path.json()
    # And back: a folder format writes several files, which read back as a dict.
    extension = toolport.convert(from_dict.text, to="raycast")
    assert "package.json" in extension.files and any(p.startswith("src/tools/") for p in extension.files)
    again = toolport.convert(extension.files, from_="raycast", to="mcp")
    assert tool_names(toolport.inspect(again.text)) == tool_names(toolport.inspect(from_dict.text))


def test_a_folder_format_needs_a_folder():
    with pytest.raises(toolport.UsageError, match="reads a folder"):
        toolport.convert("{}", from_="raycast", to="mcp")


def test_inspect_returns_the_canonical_model():
    model = toolport.inspect(FIXTURES / "mcp" / "weather-tool.json")
    assert model["schema_version"] == toolport._toolport.MODEL_SCHEMA_MAJOR
    (tool,) = model["tool_set"]["tools"]
    assert tool["name"] == "get_weather"
    assert [p["name"] for p in tool["parameters"]] == ["location", "units"]
    with pytest.raises(toolport.InputError):
        toolport.inspect("{]", from_="mcp")


def names_of(result: toolport.Result) -> list:
    """The tools of a result, read back (one document, a folder, or one file per tool)."""
    fmt = result.target_format
    if len(result.files) == 1:
        return tool_names(toolport.inspect(result.text, from_=fmt))
    if fmt == "raycast":
        return tool_names(toolport.inspect(result.files, from_=fmt))
    return [name for text in result.files.values() for name in tool_names(toolport.inspect(text, from_=fmt))]


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini", "gloodata", "skydeck", "vertex", "raycast"])
def test_round_trip_through_each_target_keeps_the_tools(target):
    source = FIXTURES / "mcp" / "issue-tracker.json"
    original = tool_names(toolport.inspect(source))
    there = toolport.convert(source, to=target)
    # Targets with stricter name rules rename (`issues.create` -> `issues_create`, reported).
    plain = lambda names: sorted(n.replace(".", "_").replace("-", "_").lower() for n in names)  # noqa: E731
    if target in ("raycast", "skydeck"):
        # These name tools their own way (`create-issue`, `create_issue`): the same tools, renamed.
        assert len(names_of(there)) == len(original)
    else:
        assert plain(names_of(there)) == plain(original)
    if len(there.files) == 1 or target == "raycast":
        back = toolport.convert(there.text if len(there.files) == 1 else there.files, from_=target, to="mcp")
        assert len(names_of(back)) == len(original)


@pytest.mark.parametrize(
    "fixture", ["mcp/filesystem.json", "openai/chat-tools.json", "anthropic/support-tools.json", "gemini/lights.json"]
)
def test_same_format_in_and_out_gives_the_same_document(fixture):
    path = FIXTURES / fixture
    fmt = fixture.split("/")[0]
    out = toolport.convert(path, from_=fmt, to=fmt)
    assert json.loads(out.text) == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "document",
    [
        "openapi/oai-examples/petstore-expanded.yaml",
        "openapi/oai-examples/uspto.yaml",
        "gloodata/ext-py-demography.json",
        "skydeck/synthetic--llm-tool--strict.json",
        "raycast/exa",
        "openapi/stripe/spec3.json",
    ],
)
def test_corpus_documents_convert(document):
    path = corpus(document)
    result = toolport.convert(path, to="openai")
    assert result.status in ("converted", "converted_with_losses")
    model = toolport.inspect(path)
    assert tool_names(model)
    written = result.json()
    tools = written if isinstance(written, list) else written["tools"]
    assert len(tools) == len(tool_names(model))


def test_write_is_safe_and_explicit(tmp_path):
    source = FIXTURES / "gloodata" / "show-map.json"
    result = toolport.convert(source, to="skydeck")
    assert not any(tmp_path.iterdir()), "nothing is written before write()"
    placed = result.write(tmp_path / "out")
    assert sorted(p.name for p in placed) == sorted(Path(f).name for f in result.files)
    assert all(p.read_text() == result.files[p.relative_to(tmp_path / "out").as_posix()] for p in placed)
    with pytest.raises(toolport.OutputError, match="already exists"):
        result.write(tmp_path / "out")
    assert len(result.write(tmp_path / "out", force=True)) == len(placed)
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")], "no staging left"


def test_a_written_extension_holds_its_binary_files(tmp_path):
    result = toolport.convert(FIXTURES / "mcp" / "weather-tool.json", to="raycast")
    assert result.binary_files and all(isinstance(b, bytes) for b in result.binary_files.values())
    result.write(tmp_path / "ext")
    assert tree(tmp_path / "ext") == result_tree(result)
    # Read back from disk and as a dict with the icon as bytes: the same model.
    from_disk = toolport.inspect(tmp_path / "ext")
    assert toolport.inspect(folder_files(tmp_path / "ext")) == from_disk


def test_write_never_overwrites_the_input(tmp_path):
    source = tmp_path / "tool.json"
    source.write_text((FIXTURES / "skydeck" / "minimal.json").read_text())
    result = toolport.convert(source, to="skydeck", options={"output_name": "tool"})
    assert list(result.files) == ["tool.json"]
    with pytest.raises(toolport.OutputError, match="is an input"):
        result.write(tmp_path, force=True)


def test_the_readme_example_runs(tmp_path, monkeypatch, capsys):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Python") :]
    example = section[section.index("```python") + len("```python") : section.index("```\n", section.index("```python") + 3)]
    (tmp_path / "tools.mcp.json").write_text((FIXTURES / "mcp" / "weather-tool.json").read_text())
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "README.md", "exec"), {})
    assert capsys.readouterr().out.startswith("converted")
    assert list((tmp_path / "out").iterdir())


PETS = """openapi: 3.1.0
info: {title: Pets, version: '1'}
servers: [{url: 'https://pets.example.com'}]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
        - {name: 'include[]', in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
  /pets/{petId}:
    delete:
      operationId: deletePet
      tags: [admin]
      parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
"""


def test_curation_and_the_names_map_as_the_command_lines(tmp_path):
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("tools:\n  listPets:\n    name: list_all_pets\n    parameters:\n      limit: {value: 20}\n")
    result = toolport.convert(PETS, to="gemini", exclude=["method:DELETE"], overlay=overlay, names_map=True)
    (tool,) = result.json()["functionDeclarations"]
    assert tool["name"] == "list_all_pets"
    (entry,) = result.names_map["tools"]
    assert entry["source"] == "listPets"
    assert entry["http"] == {"method": "GET", "path": "/pets", "servers": ["https://pets.example.com"]}
    assert entry["parameters"] == [{"name": "include_", "source": "include[]", "location": "query"}]
    assert entry["pinned"] == [{"name": "limit", "location": "query", "value": 20}]
    assert toolport.convert(PETS, to="gemini").names_map is None

    overlay.write_text("tools:\n  listPet: {description: x}\n")
    with pytest.raises(toolport.ConversionError, match=r"the source has no tool `listPet` \(did you mean `listPets`\?\)") as refused:
        toolport.convert(PETS, to="gemini", overlay=overlay)
    (error,) = [d for d in refused.value.diagnostics if d.code == "curate/overlay"]
    assert (error.file.endswith("overlay.yaml"), error.line, error.column) == (True, 2, 3)
    with pytest.raises(toolport.UsageError, match="unknown kind `verb`"):
        toolport.convert(PETS, to="gemini", select=["verb:GET"])


def test_split_writes_one_document_per_request_as_the_command_line(tmp_path):
    tools = [{"name": f"t{i}", "description": "d", "inputSchema": {"type": "object"}} for i in range(130)]
    source = tmp_path / "tools.mcp.json"
    source.write_text(json.dumps({"tools": tools}))
    whole = toolport.convert(source, to="openai")
    assert list(whole.files) == ["tools.openai.json"]
    assert any(d.code == "limit/tools" for d in whole.diagnostics)
    parts = toolport.convert(source, to="openai", split="by-count")
    assert sorted(parts.files) == ["tools.openai.part-1.json", "tools.openai.part-2.json"]
    assert [len(json.loads(parts.files[f])) for f in sorted(parts.files)] == [128, 2]
    with pytest.raises(ValueError, match="by-tag or by-count"):
        toolport.convert(source, to="openai", split="by-size")
