"""The Hint button: the move the strongest level would make, with one sentence saying why.

The move comes from the expert (its sampling capped to the time budget); the reason is built
from the same numbers the move was chosen on: deadwood before and after, the meld a card
joins, the cards that make a discard safe, the layoff a card makes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine import (
    Action,
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
    best_melds,
    deadwood_of_mask,
    mask_of,
)
from ..engine.cards import CARDS
from .expert import ExpertPlayer
from .knowledge import NEIGHBOURS, Knowledge


@dataclass(frozen=True)
class Hint:
    action: Action
    reason: str

    def __str__(self) -> str:
        return self.reason


def _p(card: int) -> str:
    return CARDS[card].pretty


def _meld_text(meld) -> str:
    return " ".join(_p(c) for c in meld)


def hint(view: PlayerView, budget_s: float = 0.5) -> Hint:
    """The expert's move for this view and a one-sentence reason a person understands."""
    if not view.legal:
        raise ValueError(f"no move to hint: it is not seat {view.seat}'s turn")
    player = ExpertPlayer(seed=f"hint:{view.hand_number}:{len(view.history)}")
    player.weights = replace(player.weights, budget_s=min(player.weights.budget_s, budget_s))
    action = player.choose(view)
    return Hint(action, explain(view, action))


def explain(view: PlayerView, action: Action) -> str:
    """One sentence on why ``action`` is a good move in ``view``."""
    mask = mask_of(view.hand)
    t = type(action)
    if t in (DrawDiscard, DrawStock, Pass):
        return _explain_draw(view, action, mask)
    if t is BigGin:
        return "Go Big Gin: all 11 of your cards are melded, so you lay them all down."
    if t is Knock:
        left = deadwood_of_mask(mask & ~(1 << action.card))
        if left == 0:
            return (
                f"Knock with {_p(action.card)} face down for gin: every other card is "
                f"melded, which earns the gin bonus of {view.rules.gin_bonus}."
            )
        return (
            f"Knock with {_p(action.card)} face down: it leaves {left} deadwood, within "
            f"the limit of {view.knock_limit}, and your opponent likely holds more."
        )
    if t is Discard:
        return _explain_discard(view, action.card, mask)
    if t is LayOff:
        meld = view.table_melds[action.meld]
        before = deadwood_of_mask(mask)
        after = deadwood_of_mask(mask & ~(1 << action.card))
        return (
            f"Lay off {_p(action.card)} on {_meld_text(meld)}: it takes your deadwood "
            f"from {before} to {after}."
        )
    if t is FinishLayoff:
        left, _ = best_layoff(view.table_melds, view.hand)
        return (
            f"Finish laying off: no card you hold fits the knocker's melds in a way that "
            f"lowers your {left} deadwood."
        )
    return f"Play {action}."


def _explain_draw(view: PlayerView, action: Action, mask: int) -> str:
    top = view.top
    now = deadwood_of_mask(mask)
    if type(action) is DrawStock and DrawDiscard() not in view.legal:
        if top is None:
            return "Draw from the stock: there is no card on the pile."
        return f"Draw from the stock: {_p(top)} cannot be taken now, so the stock is the only draw."
    full = mask | (1 << top)
    after = min(deadwood_of_mask(full & ~(1 << c)) for c in view.hand)
    arrangement = best_melds([*view.hand, top])
    meld = next((m for m in arrangement.melds if top in m), None)
    if type(action) is DrawDiscard:
        if view.phase == "last_chance":
            return f"Take {_p(top)}: it lets you knock with {after} deadwood before the stock ends."
        if meld is not None:
            return (
                f"Take {_p(top)}: it completes {_meld_text(meld)} and takes your deadwood "
                f"from {now} to {after}."
            )
        return (
            f"Take {_p(top)}: it is low enough to replace a high loose card, taking your "
            f"deadwood from {now} to {after}."
        )
    verb = "Pass on" if type(action) is Pass else "Draw from the stock rather than take"
    if meld is None and after >= now:
        return (
            f"{verb} {_p(top)}: it fits none of your melds and would not lower your {now} deadwood."
        )
    return (
        f"{verb} {_p(top)}: it would only take your deadwood from {now} to {after}, and a "
        f"blind draw keeps more chances open without showing what you collect."
    )


def _explain_discard(view: PlayerView, card: int, mask: int) -> str:
    left = deadwood_of_mask(mask & ~(1 << card))
    options = [a.card for a in view.legal if type(a) is Discard]
    least = min(deadwood_of_mask(mask & ~(1 << c)) for c in options)
    know = Knowledge.of(view)
    head = f"Discard {_p(card)}: it leaves {left} deadwood"
    knocks = [a for a in view.legal if type(a) is Knock]
    if knocks:
        return (
            head + ", and rather than knock now you wait for gin, since a knock from "
            "your opponent would likely be undercut."
        )
    if left > least:
        head += f", {left - least} more than the least possible, but it keeps your best draws alive"
    else:
        head += ", the least you can keep"
    danger = know.danger(card)
    seen_near = [c for c in NEIGHBOURS[card] if c in know.opp_discards or c in know.opp_declined]
    taken_near = [c for c in NEIGHBOURS[card] if know.opp_known >> c & 1]
    if taken_near:
        return head + (f", though your opponent took {_p(taken_near[0])}, so it may help them.")
    if seen_near:
        return head + (
            f", and your opponent passed up {_p(seen_near[0])}, so it is unlikely to help them."
        )
    if danger < 0.1:
        return head + ", and it is unlikely to help your opponent."
    return head + "."
