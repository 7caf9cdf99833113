"""Packaged builds of gin3d with Panda3D's ``build_apps`` / ``bdist_apps``.

    python setup_build.py build_apps                          # Linux, Windows and macOS
    python setup_build.py build_apps -p manylinux2014_x86_64  # one platform
    python setup_build.py bdist_apps                          # + archives / installers

Each platform's app lands in ``build/<platform>/``: the frozen game, Panda3D's OpenGL and OpenAL
plugins (plus the headless GL plugin, so the app can also run offscreen), the models,
textures and sounds, and the icon. The app writes its log to ``$USER_APPDATA/gin3d/output.log``
(see docs/ship.md). The wheels bundled are the ones pinned in requirements.txt, fetched from
PyPI for each target platform.
"""

from __future__ import annotations

import re
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
VERSION = re.search(r'__version__ = "([^"]+)"', (ROOT / "gin3d" / "__init__.py").read_text())[1]

PLATFORMS = ["manylinux2014_x86_64", "win_amd64", "macosx_10_9_x86_64"]

BUILD_APPS = {
    "gui_apps": {"Gin3D": "gin3d/__main__.py"},
    "include_patterns": [
        "models/*.egg",
        "textures/*.png",
        "textures/*.json",
        "sounds/*.wav",
        "gin3d/**/*.json",
    ],
    # tools/ makes the assets; they ship as files, so its modules are not frozen
    "exclude_patterns": ["tools/**", "tests/**", "bench/**"],
    "exclude_modules": {
        "*": [
            "tkinter",
            "pytest",
            "_pytest",
            "hypothesis",
            "setuptools",
            "pip",
            "distutils",
            "pkg_resources",
            "tools",
            "tests",
        ]
    },
    # loaded on demand or from C, so the module finder cannot see them: network play needs them
    "include_modules": {
        "*": [
            "gin3d.net.api",
            "gin3d.net.relay",
            "_cffi_backend",
            "zeroconf._utils.ipaddress",
            "ifaddr",
        ]
    },
    "plugins": ["pandagl", "p3openal_audio", "p3headlessgl"],
    "platforms": PLATFORMS,
    "icons": {"Gin3D": ["textures/icon.png"]},
    "log_filename": "$USER_APPDATA/gin3d/output.log",
    "log_append": False,
    # wheels come from PyPI only (Panda3D's optimized-wheel index is not needed)
    "use_optimized_wheels": False,
    "pypi_extra_indexes": [],
}

setup(
    name="gin3d",
    version=VERSION,
    options={
        "build_apps": BUILD_APPS,
        "bdist_apps": {
            "installers": {
                "manylinux2014_x86_64": ["gztar"],
                "win_amd64": ["zip"],
                "macosx_10_9_x86_64": ["zip"],
            }
        },
    },
)
