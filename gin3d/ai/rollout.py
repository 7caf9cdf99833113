"""Playing a hand out to its end from one sampled deal, to price waiting against knocking.

A one-turn look (the opponent knocks next turn or we draw once) undervalues waiting when the
opponent knocks soon and overvalues it when it does not; the hand's end decides. From a deal
of the opponent's hand and an order of the stock, both sides play a fast greedy game on
masks: take the pile's card only into a meld that lowers the deadwood, otherwise draw, throw
the card that leaves the least. The opponent knocks when its deadwood is within its
threshold (learnt by the opponent model), goes gin at once; we play on for gin while the
stock lasts and knock once fewer than ``wait_stock`` cards are left. The result is the hand's
points for us (negative: the opponent's), before any pricing by the score.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import deadwood_of_mask
from .evaluate import by_value
from .knowledge import completers

STOCK_END = 2  # the hand is drawn when a discard leaves this many cards in the stock


@dataclass(frozen=True)
class RolloutRules:
    """What a played-out hand needs to know of the rules and of both players' policies."""

    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    their_knock: int  # the opponent knocks with this much deadwood or less
    wait_stock: int  # we knock short of gin only once fewer cards than this are left


def best_throw(full: int, keep: int = -1) -> tuple[int, int]:
    """(least deadwood, card to throw) of an 11-card hand, never throwing ``keep``; ties
    throw the highest card."""
    whole = deadwood_of_mask(full)
    best, card = None, -1
    for v, low in by_value(full):
        c = low.bit_length() - 1
        if c == keep:
            continue
        if best is not None and whole - v >= best:
            break
        d = deadwood_of_mask(full ^ low)
        if best is None or d < best:
            best, card = d, c
    assert best is not None
    return best, card


def draw_turn(hand: int, top: int, stock: list[int]) -> tuple[int, int, int]:
    """One greedy turn of a 10-card hand: (hand after it, its deadwood, card thrown)."""
    dw = deadwood_of_mask(hand)
    if top >= 0 and completers(hand) >> top & 1:
        d, card = best_throw(hand | 1 << top, keep=top)
        if d < dw:
            return (hand | 1 << top) & ~(1 << card), d, card
    drawn = stock.pop()
    d, card = best_throw(hand | 1 << drawn)
    return (hand | 1 << drawn) & ~(1 << card), d, card


def play_out(mine: int, theirs: int, top: int, stock: list[int], rules: RolloutRules) -> int:
    """Points for us of the hand after we threw ``top`` from our 10 cards ``mine``, the
    opponent holding ``theirs``, the stock drawn from its end (``stock`` is used up)."""
    my_dw = deadwood_of_mask(mine)
    while len(stock) > STOCK_END:
        theirs, their_dw, top = draw_turn(theirs, top, stock)
        if their_dw == 0:
            return -(my_dw + rules.gin_bonus)
        if their_dw <= rules.their_knock and their_dw <= rules.knock_limit:
            if my_dw <= their_dw:
                return their_dw - my_dw + rules.undercut_bonus
            return -(my_dw - their_dw)
        if len(stock) <= STOCK_END:
            return 0
        mine, my_dw, top = draw_turn(mine, top, stock)
        their_dw = deadwood_of_mask(theirs)
        if my_dw == 0:
            return their_dw + rules.gin_bonus
        if my_dw <= rules.knock_limit and len(stock) < rules.wait_stock:
            if my_dw < their_dw:
                return their_dw - my_dw
            return -(my_dw - their_dw + rules.undercut_bonus)
    return 0
