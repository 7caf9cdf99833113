"""Seat players without Panda3D: the computer opponents as the app offers them, and a quick
greedy player for scripted seats (tests, tools, benchmarks, the network command line).

A seat is fed by anything with ``choose(view) -> Action`` (``gin3d.ai.Player``).
``computer_player(level)`` is the AI of that level; ``GreedyPlayer`` is cheap and plays the
same way every time, so a seed gives the same game.
"""

from __future__ import annotations

from .ai import LEVELS, make_player
from .ai.greedy import GreedyPlayer as GreedyPlayer  # scripted seats import it from here
from .ai.levels import strength as strength  # the menu's words for a level's rating
from .ai.player import Player


def computer_player(level: str | None = None, seed: int | None = None) -> Player:
    """The computer opponent of that level (the default level when None)."""
    return make_player(level or default_level(), seed=seed)


def levels() -> list[tuple[str, str]]:
    """(level id, display name) of the computer levels on offer, easiest first."""
    return [(key, p.display_name) for key, p in LEVELS.items()]


def opponent_name(level: str) -> str:
    """The short name shown at the table (``Walt``), or ``Computer``."""
    return getattr(LEVELS.get(level), "name", "Computer")


def think_range(level: str) -> tuple[float, float]:
    """Seconds the computer of this level pauses before a move (at animation speed 1)."""
    return tuple(getattr(LEVELS.get(level), "think_seconds", (0.6, 1.2)))


def portrait(level: str) -> str:
    return getattr(LEVELS.get(level), "portrait", "")


def default_level() -> str:
    keys = [k for k, _ in levels()]
    return "simple" if "simple" in keys else keys[0]
