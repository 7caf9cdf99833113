"""The practice hand's helpers: a plain greedy player and a hint that says why.

The app passes the real beginner AI and the expert's hints into the runner; these are what
the runner uses when nobody passes one (headless runs and tests). The player is
``gin3d.ai``'s greedy player, legal and sensible, never clever: it takes a card only when
that lowers its deadwood, discards the card that leaves the least, and knocks when it can.
The hint is its move with the reason in words.
"""

from __future__ import annotations

from gin3d.ai.greedy import GreedyPlayer, take_gain
from gin3d.ai.hint import Hint
from gin3d.engine import (
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    Pass,
    PlayerView,
    discard_deadwoods,
)
from gin3d.engine.actions import Action

# as a newcomer is taught: take the last chance card only when it helps, throw back the card
# just taken where the rules allow it, and knock with the higher of two equal cards
PRACTICE = GreedyPlayer(grab_last_chance=False, keep_taken=False, knock_high=True)


def hint(view: PlayerView) -> Hint:
    """The greedy move for the seat whose view this is, with the reason in words."""
    if not view.my_turn:
        return Hint(Pass(), "Wait: it is your opponent's turn.")
    if view.phase not in ("upcard", "draw", "last_chance", "discard", "layoff"):
        return Hint(Pass(), "The hand is over.")
    action = PRACTICE.choose(view)
    return Hint(action, _reason(view, action))


def _reason(view: PlayerView, action: Action) -> str:
    top, t = view.top, type(action)
    if t is DrawDiscard:
        now, after = take_gain(view)
        return f"Take the {top.pretty}: with it your deadwood can go from {now} down to {after}."
    if t is Pass:
        what = top.pretty if top is not None else "card"
        return f"Pass: the {what} does not lower your deadwood."
    if t is DrawStock:
        return "Draw from the stock: the top discard does not help you."
    if t is BigGin:
        return "All 11 cards are melded: lay them all down for Big Gin!"
    if t is Knock:
        left = discard_deadwoods(view.hand)[action.card]
        word = "go gin" if left == 0 else f"knock with {left} points"
        return f"Discard the {action.card.pretty} face down to {word}."
    if t is Discard:
        after = discard_deadwoods(view.hand)[action.card]
        return (
            f"Discard the {action.card.pretty}: that leaves you {after} points "
            f"of deadwood, the least you can have."
        )
    if t is LayOff:
        return f"Lay off the {action.card.pretty} on the knocker's meld."
    return "Nothing more fits the knocker's melds: you are done."


def greedy_player(view: PlayerView) -> Action:
    """The practice opponent used when the app passes none: always legal."""
    return PRACTICE.choose(view)
