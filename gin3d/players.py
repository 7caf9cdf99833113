"""Seat players without Panda3D: the ``Player`` protocol and a simple legal computer player.

A seat is fed by anything with ``choose(view) -> Action``. ``computer_player(level)`` returns the
AI branch's player for that level when ``gin3d.ai`` is available, else ``SimplePlayer``.
"""

from __future__ import annotations

from typing import Protocol

from .engine import (
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
    PlayerView,
    best_layoff,
    deadwood_of_mask,
    mask_of,
)
from .engine.actions import Action


class Player(Protocol):
    """Anything that picks one of ``view.legal`` for its seat."""

    def choose(self, view: PlayerView) -> Action: ...


def best_discard(hand: tuple, banned=None) -> tuple[int, object]:
    """(deadwood after the discard, the card) for the discard that leaves the least deadwood."""
    mask = mask_of(hand)
    options = [
        (deadwood_of_mask(mask & ~(1 << c)), -c.value, c) for c in hand if c != banned
    ]
    dead, _, card = min(options)
    return dead, card


class SimplePlayer:
    """Greedy legal play: take the pile card when it lowers deadwood, discard to the least
    deadwood, knock (or gin) as soon as the rules allow, lay off the engine's best plan."""

    name = "Simple"

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if any(isinstance(a, BigGin) for a in legal):
            return BigGin()
        if view.phase in ("upcard", "draw", "last_chance"):
            return self._draw(view)
        if view.phase == "discard":
            knocks = [a for a in legal if isinstance(a, Knock)]
            if knocks:
                mask = mask_of(view.hand)
                return min(knocks, key=lambda a: deadwood_of_mask(mask & ~(1 << a.card)))
            _, card = best_discard(view.hand, banned=view.taken)
            action = Discard(card)
            return action if action in legal else next(a for a in legal if isinstance(a, Discard))
        if view.phase == "layoff":
            _, plan = best_layoff(view.table_melds, view.hand)
            if plan:
                card, meld = plan[0]
                action = LayOff(card, meld)
                if action in legal:
                    return action
            return FinishLayoff()
        return legal[0]

    def _draw(self, view: PlayerView) -> Action:
        legal = view.legal
        if DrawDiscard() in legal and view.top is not None:
            now = deadwood_of_mask(mask_of(view.hand))
            after, _ = best_discard((*view.hand, view.top), banned=view.top)
            if after < now or (view.phase == "last_chance"):
                return DrawDiscard()
        if DrawStock() in legal:
            return DrawStock()
        return Pass() if Pass() in legal else legal[0]


def computer_player(level: str | None = None, seed: int | None = None) -> Player:
    """The computer opponent: the AI package's ``make_player`` when present, else SimplePlayer."""
    try:
        from .ai import make_player
    except ImportError:
        return SimplePlayer()
    return make_player(level or default_level(), seed=seed)


def _levels_table() -> dict:
    try:
        from .ai import LEVELS
    except ImportError:
        return {}
    return dict(LEVELS)


def levels() -> list[tuple[str, str]]:
    """(level id, display name) of the computer levels on offer, easiest first."""
    table = _levels_table()
    if not table:
        return [("simple", "Simple")]
    return [(key, getattr(p, "display_name", key)) for key, p in table.items()]


def opponent_name(level: str) -> str:
    """The short name shown at the table (``Walt``), or ``Computer``."""
    return getattr(_levels_table().get(level), "name", "Computer")


def think_range(level: str) -> tuple[float, float]:
    """Seconds the computer of this level pauses before a move (at animation speed 1)."""
    return tuple(getattr(_levels_table().get(level), "think_seconds", (0.6, 1.2)))


def portrait(level: str) -> str:
    return getattr(_levels_table().get(level), "portrait", "")


def default_level() -> str:
    keys = [k for k, _ in levels()]
    return "simple" if "simple" in keys else keys[0]
