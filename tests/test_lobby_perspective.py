"""Turning the guest's seat round (no Panda3D): seat 1's view, renumbered, is exactly seat 0's
view of the same deck dealt by the other dealer, at every step of whole hands."""

from __future__ import annotations

import pytest

from gin3d.engine import CardDealt, Hand, HandScored, RuleSet, next_dealer
from gin3d.players import GreedyPlayer
from gin3d.scene.control.perspective import MatchRecord, flip_event, local_view, waiting_view

PRESETS = ("classic", "oklahoma", "pagat")


@pytest.mark.parametrize("seed", range(6))
def test_seat_one_renumbered_is_seat_zero_of_the_mirrored_hand(seed):
    rules = RuleSet.preset(PRESETS[seed % 3])
    hand = Hand.deal(rules, dealer=seed % 2, seed=f"persp:{seed}")
    mirror = Hand(rules, 1 - hand.dealer, hand.deck)
    player = GreedyPlayer()
    for _ in range(300):
        assert local_view(hand.view(1, (7, 30), 100)) == mirror.view(0, (30, 7), 100)
        assert local_view(hand.view(0, (7, 30), 100)) == hand.view(0, (7, 30), 100)
        if hand.phase == "over":
            break
        action = player.choose(hand.view(hand.turn))
        hand.apply(action)
        mirror.apply(action)
    assert hand.phase == mirror.phase == "over"
    assert [flip_event(e) for e in hand.events] == mirror.events


def test_match_record_rebuilds_the_game_in_local_numbers():
    rules = RuleSet.preset("classic")
    player = GreedyPlayer()
    record = MatchRecord()
    dealer = 0
    for n in range(3):
        hand = Hand.deal(rules, dealer=dealer, seed=f"record:{n}", hand_number=n)
        while hand.phase != "over":
            hand.apply(player.choose(hand.view(hand.turn)))
        game = record.add(hand, my_seat=1)
        mine = [e.card for e in hand.events if isinstance(e, CardDealt) and e.seat == 1]
        local = [e.card for e in game.hand.events if isinstance(e, CardDealt) and e.seat == 0]
        assert mine == local
        scored = [e for e in hand.events if isinstance(e, HandScored)]
        if scored:
            assert game.hand.winner == 1 - scored[0].winner
        dealer = next_dealer(rules, hand.dealer, hand.winner)
    assert len(game.hands) == 3


def test_match_record_refuses_a_hand_out_of_step():
    rules = RuleSet.preset("classic")
    hand = Hand.deal(rules, dealer=0, seed="x")
    with pytest.raises(ValueError, match="not finished"):
        MatchRecord().add(hand, my_seat=0)


def test_waiting_view_has_nobody_to_act():
    view = waiting_view()
    assert view.phase == "deal" and view.turn == -1 and not view.legal and view.hand == ()
