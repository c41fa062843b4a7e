"""Amazon Bedrock Agents action groups defined by function details: botocore's own validation of
a CreateAgentActionGroup request against the bedrock-agent service model (the check boto3 runs
before sending `create_agent_action_group`), or of a function schema alone against the
request's `functionSchema` member, and the constraints that validator leaves to the service
(patterns, maximum lengths, enum values), read from the same model's shapes."""

import re

import botocore.session
from botocore.validate import ParamValidator

from .common import load

REQUEST = botocore.session.get_session().get_service_model("bedrock-agent").operation_model("CreateAgentActionGroup").input_shape
FUNCTION_SCHEMA = REQUEST.members["functionSchema"]


def constraint_errors(value, shape, path):
    """What the service would refuse that botocore does not check: each string against its
    shape's pattern (matched whole, as the API reference writes it, `^...$`), maximum length and
    enum, walking structures, lists and maps (their keys too) along the model."""
    errors = []
    if shape.type_name == "structure" and isinstance(value, dict):
        for key, member in shape.members.items():
            if key in value:
                errors += constraint_errors(value[key], member, f"{path}/{key}")
    elif shape.type_name == "list" and isinstance(value, list):
        for i, item in enumerate(value):
            errors += constraint_errors(item, shape.member, f"{path}/{i}")
    elif shape.type_name == "map" and isinstance(value, dict):
        for key, item in value.items():
            errors += constraint_errors(key, shape.key, f"{path}/{key} (its name)")
            errors += constraint_errors(item, shape.value, f"{path}/{key}")
    elif shape.type_name == "string" and isinstance(value, str):
        meta = shape.metadata
        if "pattern" in meta and not re.fullmatch(meta["pattern"], value):
            errors.append(f"{path}: {value[:120]!r} breaks the pattern {meta['pattern']}")
        if "max" in meta and len(value) > meta["max"]:
            errors.append(f"{path}: {len(value)} characters, at most {meta['max']} allowed")
        if "min" in meta and len(value) < meta["min"]:
            errors.append(f"{path}: {len(value)} characters, at least {meta['min']} required")
        if shape.enum and value not in shape.enum:
            errors.append(f"{path}: {value!r} is not one of {shape.enum}")
    return errors


def validate(path):
    doc = load(path)
    # A function schema alone (as a source had it) is checked as the request's member.
    shape = FUNCTION_SCHEMA if isinstance(doc, dict) and "functions" in doc and "functionSchema" not in doc else REQUEST
    report = ParamValidator().validate(doc, shape)
    errors = [f"botocore rejects it: {report.generate_report()}"] if report.has_errors() else []
    return errors + constraint_errors(doc, shape, "")
