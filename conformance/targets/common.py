"""What several targets share: reading an output, the tool-list shapes, JSON Schema checks."""

import json
import os
import subprocess

import jsonschema
import yaml


def yaml_load(text):
    """YAML text as PyYAML's safe loader reads it (YAML 1.1), through libyaml when the wheel has
    it: the same resolver and constructors, five times faster on a large spec (the pure-Python
    scanner took 16 s of GitHub's inline spec, libyaml 3 s)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load(path):
    """A JSON or YAML document, as a YAML 1.1 reader (PyYAML) sees it."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith((".yaml", ".yml")):
        return yaml_load(text)
    return json.loads(text)


def tools_of(doc, key="tools"):
    """The tool list of a document in any of the shapes toolport writes: {tools: [...]}, a
    bare array, or one tool."""
    if isinstance(doc, dict) and isinstance(doc.get(key), list):
        return doc[key]
    if isinstance(doc, list):
        return doc
    return [doc]


# What the meta-schema said of each distinct schema (draft, its canonical JSON) -> the error, or
# None: a large API's tools repeat schemas, and one input's schemas reach several targets.
_schema_verdicts = {}


def schema_errors(schema, where, draft=jsonschema.Draft202012Validator):
    """Errors of a schema against its dialect's meta-schema (each distinct schema checked once)."""
    key = (draft.__name__, json.dumps(schema, sort_keys=True))
    if key not in _schema_verdicts:
        try:
            draft.check_schema(schema)
            _schema_verdicts[key] = None
        except jsonschema.exceptions.SchemaError as e:
            _schema_verdicts[key] = f"not a valid JSON Schema: {e.message} (at {'/'.join(map(str, e.absolute_path))})"
    error = _schema_verdicts[key]
    return [] if error is None else [f"{where}: {error}"]


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


# Verdicts of node scripts run ahead over many files (`node_prefetch`): (script, path) -> errors.
_node_verdicts = {}


def _run_node(script, paths, what):
    """(script, path) -> errors for every path, from one node process: a script of conformance/
    prints a JSON object of file -> errors; its failure is an error naming `what` it checks
    with, for each path."""
    run = subprocess.run(["node", os.path.join(CONFORMANCE, script), *paths], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        return {(script, p): [f"the {what} check failed: {run.stderr.strip()[:500]}"] for p in paths}
    verdicts = json.loads(run.stdout)
    return {(script, p): verdicts.get(p, []) for p in paths}


def node_prefetch(script, paths, what):
    """Runs `script` once over all `paths` (a node start and the SDK's import cost more than
    checking most files); node_errors then answers from these verdicts. When that run fails
    (a file it cannot even read), each file is run alone, so the failure is only that file's."""
    if paths:
        verdicts = _run_node(script, list(dict.fromkeys(paths)), what)
        if not any(e and e[0].startswith(f"the {what} check failed") for e in verdicts.values()):
            _node_verdicts.update(verdicts)


def node_errors(script, path, what):
    """The errors a node script of conformance/ gives for `path`: the prefetched verdict, or a
    run of its own."""
    if (script, path) not in _node_verdicts:
        _node_verdicts.update(_run_node(script, [path], what))
    return _node_verdicts.pop((script, path))
