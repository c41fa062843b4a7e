"""What several targets share: reading an output, the tool-list shapes, JSON Schema checks."""

import json
import os
import subprocess

import jsonschema
import yaml


def load(path):
    """A JSON or YAML document, as a YAML 1.1 reader (PyYAML) sees it."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith((".yaml", ".yml")):
        return yaml.safe_load(text)
    return json.loads(text)


def tools_of(doc, key="tools"):
    """The tool list of a document in any of the shapes toolport writes: {tools: [...]}, a
    bare array, or one tool."""
    if isinstance(doc, dict) and isinstance(doc.get(key), list):
        return doc[key]
    if isinstance(doc, list):
        return doc
    return [doc]


def schema_errors(schema, where, draft=jsonschema.Draft202012Validator):
    """Errors of a schema against its dialect's meta-schema."""
    try:
        draft.check_schema(schema)
        return []
    except jsonschema.exceptions.SchemaError as e:
        return [f"{where}: not a valid JSON Schema: {e.message} (at {'/'.join(map(str, e.absolute_path))})"]


def walk(schema, path="#"):
    """Every sub-schema with its path (properties, items, anyOf/oneOf/allOf, $defs, ...)."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in ("properties", "$defs", "definitions", "patternProperties"):
        for name, sub in (schema.get(key) or {}).items():
            yield from walk(sub, f"{path}/{key}/{name}")
    for key in ("items", "additionalProperties", "not", "contains", "if", "then", "else"):
        if isinstance(schema.get(key), dict):
            yield from walk(schema[key], f"{path}/{key}")
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for i, sub in enumerate(schema.get(key) or []):
            yield from walk(sub, f"{path}/{key}/{i}")


CONFORMANCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def node_errors(script, path, what):
    """The errors a node script of conformance/ gives for `path` (it prints a JSON object of
    file -> errors); its failure is an error naming `what` it checks with."""
    run = subprocess.run(["node", os.path.join(CONFORMANCE, script), path], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        return [f"the {what} check failed: {run.stderr.strip()[:500]}"]
    return json.loads(run.stdout).get(path, [])
