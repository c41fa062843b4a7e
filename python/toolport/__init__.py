"""toolport moves LLM tool definitions between formats through one canonical model.

    import toolport
    result = toolport.convert(Path("tools.mcp.json"), to="openai")
    print(result.status, [str(d) for d in result.diagnostics])
    result.write("out/")

Every built-in format is linked into the extension module (``toolport._toolport``, built from
crates/python); third-party plugins are found where the ``convert`` command looks for them
(``plugin_dirs``, ``TOOLPORT_PLUGIN_PATH``, the user data directory) and run in their own
process through the ``toolport-plugin-host`` shipped with this package.

Sources: ``str`` is the text of one document, ``bytes`` its encoded text, a ``pathlib.Path``
(any ``os.PathLike``) a file or folder read by the command line's own loader (same limits and
errors), a ``list`` (or a ``dict`` holding anything but text: ``{"tools": [...]}``) one
document as Python objects, ``Document(obj)`` any object as one document, and a ``dict`` of
relative path -> text the files of a folder format such as a Raycast extension. Python objects
are read in Rust, not through the json module; :meth:`Result.json` gives the output back as
objects. Nothing is written unless :meth:`Result.write` is called.

    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {...}}}]
    anthropic_tools = toolport.convert(tools, to="anthropic").json()

"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, NoReturn, Optional, Sequence, Tuple, Union

from . import _toolport

__all__ = [
    "ConversionError",
    "Diagnostic",
    "Document",
    "Format",
    "InputError",
    "LossError",
    "OutputError",
    "Result",
    "Source",
    "ToolportError",
    "UsageError",
    "convert",
    "formats",
    "inspect",
]

__version__ = "0.1.0"

@dataclass(frozen=True)
class Document:
    """One document given as Python objects (dicts with str keys, lists, str, int, float, bool,
    None), whatever its shape: needed only for a dict whose values are all text, which would
    otherwise be read as a folder's files."""

    value: Any


#: One input: the text of a document, its bytes, a path to a file or folder, a document as
#: Python objects (a list, a dict holding more than text, or any ``Document``), or a folder's
#: files as a mapping of relative path to text (or bytes: files that are not UTF-8 text are
#: present but not read, as when the folder is read from disk).
Source = Union[str, bytes, "os.PathLike[str]", List[Any], Document, Mapping[str, Any]]

#: An option's value; booleans become ``true``/``false`` as on the command line.
OptionValue = Union[str, bool, int, float]

_BIN = Path(__file__).resolve().parent / "_bin"
_EXE = ".exe" if os.name == "nt" else ""
_HOST = _BIN / f"toolport-plugin-host{_EXE}"
#: The plugin host isolated third-party plugins run in; None in a build without binaries.
PLUGIN_HOST: Optional[Path] = _HOST if _HOST.is_file() else None


@dataclass(frozen=True)
class Diagnostic:
    """One thing a conversion says about its input or output (codes are stable and documented)."""

    code: str
    severity: str
    """``error``, ``warning`` or ``info``."""
    path: str
    """A JSON pointer into the model (losses, changes) or the source document (input problems)."""
    message: str
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None

    @classmethod
    def _from_json(cls, d: Dict[str, Any]) -> "Diagnostic":
        span = d.get("span") or {}
        return cls(
            code=d["code"],
            severity=d["severity"],
            path=d.get("path", ""),
            message=d["message"],
            file=span.get("file"),
            line=span.get("line"),
            column=span.get("column"),
        )

    @property
    def is_loss(self) -> bool:
        return self.code.startswith("loss/")

    def __str__(self) -> str:
        place = f"{self.file}:{self.line}:{self.column}: " if self.file and self.line else ""
        at = f" (at {self.path})" if self.path else ""
        return f"{place}{self.severity}[{self.code}]: {self.message}{at}"


