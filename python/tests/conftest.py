"""Shared paths for the tests of the installed toolport package (run by `cargo xtask test`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
# Real-world documents, read in place, never copied.
CORPUS = Path(os.environ.get("TOOLPORT_CORPUS", ROOT.parent / "shared" / "corpus"))


def corpus(relative: str) -> Path:
    path = CORPUS / relative
    if not path.exists():
        pytest.skip(f"corpus document {path} is not there")
    return path


def convert_command() -> str:
    """The `convert` the wheel installed into this virtual environment's scripts."""
    exe = shutil.which("convert", path=str(Path(sys.executable).parent))
    assert exe, f"no convert command beside {sys.executable}"
    return exe


def run_convert(*args: str, env: "dict[str, str] | None" = None, cwd: "Path | None" = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [convert_command(), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )


def folder_files(folder: Path) -> "dict[str, str | bytes]":
    """A folder's files as the dict a folder source is: text as str, others as bytes
    (node_modules and dot files left out)."""
    files: "dict[str, str | bytes]" = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and not any(p.startswith(".") or p == "node_modules" for p in relative.parts):
            content = path.read_bytes()
            try:
                files[relative.as_posix()] = content.decode("utf-8")
            except UnicodeDecodeError:
                files[relative.as_posix()] = content
    return files


def tree(folder: Path) -> "dict[str, bytes]":
    """Every file below a folder, relative path -> bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def result_tree(result) -> "dict[str, bytes]":
    """A conversion's files as they are written, relative path -> bytes."""
    return {**{k: v.encode() for k, v in result.files.items()}, **result.binary_files}
