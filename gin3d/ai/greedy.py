"""The greedy player and the layoff planner every player uses.

``GreedyPlayer`` is cheap and plays the same way every time (no random numbers), so a seed gives
the same game: scripted seats (tests, tools, the network command line) and the tutorial's
practice opponent use it. ``next_layoff`` is the next move of the engine's best layoff plan;
``layoff_moves`` is the whole plan (the table's Best-layoff button plays it at once).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import (
    Action,
    BigGin,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
    PlayerView,
    best_layoff,
    deadwood_of_mask,
    discard_deadwoods,
    mask_of,
)

FINISH = FinishLayoff()


def layoff_moves(view: PlayerView) -> list[Action]:
    """The layoffs of the plan leaving the least deadwood, in order, then FinishLayoff."""
    _, plan = best_layoff(view.table_melds, view.hand)
    return [LayOff(card, meld) for card, meld in plan] + [FINISH]


def next_layoff(view: PlayerView) -> Action:
    """The next layoff of the plan leaving the least deadwood, or FinishLayoff when none."""
    move = layoff_moves(view)[0]
    return move if move in view.legal else FINISH


def best_discard(hand: Sequence[Card], banned: Card | None = None) -> tuple[int, Card]:
    """(deadwood after the discard, the card) for the discard that leaves the least deadwood;
    ties go to the higher card. Never ``banned`` (the card just taken, say)."""
    left = discard_deadwoods(hand)
    dead, _, card = min((d, -c.value, c) for c, d in left.items() if c != banned)
    return dead, card


def take_gain(view: PlayerView) -> tuple[int, int]:
    """(deadwood now, deadwood after taking the pile's top card and the best discard)."""
    now = deadwood_of_mask(mask_of(view.hand))
    after, _ = best_discard((*view.hand, view.top), banned=view.top)
    return now, after


class GreedyPlayer:
    """Greedy legal play: take the pile card when it lowers deadwood, discard to the least
    deadwood, knock (or gin) as soon as the rules allow, lay off the engine's best plan.

    Three habits can be changed (the defaults are the scripted seats'; the tutorial's
    practice opponent turns each around): ``grab_last_chance`` takes the pile's card at the
    last chance even when it does not lower the deadwood; ``keep_taken`` never throws back
    the card just taken, even where the rules allow it; ``knock_high`` throws the higher card
    between knocks that leave the same deadwood (otherwise the first legal one)."""

    name = "Greedy"

    def __init__(
        self, *, grab_last_chance: bool = True, keep_taken: bool = True, knock_high: bool = False
    ) -> None:
        self.grab_last_chance = grab_last_chance
        self.keep_taken = keep_taken
        self.knock_high = knock_high

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if any(isinstance(a, BigGin) for a in legal):
            return BigGin()
        if view.phase in ("upcard", "draw", "last_chance"):
            return self._draw(view)
        if view.phase == "discard":
            knocks = [a for a in legal if isinstance(a, Knock)]
            if knocks:
                left = discard_deadwoods(view.hand)
                if self.knock_high:
                    return min(knocks, key=lambda a: (left[a.card], -a.card.value))
                return min(knocks, key=lambda a: left[a.card])
            keep = self.keep_taken or not view.rules.allow_throw_back
            _, card = best_discard(view.hand, banned=view.taken if keep else None)
            action = Discard(card)
            return action if action in legal else next(a for a in legal if isinstance(a, Discard))
        if view.phase == "layoff":
            return next_layoff(view)
        return legal[0]

    def _draw(self, view: PlayerView) -> Action:
        legal = view.legal
        if DrawDiscard() in legal and view.top is not None:
            now, after = take_gain(view)
            if after < now or (self.grab_last_chance and view.phase == "last_chance"):
                return DrawDiscard()
        if DrawStock() in legal:
            return DrawStock()
        return Pass() if Pass() in legal else legal[0]
