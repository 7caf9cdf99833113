"""Where the committed art lives: ``textures/``, ``models/``, ``sounds/`` and ``fonts/``.

In the repository they sit at the top, where ``tools/`` writes them. An installed package
(a wheel, a plain ``pip install .``) carries them inside itself as ``gin3d/_assets/``
(pyproject.toml maps the folders there), found with ``importlib.resources``. A packaged
build (``setup_build.py``) has them in its main folder. ``GIN3D_ASSETS`` overrides them all.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

from panda3d.core import ExecutionEnvironment, Filename

ASSETS_ENV = "GIN3D_ASSETS"
PACKAGED = "_assets"  # gin3d/_assets/{textures,models,sounds} in an installed package


def asset_root() -> Path:
    """The folder holding textures/, models/, sounds/ and fonts/ (``GIN3D_ASSETS`` overrides)."""
    env = os.environ.get(ASSETS_ENV)
    if env:
        return Path(env)
    if getattr(sys, "frozen", False):  # a packaged build: the files sit in its main folder
        main_dir = ExecutionEnvironment.getEnvironmentVariable("MAIN_DIR")
        return (
            Path(Filename(main_dir).toOsSpecific())
            if main_dir
            else Path(sys.executable).resolve().parent
        )
    package = Path(str(resources.files("gin3d")))
    installed = package / PACKAGED
    if installed.is_dir():
        return installed
    return package.parent  # a checkout (or an editable install of one): the repository root


def asset_path(*parts: str) -> Path:
    return asset_root().joinpath(*parts)


def panda_filename(path: Path) -> Filename:
    """A Panda3D Filename for an OS path (handles Windows drive letters)."""
    return Filename.fromOsSpecific(str(path))
