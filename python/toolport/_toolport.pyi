# Types of the extension module built from crates/python (the untyped layer under toolport/__init__.py).
from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

_Path = Union[str, PathLike[str]]

MODEL_SCHEMA_MAJOR: int
MODEL_SCHEMA_MINOR: int

def convert(
    to: str,
    *,
    path: Optional[_Path] = None,
    data: Optional[bytes] = None,
    document: Any = None,
    files: Optional[Dict[str, str]] = None,
    binary_files: Dict[str, bytes] = ...,
    from_: Optional[str] = None,
    options: List[Tuple[str, str]] = ...,
    strict: str = "off",
    plugin_dirs: Sequence[_Path] = ...,
    plugin_host: Optional[_Path] = None,
    isolate: str = "auto",
    select: List[str] = ...,
    exclude: List[str] = ...,
    overlay: Optional[_Path] = None,
    names_map: bool = False,
    split: Optional[str] = None,
) -> Tuple[
    str, Optional[str], List[Tuple[str, str]], List[Tuple[str, bytes]], str, Optional[str], Optional[str]
]: ...
def inspect(
    *,
    path: Optional[_Path] = None,
    data: Optional[bytes] = None,
    document: Any = None,
    files: Optional[Dict[str, str]] = None,
    binary_files: Dict[str, bytes] = ...,
    from_: Optional[str] = None,
    options: List[Tuple[str, str]] = ...,
    plugin_dirs: Sequence[_Path] = ...,
    plugin_host: Optional[_Path] = None,
    isolate: str = "auto",
) -> Tuple[str, Optional[str], Optional[str], str, Optional[str]]: ...
def formats(*, plugin_dirs: Sequence[_Path] = ..., plugin_host: Optional[_Path] = None, isolate: str = "auto") -> str: ...
def write(
    dir: _Path,
    files: List[Tuple[str, str]],
    binary_files: List[Tuple[str, bytes]] = ...,
    *,
    inputs: Sequence[_Path] = ..., force: bool = False
) -> Tuple[List[str], List[str]]: ...
