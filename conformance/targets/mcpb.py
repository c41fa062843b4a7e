"""MCPB: the MCPB toolchain's own manifest validation (`validateManifest` of @anthropic-ai/mcpb,
what `mcpb validate` runs: the zod schema of the manifest's version, and its icon file),
through node (conformance/mcpb-manifest.mjs)."""

from .common import node_errors


def validate(path):
    return node_errors("mcpb-manifest.mjs", path, "MCPB toolchain")
