"""The wheel's build backend: maturin's, after building and staging the command line.

``pip install ./python``, ``pip wheel ./python`` and ``python -m build python`` call this
backend (pyproject.toml: ``backend-path``). Before maturin builds the extension module, it
runs ``cargo xtask wheel-binaries`` in the workspace, which builds ``convert``, the plugin host
and the plugins (nothing else) and stages them in ``toolport/_bin/``, where the wheel's
``convert`` and ``toolporter`` commands find them. A release build unless the config setting
``profile=debug`` is given (``pip wheel -C profile=debug``, what ``cargo xtask test`` does), in
which case the extension module is a debug build too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional

import maturin
from maturin import (  # noqa: F401  (the hooks this backend does not change)
    build_sdist,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_wheel,
)

WORKSPACE = Path(__file__).resolve().parents[2]


def _debug(config_settings: Optional[Mapping[str, Any]]) -> bool:
    profile = (config_settings or {}).get("profile", "release")
    if profile not in ("release", "debug"):
        sys.exit(f"error: config setting profile={profile!r}: expected release or debug")
    return profile == "debug"


def _stage_binaries(debug: bool) -> None:
    if not (WORKSPACE / "xtask").is_dir():
        sys.exit(f"error: {WORKSPACE} is not the toolporter workspace: build the wheel from a clone (pip install ./python)")
    cargo = os.environ.get("CARGO", "cargo")
    command = [cargo, "xtask", "wheel-binaries", *(["--debug"] if debug else [])]
    print("Running `{}`".format(" ".join(command)), flush=True)
    done = subprocess.run(command, cwd=WORKSPACE, stdout=sys.stderr)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed (exit {done.returncode})")


def _maturin_settings(config_settings: Optional[Mapping[str, Any]], debug: bool) -> Dict[str, Any]:
    settings = {k: v for k, v in (config_settings or {}).items() if k != "profile"}
    if debug and "maturin.build-args" not in settings and "build-args" not in settings:
        # A debug wheel is for tests, installed at once: stored, not deflated (its ~120 MB of
        # unoptimised binaries took 2.5 CPU seconds to compress).
        settings["maturin.build-args"] = "--profile dev --compression-method stored"
    return settings


def _build(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]],
    metadata_directory: Optional[str],
    maturin_hook: Callable[..., str],
) -> str:
    debug = _debug(config_settings)
    _stage_binaries(debug)
    return maturin_hook(wheel_directory, _maturin_settings(config_settings, debug), metadata_directory)


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    return _build(wheel_directory, config_settings, metadata_directory, maturin.build_wheel)


def build_editable(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    return _build(wheel_directory, config_settings, metadata_directory, maturin.build_editable)
