"""What a table does about one player who misbehaves, so that the others play on
(docs/lobby.md, *A player who misbehaves at a table*).

- A chat flood mutes its player (``ChatGuard``): lines past the budget are dropped, not
  refused, so a flood never counts toward anything; the host says so to the player and to
  the others (``muted_note``, ``you_muted_note``). The mute lifts once the player has said
  nothing for ``MUTE_QUIET`` seconds (each dropped line starts that wait again).
- A player who stops playing, or is caught cheating, is removed: the host alone seats the
  computer (its ``taway``, as for a player whose link is gone), so a guest who sees it (its
  hand's opponent owes it a move past ``Timing.stall``, a cheat verdict, too many refused
  messages) asks the host with a ``claim_note``; the host checks the claim (``parse_claim``)
  and every player hears its verdict (``removed_note``). A removed player does not take its
  seat back. The host cannot be removed (every message goes through it): a host that
  misbehaves still ends the table.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .ended import MatchEnded
from .limits import Budget
from .tablehand import TableHandSession

CHAT_BURST, CHAT_EVERY = 8, 0.5  # chat lines and emotes a player may send at once, then one
# every this many seconds; the host mutes a player past that
GUEST_SLACK = 2  # a guest's own check is this many bursts looser: lines the host passed on
# may come in closer together than they were sent
MUTE_QUIET = 30.0  # a muted player is heard again after this long without a chat line
STALLED_HAND = "claimed"  # how a hand claimed against a player who stopped playing ends
CLAIM = re.compile(r"claim: player (\d): (.{1,200})")


@dataclass
class ChatGuard:
    """Each other player's chat budget and mute (the lines and emotes it may send)."""

    burst: int = CHAT_BURST
    every: float = CHAT_EVERY
    quiet: float = MUTE_QUIET
    clock: Callable[[], float] = time.monotonic
    muted: dict[int, float] = field(default_factory=dict)  # player -> heard again from

    def __post_init__(self) -> None:
        self.budget = Budget(self.burst, self.every, self.clock)

    def take(self, p: int) -> str:
        """A line from ``p``: "shown", "muted" (this line muted it) or "dropped" (muted)."""
        now = self.clock()
        if p in self.muted:
            if now < self.muted[p]:
                self.muted[p] = now + self.quiet  # not quiet yet: the wait starts again
                return "dropped"
            del self.muted[p]
        if self.budget.spend(str(p)):
            return "shown"
        self.muted[p] = now + self.quiet
        return "muted"


def muted_note(p: int) -> str:
    return f"player {p} is muted: too many chat lines"


def you_muted_note() -> str:
    return (
        "you are muted: too many chat lines; the others see nothing you say until you have"
        f" been quiet for {MUTE_QUIET:.0f} s"
    )


def claim_note(p: int, why: str) -> str:
    """A guest asking the host to remove player ``p`` (the host checks it: ``parse_claim``)."""
    return f"claim: player {p}: {why}"[:300]


def parse_claim(reason: str) -> tuple[int, str] | None:
    """The player a guest's note asks to remove and why; None for any other note."""
    m = CLAIM.fullmatch(reason)
    return (int(m.group(1)), m.group(2)) if m else None


def removed_note(p: int, why: str) -> str:
    """The host's verdict, as every player hears it ("player 2 was removed for not
    playing (...); the computer plays that seat")."""
    return f"player {p} was removed {why}; the computer plays that seat"[:300]


def stalled_why(hand: int, stall: float) -> str:
    return f"for not playing (no move in hand {hand + 1} for {stall:.0f} s)"


def cheated_why(hand: int, detail: str) -> str:
    return f"for cheating in hand {hand + 1} ({detail})"[:200]


async def claim_when_stalled(session: TableHandSession, every: float) -> None:
    """End ``session`` as claimed once its opponent has owed it a step (a move, a deal step)
    for ``Timing.stall``, the link up or not; looked at every ``every`` seconds. Ended
    quietly (no hang-up): the opponent's hand ends with the host's verdict, not before."""
    while session.ended is None:
        deadline = session.claim_after
        if deadline is not None and session.clock() >= deadline:
            session.stop(MatchEnded(STALLED_HAND, "opponent stopped playing"))
            return
        await asyncio.sleep(every)
