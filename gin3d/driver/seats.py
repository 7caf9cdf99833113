"""The ``Seat`` protocol and its adapters: who answers for a seat, and how long it thinks.

A seat is asked ``request(view, legal)`` once its thinking pause (``pause(view)`` seconds) is
over; it answers an action now, or None to be asked again at the next pump (a human whose
click has not come yet, a replay stopped at its end). A seat never touches the game: the
driver checks the answer and applies it.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, runtime_checkable

from ..ai.player import Player
from ..engine import LAYOFF, Action, NextHand, PlayerView


@runtime_checkable
class Seat(Protocol):
    """Anything that answers for one seat at the table."""

    name: str
    local: bool  # the table's own input answers (the scene opens input for it)

    def pause(self, view: PlayerView) -> float:
        """Seconds to think before the answer is shown (at animation speed 1)."""
        ...

    def request(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        """The move for ``view`` (one of ``legal``), or None when it is not known yet."""
        ...


class LocalSeat:
    """The local human: answers are the actions the table's input hands over with ``give``."""

    local = True

    def __init__(self, name: str = "You") -> None:
        self.name = name
        self.inbox: deque[Action] = deque()

    def give(self, action: Action) -> None:
        self.inbox.append(action)

    def pause(self, view: PlayerView) -> float:
        return 0.0

    def request(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        return self.inbox.popleft() if self.inbox else None


class ComputerSeat:
    """A computer level: ``player.choose(view)`` after a human-like pause drawn in ``think``
    (halved for the quick, mechanical layoff decisions). The pauses have their own generator,
    so they never shift the player's decisions."""

    local = False

    def __init__(
        self,
        player: Player,
        think: tuple[float, float] = (0.0, 0.0),
        rng: random.Random | None = None,
    ) -> None:
        lo, hi = think
        if not 0 <= lo <= hi:
            raise ValueError(f"a thinking pause needs 0 <= low <= high seconds, got {think!r}")
        self.player = player
        self.name = getattr(player, "name", "Computer")
        self.think = (float(lo), float(hi))
        self.rng = rng or random.Random("think")

    def pause(self, view: PlayerView) -> float:
        lo, hi = self.think
        if hi <= 0:
            return 0.0
        if view.phase == LAYOFF:
            lo, hi = lo / 2, hi / 2
        return lo + (hi - lo) * self.rng.random()

    def request(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        return self.player.choose(view)

    def observe(self, view: PlayerView) -> None:
        """A finished hand, for a player that learns its opponent across hands."""
        observe = getattr(self.player, "observe", None)
        if observe is not None:
            observe(view)


class ScriptSeat:
    """A scripted seat (the tutorial's moves, a test): ``choose(view)`` answers, or None."""

    local = False

    def __init__(self, choose: Callable[[PlayerView], Action | None], name: str = "Script") -> None:
        self.choose = choose
        self.name = name

    def pause(self, view: PlayerView) -> float:
        return 0.0

    def request(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        return self.choose(view)


class ReplayLog:
    """A recorded action list shared by the seats of a replay: each asks for the next one.
    ``NextHand`` is the table's, not a seat's: it is left out (the driver deals)."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self.actions = [a for a in actions if not isinstance(a, NextHand)]
        self.played = 0

    @property
    def at_end(self) -> bool:
        return self.played >= len(self.actions)

    def seats(self, count: int) -> list[ReplaySeat]:
        return [ReplaySeat(self, f"Seat {i}") for i in range(count)]


class ReplaySeat:
    """One seat of a replay: answers the log's next action; None once the log is played."""

    local = False

    def __init__(self, log: ReplayLog, name: str = "Replay") -> None:
        self.log = log
        self.name = name

    def pause(self, view: PlayerView) -> float:
        return 0.0

    def request(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        log = self.log
        if log.at_end:
            return None
        log.played += 1
        return log.actions[log.played - 1]


def seat_for(player: object, think: tuple[float, float], rng: random.Random) -> Seat:
    """The seat for one entry of a table's player list: None is the local human, a ``Seat``
    stays itself, anything with ``choose(view)`` is a computer seat thinking ``think``."""
    if player is None:
        return LocalSeat()
    if isinstance(player, Seat):
        return player
    if callable(getattr(player, "choose", None)):
        return ComputerSeat(player, think, rng)
    raise TypeError(f"a seat is None, a Seat or a player with choose(view), not {player!r}")
