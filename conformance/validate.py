"""Runs the target platforms' own validators over toolport's outputs.

Reads a JSON list of {"target": ID, "path": PATH} on standard input; prints a JSON list of
{"target", "path", "ok", "errors"} on standard output. One module per target in targets/,
each with `validate(path) -> list[str]` (empty when the platform accepts the output).
"""

import importlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    items = json.load(sys.stdin)
    modules = {}
    results = []
    for item in items:
        target = item["target"]
        if target not in modules:
            modules[target] = importlib.import_module(f"targets.{target}")
        started = time.monotonic()
        try:
            errors = modules[target].validate(item["path"])
        except Exception as e:  # a validator's crash is a rejection, with its reason
            errors = [f"validator raised {type(e).__name__}: {e}"]
        results.append({"target": target, "path": item["path"], "ok": not errors, "errors": [str(e)[:2000] for e in errors[:5]], "seconds": round(time.monotonic() - started, 3)})
    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
