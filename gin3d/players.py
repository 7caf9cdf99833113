"""Seat players without Panda3D: the computer opponents as the app offers them, and a quick
greedy player for scripted seats (tests, tools, benchmarks, the network command line).

A seat is fed by anything with ``choose(view) -> Action`` (``gin3d.ai.Player``).
``computer_player(level)`` is the AI of that level; ``GreedyPlayer`` is cheap and plays the
same way every time, so a seed gives the same game.
"""

from __future__ import annotations

from collections.abc import Sequence

from .ai import LEVELS, make_player
from .ai.player import Player
from .engine import (
    BigGin,
    Card,
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
    discard_deadwoods,
    mask_of,
)
from .engine.actions import Action


def best_discard(hand: Sequence[Card], banned: Card | None = None) -> tuple[int, Card]:
    """(deadwood after the discard, the card) for the discard that leaves the least deadwood;
    ties go to the higher card. Never ``banned`` (the card just taken, say)."""
    left = discard_deadwoods(hand)
    dead, _, card = min((d, -c.value, c) for c, d in left.items() if c != banned)
    return dead, card


class GreedyPlayer:
    """Greedy legal play: take the pile card when it lowers deadwood, discard to the least
    deadwood, knock (or gin) as soon as the rules allow, lay off the engine's best plan."""

    name = "Greedy"

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
