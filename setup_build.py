"""Packaged builds of gin3d with Panda3D's ``build_apps`` / ``bdist_apps``.

    python setup_build.py build_apps                          # Linux, Windows and macOS
    python setup_build.py build_apps -p manylinux2014_x86_64  # one platform
    python setup_build.py bdist_apps                          # + archives / installers
    python setup_build.py build_apps --service relay.example.org:47470  # a built-in service

``--service`` (or ``GIN3D_BUILD_SERVICE``) bakes the online service the build's players use
while they set none of their own: one or more ``host:port``, comma-separated, written as
``gin3d/service.json`` into every platform's folder (``gin3d.built_in``). A packager sets it
once; Settings shows it and a player can point elsewhere.

Each platform's app lands in ``build/<platform>/``: the frozen game, Panda3D's OpenGL and OpenAL
plugins (plus the headless GL plugin, so the app can also run offscreen), the models,
textures and sounds, and the icon. The app writes its log to ``$USER_APPDATA/gin3d/output.log``
(see docs/ship.md). The wheels bundled are the ones pinned in requirements.txt (the lock,
made by tools/lock.sh), fetched from PyPI for each target platform.

A build that would ship without part of the game fails: every model, texture, sound and
tutorial chapter of the checkout must land in each platform's folder (models converted to
``.bam`` in this process by Panda3D's loader, so no ``egg2bam`` program is needed), else the
command exits non-zero naming what is missing. The Linux build also gets a desktop entry and
``install-desktop-entry.sh``, which adds Gin3D to the desktop's menu with its icon, and
OpenSSL 3.5's ``libssl.so.3``/``libcrypto.so.3`` beside the frozen ``ssl`` module (which
needs OpenSSL 3.3 or newer and loads them from its own folder first), so network play works
on Debian 12 and Ubuntu 22.04, whose OpenSSL is 3.0. It also carries ``gin3d-match``, the
command-line network match (``gin3d/net/cli.py``), which the build test plays on loopback.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
VERSION = re.search(r'__version__ = "([^"]+)"', (ROOT / "gin3d" / "__init__.py").read_text())[1]

SERVICE_ENV = "GIN3D_BUILD_SERVICE"  # the built-in service, as --service gives it
PLATFORMS = ["manylinux2014_x86_64", "win_amd64", "macosx_11_0_x86_64"]

ART = (
    "models/*.egg",
    "textures/*.png",
    "textures/*.json",
    "sounds/*.wav",
    "fonts/*.ttf",
    "fonts/*.txt",
)

BUILD_APPS = {
    "gui_apps": {"Gin3D": "gin3d/__main__.py"},
    "console_apps": {"gin3d-match": "gin3d/net/cli.py"},
    "include_patterns": [*ART, "gin3d/**/*.json"],
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
    # models become .bam in this process (Panda3D's loader), not through an egg2bam on PATH
    "bam_model_extensions": [".egg"],
    "plugins": ["pandagl", "p3openal_audio", "p3headlessgl"],
    "platforms": PLATFORMS,
    "icons": {"Gin3D": ["textures/icon.png"]},
    "log_filename": "$USER_APPDATA/gin3d/output.log",
    "log_append": False,
    # wheels come from PyPI only (Panda3D's optimized-wheel index is not needed)
    "use_optimized_wheels": False,
    "pypi_extra_indexes": [],
}

CHAPTERS = "gin3d/tutorial/chapters/*.json"
DESKTOP_ENTRY = """[Desktop Entry]
Type=Application
Name=Gin3D
GenericName=Card game
Comment=Gin Rummy on a 3D table
Exec="{app}/Gin3D"
Path={app}
Icon={app}/textures/icon.png
Terminal=false
Categories=Game;CardGame;
"""
INSTALL_DESKTOP_ENTRY = """#!/bin/sh
# Adds Gin3D to the desktop's application menu, pointing at this folder (run it again after
# moving the folder). Remove it with: rm ~/.local/share/applications/gin3d.desktop
set -e
app=$(cd "$(dirname "$0")" && pwd)
menu="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
mkdir -p "$menu"
sed "s|{app}|$app|g" "$app/gin3d.desktop" > "$menu/gin3d.desktop"
chmod 0644 "$menu/gin3d.desktop"
echo "Gin3D is in the menu: $menu/gin3d.desktop"
"""


# The wheel the Linux build's TLS libraries come from (a manylinux2014 build of OpenSSL 3.5,
# needing only glibc 2.17 and zlib); its version is pinned in requirements-test.txt.
TLS_WHEEL = "psycopg-binary"
TLS_LIBRARIES = {"libssl.so.3": "libssl-", "libcrypto.so.3": "libcrypto-"}
APACHE_LICENSE = Path("/usr/share/common-licenses/Apache-2.0")


def locked_version(name: str, lock: Path = ROOT / "requirements-test.txt") -> str:
    """The version tools/lock.sh pinned for a package."""
    for line in lock.read_text(encoding="utf-8").splitlines():
        found = re.match(rf"{re.escape(name)}==([^\s;]+)", line)
        if found:
            return found[1]
    raise SystemExit(f"build_apps: {name} is not pinned in {lock.name}: run tools/lock.sh")


def add_tls_libraries(app: Path, platform: str) -> None:
    """OpenSSL 3.5 beside the frozen ssl module (its RPATH is its own folder)."""
    pin = f"{TLS_WHEEL}=={locked_version(TLS_WHEEL)}"
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            + ["--only-binary=:all:", "--platform", platform, "--python-version"]
            + [f"{sys.version_info[0]}{sys.version_info[1]}", "--dest", scratch, pin],
            check=True,
        )
        (wheel,) = Path(scratch).glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
            for target, prefix in TLS_LIBRARIES.items():
                member = [n for n in names if Path(n).name.startswith(prefix) and ".so" in n]
                if len(member) != 1:
                    raise SystemExit(f"build_apps: {pin} has no single {prefix}*.so: {member}")
                (app / target).write_bytes(archive.read(member[0]))
                (app / target).chmod(0o755)
    note = (
        f"libssl.so.3 and libcrypto.so.3 are OpenSSL, taken unchanged from the {pin} wheel\n"
        "(a manylinux2014 build). OpenSSL is under the Apache License 2.0:\n"
        "https://www.openssl.org/source/license.html\n"
    )
    if APACHE_LICENSE.is_file():
        note += "\n" + APACHE_LICENSE.read_text(encoding="utf-8")
    (app / "licenses").mkdir(exist_ok=True)
    (app / "licenses" / "OpenSSL.txt").write_text(note, encoding="utf-8")


def shipped_files(root: Path = ROOT) -> list[str]:
    """Every file of the game that a build must carry, as paths relative to the app folder."""
    found = []
    for pattern in (*ART, CHAPTERS):
        for path in sorted(root.glob(pattern)):
            rel = path.relative_to(root).as_posix()
            found.append(rel + ".bam" if rel.endswith(".egg") else rel)
    return found


def missing_from(app: Path, root: Path = ROOT) -> list[str]:
    """What a built app folder lacks of the game's files (empty when the build is whole)."""
    expected = shipped_files(root)
    for folder in ("models", "textures", "sounds", "fonts", "gin3d/tutorial/chapters"):
        if not any(rel.startswith(folder + "/") for rel in expected):
            expected.append(f"{folder}/ (no files in the checkout)")
    return [rel for rel in expected if not (app / rel).is_file()]


