"""MCP prompts: the official Python SDK's prompts/list result type (`mcp.types.ListPromptsResult`),
and each template toolport keeps in a prompt's `_meta` as the `prompts/get` result a server
answers with (`mcp.types.GetPromptResult`), whose `{{placeholders}}` must name the prompt's
arguments."""

import re

import mcp.types

from .common import load

MESSAGES_META = "dev.toolporter/messages"
# toolport's placeholder rule (crates/core/src/template.rs): `{{ name }}`, the name trimmed,
# not empty, without braces or line breaks.
PLACEHOLDER = re.compile(r"\{\{[ \t]*([^{}\s](?:[^{}\r\n]*?[^{}\s])?)[ \t]*\}\}")


def validate(path):
    doc = load(path)
    if isinstance(doc, dict) and "jsonrpc" in doc:
        doc = doc.get("result")
    errors = []
    try:
        mcp.types.ListPromptsResult.model_validate(doc)
    except Exception as e:
        return [f"mcp.types.ListPromptsResult rejects it: {e}"]
    for i, prompt in enumerate(doc["prompts"]):
        messages = (prompt.get("_meta") or {}).get(MESSAGES_META)
        if messages is None:
            continue
        try:
            mcp.types.GetPromptResult.model_validate({"messages": messages})
        except Exception as e:
            errors.append(f"prompts/{i}: its template is not a prompts/get result: {e}")
            continue
        names = {a.get("name") for a in prompt.get("arguments") or []}
        for message in messages:
            text = (message.get("content") or {}).get("text") or ""
            for found in PLACEHOLDER.findall(text):
                if found not in names:
                    errors.append(f"prompts/{i}: the template's {{{{{found}}}}} is not an argument of the prompt")
    return errors
