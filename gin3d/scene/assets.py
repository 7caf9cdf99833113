"""Where the committed art lives (``textures/``, ``models/``, ``sounds/`` at the repo root)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from panda3d.core import ExecutionEnvironment, Filename


def asset_root() -> Path:
    """The folder holding textures/, models/ and sounds/ (``GIN3D_ASSETS`` overrides)."""
    env = os.environ.get("GIN3D_ASSETS")
    if env:
        return Path(env)
    if getattr(sys, "frozen", False):  # a packaged build: the files sit in its main folder
        main_dir = ExecutionEnvironment.getEnvironmentVariable("MAIN_DIR")
        return Path(Filename(main_dir).toOsSpecific()) if main_dir else Path(
            sys.executable).resolve().parent
    return Path(__file__).resolve().parents[2]


def asset_path(*parts: str) -> Path:
    return asset_root().joinpath(*parts)


def panda_filename(path: Path) -> Filename:
    """A Panda3D Filename for an OS path (handles Windows drive letters)."""
    return Filename.fromOsSpecific(str(path))
