"""The `openapi` writer's `profile=bedrock-agent`: openapi-spec-validator, and the rules of
Bedrock's user guide ("Define OpenAPI schemas for your agent's action groups"): the version must
be 3.0.0, every path begins with `/`, every operation has a description (the agent chooses by
it), and no schema holds `enum` (the guide lists it among what agents do not support)."""

from .common import load
from .openapi import spec_errors

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def enums(value, path="#"):
    """The place of every `enum` in the document's schemas (a server variable's `enum` is no
    schema's: servers are passed over)."""
    if isinstance(value, dict):
        if "enum" in value:
            yield path
        for key, item in value.items():
            if key != "servers":
                yield from enums(item, f"{path}/{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from enums(item, f"{path}/{i}")


def validate(path):
    doc = load(path)
    errors = spec_errors(doc)
    if doc.get("openapi") != "3.0.0":
        errors.append(f"openapi is {doc.get('openapi')!r}: Bedrock's agents take 3.0.0")
    for route, item in (doc.get("paths") or {}).items():
        if not route.startswith("/"):
            errors.append(f"path {route!r} does not begin with /")
        for method, op in (item or {}).items():
            if method in METHODS and not (isinstance(op, dict) and str(op.get("description") or "").strip()):
                errors.append(f"{method.upper()} {route}: no description")
    errors += [f"{at}: `enum`, which Bedrock's agents do not support" for at in list(enums(doc))[:5]]
    return errors
