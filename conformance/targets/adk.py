"""Google ADK: the written agent folder imported as ADK's loader imports it (the package, then
its agent module), its `root_agent` checked to be an ADK agent, and its OpenAPIToolset's tools
built (`await toolset.get_tools()`) with each one's function declaration, all with the network
closed: building a toolset from its spec calls nothing. Each operation of the spec beside it
must have become one tool. The spec (the openapi writer's output, as 3.1.0: ADK reads 3.1's
schemas) must pass openapi-spec-validator too."""

import asyncio
import importlib.util
import itertools
import os
import socket
import sys

from google.adk.agents import LlmAgent
from google.adk.tools.openapi_tool import OpenAPIToolset

from .common import load
from .openapi import spec_errors

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_unique = itertools.count()


class NetworkClosed(Exception):
    pass


def closed(*args, **kwargs):
    raise NetworkClosed("the agent tried to reach the network while it was imported or built")


def import_package(folder):
    """The package at `folder` under a name of its own (outputs share folder names)."""
    name = f"adk_output_{next(_unique)}"
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(folder, "__init__.py"), submodule_search_locations=[folder]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def validate(path):
    spec_path = os.path.join(path, "openapi.json")
    spec = load(spec_path)
    errors = spec_errors(spec, "openapi.json")
    operations = sum(1 for item in (spec.get("paths") or {}).values() for m in item if m in METHODS)
    saved = (socket.socket.connect, socket.create_connection, socket.getaddrinfo)
    socket.socket.connect, socket.create_connection, socket.getaddrinfo = closed, closed, closed
    try:
        package = import_package(path)
        agent = package.agent.root_agent
        if not isinstance(agent, LlmAgent):
            return errors + [f"root_agent is a {type(agent).__name__}, not an ADK LlmAgent"]
        toolsets = [t for t in agent.tools if isinstance(t, OpenAPIToolset)]
        if len(toolsets) != 1:
            return errors + [f"root_agent has {len(toolsets)} OpenAPIToolsets, expected 1"]
        tools = asyncio.run(toolsets[0].get_tools())
        for tool in tools:
            tool._get_declaration()
    finally:
        socket.socket.connect, socket.create_connection, socket.getaddrinfo = saved
    if len(tools) != operations:
        errors.append(f"ADK built {len(tools)} tools from {operations} operations")
    return errors