class ToolportError(Exception):
    """Any failure of toolport; ``diagnostics`` says what went wrong, located where possible."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics: List[Diagnostic] = list(diagnostics)


class UsageError(ToolportError, ValueError):
    """A wrong argument: an unknown format, a format that cannot read or write, a bad option."""


class InputError(ToolportError):
    """The input is malformed or unrecognised; ``line`` and ``column`` locate the first error."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message, diagnostics)
        located = next((d for d in self.diagnostics if d.severity == "error" and d.line), None)
        self.file: Optional[str] = located.file if located else None
        self.line: Optional[int] = located.line if located else None
        self.column: Optional[int] = located.column if located else None

    def __str__(self) -> str:
        if self.line is not None:
            return f"{self.file}:{self.line}:{self.column}: {self.message}"
        return self.message


class ConversionError(ToolportError):
    """The input was read but could not be written in the target format (or a plugin failed)."""


class LossError(ToolportError):
    """``strict`` refused what the target cannot hold: ``refused`` lists what it refused (errors,
    as the command line shows them), ``losses`` every loss; the message lists the refused."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        refused = [d for d in diagnostics if d.severity == "error"]
        if refused:
            lines = "".join(f"\n  {d}" for d in refused)
            message = f"strict refuses {len(refused)} diagnostic{'s' if len(refused) != 1 else ''} of this conversion:{lines}"
        super().__init__(message, diagnostics)

    @property
    def refused(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def losses(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.is_loss]


class OutputError(ToolportError, OSError):
    """:meth:`Result.write` refused or failed; nothing of the result was written."""


@dataclass(frozen=True)
class Format:
    """A format toolport can read and/or write."""

    id: str
    aliases: Tuple[str, ...]
    description: str
    version: str
    reads: bool
    writes: bool
    input: str
    """``file``, ``file_with_siblings`` or ``directory``."""
    extensions: Tuple[str, ...]
    options: Optional[Tuple[Dict[str, Any], ...]]
    """The ``options`` keys it takes (key, kind, values, default, help); None if it does not say."""
    plugin: Optional[str]
    """The plugin library it comes from; None for a built-in (linked) format."""


@dataclass
class Result:
    """A finished conversion: the written files (relative path -> text), nothing on disk yet."""

    status: str
    """``converted`` or ``converted_with_losses`` (failures raise)."""
    source_format: str
    target_format: str
    files: Dict[str, str]
    """The written text files, relative path -> text."""
    diagnostics: List[Diagnostic]
    binary_files: Dict[str, bytes] = field(default_factory=dict)
    """The written binary files (a Raycast extension's icon), relative path -> bytes."""
    _inputs: "List[Union[str, os.PathLike[str]]]" = field(default_factory=list, repr=False)
    names_map: Optional[Dict[str, Any]] = None
    """With ``names_map=True``: each written tool's and parameter's source name, HTTP method,
    path, argument locations and pinned arguments (docs/names-map.md; ``{"tools": [...]}``)."""

    @property
    def losses(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.is_loss]

    @property
    def text(self) -> str:
        """The one file's text, for targets that write one document."""
        if len(self.files) != 1:
            raise ValueError(f"{self.target_format} wrote {len(self.files)} files; use .files")
        return next(iter(self.files.values()))

    def json(self) -> Any:
        """The one file as Python objects (dicts and lists), parsed as JSON."""
        return json.loads(self.text)

    def write(self, directory: "Union[str, os.PathLike[str]]", force: bool = False) -> List[Path]:
        """Writes the files below ``directory`` as ``convert -o DIR`` does: no path leaves it,
        no link is written through, the input is never overwritten, an existing file only with
        ``force``; every file is staged and renamed into place, all or none. Returns the paths."""
        placed, problems = _toolport.write(
            os.fspath(directory),
            sorted(self.files.items()),
            sorted(self.binary_files.items()),
            inputs=self._inputs,
            force=force,
        )
        if problems:
            raise OutputError(_api_words("; ".join(problems)))
        return [Path(p) for p in placed]


def _source(source: Source) -> Dict[str, Any]:
    if isinstance(source, str):
        return {"data": source.encode("utf-8", "surrogatepass")}
    if isinstance(source, (bytes, bytearray, memoryview)):
        return {"data": bytes(source)}
    if isinstance(source, os.PathLike):
        return {"path": os.fspath(source)}
    if isinstance(source, Document):
        return {"document": source.value}
    if isinstance(source, (list, tuple)):
        return {"document": source}
    if isinstance(source, Mapping) and not all(isinstance(content, (str, bytes)) for content in source.values()):
        return {"document": source}
    if isinstance(source, Mapping):
        files: Dict[str, str] = {}
        binary_files: Dict[str, bytes] = {}
        for name, content in source.items():
            if not isinstance(name, str) or not isinstance(content, (str, bytes)):
                raise TypeError("a dict source maps relative paths (str) to file contents (str or bytes)")
            if isinstance(content, bytes):
                try:
                    content = content.decode("utf-8")
                except UnicodeDecodeError:
                    binary_files[name] = content
                    continue
            files[name] = content
        return {"files": files, "binary_files": binary_files}
    raise TypeError(
        f"a source is str (text), bytes, a path, a document as lists and dicts, or a dict of files, not {type(source).__name__}"
    )


def _options(options: Optional[Mapping[str, OptionValue]]) -> List[Tuple[str, str]]:
    def text(value: OptionValue) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    return [(str(key), text(value)) for key, value in (options or {}).items()]


def _discovery(plugin_dirs: Sequence["Union[str, os.PathLike[str]]"], isolate: str) -> Dict[str, Any]:
    host = os.fspath(PLUGIN_HOST) if PLUGIN_HOST else None
    return {"plugin_dirs": [os.fspath(d) for d in plugin_dirs], "plugin_host": host, "isolate": isolate}


#: The command line's flags in messages shared with it, and what this API calls them.
_API_WORDS = [
    (re.compile(r"use --force\b"), "pass force=True"),
    (re.compile(r"--force\b"), "force=True"),
    (re.compile(r"--from (?!out\b)([A-Za-z0-9_-]+)"), r'from_="\1"'),
    (re.compile(r"--from\b"), "from_"),
    (re.compile(r"--option ([^=\s]+)=([^\s:;,]*)"), r'options={"\1": "\2"}'),
    (re.compile(r"--option\b"), "options"),
    (re.compile(r"--isolate ([a-z]+)"), r'isolate="\1"'),
    (re.compile(r"--plugin-dir\b"), "plugin_dirs"),
    (re.compile(r"--strict\b"), "strict"),
    (re.compile(r"--to\b"), "to"),
]


def _api_words(text: str) -> str:
    """``text`` (a message of the command line's code) with its flags named as this API's
    arguments: ``use --force`` becomes ``pass force=True``, ``--from mcp`` ``from_="mcp"``."""
    for pattern, words in _API_WORDS:
        text = pattern.sub(words, text)
    return text


def _raise(kind: str, message: str, diagnostics: List[Diagnostic]) -> NoReturn:
    message = _api_words(message)
    diagnostics = [dataclasses.replace(d, message=_api_words(d.message)) for d in diagnostics]
    if kind == "usage":
        raise UsageError(message, diagnostics)
    if kind == "input" or any(d.severity == "error" and d.code.startswith("input/") for d in diagnostics):
        raise InputError(message, diagnostics)
    if kind == "loss_refused":
        raise LossError(message, diagnostics)
    raise ConversionError(message, diagnostics)


def convert(
    source: Source,
    from_: Optional[str] = None,
    to: str = "mcp",
    options: Optional[Mapping[str, OptionValue]] = None,
    strict: Union[bool, str] = False,
    *,
    plugin_dirs: Sequence["Union[str, os.PathLike[str]]"] = (),
    isolate: str = "auto",
    select: Sequence[str] = (),
    exclude: Sequence[str] = (),
    overlay: "Optional[Union[str, os.PathLike[str]]]" = None,
    names_map: bool = False,
    split: Optional[str] = None,
) -> Result:
    """Converts one input to format ``to`` (``from_`` is detected when not given).

    Curation, as the command line's flags: ``select`` and ``exclude`` are ``--select`` and
    ``--exclude`` patterns (``"tag:pets"``, ``"method:DELETE"``, ``"list*"``), ``overlay`` the
    path of an overlay file (toolport's, or an OpenAPI Overlay for OpenAPI sources), and
    ``names_map=True`` fills ``Result.names_map`` (the ``tools`` of ``--names-map``'s file).
    ``split`` is ``--split``: ``"by-tag"`` or ``"by-count"`` writes one document per request
    when the target takes fewer tools per request than the input has (``Result.files`` then
    holds each part, ``NAME.PART.ext``).

    Returns the written files and the diagnostics; raises :class:`InputError` for a malformed
    or unrecognised input, :class:`LossError` when ``strict`` and something would be lost,
    :class:`UsageError` for an unknown format or option, :class:`ConversionError` otherwise.
    ``options`` are the command line's ``--option KEY=VALUE`` settings, checked the same way.
    ``strict`` is ``--strict``: ``True`` refuses losses of meaning, ``"all"`` every loss,
    ``"loss/http,loss/*"`` those codes.
    """
    args = _source(source)
    status, found, files, binary_files, diagnostics_json, message, map_json = _toolport.convert(
        to,
        from_=from_,
        options=_options(options),
        strict=("meaning" if strict else "off") if isinstance(strict, bool) else strict,
        select=list(select),
        exclude=list(exclude),
        overlay=None if overlay is None else os.fspath(overlay),
        names_map=names_map,
        split=split,
        **args,
        **_discovery(plugin_dirs, isolate),
    )
    diagnostics = [Diagnostic._from_json(d) for d in json.loads(diagnostics_json)]
    if status not in ("converted", "converted_with_losses") or found is None:
        _raise(status, message or status, diagnostics)
    inputs = [args["path"]] if "path" in args else []
    names = None if map_json is None else json.loads(map_json)
    return Result(status, found, to, dict(files), diagnostics, dict(binary_files), inputs, names_map=names)


def inspect(
    source: Source,
    from_: Optional[str] = None,
    options: Optional[Mapping[str, OptionValue]] = None,
    *,
    plugin_dirs: Sequence["Union[str, os.PathLike[str]]"] = (),
    isolate: str = "auto",
) -> Dict[str, Any]:
    """The canonical model of one input as a dict (``schema_version``, ``schema_minor``,
    ``tool_set``), as ``convert inspect`` prints it. Raises :class:`InputError` if it cannot
    be read."""
    status, _found, model, diagnostics_json, message = _toolport.inspect(
        from_=from_, options=_options(options), **_source(source), **_discovery(plugin_dirs, isolate)
    )
    diagnostics = [Diagnostic._from_json(d) for d in json.loads(diagnostics_json)]
    if model is None:
        _raise("usage" if status == "usage" else "input", message or status, diagnostics)
    parsed: Dict[str, Any] = json.loads(model)
    return parsed


def formats(
    *, plugin_dirs: Sequence["Union[str, os.PathLike[str]]"] = (), isolate: str = "auto"
) -> List[Format]:
    """The formats available: the built-in ones and any third-party plugin found."""
    found = json.loads(_toolport.formats(**_discovery(plugin_dirs, isolate)))
    for problem in found["plugin_errors"] + found["shadowed"]:
        print(f"warning: {problem}", file=sys.stderr)
    return [
        Format(
            id=f["id"],
            aliases=tuple(f.get("aliases", ())),
            description=f.get("description", ""),
            version=f.get("version", ""),
            reads=f["reads"],
            writes=f["writes"],
            input=f["input"],
            extensions=tuple(f.get("extensions", ())),
            options=tuple(f["options"]) if f.get("options") is not None else None,
            plugin=f.get("plugin"),
        )
        for f in found["formats"]
    ]
