"""Gemini: google-genai's Tool type (functionDeclarations with `parameters` or
`parametersJsonSchema`), and the documented function-name rule."""

import re

from google.genai import types

from .common import load, schema_errors

NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$")
PARAMETER = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")


def declarations(doc):
    """The Tool objects of a document: {tools: [Tool]}, {functionDeclarations: [...]}, an
    array of declarations, or one declaration."""
    if isinstance(doc, dict) and "functionDeclarations" in doc:
        return [doc]
    items = doc.get("tools") if isinstance(doc, dict) and isinstance(doc.get("tools"), list) else doc
    if isinstance(items, list):
        if all(isinstance(t, dict) and "name" in t for t in items):
            return [{"functionDeclarations": items}]
        return items
    return [{"functionDeclarations": [doc]}]


def property_names(schema):
    if not isinstance(schema, dict):
        return
    for name, sub in (schema.get("properties") or {}).items():
        yield name
        yield from property_names(sub)
    if isinstance(schema.get("items"), dict):
        yield from property_names(schema["items"])


def validate(path):
    errors = []
    for t, tool in enumerate(declarations(load(path))):
        try:
            types.Tool.model_validate(tool)
        except Exception as e:
            errors.append(f"tools/{t}: google.genai.types.Tool rejects it: {e}")
            continue
        for i, fn in enumerate(tool.get("functionDeclarations") or tool.get("function_declarations") or []):
            if not NAME.match(fn.get("name", "")):
                errors.append(f"functionDeclarations/{i}: name {fn.get('name')!r} breaks {NAME.pattern}")
            schema = fn.get("parametersJsonSchema") or fn.get("parameters")
            if "parametersJsonSchema" in fn:
                errors += schema_errors(fn["parametersJsonSchema"], f"functionDeclarations/{i}/parametersJsonSchema")
            for name in property_names(schema):
                if not PARAMETER.match(name):
                    errors.append(f"functionDeclarations/{i}: parameter name {name!r} breaks {PARAMETER.pattern}")
    return errors
