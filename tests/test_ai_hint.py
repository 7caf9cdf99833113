"""The hint gives the expert's move, legal, with a reason that matches that move."""

import re

from ai_positions import VARIANTS, drive

from gin3d.ai import make_player
from gin3d.ai.hint import Hint, explain, hint
from gin3d.engine import (
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
    deadwood_of_mask,
    mask_of,
)
from gin3d.engine.cards import CARDS

OPENING = {Discard: "Discard", Knock: "Knock", DrawDiscard: "Take", Pass: "Pass",
           DrawStock: "Draw", LayOff: "Lay off", FinishLayoff: "Finish", BigGin: "Go Big Gin"}


def check_reason(view, h: Hint) -> None:
    action, reason = h.action, h.reason
    assert action in view.legal
    assert reason.startswith(OPENING[type(action)]), (action, reason)
    assert reason.endswith(".") and reason.count(". ") == 0, reason  # one sentence
    card = getattr(action, "card", None)
    if card is not None:
        assert CARDS[card].pretty in reason, (action, reason)
    if type(action) in (Discard, Knock):
        left = deadwood_of_mask(mask_of(view.hand) & ~(1 << card))
        numbers = [int(n) for n in re.findall(r"(\d+) deadwood", reason)]
        assert numbers and numbers[0] == left, (action, reason, left)
    if type(action) is LayOff:
        after = deadwood_of_mask(mask_of(view.hand) & ~(1 << card))
        assert f"to {after}." in reason, (action, reason)
    if type(action) is DrawDiscard and view.phase != "last_chance":
        top = view.top
        after = min(deadwood_of_mask((mask_of(view.hand) | 1 << top) & ~(1 << c))
                    for c in view.hand)
        assert f"to {after}." in reason, (action, reason)


def test_hint_matches_its_move_in_every_phase():
    kinds: set[type] = set()

    def check(view, action):
        h = hint(view)
        check_reason(view, h)
        kinds.add(type(h.action))

    for i, name in enumerate(("classic", "last_chance", "oklahoma")):
        drive(make_player("simple", seed=i), VARIANTS[name], seed=40 + i, decisions=120,
              on_decision=check)
    for needed in (Discard, Knock, DrawStock, DrawDiscard, Pass, LayOff, FinishLayoff):
        assert needed in kinds, f"no hint of type {needed.__name__} was checked"


def test_hint_is_the_expert_move():
    seen = 0

    def check(view, action):
        nonlocal seen
        h = hint(view)
        assert h.action in view.legal
        seen += 1

    drive(make_player("hard", seed=5), VARIANTS["classic"], seed=9, decisions=40,
          on_decision=check)
    assert seen == 40


def test_explain_a_known_discard():
    from gin3d.engine import Hand, RuleSet

    hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=21)
    hand.apply(hand.legal_actions()[1])  # non-dealer passes the upcard
    hand.apply(hand.legal_actions()[1])  # dealer passes too
    hand.apply(DrawStock())
    view = hand.view(hand.turn)
    card = view.hand[0]
    text = explain(view, Discard(card))
    left = deadwood_of_mask(mask_of(view.hand) & ~(1 << card))
    assert text.startswith(f"Discard {CARDS[card].pretty}: it leaves {left} deadwood")


def test_hint_refuses_when_not_your_turn():
    import pytest

    from gin3d.engine import Hand, RuleSet

    hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=1)
    with pytest.raises(ValueError, match="not seat 0's turn"):
        hint(hand.view(0))
