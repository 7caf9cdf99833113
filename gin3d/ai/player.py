"""The one interface every seat is fed through: a ``Player`` reads a view and returns an action.

The AI levels implement it here; the scene (a local human), the network (a remote peer) and the
tutorial script implement it too, so every kind of game runs through the same loop.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..engine import Action, CardDealt, DrawDiscard, DrawStock, Pass, PlayerView, mask_of

DRAW_STOCK, DRAW_DISCARD, PASS = DrawStock(), DrawDiscard(), Pass()  # the levels' draw answers


def hand_key(view: PlayerView) -> tuple:
    """What tells one hand from another in a seat's views: its seat, the hand's number and
    the cards it was dealt (a new game restarts the numbers, never the deal)."""
    dealt = tuple(e.card for e in view.history if type(e) is CardDealt and e.seat == view.seat)
    return view.seat, view.hand_number, dealt


@runtime_checkable
class Player(Protocol):
    """Anything that can sit at the table: it sees only a ``PlayerView`` and answers an action."""

    name: str
    level: str

    def choose(self, view: PlayerView) -> Action:
        """The action to play now; must be one of ``view.legal``."""
        ...


class IllegalChoice(RuntimeError):
    """A computer player picked an action that is not in ``view.legal`` (a bug in the AI)."""


class ComputerPlayer:
    """Shared plumbing of the AI levels: phase dispatch, a seeded generator and a legality check.

    Subclasses implement ``decide(view)``. Everything a level knows comes from the view passed
    in; the state kept between calls is the random generator and, within a hand, the spots
    where it took the pile's card (``take_once``).
    """

    level = "computer"

    def __init__(self, seed: int | str | None = None, name: str | None = None) -> None:
        from .levels import LEVELS  # local: levels imports the player classes

        meta = LEVELS.get(self.level)
        self.name = name or (meta.name if meta else self.level)
        self.seed = seed
        self.rng = random.Random(seed)
        self._pause_rng = random.Random(f"{seed}:pause")  # pauses never shift the decisions
        self._takes_hand: tuple | None = None  # the hand the spots below belong to
        self._takes: set[tuple[int, int]] = set()  # (my ten cards' mask, the card I took)

    def choose(self, view: PlayerView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        if len(view.legal) == 1:
            return view.legal[0]
        action = self.decide(view)
        if type(action) is DrawDiscard and view.phase == "draw":
            action = self.take_once(view)
        if action not in view.legal:
            raise IllegalChoice(
                f"{self.level} chose {action} in phase {view.phase}; legal: "
                + ", ".join(str(a) for a in view.legal)
            )
        return action

    def take_once(self, view: PlayerView) -> Action:
        """The pile's card, unless this hand already took it into these same ten cards:
        then the stock. Two players whose evaluations each prefer the other's throw can
        otherwise pass the same few cards round for ever (three fours, each taken to throw
        another), and the hand never ends; a stock draw always moves it on."""
        key = hand_key(view)
        if key != self._takes_hand:
            self._takes_hand, self._takes = key, set()
        spot = (mask_of(view.hand), int(view.pile[-1]))
        if spot in self._takes and DRAW_STOCK in view.legal:
            return DRAW_STOCK
        self._takes.add(spot)
        return DRAW_DISCARD

    def decide(self, view: PlayerView) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def think_seconds(self) -> float:
        """A human-like pause before showing the move in the app (the arena never waits)."""
        from .levels import LEVELS

        lo, hi = LEVELS[self.level].think_seconds if self.level in LEVELS else (0.0, 0.0)
        return self._pause_rng.uniform(lo, hi)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(level={self.level!r}, seed={self.seed!r})"
