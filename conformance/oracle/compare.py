"""Source and output compared by meaning, and every difference looked up in the run's report.

A difference is (tool, aspect, path, detail). It is *named* when the report has a diagnostic of
warning or error severity whose code belongs to the aspect's families and that points at the
tool (its model path `/tools/N`, N the tool's place in the source, or its name in backquotes in
the message) and, for a parameter, at that parameter (its name in the message, or a path at the
tool's parameters as a whole). A difference no diagnostic names is a silent loss.
"""

import re

from .schema import BOUNDS, loose_name, text

MAP_BACK = re.compile(r"map back: `([^`]*)` -> `([^`]*)`")
TOOL_PATH = re.compile(r"^/tools/(\d+)(/.*)?$")
DEFINITION_PATH = re.compile(r"^/definitions/([^/]+)")

# Which diagnostic families may name a difference of each aspect.
FAMILIES = {
    "tool-missing": ("loss/", "changed/", "input/", "run/"),
    "tool-added": ("generated/", "changed/"),
    "name": ("changed/name",),
    "description-lost": ("loss/", "changed/", "input/"),
    "description-changed": ("changed/", "loss/", "generated/"),
    "description-added": ("generated/",),
    "param-lost": ("loss/", "changed/", "input/"),
    # An argument whose HTTP location a target could not hold comes back in a request body.
    "param-added": ("generated/", "changed/", "loss/http"),
    "param-changed": ("loss/", "changed/", "input/"),
    "output-lost": ("loss/", "changed/"),
    "output-changed": ("loss/", "changed/"),
    "examples-lost": ("loss/examples", "changed/", "input/"),
    "examples-added": ("generated/", "changed/"),
}
FACTS = ("type", "nullable", "required", "enum", "default", "format", "closed", "description", "variants") + BOUNDS


def same_text(a, b):
    if a == b:
        return True
    if a and b:
        return a in b or b in a  # a summary joined to a description, a title prefixed
    return False


def hoist_body(params, other):
    """Toolport's model (and so an OpenAPI-sourced tool list) holds a JSON request body as one
    argument `body`; a tool list written to OpenAPI sends all its arguments as the body. When
    only one side holds its arguments under `body`, compare them as the arguments."""
    children = [k[5:] for k in params if k.startswith("body.")]
    theirs = [k[5:] for k in other if k.startswith("body.")]
    # The body's arguments may carry names the target's rules changed (`Review Text` sent as
    # `Review_Text`, a `changed/name`): they are still the arguments, compared name by name.
    loose_other = {loose_name(k) for k in other}
    if children and not theirs and any(c in other or loose_name(c) in loose_other for c in children):
        out = {k: v for k, v in params.items() if k != "body" and not k.startswith("body.") and not k.startswith("body|")}
        for key, facts in params.items():
            if key.startswith("body."):
                out[key[5:]] = facts
        return out
    return params


def params_differences(src, out, src_tool, out_tool, holds_required, partial_source=False):
    differences = []
    src = hoist_body(src, out)
    out = hoist_body(out, src)
    truncated = src_tool["truncated"] or out_tool["truncated"]
    for path, facts in src.items():
        if path not in out:
            if truncated or any(path.startswith(p) and (src[p].get("recursive")) for p in src if p != path):
                continue
            differences.append(("param-lost", path, f"`{path}` is in the source, not in the output", facts.get("via")))
            continue
        theirs = out[path]
        for fact in FACTS:
            a, b = facts.get(fact), theirs.get(fact)
            if partial_source and a is None and fact in ("default", "description"):
                continue
            if fact == "required" and (a is None or b is None or not holds_required):
                continue
            if fact == "description":
                if not same_text(a, b):
                    differences.append(("param-changed", path, f"description {a!r} -> {b!r}", facts.get("via")))
                continue
            if a != b:
                if fact == "type" and (a is None or b is None) and (facts.get("recursive") or theirs.get("recursive")):
                    continue
                differences.append(("param-changed", path, f"{fact} {a!r} -> {b!r}", facts.get("via")))
    for path in out:
        if path not in src and not truncated:
            differences.append(("param-added", path, f"`{path}` is in the output, not in the source", out[path].get("via")))
    return differences


def output_differences(src, out):
    if not src:
        return []
    if out is None:
        return [("output-lost", "", "the output schema is not in the output", None)]
    def meaning(facts):
        return {k: v for k, v in facts.items() if k != "via"}

    changed = [p for p in src if p not in out or meaning(src[p]) != meaning(out[p])]
    # One difference per named schema the changed paths are inside (a writer says what it
    # changes in a shared schema once, at the definition), and one for the rest.
    by_via = {}
    for p in changed:
        by_via.setdefault(src[p].get("via"), []).append(p)
    return [("output-changed", paths[0], f"{len(paths)} paths of the output schema differ, first `{paths[0]}`", via)
            for via, paths in by_via.items()]


def match_tools(source, output, diagnostics):
    """Pairs source tools with output tools: same name, the report's map back, or the same
    letters and digits. Returns ({source index: output index}, how each was matched)."""
    map_back = {}
    for d in diagnostics:
        for written, original in MAP_BACK.findall(d.get("message", "")):
            map_back[original] = written
    by_name = {}
    for i, t in enumerate(output.tools):
        by_name.setdefault(t["name"], i)
    loose = {}
    for i, t in enumerate(output.tools):
        loose.setdefault(loose_name(t["name"]), i)
        if t.get("title"):
            loose.setdefault(loose_name(t["title"]), i)
    pairs, how, taken = {}, {}, set()
    for i, t in enumerate(source.tools):
        for kind, j in (("same", by_name.get(t["name"])), ("map-back", by_name.get(map_back.get(t["name"]))),
                        ("loose", loose.get(loose_name(t["name"]))),
                        ("title", loose.get(loose_name(t.get("title"))) if t.get("title") else None)):
            if j is not None and j not in taken:
                pairs[i], how[i] = j, kind
                taken.add(j)
                break
    return pairs, how


