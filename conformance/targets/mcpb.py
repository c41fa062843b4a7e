"""MCPB: the MCPB toolchain's own manifest validation (`validateManifest` of @anthropic-ai/mcpb,
what `mcpb validate` runs: the zod schema of the manifest's version, and its icon file),
through node (conformance/mcpb-manifest.mjs)."""

from .common import node_errors


NODE_CHECK = ("mcpb-manifest.mjs", "MCPB toolchain")


def node_checks(path):
    """The node checks `validate(path)` runs, for validate.py to run over every output at once."""
    return [NODE_CHECK]


def validate(path):
    script, what = NODE_CHECK
    return node_errors(script, path, what)
