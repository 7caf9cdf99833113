"""Where gin3d keeps a player's files: settings, the saved game, statistics and hand history.

The platform's own folders are used (XDG on Linux, ``%APPDATA%`` on Windows,
``~/Library/Application Support`` on macOS). ``GIN3D_HOME`` overrides all of them, so tests
and portable installs keep everything in one folder.

Files are written atomically (temporary file, fsync, ``os.replace``), so a crash or a power cut
leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

APP_DIR = "gin3d"
HOME_ENV = "GIN3D_HOME"

SETTINGS_FILE = "settings.json"
SAVE_FILE = "savegame.json"
STATS_FILE = "stats.json"
HISTORY_FILE = "hands.jsonl"
LOG_FILE = "output.log"


def _system(system: str | None) -> str:
    """``linux``, ``windows`` or ``macos`` for ``sys.platform`` style names."""
    name = sys.platform if system is None else system
    if name.startswith("win"):
        return "windows"
    if name == "darwin" or name.startswith("mac"):
        return "macos"
    return "linux"


def config_dir(system: str | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The folder for settings (created on first write, not here)."""
    env = os.environ if env is None else env
    if env.get(HOME_ENV):
        return Path(env[HOME_ENV])
    kind = _system(system)
    home = Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
    if kind == "windows":
        base = env.get("APPDATA") or str(home / "AppData" / "Roaming")
        return Path(base) / APP_DIR
    if kind == "macos":
        return home / "Library" / "Application Support" / APP_DIR
    base = env.get("XDG_CONFIG_HOME") or str(home / ".config")
    return Path(base) / APP_DIR


def data_dir(system: str | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The folder for the saved game, statistics and hand history."""
    env = os.environ if env is None else env
    if env.get(HOME_ENV):
        return Path(env[HOME_ENV])
    kind = _system(system)
    if kind in ("windows", "macos"):
        return config_dir(system, env)
    home = Path(env.get("HOME") or Path.home())
    base = env.get("XDG_DATA_HOME") or str(home / ".local" / "share")
    return Path(base) / APP_DIR


def bundle_root() -> Path | None:
    """Where a packaged build (Panda3D ``build_apps``) keeps its data files, or None when
    running from a checkout or an installed package. Frozen modules have no usable
    ``__file__``, so package data such as ``gin3d/tutorial/chapters`` is found from here."""
    if not getattr(sys, "frozen", False):
        return None
    exe_dir = Path(sys.executable).resolve().parent
    if exe_dir.name == "MacOS" and exe_dir.parent.name == "Contents":  # a macOS .app bundle
        return exe_dir.parent / "Resources"
    return exe_dir


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def save_path() -> Path:
    return data_dir() / SAVE_FILE


def stats_path() -> Path:
    return data_dir() / STATS_FILE


def history_path() -> Path:
    return data_dir() / HISTORY_FILE


def write_atomic(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` so that readers (and a crash) see old or new, whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


def append_line(path: Path | str, line: str) -> None:
    """Append one line and force it to disk (a torn last line is skipped by readers)."""
    if "\n" in line:
        raise ValueError("a line may not contain a newline")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8", newline="\n") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


def set_aside(path: Path | str, tag: str = "bad") -> Path | None:
    """Move an unreadable file out of the way (``name.bad``, ``name.bad-2``…) and return
    where it went, so nothing the player had is deleted. None if there was no file."""
    path = Path(path)
    if not path.exists():
        return None
    target = path.with_name(f"{path.name}.{tag}")
    n = 2
    while target.exists():
        target = path.with_name(f"{path.name}.{tag}-{n}")
        n += 1
    os.replace(path, target)
    return target


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX; Windows has no directory handles for this)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
