"""The practice hand's helpers: a plain greedy player and a hint that says why.

The tutorial package may import only the engine, so the app passes the real beginner AI and
its hints into the runner; these are what the runner uses when nobody passes one (headless
runs and tests). The player is legal and sensible, never clever: it takes a card only when
that lowers its deadwood, discards the card that leaves the least, and knocks when it can.
"""

from __future__ import annotations

from dataclasses import dataclass

from gin3d.engine import (
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
    PlayerView,
    best_layoff,
    deadwood,
    discard_deadwoods,
)
from gin3d.engine.actions import Action
from gin3d.players import best_discard


@dataclass(frozen=True)
class Hint:
    """A suggested move and a sentence saying why, for the hint panel."""

    action: Action
    text: str


def hint(view: PlayerView) -> Hint:
    """The greedy move for the seat whose view this is, with the reason in words."""
    if not view.my_turn:
        return Hint(Pass(), "Wait: it is your opponent's turn.")
    legal = set(view.legal)
    hand = list(view.hand)
    now = deadwood(hand)
    if view.phase in ("upcard", "draw", "last_chance"):
        top = view.top
        if top is not None and DrawDiscard() in legal:
            after, _ = best_discard([*hand, top], banned=top)
            if after < now:
                return Hint(
                    DrawDiscard(),
                    f"Take the {top.pretty}: with it your deadwood can "
                    f"go from {now} down to {after}.",
                )
        if view.phase in ("upcard", "last_chance"):
            what = top.pretty if top is not None else "card"
            return Hint(Pass(), f"Pass: the {what} does not lower your deadwood.")
        return Hint(DrawStock(), "Draw from the stock: the top discard does not help you.")
    if view.phase == "discard":
        if BigGin() in legal:
            return Hint(BigGin(), "All 11 cards are melded: lay them all down for Big Gin!")
        knocks = [a for a in view.legal if isinstance(a, Knock)]
        if knocks:
            options = discard_deadwoods(hand)
            best = min(knocks, key=lambda a: (options[a.card], -a.card.value))
            left = options[best.card]
            word = "go gin" if left == 0 else f"knock with {left} points"
            return Hint(best, f"Discard the {best.card.pretty} face down to {word}.")
        after, c = best_discard(hand, None if view.rules.allow_throw_back else view.taken)
        return Hint(
            Discard(c),
            f"Discard the {c.pretty}: that leaves you {after} points "
            f"of deadwood, the least you can have.",
        )
    if view.phase == "layoff":
        _, plan = best_layoff(view.table_melds, hand)
        if plan:
            c, meld = plan[0]
            return Hint(LayOff(c, meld), f"Lay off the {c.pretty} on the knocker's meld.")
        return Hint(FinishLayoff(), "Nothing more fits the knocker's melds: you are done.")
    return Hint(Pass(), "The hand is over.")


def greedy_player(view: PlayerView) -> Action:
    """The practice opponent used when the app passes none: the hint's move, always legal."""
    action = hint(view).action
    if action not in view.legal:  # e.g. a pass suggested where only the stock may be drawn
        return view.legal[0]
    return action
