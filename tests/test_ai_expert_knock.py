"""Expert's knock timing: with little deadwood and stock left it plays on for gin/undercut."""

import dataclasses

from gin3d.ai import make_player
from gin3d.ai.expert import ExpertPlayer
from gin3d.engine import Discard, Hand, Knock, RuleSet, deadwood_of_mask, mask_of


def knockable_position():
    """Seed 20, two simple players, after 49 events: a knock leaving 3 with 23 in the stock."""
    hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=20)
    players = [make_player("simple", seed=1), make_player("simple", seed=2)]
    while True:
        view = hand.view(hand.turn)
        if len(view.history) >= 49 and any(type(a) is Knock for a in view.legal):
            return view
        hand.apply(players[hand.turn].choose(view))


def test_expert_plays_on_with_low_deadwood_and_stock_left():
    view = knockable_position()
    mask = mask_of(view.hand)
    knocks = [a.card for a in view.legal if type(a) is Knock]
    assert min(deadwood_of_mask(mask & ~(1 << c)) for c in knocks) == 3
    assert view.stock_count == 23
    expert = ExpertPlayer(seed=3)
    assert 3 <= expert.weights.always_wait
    assert type(expert.choose(view)) is Discard
    # the rule is what keeps it playing: the knock-now estimate alone would knock here
    eager = ExpertPlayer(seed=3)
    eager.weights = dataclasses.replace(eager.weights, always_wait=0)
    assert type(eager.choose(view)) is Knock
