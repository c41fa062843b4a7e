"""Independent readers: each format's documents read into what a model and its caller rely on,
with plain JSON/YAML walks (and, for Raycast, Raycast's own schema extraction), written from
the formats' documentation and never from toolport's readers.

`read(format, path)` returns a `Document`: its tools in order, each a dict
{name, description, params: {path: facts}, truncated, output: {path: facts} | None,
examples: int | None}. `examples` and `output` are None where the format has no place for them.
"""

import json
import os
import subprocess

import json5
import yaml

from .schema import Resolver, flatten, text

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class Document:
    def __init__(self, fmt, tools, holds_examples, holds_output, holds_required=True):
        self.format = fmt
        self.tools = tools
        self.holds_examples = holds_examples
        self.holds_output = holds_output
        self.holds_required = holds_required
        self.names_are_titles = False
        self.schema_is_partial = False


def yaml_load(text):
    """PyYAML's safe loading, through libyaml when PyYAML was built with it: the same YAML 1.1
    documents from the same constructor, parsed five to six times faster (the oracle read 604
    YAML documents, the GitHub spec's 3 MB in 13.5 s of pure Python, 2.4 s with libyaml)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load(path):
    with open(path, encoding="utf-8-sig") as f:
        data = f.read()
    if path.endswith((".yaml", ".yml")):
        return yaml_load(data)
    if path.endswith((".json5", ".jsonish")):
        return json5.loads(data)
    return json.loads(data)


def tool(name, description, schema, resolve, output=None, examples=None):
    params, truncated = flatten(schema, resolve)
    params.pop("", None)
    out = None
    if output is not None:
        out, cut = flatten(output, resolve)
        truncated = truncated or cut
    return {
        "name": name,
        "description": text(description),
        "params": params,
        "truncated": truncated,
        "output": out,
        "examples": examples,
    }


def single_file(path):
    if os.path.isdir(path):
        files = sorted(f for f in os.listdir(path) if not f.startswith("."))
        if len(files) != 1:
            raise ValueError(f"{path}: expected one file, found {files}")
        return os.path.join(path, files[0])
    return path


def tool_list(doc, *keys):
    """The list under the first of `keys` (looking into a JSON-RPC `result` too), a bare list,
    or one tool."""
    if isinstance(doc, dict) and isinstance(doc.get("result"), dict) and "jsonrpc" in doc:
        doc = doc["result"]
    if isinstance(doc, list):
        return doc
    for key in keys:
        if isinstance(doc, dict) and isinstance(doc.get(key), list):
            return doc[key]
    return [doc]


# --- the JSON function-tool formats -------------------------------------------------------

def read_mcp(path):
    doc = load(single_file(path))
    tools = []
    for t in tool_list(doc, "tools"):
        schema = t.get("inputSchema") or {}
        entry = tool(t.get("name"), t.get("description"), schema, Resolver(schema), t.get("outputSchema"))
        entry["title"] = t.get("title") or (t.get("annotations") or {}).get("title")
        tools.append(entry)
    return Document("mcp", tools, holds_examples=False, holds_output=True)


def read_openai(path):
    doc = load(single_file(path))
    tools = []
    for t in tool_list(doc, "tools", "functions"):
        if t.get("type") not in (None, "function"):
            continue  # a built-in tool (web search, ...): no parameters to compare
        f = t.get("function") if isinstance(t.get("function"), dict) else t
        schema = f.get("parameters") or {}
        tools.append(tool(f.get("name"), f.get("description"), schema, Resolver(schema)))
    return Document("openai", tools, holds_examples=False, holds_output=False)


def read_anthropic(path):
    doc = load(single_file(path))
    tools = []
    for t in tool_list(doc, "tools"):
        if "input_schema" not in t and t.get("type"):
            continue  # a server tool (bash, web search, ...)
        schema = t.get("input_schema") or {}
        examples = t.get("input_examples")
        tools.append(tool(t.get("name"), t.get("description"), schema, Resolver(schema),
                          examples=len(examples) if isinstance(examples, list) else 0))
    return Document("anthropic", tools, holds_examples=True, holds_output=False)


def read_bedrock(path):
    doc = load(single_file(path))
    if isinstance(doc, dict) and isinstance(doc.get("toolConfig"), dict):
        doc = doc["toolConfig"]  # a whole Converse request
    tools = []
    for t in tool_list(doc, "tools"):
        spec = t.get("toolSpec") if isinstance(t, dict) else None
        if not isinstance(spec, dict):
            continue  # a cachePoint or systemTool: no parameters to compare
        schema = (spec.get("inputSchema") or {}).get("json") or {}
        tools.append(tool(spec.get("name"), spec.get("description"), schema, Resolver(schema)))
    return Document("bedrock", tools, holds_examples=False, holds_output=False)


def read_bedrock_agent(path):
    # A CreateAgentActionGroup request, or its function schema alone. A function's parameters
    # are a map of flat details {type, description, required}: read as an object schema of
    # those properties.
    doc = load(single_file(path))
    if isinstance(doc, dict) and isinstance(doc.get("functionSchema"), dict):
        doc = doc["functionSchema"]
    tools = []
    for f in (doc.get("functions") if isinstance(doc, dict) else None) or []:
        if not isinstance(f, dict):
            continue
        details = f.get("parameters") if isinstance(f.get("parameters"), dict) else {}
        schema = {"type": "object", "properties": {}, "required": []}
        for name, detail in details.items():
            if not isinstance(detail, dict):
                continue
            schema["properties"][name] = {k: detail[k] for k in ("type", "description") if k in detail}
            if detail.get("required") is True:
                schema["required"].append(name)
        tools.append(tool(f.get("name"), f.get("description"), schema, Resolver(schema)))
    return Document("bedrock-agent", tools, holds_examples=False, holds_output=False)


def read_mcp_prompts(path):
    doc = load(single_file(path))
    if isinstance(doc, dict) and isinstance(doc.get("result"), dict) and "jsonrpc" in doc:
        doc = doc["result"]
    tools = []
    for p in doc.get("prompts") or []:
        # A prompt's arguments are strings: its input is an object of string properties.
        arguments = [a for a in p.get("arguments") or [] if isinstance(a, dict)]
        schema = {"type": "object", "properties": {}, "required": [a["name"] for a in arguments if a.get("required") is True]}
        for a in arguments:
            schema["properties"][a["name"]] = {"type": "string", **({"description": a["description"]} if "description" in a else {})}
        entry = tool(p.get("name"), p.get("description"), schema, Resolver(schema))
        entry["title"] = p.get("title")
        tools.append(entry)
    return Document("mcp-prompts", tools, holds_examples=False, holds_output=False)


def read_mcpb(path, fmt="mcpb"):
    # An MCPB manifest lists each tool by name and description: it has no parameters to read.
    doc = load(single_file(path))
    tools = []
    for t in doc.get("tools") or []:
        if isinstance(t, dict):
            schema = {"type": "object", "properties": {}}
            tools.append(tool(t.get("name"), t.get("description"), schema, Resolver(schema)))
    return Document(fmt, tools, holds_examples=False, holds_output=False)


def read_mcp_server(path):
    # A folder of server.json (which holds no tools) and the bundle manifest that lists them.
    return read_mcpb(os.path.join(path, "manifest.json"), "mcp-server")


def gemini_declarations(doc):
    keys = ("functionDeclarations", "function_declarations")
    if isinstance(doc, dict):
        for key in keys:
            if isinstance(doc.get(key), list):
                return doc[key]
        if isinstance(doc.get("tools"), list):
            found = []
            for t in doc["tools"]:
                found += gemini_declarations(t) if isinstance(t, dict) else []
            return found
        if "name" in doc:
            return [doc]
    if isinstance(doc, list):
        found = []
        for item in doc:
            found += gemini_declarations(item) if isinstance(item, dict) and ("name" not in item) else [item]
        return found
    return []


def read_gemini(path):
    doc = load(single_file(path))
    tools = []
    for d in gemini_declarations(doc):
        schema = d.get("parametersJsonSchema", d.get("parameters_json_schema", d.get("parameters"))) or {}
        output = d.get("responseJsonSchema", d.get("response_json_schema", d.get("response")))
        tools.append(tool(d.get("name"), d.get("description"), schema, Resolver(schema), output))
    return Document("gemini", tools, holds_examples=False, holds_output=True)


# --- OpenAPI and Vertex -------------------------------------------------------------------

def operation_tools(spec, examples_by_operation=None):
    resolve = Resolver(spec)

    def deref(node):
        for _ in range(32):
            if isinstance(node, dict) and "$ref" in node:
                target = resolve(node["$ref"])
                if target is None:
                    return {}
                node = target
            else:
                break
        return node if isinstance(node, dict) else {}

    tools = []
    for route, item in (spec.get("paths") or {}).items():
        item = deref(item)
        shared = item.get("parameters") or []
        for method in item:
            if method not in HTTP_METHODS:
                continue
            op = deref(item[method])
            name = op.get("operationId") or f"{method} {route}"
            schema = {"type": "object", "properties": {}, "required": []}
            params = {}
            for p in list(shared) + list(op.get("parameters") or []):
                p = deref(p)
                if "name" in p:
                    params[(p["name"], p.get("in"))] = p
            for (pname, _), p in params.items():
                sub = p.get("schema")
                if sub is None and isinstance(p.get("content"), dict) and p["content"]:
                    sub = next(iter(p["content"].values())).get("schema")
                sub = dict(sub) if isinstance(sub, dict) else {}
                if p.get("description") and "$ref" not in sub:
                    sub.setdefault("description", p["description"])
                elif p.get("description"):
                    sub = {"allOf": [sub], "description": p["description"]}
                schema["properties"][pname] = sub
                if p.get("required") is True or p.get("in") == "path":
                    schema["required"].append(pname)
            body = deref(op.get("requestBody")) if op.get("requestBody") else None
            if body:
                content = body.get("content") or {}
                media = next((m for m in content if "json" in m), next(iter(content), None))
                sub = (content.get(media) or {}).get("schema") if media else None
                if isinstance(sub, dict):
                    # What a caller sends as the body: the model sees it as one argument.
                    described = dict(sub)
                    if body.get("description") and "description" not in described and "$ref" not in described:
                        described["description"] = body["description"]
                    schema["properties"]["body"] = described
                    if body.get("required") is True:
                        schema["required"].append("body")
            output = None
            for code, response in (op.get("responses") or {}).items():
                if str(code).startswith("2") or str(code) == "default":
                    response = deref(response)
                    content = response.get("content") or {}
                    media = next((m for m in content if "json" in m), None)
                    if media and isinstance(content[media].get("schema"), dict):
                        output = content[media]["schema"]
                    break
            description = op.get("description") or op.get("summary")
            t = tool(name, description, schema, resolve, output,
                     examples=(examples_by_operation or {}).get(name, 0) if examples_by_operation is not None else None)
            t["title"] = op.get("summary")
            tools.append(t)
    return tools


def read_openapi(path):
    spec = load(single_file(path))
    return Document("openapi", operation_tools(spec), holds_examples=False, holds_output=True)


def read_vertex(path):
    body_path = single_file(path)
    body = load(body_path)
    manifest = body.get("manifest") or {}
    api = manifest.get("apiSpec") or manifest.get("api_spec") or {}
    text_spec = api.get("openApiYaml") or api.get("open_api_yaml")
    if text_spec is None:
        raise ValueError(f"{body_path}: no inline spec (openApiYaml)")
    spec = yaml_load(text_spec)
    examples = {}
    for ex in body.get("toolUseExamples") or body.get("tool_use_examples") or []:
        op = (ex.get("extensionOperation") or ex.get("extension_operation") or {})
        op_id = op.get("operationId") or op.get("operation_id")
        if op_id:
            examples[op_id] = examples.get(op_id, 0) + 1
    return Document("vertex", operation_tools(spec, examples), holds_examples=True, holds_output=True)


def read_adk(path):
    """An ADK agent folder: its tools are the OpenAPIToolset's, one per operation of the spec
    beside agent.py (the agent's instruction is the tool set's, not a tool's)."""
    spec = load(os.path.join(path, "openapi.json"))
    return Document("adk", operation_tools(spec), holds_examples=False, holds_output=True)


def read_m365(path):
    """A Microsoft 365 Copilot API plugin folder: its tools are the operations of the spec its
    manifest's first OpenApi runtime names (a function's name is its operation's operationId),
    each described by its function's description where the function has one (what Copilot's
    model reads), else by the operation's. Written from Microsoft's plugin manifest reference."""
    manifests = []
    for name in sorted(os.listdir(path)):
        file = os.path.join(path, name)
        if name.endswith(".json") and os.path.isfile(file):
            doc = load(file)
            if isinstance(doc, dict) and str(doc.get("schema_version", "")).startswith("v2"):
                manifests.append(doc)
    if len(manifests) != 1:
        raise ValueError(f"{path}: expected one plugin manifest, found {len(manifests)}")
    manifest = manifests[0]
    runtime = next((r for r in manifest.get("runtimes") or [] if r.get("type") == "OpenApi"), None)
    if runtime is None:
        return m365_mcp_plugin(manifest)
    spec_ref = runtime.get("spec") or {}
    if "api_description" in spec_ref:
        spec = yaml_load(spec_ref["api_description"])
    else:
        spec = load(os.path.join(path, spec_ref["url"]))
    described = {f["name"]: f["description"] for f in manifest.get("functions") or []
                 if isinstance(f, dict) and isinstance(f.get("description"), str)}
    tools = operation_tools(spec)
    for t in tools:
        if t["name"] in described:
            t["description"] = text(described[t["name"]])
    return Document("m365", tools, holds_examples=False, holds_output=True)


def m365_mcp_plugin(manifest):
    """An MCP plugin (manifest 2.4, `RemoteMCPServer` runtimes): each function a runtime runs is
    a tool, its input schema its `parameters`, else the `inputSchema` of the runtime's inline
    tool description (Microsoft's plugin manifest 2.4 reference, MCP runtimes)."""
    runtimes = [r for r in manifest.get("runtimes") or [] if r.get("type") == "RemoteMCPServer"]
    described = {}
    for r in runtimes:
        for t in ((r.get("spec") or {}).get("mcp_tool_description") or {}).get("tools") or []:
            described.setdefault(t.get("name"), t.get("inputSchema"))
    def runs(name):
        return any(r.get("run_for_functions") is None or "*" in r["run_for_functions"] or name in r["run_for_functions"]
                   for r in runtimes)
    tools = []
    for f in manifest.get("functions") or []:
        if not (isinstance(f, dict) and runs(f.get("name"))):
            continue
        schema = f.get("parameters") or described.get(f.get("name")) or {}
        tools.append(tool(f.get("name"), f.get("description"), schema, Resolver(schema)))
    return Document("m365", tools, holds_examples=False, holds_output=False)


# --- Gloodata, SkyDeck, Raycast -----------------------------------------------------------

def read_gloodata(path):
    doc = load(single_file(path))
    tools = []
    entries = doc.get("tools") if isinstance(doc.get("tools"), dict) else doc.get("functions") or {}
    value_sets = {}
    tag_values = doc.get("tagValues") or []
    if isinstance(tag_values, dict):
        tag_values = [{"id": key, **value} for key, value in tag_values.items() if isinstance(value, dict)]
    for tv in tag_values:
        if isinstance(tv, dict) and "id" in tv:
            value_sets[tv["id"]] = [e[0] for e in tv.get("entries") or [] if isinstance(e, list) and e]
    for name, t in entries.items():
        fields = ((t.get("schema") or {}).get("fields")) or {}
        ui_args = ((t.get("ui") or {}).get("args")) or {}
        schema = {"type": "object", "properties": {}, "required": []}
        for fname, field in fields.items():
            field = {k: v for k, v in field.items() if v is not None or k == "default"}
            if field.get("default", 0) is None:
                del field["default"]
            types = field.get("type")
            # `[T, "null"]` is how Gloodata marks an argument optional: it may be left out or null.
            if not (isinstance(types, list) and "null" in types):
                schema["required"].append(fname)
            arg = ui_args.get(fname)
            if isinstance(arg, dict) and arg.get("dtypeName") in value_sets and value_sets[arg["dtypeName"]] and "enum" not in field:
                field["enum"] = value_sets[arg["dtypeName"]]
            schema["properties"][fname] = field
        examples = t.get("examples")
        entry = tool(name, t.get("description"), schema, Resolver(schema),
                     examples=len(examples) if isinstance(examples, list) else 0)
        entry["title"] = t.get("title")
        tools.append(entry)
    return Document("gloodata", tools, holds_examples=True, holds_output=False)


SKYDECK_TYPES = {"text": "string", "single-select": "string", "multi-select": "array"}
# The Spanish page of SkyDeck's spec writes the variable types in Spanish.
SKYDECK_SPANISH_TYPES = {"texto": "text", "selección-única": "single-select", "selección-múltiple": "multi-select"}


def read_skydeck(path):
    files = [os.path.join(path, f) for f in sorted(os.listdir(path))] if os.path.isdir(path) else [path]
    tools = []
    for file in files:
        doc = load(file)
        meta = doc.get("metadata") or {}
        schema = {"type": "object", "properties": {}}
        for v in meta.get("variables") or []:
            kind = SKYDECK_SPANISH_TYPES.get(v.get("type"), v.get("type"))
            sub = {"type": SKYDECK_TYPES.get(kind, "string")}
            if v.get("description"):
                sub["description"] = v["description"]
            allowed = v.get("allowed_values")
            if kind == "multi-select":
                sub["items"] = {"type": "string", **({"enum": allowed} if allowed else {})}
            elif allowed:
                sub["enum"] = allowed
            if "default" in v and v["default"] not in (None, ""):
                sub["default"] = v["default"]
            schema["properties"][v.get("name")] = sub
        stem = os.path.splitext(os.path.basename(file))[0]
        # `NAME.skydeck.json`: the format's mark in a file name, as README's output-name rule
        # writes it, is not part of the name.
        if stem.endswith(".skydeck") and stem != ".skydeck":
            stem = stem[: -len(".skydeck")]
        name = meta.get("prompt_name") or stem
        t = tool(name, meta.get("description"), schema, Resolver(schema))
        t["title"] = meta.get("prompt_name")
        for facts in t["params"].values():
            facts["required"] = None  # SkyDeck does not say which variables are required
        tools.append(t)
    doc = Document("skydeck", tools, holds_examples=False, holds_output=False, holds_required=False)
    doc.names_are_titles = True  # `prompt_name` is shown to people; SkyDeck has no other name
    return doc


RAYCAST_INPUTS = {}


def prefetch_raycast(folders):
    """Every Raycast tool's input in the given extension folders, read by the TypeScript
    compiler in one program (raycast_inputs.cjs), kept for `read_raycast`."""
    folders = [os.path.abspath(f) for f in folders if os.path.isdir(os.path.join(f, "src/tools"))]
    folders = [f for f in dict.fromkeys(folders) if f not in RAYCAST_INPUTS]
    if not folders:
        return
    node_modules = os.path.join(ROOT, "plugins/raycast/tests/tsc/node_modules")
    if not os.path.isdir(os.path.join(node_modules, "typescript")):
        raise RuntimeError(f"TypeScript is not installed in {node_modules}: run `cargo xtask test`")
    run = subprocess.run(["node", os.path.join(HERE, "raycast_inputs.cjs"), *folders], capture_output=True,
                         text=True, timeout=900, env={**os.environ, "NODE_PATH": node_modules})
    if run.returncode != 0:
        raise RuntimeError(f"raycast_inputs.cjs failed: {run.stderr[-2000:]}")
    RAYCAST_INPUTS.update(json.loads(run.stdout))


def raycast_evals(folder, manifest):
    evals = list(((manifest.get("ai") or {}).get("evals")) or [])
    for name in ("ai.json", "ai.yaml", "ai.yml", "ai.json5"):
        file = os.path.join(folder, name)
        if os.path.exists(file):
            evals += list((load(file) or {}).get("evals") or [])
    return evals


def read_raycast(path):
    manifest = load(os.path.join(path, "package.json"))
    declared = manifest.get("tools") or []
    prefetch_raycast([path])
    by_name = {s["name"]: s for s in RAYCAST_INPUTS.get(os.path.abspath(path), [])}
    # Every call an eval expects is an example of calling that tool: an eval that expects two
    # calls (one tool's answer feeding the next) shows both tools.
    counts = {}
    for e in raycast_evals(path, manifest):
        for expected in e.get("expected") or []:
            called = expected.get("callsTool") if isinstance(expected, dict) else None
            called = called.get("name") if isinstance(called, dict) else called
            if isinstance(called, str):
                counts[called] = counts.get(called, 0) + 1
    tools = []
    for t in declared:
        extracted = by_name.get(t.get("name"))
        schema = extracted.get("input") if extracted else None
        # The manifest's description, else the function's JSDoc, which Raycast hands the model as
        # the tool's instructions: both are what the model reads of the tool.
        description = t.get("description") or (extracted or {}).get("description")
        entry = tool(t.get("name"), description, schema or {}, Resolver(schema or {}),
                     examples=counts.get(t.get("name"), 0))
        entry["params_unknown"] = schema is None and not (extracted and extracted.get("no_input"))
        entry["title"] = t.get("title")
        tools.append(entry)
    doc = Document("raycast", tools, holds_examples=True, holds_output=False)
    # Raycast's reading of a tool's input is its TypeScript type: a default given in the code
    # (a destructured `{ limit = 20 }`) or a plain comment is not in it, while toolport reads
    # them, so what an output adds to a Raycast source's parameter is not a difference.
    doc.schema_is_partial = True
    return doc


READERS = {
    "mcp": read_mcp,
    "mcp-prompts": read_mcp_prompts,
    "mcpb": read_mcpb,
    "mcp-server": read_mcp_server,
    "openai": read_openai,
    "anthropic": read_anthropic,
    "bedrock": read_bedrock,
    "bedrock-agent": read_bedrock_agent,
    "gemini": read_gemini,
    "openapi": read_openapi,
    "vertex": read_vertex,
    "gloodata": read_gloodata,
    "skydeck": read_skydeck,
    "raycast": read_raycast,
    "adk": read_adk,
    "m365": read_m365,
}


def read(fmt, path):
    return READERS[fmt](path)
