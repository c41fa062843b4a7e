"""Amazon Bedrock Converse: botocore's own validation of the request parameters against the
bedrock-runtime service model (the check boto3 runs before sending `converse`), and the name
pattern the model documents, which botocore's validator does not check."""

import re

import botocore.session
from botocore.validate import ParamValidator

from .common import load, schema_errors

OPERATION = botocore.session.get_session().get_service_model("bedrock-runtime").operation_model("Converse")
TOOL_CONFIG = OPERATION.input_shape.members["toolConfig"]
NAME = re.compile("^(?:" + TOOL_CONFIG.members["tools"].member.members["toolSpec"].members["name"].metadata["pattern"] + ")$")


def validate(path):
    doc = load(path)
    if isinstance(doc, dict) and "toolConfig" in doc:
        # A whole Converse request: every parameter, as boto3 checks it.
        report = ParamValidator().validate(doc, OPERATION.input_shape)
        config = doc["toolConfig"]
    else:
        # A tool configuration; a bare list of tools or one tool (as a source had it) is checked
        # as the configuration holding it.
        config = {"tools": doc} if isinstance(doc, list) else {"tools": [doc]} if "toolSpec" in doc else doc
        report = ParamValidator().validate(config, TOOL_CONFIG)
    errors = [f"botocore rejects it: {report.generate_report()}"] if report.has_errors() else []
    for i, tool in enumerate(config.get("tools", []) if isinstance(config, dict) else []):
        spec = tool.get("toolSpec") if isinstance(tool, dict) else None
        if spec is None:
            continue
        if not NAME.match(spec.get("name", "")):
            errors.append(f"tools/{i}: name {spec.get('name')!r} breaks {NAME.pattern}")
        schema = spec.get("inputSchema", {}).get("json", {})
        if not isinstance(schema, dict) or schema.get("type") != "object":
            errors.append(f"tools/{i}: inputSchema.json must be an object schema")
        else:
            errors += schema_errors(schema, f"tools/{i}/toolSpec/inputSchema/json")
    return errors
