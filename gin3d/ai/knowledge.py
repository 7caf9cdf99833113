"""What a seat can infer from its view: unseen cards, the opponent's known and likely cards.

Everything here is derived from the ``PlayerView`` alone (its fields and its redacted
history), so no AI level can learn the opponent's hidden cards or the stock order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import CardDrawn, Discarded, Knocked, Passed, PlayerView, UpcardTurned, mask_of
from ..engine.cards import VALUES

SUIT_BITS = 0x1FFF


def _neighbours() -> tuple[tuple[int, ...], ...]:
    """For each card: the cards it could share a meld with (same rank, or suit within 2)."""
    out = []
    for c in range(52):
        r, s = c % 13, c // 13
        near = [t * 13 + r for t in range(4) if t != s]
        near += [s * 13 + q for q in (r - 2, r - 1, r + 1, r + 2) if 0 <= q < 13]
        out.append(tuple(near))
    return tuple(out)


def _partner_pairs() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each card: the pairs of other cards that would make a three-card meld with it."""
    out = []
    for c in range(52):
        r, s = c % 13, c // 13
        others = [t * 13 + r for t in range(4) if t != s]
        pairs = [(others[i], others[j]) for i in range(3) for j in range(i + 1, 3)]
        for a, b in ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2)):
            if 0 <= a < 13 and 0 <= b < 13:
                pairs.append((s * 13 + a, s * 13 + b))
        out.append(tuple(pairs))
    return tuple(out)


NEIGHBOURS = _neighbours()
PARTNER_PAIRS = _partner_pairs()
VALUE_ARRAY = np.array(VALUES, dtype=np.float64)


def completers(mask: int) -> int:
    """Cards outside ``mask`` that form a three-card set or run with two cards inside it."""
    out = 0
    suits = []
    for s in range(4):
        p = mask >> (13 * s) & SUIT_BITS
        suits.append(p)
        if p:
            q = ((p >> 1) & (p >> 2)) | ((p << 1) & (p >> 1)) | ((p << 1) & (p << 2))
            out |= (q & ~p & SUIT_BITS) << (13 * s)
    s0, s1, s2, s3 = suits
    two = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    if two:
        for s in range(4):
            out |= (two & ~suits[s]) << (13 * s)
    return out


@dataclass
class Knowledge:
    """One seat's picture of the hand, rebuilt from a view at each decision."""

    view: PlayerView
    mine: int  # my cards as a mask
    unseen: tuple[int, ...]  # in the stock or hidden in the opponent's hand
    unseen_mask: int
    opp_known: int  # mask of pile cards the opponent took and still holds
    opp_hidden: int  # how many of the opponent's cards I cannot see
    opp_discards: tuple[int, ...]  # cards the opponent threw this hand
    opp_declined: tuple[int, ...]  # pile tops the opponent saw and did not take
    p_opp: np.ndarray  # probability the opponent holds each card (1 for known, 0 for seen)
    p_draw: np.ndarray  # probability each card is the next one drawn from the stock

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        opp = 1 - view.seat
        mine = mask_of(view.hand)
        unseen = tuple(int(c) for c in view.unseen())
        unseen_mask = mask_of(unseen)
        opp_known = mask_of(view.opponent_known)
        discards, declined = _opponent_signals(view, opp)
        hidden = max(0, view.opponent_count - len(view.opponent_known))
        if view.opponent_revealed:
            hidden = 0
            for c in view.opponent_revealed:
                opp_known |= 1 << c
        p_opp = _opponent_model(unseen, opp_known, hidden, discards, declined)
        p_stock = np.zeros(52)
        if unseen:
            idx = np.fromiter(unseen, dtype=np.int64)
            p_stock[idx] = 1.0 - p_opp[idx]
        total = p_stock.sum()
        p_draw = p_stock / total if total > 0 else p_stock
        return cls(
            view, mine, unseen, unseen_mask, opp_known, hidden, discards, declined, p_opp, p_draw
        )

    def danger(self, card: int) -> float:
        """Chance the opponent holds two cards that make a meld with ``card`` (so wants it)."""
        p = self.p_opp
        miss = 1.0
        for a, b in PARTNER_PAIRS[card]:
            pa, pb = p[a], p[b]
            if pa and pb:
                miss *= 1.0 - pa * pb
        return 1.0 - miss


def _opponent_signals(view: PlayerView, opp: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Replay the history's pile to find what the opponent threw and what it passed up."""
    pile: list[int] = []
    discards: list[int] = []
    declined: list[int] = []
    for e in view.history:
        t = type(e)
        if t is UpcardTurned:
            pile.append(int(e.card))
        elif t is Passed:
            if e.seat == opp and pile:
                declined.append(pile[-1])
        elif t is CardDrawn:
            if e.source == "discard":
                if pile:
                    pile.pop()
            elif e.seat == opp and pile:
                declined.append(pile[-1])
        elif t is Discarded:
            pile.append(int(e.card))
            if e.seat == opp:
                discards.append(int(e.card))
        elif t is Knocked and e.card is not None:
            pile.append(int(e.card))
    return tuple(discards), tuple(declined)


def _opponent_model(
    unseen: tuple[int, ...],
    known: int,
    hidden: int,
    discards: tuple[int, ...],
    declined: tuple[int, ...],
) -> np.ndarray:
    """Probability the opponent holds each card.

    Unseen cards start equal; cards that would meld with what the opponent threw or passed up
    are less likely in its hand (it did not want them), cards near what it took from the pile
    are more likely (it took them to meld). The weights are scaled so the expected number of
    hidden cards is right.
    """
    p = np.zeros(52)
    k = known
    while k:
        low = k & -k
        p[low.bit_length() - 1] = 1.0
        k ^= low
    if not unseen or hidden <= 0:
        return p
    weight = dict.fromkeys(unseen, 1.0)
    for c in discards:
        for n in NEIGHBOURS[c]:
            if n in weight:
                weight[n] *= 0.6
    for c in declined:
        for n in NEIGHBOURS[c]:
            if n in weight:
                weight[n] *= 0.75
    k = known
    while k:
        low = k & -k
        c = low.bit_length() - 1
        for n in NEIGHBOURS[c]:
            if n in weight:
                weight[n] *= 1.8
        k ^= low
    idx = np.fromiter(weight.keys(), dtype=np.int64, count=len(weight))
    w = np.fromiter(weight.values(), dtype=np.float64, count=len(weight))
    target = min(float(hidden), len(unseen) * 0.97)
    q = w * (target / w.sum())
    for _ in range(3):  # cap at 0.97 and spread the excess over the rest
        over = q > 0.97
        if not over.any():
            break
        excess = (q[over] - 0.97).sum()
        q[over] = 0.97
        free = ~over
        if q[free].sum() > 0:
            q[free] += excess * q[free] / q[free].sum()
    p[idx] = q
    return p
