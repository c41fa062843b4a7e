"""JSON Schema (and OpenAPI's and Gemini's dialects of it) flattened into facts per path.

A schema becomes `{path: facts}`: the root's properties are `name`, nested ones `name.child`,
array items `name[]`, map values `name{}`, the branches of a union of objects `name|0`. Each
path's facts are what a model calling the tool relies on: the types, whether it may be null,
whether it is required, the enum, the default, the format, the bounds, the description.
References are followed (cycles stop at the first repeat, marked `recursive`); `allOf` is
merged; a union of plain types is one type list. Written for the oracle without looking at
toolport's readers: it knows JSON Schema, not toolport's model.
"""

import json
import re

BOUNDS = (
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
    "minProperties", "maxProperties",
)
# How many paths one tool's schema may produce before the walk stops (marked `truncated`):
# the largest APIs expand shared schemas into far more than a model is ever shown.
MAX_PATHS = 400
# The key a union branch that was a named schema carries its name under (never a schema keyword).
VIA = "x-oracle-via"
MAX_DEPTH = 12


def text(value):
    """A description as meaning: white space folded, None for absent or empty."""
    if not isinstance(value, str):
        return None
    folded = " ".join(value.split())
    return folded or None


def dumps(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


class Resolver:
    """Local `$ref`s of one document: `#/a/b/c` pointers."""

    def __init__(self, document):
        self.document = document

    def __call__(self, ref):
        if not isinstance(ref, str) or not ref.startswith("#"):
            return None
        node = self.document
        for part in ref[1:].split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return None
        return node


def _types(schema):
    raw = schema.get("type")
    if raw is None:
        return set()
    values = raw if isinstance(raw, list) else [raw]
    return {str(v).lower() for v in values}


class Flattener:
    def __init__(self, resolve):
        self.resolve = resolve
        self.truncated = False

    def flatten(self, schema):
        """The root object's properties flattened (the root itself under the path '')."""
        out = {}
        self._walk(schema, "", True, (), out, 0, None)
        return out

    def _deref(self, schema, seen):
        """Follows `$ref` chains and merges `allOf`; returns (schema, seen, recursive)."""
        recursive = False
        for _ in range(64):
            if not isinstance(schema, dict):
                return schema, seen, recursive
            ref = schema.get("$ref")
            if ref is None:
                break
            if ref in seen:
                recursive = True
                rest = {k: v for k, v in schema.items() if k != "$ref"}
                return rest, seen, recursive
            target = self.resolve(ref)
            seen = seen + (ref,)
            if not isinstance(target, dict):
                rest = {k: v for k, v in schema.items() if k != "$ref"}
                rest["x-oracle-unresolved"] = ref
                return rest, seen, recursive
            siblings = {k: v for k, v in schema.items() if k not in ("$ref", "$defs", "definitions")}
            schema = {**target, **siblings}
        if isinstance(schema.get("allOf"), list):
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                part, seen, rec = self._deref(part, seen)
                recursive = recursive or rec
                if not isinstance(part, dict):
                    continue
                for key, value in part.items():
                    if key == "properties" and isinstance(value, dict):
                        merged["properties"] = {**value, **merged.get("properties", {})}
                    elif key == "required" and isinstance(value, list):
                        merged["required"] = list(dict.fromkeys(list(merged.get("required", [])) + value))
                    elif key == "type" and "type" in merged:
                        both = _types(merged) & _types(part)
                        merged["type"] = sorted(both) if both else merged["type"]
                    else:
                        merged.setdefault(key, value)
            schema = merged
        return schema, seen, recursive

    def _union(self, schema, seen):
        """A union (anyOf/oneOf, or Gemini's anyOf) split into its null part and the rest."""
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                resolved = []
                nullable = False
                for branch in branches:
                    branch, followed, _ = self._deref(branch, seen)
                    if not isinstance(branch, dict):
                        continue
                    if _types(branch) == {"null"} and len(branch) <= 2:
                        nullable = True
                        continue
                    if len(followed) > len(seen):
                        # A branch that is a named schema: its paths are inside that schema
                        # (`via`), where a writer reports what it changes in it.
                        branch = {**branch, VIA: followed[-1].rsplit("/", 1)[-1]}
                    resolved.append(branch)
                return resolved, nullable
        return None, False

    def _walk(self, schema, path, required, seen, out, depth, via):
        if len(out) >= MAX_PATHS or depth > MAX_DEPTH:
            self.truncated = True
            return
        before = len(seen)
        schema, seen, recursive = self._deref(schema, seen)
        if len(seen) > before:
            # The named schema this path is inside: a writer reports what it changes in a
            # shared schema once, at the definition.
            via = seen[-1].rsplit("/", 1)[-1]
        if schema is True or schema is None:
            schema = {}
        if not isinstance(schema, dict):
            return
        facts = {}
        types = _types(schema)
        nullable = "null" in types or schema.get("nullable") is True
        types.discard("null")
        branches, null_branch = self._union(schema, seen)
        nullable = nullable or null_branch
        if branches is not None:
            plain = all(not (b.get("properties") or b.get("items") or b.get("anyOf") or b.get("oneOf")) for b in branches)
            if len(branches) == 1 or plain:
                if len(branches) == 1:
                    inner = dict(branches[0])
                    for key, value in schema.items():
                        if key not in ("anyOf", "oneOf") and key not in inner:
                            inner[key] = value
                    if nullable:
                        inner["nullable"] = True
                    return self._walk(inner, path, required, seen, out, depth, via)
                for branch in branches:
                    types |= _types(branch) - {"null"}
                    if "enum" in branch:
                        schema = {**schema, "enum": list(schema.get("enum", [])) + list(branch["enum"])}
            else:
                facts["variants"] = len(branches)
                for i, branch in enumerate(branches):
                    self._walk(branch, f"{path}|{i}", True, seen, out, depth + 1, branch.get(VIA, via))
        if "const" in schema:
            schema = {**schema, "enum": [schema["const"]]}
        facts["type"] = sorted(types) if types else None
        facts["nullable"] = bool(nullable)
        facts["required"] = bool(required)
        if isinstance(schema.get("enum"), list):
            values = {dumps(v) for v in schema["enum"] if v is not None}
            facts["enum"] = sorted(values)
            if any(v is None for v in schema["enum"]):
                facts["nullable"] = True
        if "default" in schema:
            facts["default"] = dumps(schema["default"])
        if isinstance(schema.get("format"), str):
            facts["format"] = schema["format"]
        # OpenAPI 3.0 writes an exclusive bound as a boolean beside the bound itself.
        for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
            if schema.get(exclusive) is True and bound in schema:
                schema = {**schema, exclusive: schema[bound]}
                schema.pop(bound)
        for key in BOUNDS:
            if key in schema and schema[key] is not None and schema[key] is not False:
                value = schema[key]
                facts[key] = dumps(value)
        if schema.get("additionalProperties") is False:
            facts["closed"] = True
        description = text(schema.get("description"))
        if description:
            facts["description"] = description
        if recursive:
            facts["recursive"] = True
        if via:
            facts["via"] = via
        if path:
            out[path] = facts
        else:
            out[""] = facts
        properties = schema.get("properties")
        if isinstance(properties, dict):
            needed = schema.get("required")
            needed = {n for n in needed if isinstance(n, str)} if isinstance(needed, list) else set()
            for name, sub in properties.items():
                child = f"{path}.{name}" if path else name
                self._walk(sub, child, name in needed, seen, out, depth + 1, via)
        items = schema.get("items")
        if isinstance(items, dict):
            self._walk(items, f"{path}[]", True, seen, out, depth + 1, via)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            self._walk(extra, f"{path}{{}}", True, seen, out, depth + 1, via)


def flatten(schema, resolve):
    """(facts by path, truncated)."""
    flattener = Flattener(resolve)
    out = flattener.flatten(schema if schema is not None else {})
    return out, flattener.truncated


SAFE_NAME = re.compile(r"[^A-Za-z0-9]+")


def loose_name(name):
    """A name with everything but letters and digits dropped, lower case: how two names that a
    target's rules rewrote are matched when no map back names them."""
    return SAFE_NAME.sub("", name or "").lower()
