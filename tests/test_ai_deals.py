"""The expert's sampled opponent hands agree with what the opponent did with the pile."""

import numpy as np

from gin3d.ai.expert import ExpertPlayer
from gin3d.ai.knowledge import Knowledge, completers
from gin3d.ai.yardsticks import make_arena_player
from gin3d.engine import CardDrawn, Game, NextHand, RuleSet


def positions(games: int = 3):
    """Seat 0's discard decisions in games of simple against eager (which takes the pile's
    card exactly when it makes a meld)."""
    players = [make_arena_player("simple", seed=1), make_arena_player("eager", seed=2)]
    for g in range(games):
        game = Game(RuleSet.preset("classic"), seed=f"deals:{g}")
        while not game.over:
            if game.hand.over:
                game.apply(NextHand())
                continue
            view = game.view(game.turn)
            if game.turn == 0 and view.phase == "discard":
                yield view
            game.apply(players[game.turn].choose(view))


def weighted_share(know: Knowledge, test) -> float:
    deals = ExpertPlayer(seed=4).deals(know)
    return float(np.dot([test(m) for m in deals.masks], deals.norm))


def took_from_pile(view) -> bool:
    return any(
        type(e) is CardDrawn and e.seat != view.seat and e.source == "discard" for e in view.history
    )


def test_deals_hold_no_meld_for_a_card_the_opponent_passed_up():
    shares = []
    for view in positions():
        know = Knowledge.of(view)
        if know.opp_hidden == 0 or not know.opp_declined or took_from_pile(view):
            continue
        passed = know.opp_declined
        shares.append(
            weighted_share(
                know, lambda m, passed=passed: any(completers(m) >> c & 1 for c in passed)
            )
        )
    assert len(shares) >= 40
    # eager would have taken any of those cards into a meld: hands where one melds are rare
    assert np.mean(shares) < 0.06, np.mean(shares)


def test_deals_meld_the_pile_cards_the_opponent_took():
    shares = []
    for view in positions():
        know = Knowledge.of(view)
        held = [c for c in view.opponent_known]
        if know.opp_hidden == 0 or not held:
            continue
        shares.append(
            weighted_share(
                know, lambda m, held=held: all(completers(m & ~(1 << c)) >> c & 1 for c in held)
            )
        )
    assert len(shares) >= 15
    assert np.mean(shares) > 0.85, np.mean(shares)
