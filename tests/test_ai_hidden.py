"""No level can see the opponent's hidden cards or the stock order.

Two deals differ only in the opponent's hidden cards and the order of the bottom of the
stock. The opponent plays blind (passes the upcard, draws the stock and throws what it drew),
so the public record is the same until a card that differs shows up. Up to that point each
level must make exactly the same decisions in both deals.
"""

import random

import pytest

from gin3d.ai import LEVELS, make_player
from gin3d.engine import DrawStock, Hand, Pass, RuleSet, shuffled_deck

DEALER = 1  # seat 0 is dealt deck[0], deck[2], ...; seat 1 deck[1], deck[3], ...
TOP_SAME = 12  # the first stock cards drawn are the same in both deals


def twin_decks(seed: int) -> tuple[list[int], list[int]]:
    """Two decks: same cards for seat 0 and the upcard and the top of the stock; the
    opponent's ten cards swapped with the deep stock and the deep stock reshuffled."""
    deck = shuffled_deck(seed)
    rng = random.Random(seed)
    opp_slots = list(range(1, 20, 2))
    deep_slots = list(range(21 + TOP_SAME, 52))
    pool = [deck[i] for i in opp_slots + deep_slots]
    while True:
        rng.shuffle(pool)
        if {pool[i] for i in range(10)} != {deck[i] for i in opp_slots}:
            break
    other = list(deck)
    for slot, card in zip(opp_slots + deep_slots, pool):
        other[slot] = card
    return deck, other


def blind_move(view):
    """The opponent's scripted, card-blind move."""
    if Pass() in view.legal:
        return Pass()
    if view.phase == "draw":
        return DrawStock()
    if view.phase == "discard":
        drawn = view.history[-1].card  # its own stock draw, visible to itself
        return next(a for a in view.legal if getattr(a, "card", None) == drawn)
    return view.legal[-1]  # layoff phase: finish


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_decisions_ignore_hidden_cards(level):
    rules = RuleSet.preset("classic")
    compared = 0
    for seed in range(6):
        deck_a, deck_b = twin_decks(seed)
        hands = [Hand(rules, DEALER, deck_a), Hand(rules, DEALER, deck_b)]
        assert hands[0].hands[1] != hands[1].hands[1] or set(hands[0].hands[1]) != set(
            hands[1].hands[1]
        )
        players = [make_player(level, seed=seed), make_player(level, seed=seed)]
        while not hands[0].over and not hands[1].over:
            if hands[0].turn != hands[1].turn:
                break
            seat = hands[0].turn
            views = [h.view(seat) for h in hands]
            if seat == 1:
                acts = [blind_move(v) for v in views]
            else:
                if views[0] != views[1]:
                    break  # a differing card has become visible to seat 0
                acts = [p.choose(v) for p, v in zip(players, views)]
                assert acts[0] == acts[1], (level, seed, views[0].phase, acts)
                compared += 1
            for h, a in zip(hands, acts):
                h.apply(a)
    assert compared >= 30, f"only {compared} decisions compared for {level}"


def test_twin_decks_hide_different_cards():
    a, b = twin_decks(3)
    assert sorted(a) == sorted(b)
    assert [a[i] for i in range(0, 21, 2)] == [b[i] for i in range(0, 21, 2)]
    assert a[21 : 21 + TOP_SAME] == b[21 : 21 + TOP_SAME]
    assert {a[i] for i in range(1, 20, 2)} != {b[i] for i in range(1, 20, 2)}
