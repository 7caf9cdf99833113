"""Where gin3d keeps a player's files: settings, the saved game, statistics, hand history and
progress (tutorial chapters done, achievements).

The platform's own folders are used (XDG on Linux, ``%APPDATA%`` on Windows,
``~/Library/Application Support`` on macOS). ``GIN3D_HOME`` overrides all of them, so tests
and portable installs keep everything in one folder.

Files are written atomically (temporary file, fsync, ``os.replace``), so a crash or a power cut
leaves either the old file or the new one, never half of one; a failed write (a full or
read-only disk) leaves the old file as it was. They are private (mode 0600: a network save
holds the match's key and join code) and no write follows a symlink planted at the path.
Files are read with ``read_json``, which refuses what would otherwise stop a start: numbers
of thousands of digits, deep nesting. A file the game must start without when it is damaged
(settings, statistics, the saved game) is read with ``load_or_set_aside``: a file that cannot
be used is moved aside as ``name.bad``, never deleted, and the caller says why to the player.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

APP_DIR = "gin3d"
HOME_ENV = "GIN3D_HOME"

SETTINGS_FILE = "settings.json"
SAVE_FILE = "savegame.json"
STATS_FILE = "stats.json"
HISTORY_FILE = "hands.jsonl"
PROGRESS_FILE = "progress.json"
RENDERER_FILE = "renderer.json"
LOG_FILE = "output.log"
FILE_MODE = 0o600  # every file gin3d writes is the player's alone
MAX_DIGITS = 40  # no number in our files comes near this (seeds are text)
MAX_DEPTH = 40  # nor does any nesting
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX; Windows has no such symlinks to plant


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


def progress_path() -> Path:
    """Tutorial chapters done and achievements earned (``gin3d.progress``)."""
    return data_dir() / PROGRESS_FILE


def renderer_path() -> Path:
    """What the last window found about the renderer (``scene/media/quality.py``)."""
    return config_dir() / RENDERER_FILE


def write_atomic(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` so that readers (and a crash) see old or new, whole.

    The temporary file is new (``O_EXCL``, mode 0600) and ``os.replace`` swaps the name, so a
    symlink planted at ``path`` is replaced, never followed. On any error (ENOSPC, EROFS...)
    the temporary file is removed, the old file is untouched and the OSError is raised.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, FILE_MODE)
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
    """Append one line and force it to disk (a torn last line is skipped by readers).
    A symlink at ``path`` is refused (OSError), not followed."""
    if "\n" in line:
        raise ValueError("a line may not contain a newline")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, FILE_MODE)
    with os.fdopen(fd, "a", encoding="utf-8", newline="\n") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


class FileFormatError(ValueError):
    """A file's text is not JSON we can use (the message says why, for the player)."""


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise FileFormatError(f"holds a number of {len(text)} digits")
    return int(text)


def nests_deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists/objects deeper than ``limit`` (no recursion, so a
    hostile nesting cannot raise RecursionError here); files and peers' frames share it."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, dict)):
            if depth > limit:
                return True
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


def loads_json(text: str) -> Any:
    """``json.loads`` that raises only FileFormatError: also for numbers of thousands of digits
    (a bare ValueError from ``int``) and deep nesting (RecursionError)."""
    try:
        data = json.loads(text, parse_int=_whole)
    except FileFormatError:
        raise
    except json.JSONDecodeError as e:
        raise FileFormatError(f"is not valid JSON ({e.msg}, line {e.lineno})") from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise FileFormatError(f"is not usable JSON ({str(e)[:80]})") from None
    if nests_deeper_than(data, MAX_DEPTH):
        raise FileFormatError(f"nests deeper than {MAX_DEPTH} levels")
    return data


def read_json(path: Path | str) -> Any:
    """The JSON data in ``path`` (read as ``loads_json`` reads text). FileNotFoundError when
    there is no file; another OSError or UnicodeDecodeError when it cannot be read as text;
    FileFormatError when its text is not usable JSON."""
    return loads_json(Path(path).read_text(encoding="utf-8"))


class SetAside(Exception):
    """A file that could not be used and was moved aside (``load_or_set_aside``).

    ``error`` is why: an OSError or UnicodeDecodeError (it could not be read), a
    FileFormatError (not usable JSON) or what the parser raised. ``kept`` is where the file
    went, None when it could not be moved."""

    def __init__(self, error: Exception, kept: Path | None) -> None:
        super().__init__(str(error))
        self.error, self.kept = error, kept

    @property
    def why(self) -> str:
        """The reason as it follows "Your ... file": ``could not be read (...)`` or the
        error's own words (``is not valid JSON (...)``)."""
        if isinstance(self.error, (OSError, UnicodeDecodeError)):
            return f"could not be read ({self.error})"
        return str(self.error)

    @property
    def where(self) -> str:
        """`` The old file was kept as NAME.`` (with its leading space), or "" if not kept."""
        return f" The old file was kept as {self.kept.name}." if self.kept else ""


def load_or_set_aside(
    path: Path | str,
    parse: Callable[[Any], T],
    refused: tuple[type[Exception], ...] = (TypeError, ValueError, RecursionError),
) -> T | None:
    """``parse`` of the JSON data in ``path``, or None when there is no file. A file that
    cannot be read, is not usable JSON, or that ``parse`` refuses (raises one of ``refused``)
    is moved aside (``set_aside``: ``name.bad``) and ``SetAside`` raised."""
    path = Path(path)
    try:
        data = read_json(path)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, FileFormatError) as e:
        error: Exception = e
    else:
        try:
            return parse(data)
        except refused as e:
            error = e
    try:
        kept = set_aside(path)
    except OSError:
        kept = None
    raise SetAside(error, kept) from None


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
