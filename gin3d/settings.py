"""The player's settings: one checked dataclass, saved as JSON in the user's config folder.

Loading never crashes the game. A file that cannot be read, is not JSON, or comes from a
newer gin3d gives the defaults and a message (the file is kept aside as ``settings.json.bad``).
A field with a bad value falls back to its default alone, with a message naming it; unknown
fields are dropped; files in the older version-1 layout are migrated.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .built_in import built_in_service
from .engine import PRESETS, RuleSet
from .paths import SetAside, load_or_set_aside, settings_path, write_atomic

VERSION = 2
FORMAT = "gin3d-settings"
MULTISAMPLES = (0, 2, 4, 8)
CARD_STYLES = ("classic", "four_colour", "large_index")
FELTS = ("green", "blue", "burgundy", "charcoal")  # textures/felt_<name>.png
CARD_BACKS = ("blue", "red", "harlequin")  # back_<name> in the card atlas
# settings renamed since their files were written: the old name's value moves to the new one
RENAMED = {"sound_volume": "music_volume"}  # once kept for music that the game did not have
OPPONENT_LEVELS = ("beginner", "simple", "hard", "expert")
MIN_RES, MAX_RES = (640, 480), (7680, 4320)
NAME_MAX = 24
SERVICE_MAX = 200


@dataclass(frozen=True)
class Settings:
    """Every setting with its default. Making one checks every value (ValueError names it)."""

    resolution: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    antialiasing: int = 4  # multisamples: 0, 2, 4 or 8
    animation_speed: float = 1.0  # 0 instant, 1 normal, up to 3 times as fast
    music_volume: float = 0.5  # the background music, 0..1 (0: off)
    ambience_volume: float = 0.5  # the card room's sound at the table, 0..1 (0: off)
    effects_volume: float = 0.8  # card sounds, 0..1
    card_style: str = "classic"
    felt: str = "green"  # the table's cloth
    card_back: str = "blue"
    rules_preset: str = "classic"
    rules_overrides: dict[str, Any] = field(default_factory=dict)
    player_name: str = "Player"
    undo_enabled: bool = False
    hints_enabled: bool = True
    opponent_level: str = "simple"
    second_opponent_level: str = "hard"  # the other computer of a three-player game
    # the online service (gin3d-relay nodes, "host:port[,host:port...]"); "" = LAN and direct
    online_service: str = ""

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f.name, getattr(self, f.name))
        # the rules must make a playable RuleSet
        self.rules()
        # store a private copy so the frozen settings cannot be changed through the dict
        object.__setattr__(self, "rules_overrides", dict(self.rules_overrides))
        object.__setattr__(self, "resolution", tuple(self.resolution))

    def rules(self) -> RuleSet:
        """The default rules for a new game: the preset with the overrides applied."""
        try:
            return RuleSet.preset(self.rules_preset, **self.rules_overrides)
        except (TypeError, ValueError) as e:
            raise ValueError(f"rules: {e}") from None

    def but(self, **changes: Any) -> Settings:
        """A copy with some settings changed (checked; unknown names are refused)."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["resolution"] = list(self.resolution)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Strict: every key must be a known setting with a valid value."""
        if not isinstance(data, dict):
            raise ValueError("settings must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}")
        values = dict(data)
        if isinstance(values.get("resolution"), list):
            values["resolution"] = tuple(values["resolution"])
        return cls(**values)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and v == v  # not NaN


# the settings that take one of a few names
CHOICES: dict[str, Collection[str]] = {
    "card_style": CARD_STYLES,
    "felt": FELTS,
    "card_back": CARD_BACKS,
    "rules_preset": PRESETS,
    "opponent_level": OPPONENT_LEVELS,
    "second_opponent_level": OPPONENT_LEVELS,
}


def _check(name: str, v: Any) -> None:
    """Raise ValueError if ``v`` is not a valid value for setting ``name``."""
    if name == "resolution":
        _check_resolution(v)
    elif name in ("fullscreen", "undo_enabled", "hints_enabled"):
        if not isinstance(v, bool):
            raise ValueError(f"{name} must be true or false, got {v!r}")
    elif name == "antialiasing":
        if not _is_int(v) or v not in MULTISAMPLES:
            raise ValueError(f"antialiasing must be one of {MULTISAMPLES}, got {v!r}")
    elif name == "animation_speed":
        _check_range(name, v, 0, 3)
    elif name in ("music_volume", "ambience_volume", "effects_volume"):
        _check_range(name, v, 0, 1)
    elif name in CHOICES:
        _check_choice(name, v, CHOICES[name])
    elif name == "rules_overrides":
        if not isinstance(v, dict):
            raise ValueError(f"rules_overrides must be an object, got {v!r}")
    elif name == "player_name":
        _check_player_name(v)
    elif name == "online_service":
        _check_service(v)


def _check_service(v: Any) -> None:
    """Addresses only: printable, no spaces, not too long (the game checks each node's
    host:port when it uses them)."""
    if not isinstance(v, str) or len(v) > SERVICE_MAX:
        raise ValueError(f"online_service must be host:port, at most {SERVICE_MAX} characters")
    if any(not ch.isprintable() or ch.isspace() for ch in v):
        raise ValueError("online_service must be host:port (no spaces or control characters)")


