"""The "simple" player: the well-known baseline of Gin Rummy AI research, used as the yardstick.

Take the pile's top card only if it ends up in a meld of a best arrangement of the 11 cards;
discard, among the cards whose discard leaves the least deadwood, the highest-value one (never
the card just taken from the pile); knock as soon as it may; lay off whatever lowers deadwood.
"""

from __future__ import annotations

from ..engine import (
    Action,
    BigGin,
    Discard,
    Knock,
    PlayerView,
    deadwood_of_mask,
    mask_of,
)
from ..engine.cards import VALUES
from .evaluate import melded_in_some_best
from .greedy import next_layoff
from .player import DRAW_DISCARD, DRAW_STOCK, PASS, ComputerPlayer


def take_top(view: PlayerView) -> Action:
    """DrawDiscard when it is legal and the top card melds; else pass or draw from the stock."""
    top = view.top
    can_take = DRAW_DISCARD in view.legal
    if can_take and top is not None and melded_in_some_best([*view.hand, top], top):
        return DRAW_DISCARD
    return PASS if PASS in view.legal else DRAW_STOCK


class SimplePlayer(ComputerPlayer):
    """Greedy least-deadwood play that knocks at the first chance."""

    level = "simple"

    def decide(self, view: PlayerView) -> Action:
        phase = view.phase
        if phase in ("upcard", "draw"):
            return take_top(view)
        if phase == "last_chance":
            return DRAW_DISCARD if DRAW_DISCARD in view.legal else PASS
        if phase == "layoff":
            return next_layoff(view)
        return self._discard(view)

    def _discard(self, view: PlayerView) -> Action:
        if BigGin() in view.legal:
            return BigGin()
        mask = mask_of(view.hand)
        knocks = [a.card for a in view.legal if type(a) is Knock]
        pool = knocks or [a.card for a in view.legal if type(a) is Discard]
        scored = [
            (deadwood_of_mask(mask & ~(1 << c)), -VALUES[c], self.rng.random(), c) for c in pool
        ]
        card = min(scored)[3]
        return Knock(card) if knocks else Discard(card)
