"""Playing a hand out to its end from one sampled deal, to price waiting against knocking.

A one-turn look (the opponent knocks next turn or we draw once) undervalues waiting when the
opponent knocks soon and overvalues it when it does not; the hand's end decides. From a deal
of the opponent's hand and an order of the stock, both sides play a fast greedy game on
masks: take the pile's card only into a meld that lowers the deadwood, otherwise draw, throw
the card that leaves the least. The opponent knocks when its deadwood is within its
threshold (learnt by the opponent model), goes gin at once. We knock at the first turn our
deadwood is within a threshold of ours, and with anything once fewer than ``wait_stock``
cards are left; since neither side's draws and throws depend on our threshold, one play gives
the result for every threshold at once, and the caller picks the best (gin only, with 0, is
the old play-on-for-gin policy). A knock of ours is priced both with the opponent's best
layoffs and without. The results are the hand's points for us (negative: the opponent's),
before any pricing by the score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import best_layoff, best_melds, deadwood_of_mask
from .evaluate import bits, by_value
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


def _knock_points(mine: int, my_dw: int, theirs: int, rules: RolloutRules) -> tuple[int, int]:
    """Our knock with ``mine`` against ``theirs``: (points if they lay off, if they do not)."""
    their_dw = deadwood_of_mask(theirs)
    laid, _ = best_layoff(best_melds(bits(mine)).melds, bits(theirs))
    return tuple(  # type: ignore[return-value]
        left - my_dw if my_dw < left else -(my_dw - left + rules.undercut_bonus)
        for left in (laid, their_dw)
    )


def play_out(
    mine: int,
    theirs: int,
    top: int,
    stock: list[int],
    rules: RolloutRules,
    knock_at: Sequence[int] = (0,),
) -> list[tuple[int, int]]:
    """Points for us of the hand after we threw ``top`` from our 10 cards ``mine``, the
    opponent holding ``theirs``, the stock drawn from its end (``stock`` is used up): one
    result per threshold of ``knock_at``, each the hand played with us knocking at the first
    turn our deadwood is within it (0: only gin while the stock lasts). Both players draw and
    throw alike whatever the threshold, so the hands are the same until our knock: one play
    gives them all. Each result is (points if the opponent lays off, points if it does not).
    """
    results: list[tuple[int, int] | None] = [None] * len(knock_at)
    open_ = len(knock_at)

    def settle(points: tuple[int, int]) -> list[tuple[int, int]]:
        return [points if r is None else r for r in results]

    my_dw = deadwood_of_mask(mine)
    while len(stock) > STOCK_END:
        theirs, their_dw, top = draw_turn(theirs, top, stock)
        if their_dw == 0:
            return settle((-(my_dw + rules.gin_bonus),) * 2)
        if their_dw <= rules.their_knock and their_dw <= rules.knock_limit:
            if my_dw <= their_dw:
                return settle((their_dw - my_dw + rules.undercut_bonus,) * 2)
            return settle((-(my_dw - their_dw),) * 2)
        if len(stock) <= STOCK_END:
            return settle((0, 0))
        mine, my_dw, top = draw_turn(mine, top, stock)
        if my_dw == 0:
            return settle((deadwood_of_mask(theirs) + rules.gin_bonus,) * 2)
        if my_dw <= rules.knock_limit:
            if len(stock) < rules.wait_stock:
                return settle(_knock_points(mine, my_dw, theirs, rules))
            points = None
            for i, t in enumerate(knock_at):
                if results[i] is None and my_dw <= t:
                    if points is None:
                        points = _knock_points(mine, my_dw, theirs, rules)
                    results[i] = points
                    open_ -= 1
            if not open_:
                return results  # type: ignore[return-value]
    return settle((0, 0))
