"""The fidelity oracle (see oracle/): checks that a conversion lost nothing without a word.

Reads a JSON list on standard input, one item per conversion:
  {"pair": LABEL, "from": FORMAT, "source": PATH, "to": FORMAT, "output": PATH,
   "reports": [REPORT.json, ...]}
(a round trip names its original source and format, its final output, and the reports of both
legs). Prints a JSON list, one result per item:
  {"pair", "source", "tools", "differences", "named", "silent": [text, ...], "error"?}
"""

import functools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from oracle.compare import Diagnostics, differences, explained  # noqa: E402
from oracle.readers import prefetch_raycast, read  # noqa: E402


def diagnostics_of(reports):
    found = []
    for path in reports:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        for item in report.get("inputs", []):
            found += item.get("diagnostics", [])
    return found


@functools.lru_cache(maxsize=64)
def read_source(fmt, path):
    """A source, read once for all the pairs it is converted in."""
    return read(fmt, path)


def check(item):
    result = {"pair": item["pair"], "source": item["source"], "tools": 0, "differences": 0, "named": 0, "silent": []}
    try:
        source = read_source(item["from"], item["source"])
    except Exception as e:  # the oracle cannot read every tolerated defect (a missing comma)
        result["unreadable"] = f"source: {type(e).__name__}: {e}"[:500]
        return result
    output = read(item["to"], item["output"])
    diagnostics = diagnostics_of(item["reports"])
    result["tools"] = len(source.tools)
    indexed = Diagnostics(diagnostics)
    for difference in differences(source, output, diagnostics):
        result["differences"] += 1
        if explained(difference, indexed):
            result["named"] += 1
        else:
            _, name, aspect, path, detail, _ = difference
            result["silent"].append(f"{name}: {aspect}{' at ' + path if path else ''}: {detail}")
    return result


def main():
    items = json.load(sys.stdin)
    prefetch_raycast([i["source"] for i in items if i["from"] == "raycast"] + [i["output"] for i in items if i["to"] == "raycast"])
    results = []
    for item in items:
        try:
            results.append(check(item))
        except Exception as e:
            results.append({"pair": item["pair"], "source": item["source"], "tools": 0, "differences": 0,
                            "named": 0, "silent": [], "error": f"{type(e).__name__}: {e}"[:2000]})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
