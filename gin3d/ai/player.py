"""The one interface every seat is fed through: a ``Player`` reads a view and returns an action.

The AI levels implement it here; the scene (a local human), the network (a remote peer) and the
tutorial script implement it too, so every kind of game runs through the same loop.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..engine import Action, PlayerView


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
    in; the only state kept between calls is the random generator.
    """

    level = "computer"

    def __init__(self, seed: int | str | None = None, name: str | None = None) -> None:
        from .levels import LEVELS  # local: levels imports the player classes

        meta = LEVELS.get(self.level)
        self.name = name or (meta.name if meta else self.level)
        self.seed = seed
        self.rng = random.Random(seed)
        self._pause_rng = random.Random(f"{seed}:pause")  # pauses never shift the decisions

    def choose(self, view: PlayerView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        if len(view.legal) == 1:
            return view.legal[0]
        action = self.decide(view)
        if action not in view.legal:
            raise IllegalChoice(
                f"{self.level} chose {action} in phase {view.phase}; legal: "
                + ", ".join(str(a) for a in view.legal)
            )
        return action

    def decide(self, view: PlayerView) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def think_seconds(self) -> float:
        """A human-like pause before showing the move in the app (the arena never waits)."""
        from .levels import LEVELS

        lo, hi = LEVELS[self.level].think_seconds if self.level in LEVELS else (0.0, 0.0)
        return self._pause_rng.uniform(lo, hi)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(level={self.level!r}, seed={self.seed!r})"
