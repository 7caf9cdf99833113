"""Laying off: which cards fit the knocker's melds, and the plan that leaves the least deadwood.

The non-knocker's own melds and layoffs are chosen together: each knocker meld offers a few
alternatives (a set of three may take its fourth card; each end of a run may take 0, 1, 2 …
of the next cards in a row, which is how chains like 9H then TH onto 6-7-8H happen), and the
best combination is whichever leaves the least deadwood after melding what stays in hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from .cards import CARDS, Card
from .melds import deadwood_of_mask

Layoff = tuple[Card, int]  # (card, index of the knocker meld it goes on)


@dataclass(frozen=True)
class MeldShape:
    """A laid-out meld: a set (one rank) or a run (one suit, ranks lo..hi)."""

    is_set: bool
    rank: int  # set: its rank; run: lowest rank
    suit: int  # run: its suit; set: -1
    high: int  # run: highest rank; set: the rank
    suits: frozenset[int]  # set: suits present

    @classmethod
    def of(cls, cards: Sequence[int]) -> MeldShape:
        ranks = sorted(c % 13 for c in cards)
        suits = {c // 13 for c in cards}
        if len(set(ranks)) == 1:
            return cls(True, ranks[0], -1, ranks[0], frozenset(suits))
        return cls(False, ranks[0], next(iter(suits)), ranks[-1], frozenset(suits))

    def fits(self, card: int) -> bool:
        """Whether ``card`` can be laid off on this meld as it stands."""
        r, s = card % 13, card // 13
        if self.is_set:
            return r == self.rank and s not in self.suits and len(self.suits) < 4
        return s == self.suit and (r == self.rank - 1 or r == self.high + 1)

    def extended(self, card: int) -> MeldShape:
        """This meld after ``card`` is laid off on it."""
        r, s = card % 13, card // 13
        if self.is_set:
            return MeldShape(True, self.rank, -1, self.rank, self.suits | {s})
        return MeldShape(False, min(self.rank, r), self.suit, max(self.high, r), self.suits)


def _alternatives(shape: MeldShape, index: int, held: int) -> list[list[tuple[int, tuple]]]:
    """Per end of this meld: the (mask, layoffs) choices, the empty choice first."""
    groups = []
    if shape.is_set:
        if len(shape.suits) == 3:
            missing = next(s for s in range(4) if s not in shape.suits)
            c = missing * 13 + shape.rank
            if held >> c & 1:
                groups.append([(0, ()), (1 << c, ((CARDS[c], index),))])
        return groups
    base = shape.suit * 13
    for step, start, stop in ((-1, shape.rank - 1, -1), (1, shape.high + 1, 13)):
        choices: list[tuple[int, tuple]] = [(0, ())]
        mask, lays = 0, ()
        for r in range(start, stop, step):
            c = base + r
            if not held >> c & 1:
                break
            mask |= 1 << c
            lays = lays + ((CARDS[c], index),)
            choices.append((mask, lays))
        if len(choices) > 1:
            groups.append(choices)
    return groups


def best_layoff(
    knocker_melds: Sequence[Sequence[int]], other_cards: Iterable[int]
) -> tuple[int, list[Layoff]]:
    """(least deadwood the other player can reach, the layoffs that reach it).

    Ties go to the plan with the fewest layoffs, then to the first in meld order.
    """
    held = 0
    for c in other_cards:
        held |= 1 << c
    groups = []
    for i, meld in enumerate(knocker_melds):
        groups += _alternatives(MeldShape.of(meld), i, held)
    best = (deadwood_of_mask(held), 0, [])
    for combo in product(*groups):
        laid = 0
        lays: list[Layoff] = []
        clash = False
        for mask, part in combo:
            if laid & mask:
                clash = True
                break
            laid |= mask
            lays.extend(part)
        if clash or not laid:
            continue
        dead = deadwood_of_mask(held & ~laid)
        if (dead, len(lays)) < best[:2]:
            best = (dead, len(lays), lays)
    return best[0], best[2]


def layoff_targets(knocker_melds: Sequence[Sequence[int]], card: int) -> list[int]:
    """Indices of the knocker melds ``card`` can be laid off on right now."""
    return [i for i, m in enumerate(knocker_melds) if MeldShape.of(m).fits(card)]
