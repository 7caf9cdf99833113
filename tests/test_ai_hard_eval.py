"""Hard's evaluation: deadwood weighs more as the opponent's knock comes closer."""

import dataclasses

from gin3d.ai import make_player
from gin3d.ai.hard import HardPlayer
from gin3d.ai.knowledge import Knowledge
from gin3d.engine import Discard, Hand, RuleSet, deadwood_of_mask, mask_of


def late_position():
    """Seed 8, two simple players, after 59 events: 9 opponent turns played, no knock yet."""
    hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=8)
    players = [make_player("simple", seed=1), make_player("simple", seed=2)]
    while True:
        view = hand.view(hand.turn)
        if len(view.history) >= 59 and view.phase == "discard":
            return view
        hand.apply(players[hand.turn].choose(view))


def test_deadwood_weight_ramps_with_opponent_turns():
    view = late_position()
    player = HardPlayer(seed=0)
    w = player.weights
    turns = sum(1 for s, _ in view.discards if s != view.seat)
    assert turns == 9
    expected = 1.0 + w.ramp * (turns - w.ramp_start)
    assert player.deadwood_weight(Knowledge.of(view)) == expected
    flat = HardPlayer(seed=0)
    flat.weights = dataclasses.replace(w, ramp=0.0)
    assert flat.deadwood_weight(Knowledge.of(view)) == 1.0


def test_late_in_the_hand_hard_sheds_deadwood_instead_of_keeping_draws():
    view = late_position()
    mask = mask_of(view.hand)
    flat = HardPlayer(seed=0)
    flat.weights = dataclasses.replace(flat.weights, ramp=0.0)
    keep = flat.choose(view)
    shed = HardPlayer(seed=0).choose(view)
    assert type(keep) is Discard and type(shed) is Discard
    left = {a.card: deadwood_of_mask(mask & ~(1 << a.card)) for a in (keep, shed)}
    # without the ramp it keeps a card with draws (22 left); with it, it sheds to 17
    assert left[keep.card] == 22
    assert left[shed.card] == 17
    assert min(deadwood_of_mask(mask & ~(1 << c)) for c in view.hand) == 17
