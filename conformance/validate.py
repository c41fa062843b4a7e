"""Runs the target platforms' own validators over toolport's outputs.

Reads a JSON list of {"target": ID, "label": LABEL, "path": PATH} on standard input; prints a
JSON list of {"target", "path", "ok", "errors"} on standard output. One module per target in
targets/ (or per target shape with rules of its own, named after its label), each with
`validate(path) -> list[str]` (empty when the platform accepts the output).
"""

import importlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from targets.common import node_prefetch  # noqa: E402


def module_name(item):
    """A target shape with rules of its own has a module named after its label (`openapi
    bedrock-agent`: targets/openapi-bedrock-agent.py); others share the format's."""
    shape = item.get("label", item["target"]).replace(" ", "-")
    return shape if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), "targets", f"{shape}.py")) else item["target"]


def prefetch_node_checks(modules, names, items):
    """Runs each node script the validators call once over all the files it checks (a module's
    `node_checks(path)` names them): one node start instead of one per file."""
    paths = {}
    for name, item in zip(names, items):
        for script, what in getattr(modules[name], "node_checks", lambda _: [])(item["path"]):
            paths.setdefault((script, what), []).append(item["path"])
    for (script, what), files in paths.items():
        node_prefetch(script, files, what)


def main() -> int:
    items = json.load(sys.stdin)
    names = [module_name(item) for item in items]
    modules = {name: importlib.import_module(f"targets.{name}") for name in dict.fromkeys(names)}
    prefetch_node_checks(modules, names, items)
    results = []
    for name, item in zip(names, items):
        target = item["target"]
        started = time.monotonic()
        try:
            errors = modules[name].validate(item["path"])
        except Exception as e:  # a validator's crash is a rejection, with its reason
            errors = [f"validator raised {type(e).__name__}: {e}"]
        results.append({"target": target, "path": item["path"], "ok": not errors, "errors": [str(e)[:2000] for e in errors[:5]], "seconds": round(time.monotonic() - started, 3)})
    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