def game_folder(platform_folder: Path) -> Path:
    """Where a platform's build keeps the game's files: the folder itself, or a macOS app
    bundle's Contents/Resources (gin3d.paths.bundle_root looks there too)."""
    bundles = sorted(platform_folder.glob("*.app/Contents/Resources"))
    return bundles[0] if bundles else platform_folder


def add_desktop_entry(app: Path) -> None:
    """The Linux build's desktop entry and the script that installs it with the icon."""
    (app / "gin3d.desktop").write_text(DESKTOP_ENTRY, encoding="utf-8")
    script = app / "install-desktop-entry.sh"
    script.write_text(INSTALL_DESKTOP_ENTRY, encoding="utf-8")
    script.chmod(0o755)


def checked_build_apps():
    """Panda3D's build_apps, failing where a platform's folder misses any of the game's files
    (Panda3D logs a file it could not convert and goes on)."""
    from direct.dist.commands import build_apps

    class CheckedBuildApps(build_apps):
        user_options = [
            *build_apps.user_options,
            ("service=", None, "the online service the build carries (host:port[,...])"),
        ]

        def initialize_options(self) -> None:
            super().initialize_options()
            self.service = os.environ.get(SERVICE_ENV, "")

        def finalize_options(self) -> None:
            super().finalize_options()
            if self.service:
                from gin3d.built_in import check_service

                try:
                    check_service(self.service)
                except ValueError as err:
                    sys.exit(f"build_apps --service: {err}")

        def bundle_macos_app(self, builddir: str) -> None:
            # Panda3D 1.10.16 moves every file of the build into Contents/MacOS when any
            # console app is set (``fname in gui_apps or console_apps``), leaving Resources
            # empty: bundle without the console app, which a Mac player starts from the app.
            console, self.console_apps = self.console_apps, {}
            try:
                super().bundle_macos_app(builddir)
            finally:
                self.console_apps = console

        def run(self) -> None:
            super().run()
            problems = []
            for platform in self.platforms:
                app = game_folder(Path(self.build_base) / platform)
                missing = missing_from(app)
                if missing:
                    problems.append(f"{platform}: {', '.join(missing)}")
                else:
                    if self.service:
                        from gin3d.built_in import bake_service

                        bake_service(app / "gin3d", self.service)
                    if platform.startswith("manylinux"):
                        add_desktop_entry(app)
                        add_tls_libraries(app, platform)
            if problems:
                sys.exit("build_apps: the build misses part of the game: " + "; ".join(problems))

    return CheckedBuildApps


if __name__ == "__main__":
    setup(
        name="gin3d",
        version=VERSION,
        cmdclass={"build_apps": checked_build_apps()},
        options={
            "build_apps": BUILD_APPS,
            "bdist_apps": {
                "installers": {
                    "manylinux2014_x86_64": ["gztar"],
                    "win_amd64": ["zip"],
                    "macosx_11_0_x86_64": ["zip"],
                }
            },
        },
    )
