"""Microsoft 365 Copilot API plugins: the plugin manifest against Microsoft's published JSON
schema of its `schema_version` (conformance/schemas/copilot-plugin-v2.*.schema.json, vendored:
source and commit in each `$comment`), and the OpenAPI document its OpenApi runtime names
through openapi-spec-validator, as the openapi target checks one (an MCP plugin, whose
runtimes are `RemoteMCPServer`, has no spec: its manifest alone is checked).

The schema declares draft-04 but is written with later keywords (`const`, `propertyNames`,
`if`/`then`, `$defs`), which a draft-04 validator skips: it is checked as draft-04 and as
draft-07, which enforces them, and an error of either is a rejection. Every function must name
an operation of the spec by its operationId (the manifest reference's rule for OpenApi
runtimes). The folder's other files (a spec or a file kept from the source) are accepted as
part of the plugin their manifest checks."""

import json
import os
import re

import jsonschema

from .common import load, yaml_load
from .openapi import spec_errors

SCHEMAS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schemas")
VERSION = re.compile(r"^v2(\.\d+)?$")
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def manifest_of(path):
    """The manifest document at `path`, or None when it is not a plugin manifest."""
    if not (os.path.isfile(path) and path.endswith(".json")):
        return None
    try:
        doc = load(path)
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(doc, dict) and VERSION.match(str(doc.get("schema_version", ""))):
        return doc
    return None


def schema_errors(doc):
    file = os.path.join(SCHEMAS, f"copilot-plugin-{doc['schema_version']}.schema.json")
    if not os.path.exists(file):
        return [f"no vendored schema for {doc['schema_version']} (conformance/schemas/)"]
    with open(file, encoding="utf-8") as f:
        schema = json.load(f)
    errors = []
    for draft in (jsonschema.Draft4Validator, jsonschema.Draft7Validator):
        for e in draft(schema).iter_errors(doc):
            message = f"{os.path.basename(file)}: {e.message[:300]} (at {'/'.join(map(str, e.absolute_path))})"
            if message not in errors:
                errors.append(message)
    return errors


def operation_ids(spec):
    ids = set()
    for item in (spec.get("paths") or {}).values():
        for method, op in (item or {}).items():
            if method in HTTP_METHODS and isinstance(op, dict) and op.get("operationId"):
                ids.add(op["operationId"])
    return ids


def validate(path):
    folder = os.path.dirname(path)
    doc = manifest_of(path)
    if doc is None:
        beside = [manifest_of(os.path.join(folder, f)) for f in sorted(os.listdir(folder))]
        if not any(beside):
            return [f"{os.path.basename(path)}: no plugin manifest beside it"]
        return []
    errors = schema_errors(doc)
    runtimes = [r for r in doc.get("runtimes") or [] if isinstance(r, dict) and r.get("type") == "OpenApi"]
    if not runtimes:
        mcp = [r for r in doc.get("runtimes") or [] if isinstance(r, dict) and r.get("type") == "RemoteMCPServer"]
        if mcp:
            # An MCP plugin: no spec, its functions carry their parameters (checked by the schema).
            return errors
        return errors + ["the manifest has no OpenApi or RemoteMCPServer runtime"]
    spec_ref = runtimes[0].get("spec") or {}
    if "api_description" in spec_ref:
        spec = yaml_load(spec_ref["api_description"])
    else:
        spec_path = os.path.normpath(os.path.join(folder, spec_ref.get("url", "")))
        if not spec_path.startswith(os.path.normpath(folder) + os.sep) or not os.path.isfile(spec_path):
            return errors + [f"the runtime's spec {spec_ref.get('url')!r} is not a file of the plugin's folder"]
        spec = load(spec_path)
    errors += spec_errors(spec, "the runtime's spec")
    ids = operation_ids(spec) if isinstance(spec, dict) else set()
    for f in doc.get("functions") or []:
        name = f.get("name") if isinstance(f, dict) else None
        bound = [r for r in runtimes if name in (r.get("run_for_functions") or [name])]
        if runtimes[0] in bound and name not in ids:
            errors.append(f"function {name!r} names no operationId of the spec")
    return errors
