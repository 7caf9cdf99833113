"""Hand evaluation on 52-bit masks: deadwood now, and how much the next draw should lower it.

``improvement`` is exact for one draw: adding card c and throwing the best card back. Cards
that meld with nothing in the hand can only replace the hand's worst deadwood card, so they
are scored in one step; only the few cards that complete a meld cost a search.
"""

from __future__ import annotations

from ..engine import all_best_arrangements, deadwood_of_mask
from ..engine.cards import VALUES
from .knowledge import completers


def bits(mask: int) -> list[int]:
    """The card indices in a mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def by_value(mask: int) -> list[tuple[int, int]]:
    """(value, bit) of each card in the mask, highest value first."""
    out = []
    while mask:
        low = mask & -mask
        out.append((VALUES[low.bit_length() - 1], low))
        mask ^= low
    out.sort(reverse=True)
    return out


def shed(mask: int, dw: int | None = None, order: list[tuple[int, int]] | None = None) -> int:
    """How much deadwood the hand loses by throwing its best card (0 when all melded)."""
    dw = deadwood_of_mask(mask) if dw is None else dw
    if dw == 0:
        return 0
    best = dw
    # dropping a card of value v saves at most v, so stop once dw - v cannot beat the best
    for v, low in order if order is not None else by_value(mask):
        if dw - v >= best:
            break
        d = deadwood_of_mask(mask ^ low)
        if d < best:
            best = d
    return dw - best


def best_after_adding(mask: int, card: int, order: list[tuple[int, int]] | None = None) -> int:
    """Least deadwood after adding ``card`` to the hand and throwing any one card back."""
    best = deadwood_of_mask(mask)  # throwing the new card straight back
    if best == 0:
        return 0
    full = mask | (1 << card)
    whole = deadwood_of_mask(full)
    # throwing a card of value v leaves at least whole - v: cards are tried highest first
    for v, low in order if order is not None else by_value(mask):
        if whole - v >= best:
            break
        d = deadwood_of_mask(full ^ low)
        if d < best:
            best = d
    return best


def potential(mask: int, draw_p, unseen: tuple[int, ...], dw: int | None = None) -> float:
    """Expected deadwood saved by the next draw when each unseen card c comes with draw_p[c]."""
    dw = deadwood_of_mask(mask) if dw is None else dw
    if dw == 0:
        return 0.0
    order = by_value(mask)
    gain = shed(mask, dw, order)
    comp = completers(mask)
    total = 0.0
    for c in unseen:
        w = draw_p[c]
        if not w:
            continue
        if comp >> c & 1:
            imp = dw - best_after_adding(mask, c, order)
        else:
            imp = gain - VALUES[c]
        if imp > 0:
            total += w * imp
    return total


def melded_in_every_best(mask: int, card: int) -> bool:
    """Whether ``card`` (in ``mask``) is in a meld of every least-deadwood arrangement.

    If some best arrangement left it as deadwood, dropping it would save exactly its value.
    """
    return deadwood_of_mask(mask) < deadwood_of_mask(mask & ~(1 << card)) + VALUES[card]


def melded_in_some_best(cards, card: int) -> bool:
    """Whether ``card`` lies in a meld of at least one least-deadwood arrangement of ``cards``."""
    return any(card in m for a in all_best_arrangements(cards) for m in a.melds)