def differences(source, output, diagnostics):
    """Every difference of meaning between two documents, as (tool index in source or None,
    tool name, aspect, path, detail, the named schema the path is inside or None)."""
    found = []
    pairs, how = match_tools(source, output, diagnostics)
    for i, t in enumerate(source.tools):
        if i not in pairs:
            found.append((i, t["name"], "tool-missing", "", "not in the output", None))
            continue
        o = output.tools[pairs[i]]
        if how[i] in ("loose", "title") and not (source.names_are_titles or output.names_are_titles):
            found.append((i, t["name"], "name", "", f"written as `{o['name']}` with no map back", None))
        a, b = t["description"], o["description"]
        # A tool without a description written with its title (an OpenAPI summary, a display
        # title) as one carries the source's own words: nothing is lost or made up. So does one
        # written with its own name: a format that names tools by title (SkyDeck's prompt_name)
        # gives the name back as a title, which OpenAPI writes as the summary.
        if a is None and b is not None and (same_text(text(t.get("title")), b) or b == t["name"]):
            a = b
        if not same_text(a, b):
            aspect = "description-lost" if b is None else "description-added" if a is None else "description-changed"
            found.append((i, t["name"], aspect, "", f"{a!r:.80} -> {b!r:.80}", None))
        if not t.get("params_unknown") and not o.get("params_unknown"):
            for aspect, path, detail, via in params_differences(t["params"], o["params"], t, o, source.holds_required and output.holds_required, source.schema_is_partial):
                found.append((i, t["name"], aspect, path, detail, via))
        if output.holds_output:
            for aspect, path, detail, via in output_differences(t["output"], o["output"]):
                found.append((i, t["name"], aspect, path, detail, via))
        elif t["output"]:
            found.append((i, t["name"], "output-lost", "", f"{output.format} has no place for an output schema", None))
        se, oe = t["examples"] or 0, o["examples"]
        if output.holds_examples and source.holds_examples:
            if oe is not None and oe < se:
                found.append((i, t["name"], "examples-lost", "", f"{se} examples -> {oe}", None))
            elif oe is not None and oe > se:
                found.append((i, t["name"], "examples-added", "", f"{se} examples -> {oe}", None))
        elif se and not output.holds_examples:
            found.append((i, t["name"], "examples-lost", "", f"{se} examples; {output.format} has no place for them", None))
    taken = set(pairs.values())
    for j, o in enumerate(output.tools):
        if j not in taken:
            found.append((None, o["name"], "tool-added", "", "not in the source", None))
    return found


BACKQUOTED = re.compile(r"`([^`]*)`")


class Diagnostics:
    """A report's diagnostics of warning or error severity, indexed by the tool they point at:
    its model path `/tools/N`, or a name in backquotes in the message."""

    def __init__(self, diagnostics):
        self.by_index = {}
        self.by_name = {}
        # The model keeps a tool set's examples beside its tools (`/examples`), each naming the
        # tool it selects: their loss is reported once for the set.
        self.document_examples = []
        # What a writer changes in a shared schema it reports once, at `/definitions/NAME`.
        self.by_definition = {}
        for d in diagnostics:
            if d.get("severity") not in ("warning", "error"):
                continue
            m = TOOL_PATH.match(d.get("path", ""))
            entry = (d.get("code", ""), d.get("message", ""), (m.group(2) or "") if m else None)
            definition = DEFINITION_PATH.match(d.get("path", ""))
            if definition:
                self.by_definition.setdefault(definition.group(1), []).append(entry)
            if d.get("path", "").startswith("/examples"):
                self.document_examples.append(entry)
            if m:
                self.by_index.setdefault(int(m.group(1)), []).append(entry)
            for name in set(BACKQUOTED.findall(entry[1])):
                self.by_name.setdefault(name, []).append(entry)

    def about(self, tool_name, tool_index):
        seen = set()
        for entry in self.by_index.get(tool_index, []) + self.by_name.get(tool_name, []):
            if id(entry) not in seen:
                seen.add(id(entry))
                yield entry


def names_param(entry, param):
    """Whether a diagnostic about the tool points at this parameter, or at the tool's
    parameters, input schema or HTTP binding as a whole."""
    _, message, rest = entry
    top = re.split(r"[.\[{|]", param, maxsplit=1)[0]
    parts = [p for p in re.split(r"[.\[\]{}|]+", param) if p]
    leaf = parts[-1] if parts else top
    if f"`{top}`" in message or f"`{leaf}`" in message or f"`{param}`" in message:
        return True
    rest = rest or ""
    segments = rest.split("/")
    if top in segments or leaf in segments:
        return True
    return rest in ("", "/parameters", "/input", "/http") or rest.startswith(("/extras", "/http"))


def explained(difference, diagnostics):
    """Whether a diagnostic of the aspect's families names this difference."""
    index, name, aspect, path, _, via = difference
    families = FAMILIES[aspect]
    param = path if aspect.startswith("param") else None
    about = list(diagnostics.about(name, index))
    if aspect.startswith("examples"):
        about += diagnostics.document_examples
    shared = diagnostics.by_definition.get(via, []) if via else []
    for entry in about + shared:
        code = entry[0]
        if not any(code == f or (f.endswith("/") and code.startswith(f)) for f in families):
            continue
        if param is None or entry in shared or names_param(entry, param):
            return True
    return False
