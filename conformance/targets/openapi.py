"""OpenAPI: openapi-spec-validator, reading the document as a YAML 1.1 reader does."""

from openapi_spec_validator import validate as validate_spec

from .common import load


def spec_errors(spec, where="spec"):
    try:
        validate_spec(spec)
        return []
    except Exception as e:
        return [f"{where}: openapi-spec-validator rejects it: {getattr(e, 'message', e)}"]


def validate(path):
    return spec_errors(load(path))
