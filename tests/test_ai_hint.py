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

OPENING = {
    Discard: "Discard",
    Knock: "Knock",
    DrawDiscard: "Take",
    Pass: "Pass",
    DrawStock: "Draw",
    LayOff: "Lay off",
    FinishLayoff: "Finish",
    BigGin: "Go Big Gin",
}


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
        if type(action) is Knock and "for gin" in reason:
            assert left == 0, (action, reason)
            return
        numbers = [int(n) for n in re.findall(r"(\d+) deadwood", reason)]
        assert numbers and numbers[0] == left, (action, reason, left)
    if type(action) is LayOff:
        after = deadwood_of_mask(mask_of(view.hand) & ~(1 << card))
        assert f"to {after}." in reason, (action, reason)
    if type(action) is DrawDiscard and view.phase != "last_chance":
        top = view.top
        after = min(
            deadwood_of_mask((mask_of(view.hand) | 1 << top) & ~(1 << c)) for c in view.hand
        )
        assert f"to {after}." in reason, (action, reason)


def knock_positions(rules, hands: int):
    """Views of simple-vs-simple hands where a knock is legal with gin or under 4 stock cards."""
    from gin3d.engine import Hand

    for seed in range(hands):
        hand = Hand.deal(rules, dealer=seed % 2, seed=f"knock:{seed}")
        players = [make_player("simple", seed=1), make_player("simple", seed=2)]
        while not hand.over:
            view = hand.view(hand.turn)
            knocks = [a.card for a in view.legal if type(a) is Knock]
            if knocks and (
                view.stock_count < 4
                or min(deadwood_of_mask(mask_of(view.hand) & ~(1 << c)) for c in knocks) == 0
            ):
                yield view
            hand.apply(players[hand.turn].choose(view))


def test_hint_matches_its_move_in_every_phase():
    kinds: set[type] = set()

    def check(view, action):
        h = hint(view)
        check_reason(view, h)
        kinds.add(type(h.action))

    for i, name in enumerate(("classic", "last_chance", "oklahoma")):
        drive(
            make_player("simple", seed=i),
            VARIANTS[name],
            seed=40 + i,
            decisions=120,
            on_decision=check,
        )
    # the expert plays on for gin or an undercut while the stock lasts, so its knocks come at
    # gin or near the stock end: check the hint at such positions too
    for view in knock_positions(VARIANTS["classic"], hands=60):
        check(view, None)
    for needed in (Discard, Knock, DrawStock, DrawDiscard, Pass, LayOff, FinishLayoff):
        assert needed in kinds, f"no hint of type {needed.__name__} was checked"


def test_hint_is_the_expert_move():
    seen = 0

    def check(view, action):
        nonlocal seen
        h = hint(view)
        assert h.action in view.legal
        seen += 1

    drive(make_player("hard", seed=5), VARIANTS["classic"], seed=9, decisions=40, on_decision=check)
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
