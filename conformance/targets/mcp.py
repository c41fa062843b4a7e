"""MCP: the official SDKs' tools/list result types (Python `mcp.types.ListToolsResult`, and
TypeScript `ListToolsResultSchema` through node, which also requires every `outputSchema` to
be an object schema), and JSON Schema validity."""

import mcp.types

from .common import load, node_errors, schema_errors, tools_of


def validate(path):
    doc = load(path)
    result = doc if isinstance(doc, dict) and "tools" in doc else {"tools": tools_of(doc)}
    errors = []
    try:
        mcp.types.ListToolsResult.model_validate(result)
    except Exception as e:
        errors.append(f"mcp.types.ListToolsResult rejects it: {e}")
    errors += typescript_sdk_errors(path)
    for i, tool in enumerate(result["tools"]):
        for key in ("inputSchema", "outputSchema"):
            if isinstance(tool, dict) and key in tool:
                errors += schema_errors(tool[key], f"tools/{i}/{key}")
    return errors


NODE_CHECK = ("mcp-sdk.mjs", "TypeScript SDK")


def node_checks(path):
    """The node checks `validate(path)` runs, for validate.py to run over every output at once."""
    return [NODE_CHECK]


def typescript_sdk_errors(path):
    script, what = NODE_CHECK
    return node_errors(script, path, what)
