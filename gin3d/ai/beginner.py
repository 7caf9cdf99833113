"""The "beginner": legal, sensible-looking play with a newcomer's mistakes.

It sometimes looks past runs and counts only sets, holds on to its high cards, grabs a pile
card that merely pairs with one it holds, knocks only when it notices it may, and lays off
only some of what it could.
"""

from __future__ import annotations

from ..engine import (
    Action,
    BigGin,
    Discard,
    FinishLayoff,
    Knock,
    LayOff,
    PlayerView,
    deadwood_of_mask,
    mask_of,
)
from ..engine.cards import VALUES
from .greedy import next_layoff
from .player import DRAW_DISCARD, DRAW_STOCK, PASS, ComputerPlayer

FINISH = FinishLayoff()

MISS_RUNS = 0.4  # chance per decision of seeing only sets
HOLD_HIGH = 0.35  # chance of throwing a low card to keep a high one
GRAB_PAIR = 0.3  # chance of taking a pile card that only pairs
NOTICE_KNOCK = 0.5  # chance per turn of noticing that a knock is allowed
SKIP_LAYOFF = 0.35  # chance of stopping before laying off everything


def sets_only_deadwood(mask: int) -> int:
    """Deadwood counting sets only, as someone who has not spotted the runs would."""
    total = 0
    for r in range(13):
        held = [s * 13 + r for s in range(4) if mask >> (s * 13 + r) & 1]
        if len(held) < 3:
            total += VALUES[r] * len(held)
    return total


class BeginnerPlayer(ComputerPlayer):
    """A newcomer: plays on instinct and misses things."""

    level = "beginner"

    def _deadwood(self, mask: int, blind: bool) -> int:
        return sets_only_deadwood(mask) if blind else deadwood_of_mask(mask)

    def decide(self, view: PlayerView) -> Action:
        phase = view.phase
        rng = self.rng
        blind = rng.random() < MISS_RUNS
        mask = mask_of(view.hand)
        if phase in ("upcard", "draw"):
            top = view.top
            if DRAW_DISCARD in view.legal and top is not None:
                with_top = mask | (1 << top)
                melds = self._deadwood(with_top, blind) < self._deadwood(mask, blind) + VALUES[top]
                pairs = any(c % 13 == top % 13 for c in view.hand)
                if melds or (pairs and rng.random() < GRAB_PAIR):
                    return DRAW_DISCARD
            return PASS if PASS in view.legal else DRAW_STOCK
        if phase == "last_chance":
            return DRAW_DISCARD if DRAW_DISCARD in view.legal else PASS
        if phase == "layoff":
            step = next_layoff(view)
            if type(step) is LayOff and rng.random() < SKIP_LAYOFF:
                return FINISH
            return step
        if BigGin() in view.legal:
            return BigGin()
        knocks = [a.card for a in view.legal if type(a) is Knock]
        discards = [a.card for a in view.legal if type(a) is Discard]
        if knocks and (
            not discards
            or rng.random() < NOTICE_KNOCK
            or any(deadwood_of_mask(mask & ~(1 << c)) == 0 for c in knocks)
        ):
            return Knock(min(knocks, key=lambda c: deadwood_of_mask(mask & ~(1 << c))))
        scored = [(self._deadwood(mask & ~(1 << c), blind), c) for c in discards]
        least = min(s for s, _ in scored)
        loose = [c for s, c in scored if s <= least + 3]
        if rng.random() < HOLD_HIGH:
            card = min(loose, key=lambda c: (VALUES[c], rng.random()))
        else:
            card = max(loose, key=lambda c: (VALUES[c], rng.random()))
        return Discard(card)
