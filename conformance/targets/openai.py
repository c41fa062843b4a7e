"""OpenAI: the SDK's function tool types (chat completions and Responses forms), and for tools
marked `strict`, the documented strict-mode rules (Structured Outputs' supported subset)."""

import re

import pydantic
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam, ToolParam

from .common import load, schema_errors, tools_of, walk

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
CHAT = pydantic.TypeAdapter(ChatCompletionFunctionToolParam)
RESPONSES = pydantic.TypeAdapter(FunctionToolParam)
BUILT_IN = pydantic.TypeAdapter(ToolParam)

# The keywords strict mode supports; anything else is refused.
STRICT_KEYWORDS = {
    "type", "description", "title", "properties", "required", "additionalProperties", "items",
    "enum", "const", "anyOf", "$defs", "definitions", "$ref", "pattern", "format", "multipleOf",
    "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems",
}
STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}


def strict_errors(schema, where):
    errors = []
    if schema.get("type") != "object" or "anyOf" in schema:
        errors.append(f"{where}: the root must be an object, not anyOf")
    for path, sub in walk(schema):
        here = f"{where}{path[1:]}"
        for key in sub:
            if key not in STRICT_KEYWORDS:
                errors.append(f"{here}: `{key}` is not supported in strict mode")
        if "$ref" in sub and len(sub) > 1:
            errors.append(f"{here}: $ref may not have sibling keywords in strict mode ({sorted(k for k in sub if k != '$ref')})")
        if sub.get("format") is not None and sub["format"] not in STRICT_FORMATS:
            errors.append(f"{here}: format {sub['format']!r} is not supported in strict mode")
        types = sub.get("type")
        is_object = types == "object" or (isinstance(types, list) and "object" in types)
        if is_object or "properties" in sub:
            if sub.get("additionalProperties") is not False:
                errors.append(f"{here}: objects need additionalProperties: false in strict mode")
            props = set((sub.get("properties") or {}).keys())
            if props != set(sub.get("required") or []):
                errors.append(f"{here}: every property must be required in strict mode (missing {sorted(props - set(sub.get('required') or []))})")
    return errors


def validate(path):
    errors = []
    for i, tool in enumerate(tools_of(load(path))):
        if tool.get("type") not in (None, "function"):
            # A Responses built-in tool (web search and the like), kept as written.
            try:
                BUILT_IN.validate_python(tool, strict=False)
            except Exception as e:
                errors.append(f"tools/{i}: the openai SDK's Responses tool type rejects it: {e}")
            continue
        function = tool.get("function") if "function" in tool else tool
        try:
            (CHAT if "function" in tool else RESPONSES).validate_python(tool, strict=False)
        except Exception as e:
            errors.append(f"tools/{i}: the openai SDK's tool type rejects it: {e}")
            continue
        if tool.get("type") != "function":
            errors.append(f"tools/{i}: type must be function")
        if not NAME.match(function.get("name", "")):
            errors.append(f"tools/{i}: name {function.get('name')!r} breaks {NAME.pattern}")
        parameters = function.get("parameters")
        if parameters is not None:
            errors += schema_errors(parameters, f"tools/{i}/parameters")
            if function.get("strict") is True:
                errors += strict_errors(parameters, f"tools/{i}/parameters")
    return errors
