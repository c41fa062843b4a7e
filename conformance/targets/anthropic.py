"""Anthropic: the SDK's ToolParam type, and the documented name rule."""

import re

import pydantic
from anthropic.types import ToolParam

from .common import load, schema_errors, tools_of

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
ADAPTER = pydantic.TypeAdapter(ToolParam)


def validate(path):
    errors = []
    for i, tool in enumerate(tools_of(load(path))):
        try:
            ADAPTER.validate_python(tool, strict=False)
        except Exception as e:
            errors.append(f"tools/{i}: anthropic.types.ToolParam rejects it: {e}")
            continue
        if not NAME.match(tool.get("name", "")):
            errors.append(f"tools/{i}: name {tool.get('name')!r} breaks {NAME.pattern}")
        schema = tool.get("input_schema", {})
        if schema.get("type") != "object":
            errors.append(f"tools/{i}: input_schema must have type object")
        errors += schema_errors(schema, f"tools/{i}/input_schema")
    return errors