def _check_range(name: str, v: Any, low: int, high: int) -> None:
    if not _is_number(v) or not low <= v <= high:
        raise ValueError(f"{name} must be from {low} to {high}, got {v!r}")


def _check_choice(name: str, v: Any, choices: Collection[str]) -> None:
    if v not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {v!r}")


def _check_resolution(v: Any) -> None:
    if not isinstance(v, (tuple, list)) or len(v) != 2 or not all(_is_int(x) for x in v):
        raise ValueError(f"resolution must be two whole numbers (width, height), got {v!r}")
    if not (MIN_RES[0] <= v[0] <= MAX_RES[0] and MIN_RES[1] <= v[1] <= MAX_RES[1]):
        raise ValueError(
            f"resolution must be from {MIN_RES[0]}x{MIN_RES[1]} to "
            f"{MAX_RES[0]}x{MAX_RES[1]}, got {v[0]}x{v[1]}"
        )


def _check_player_name(v: Any) -> None:
    if (
        not isinstance(v, str)
        or not 1 <= len(v) <= NAME_MAX
        or not v.isprintable()
        or not v.strip()
    ):
        raise ValueError(f"player_name must be 1 to {NAME_MAX} printable characters, got {v!r}")


# -- the file ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Loaded:
    """What ``load`` found: the settings to use and, if anything was wrong, what to tell."""

    settings: Settings
    messages: tuple[str, ...] = ()

    @property
    def message(self) -> str | None:
        return " ".join(self.messages) or None


def dumps(settings: Settings) -> str:
    return (
        json.dumps(
            {"format": FORMAT, "version": VERSION, "settings": settings.to_dict()},
            indent=2,
            sort_keys=True,
        )
        + "\n"
    )


def save(settings: Settings, path: Path | str | None = None) -> Path:
    """Write atomically to ``path`` (default: the platform's settings file)."""
    path = Path(path) if path is not None else settings_path()
    write_atomic(path, dumps(settings))
    return path


def migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 layout (flat, no ``format``): ``width``/``height``, one ``volume``,
    ``multisamples``, ``rules`` as a preset name. Gives the version-2 ``settings`` dict."""
    out = {
        k: v
        for k, v in data.items()
        if k not in ("version", "width", "height", "volume", "multisamples", "rules")
    }
    if "width" in data or "height" in data:
        out["resolution"] = [data.get("width"), data.get("height")]
    if "volume" in data:
        out["music_volume"] = out["effects_volume"] = data["volume"]
    if "multisamples" in data:
        out["antialiasing"] = data["multisamples"]
    if "rules" in data:
        out["rules_preset"] = data["rules"]
    return out


def rename_old(values: dict[str, Any]) -> dict[str, Any]:
    """Settings saved under an older name (``RENAMED``) under their new one; a value already
    saved under the new name wins."""
    out = {k: v for k, v in values.items() if k not in RENAMED}
    for old, new in RENAMED.items():
        if old in values and new not in values:
            out[new] = values[old]
    return out


def parse(data: Any) -> Loaded:
    """Settings from the decoded JSON of a settings file, repairing what can be repaired."""
    if not isinstance(data, dict):
        raise ValueError("does not hold a JSON object")
    version = data.get("version")
    if version == 1 and "format" not in data:
        values = migrate_v1(data)
        notes = ["Your settings were updated from an older version of gin3d."]
    elif data.get("format") == FORMAT and version == VERSION:
        values = data.get("settings")
        notes = []
        if not isinstance(values, dict):
            raise ValueError("has no settings object")
    elif data.get("format") == FORMAT and _is_int(version) and version > VERSION:
        raise ValueError(f"was written by a newer gin3d (settings version {version})")
    else:
        raise ValueError(f"is not a gin3d settings file of a known version ({version!r})")
    values = rename_old(values)
    try:
        return Loaded(Settings.from_dict(values), tuple(notes))
    except (TypeError, ValueError):
        pass
    # repair field by field: keep every good value, default the rest, say which
    good: dict[str, Any] = {}
    names = {f.name for f in fields(Settings)}
    for key, value in values.items():
        if key not in names:
            notes.append(f"Unknown setting {key!r} was ignored.")
            continue
        try:
            Settings.from_dict({**good, key: value})
        except (TypeError, ValueError) as e:
            notes.append(f"Setting {key} was reset to its default ({e}).")
            continue
        good[key] = value
    return Loaded(Settings.from_dict(good), tuple(notes))


def service_in_use(s: Settings, built: str | None = None) -> str | None:
    """The online service the game uses: the player's own (Settings), else the one the build
    carries (``built``, read from ``built_in`` when None), else None (LAN, direct play and
    a friend by code)."""
    return s.online_service or (built_in_service() if built is None else built) or None


def load(path: Path | str | None = None) -> Loaded:
    """The saved settings, or the defaults with a message. Never raises for a bad file."""
    path = Path(path) if path is not None else settings_path()
    try:
        loaded = load_or_set_aside(path, parse)
    except SetAside as e:
        return Loaded(Settings(), (f"Your settings file {e.why}; the defaults are used.{e.where}",))
    return Loaded(Settings()) if loaded is None else loaded
