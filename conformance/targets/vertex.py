"""Vertex AI: the aiplatform v1beta1 Extension message (an import body is one), its required
fields, and openapi-spec-validator on the spec inside."""

import json

from google.cloud.aiplatform_v1beta1.types import Extension

from .common import load, yaml_load
from .openapi import spec_errors

# Extension resource fields that are output-only or set by the service; an import body may
# carry them back (toolport keeps them on round trips), and the message accepts them.
REQUIRED = [("displayName",), ("manifest", "name"), ("manifest", "description"), ("manifest", "apiSpec")]


def validate(path):
    body = load(path)
    errors = []
    try:
        Extension.from_json(json.dumps(body), ignore_unknown_fields=False)
    except Exception as e:
        errors.append(f"aiplatform_v1beta1.Extension rejects it: {e}")
    for keys in REQUIRED:
        value = body
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        if value in (None, "", {}):
            errors.append(f"{'.'.join(keys)} is required and missing or empty")
    for i, example in enumerate(body.get("toolUseExamples") or []):
        for key in ("displayName", "query"):
            if not example.get(key):
                errors.append(f"toolUseExamples/{i}/{key} is empty")
    inline = ((body.get("manifest") or {}).get("apiSpec") or {}).get("openApiYaml")
    if inline is not None:
        spec = yaml_load(inline)
        errors += spec_errors(spec, "manifest.apiSpec.openApiYaml")
        operations = {
            op.get("operationId")
            for item in (spec.get("paths") or {}).values()
            if isinstance(item, dict)
            for op in item.values()
            if isinstance(op, dict)
        }
        for i, example in enumerate(body.get("toolUseExamples") or []):
            op = ((example.get("extensionOperation") or {}).get("operationId"))
            if op is not None and op not in operations:
                errors.append(f"toolUseExamples/{i} names operation {op!r}, which the spec does not have")
    return errors
