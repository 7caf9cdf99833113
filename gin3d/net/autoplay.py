"""A quick legal computer player (least deadwood, knocks at once) for the net CLI, tests and
benchmarks; the real opponents live in gin3d.ai and plug in through the same `choose(view)`."""

from __future__ import annotations

from gin3d.engine import BigGin, Discard, DrawDiscard, DrawStock, Knock, Pass, deadwood_of_mask
from gin3d.engine.cards import mask_of


class GreedyPlayer:
    """Takes the pile card when it lowers deadwood, knocks at once, lays off the best way."""

    def choose(self, view):
        legal = list(view.legal)
        knocks = [a for a in legal if isinstance(a, (Knock, BigGin))]
        if knocks:
            return min(knocks, key=lambda a: self._after(view, a))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return min(discards, key=lambda a: (self._after(view, a), -a.card.value, int(a.card)))
        if DrawDiscard() in legal and view.top is not None:
            mask = mask_of(view.hand)
            before = deadwood_of_mask(mask)
            with_top = min(deadwood_of_mask((mask | 1 << view.top) & ~(1 << c))
                           for c in view.hand)
            if with_top < before:
                return DrawDiscard()
        for a in (DrawStock(), Pass()):
            if a in legal:
                return a
        return legal[0]  # layoff phase: first layoff, then FinishLayoff

    @staticmethod
    def _after(view, action) -> int:
        if isinstance(action, BigGin):
            return -1
        return deadwood_of_mask(mask_of(view.hand) & ~(1 << action.card))
