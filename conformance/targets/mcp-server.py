"""MCP server folders: server.json against the MCP registry's published JSON Schema
(conformance/schemas/server.schema.json, vendored with its source in its `$comment`), with
formats checked; the manifest.json beside it as the MCPB target checks one."""

import json
import os

import jsonschema

from . import mcpb
from .common import load

SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schemas", "server.schema.json")


def node_checks(path):
    """The node checks `validate(path)` runs, for validate.py to run over every output at once."""
    return mcpb.node_checks(path) if os.path.basename(path) == "manifest.json" else []


def validate(path):
    if os.path.basename(path) == "manifest.json":
        return mcpb.validate(path)
    if os.path.basename(path) != "server.json":
        return [f"an MCP server folder holds server.json and manifest.json, not {os.path.basename(path)}"]
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    return [f"server.schema.json: {e.message} (at {'/'.join(map(str, e.absolute_path))})" for e in validator.iter_errors(load(path))]
