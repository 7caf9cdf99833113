"""The expert's sampled opponent hands agree with what the opponent did with the pile."""

import numpy as np

from gin3d.ai.deals import opponent_moves
from gin3d.ai.evaluate import bits
from gin3d.ai.expert import ExpertPlayer
from gin3d.ai.knowledge import Knowledge, completers
from gin3d.ai.yardsticks import make_arena_player
from gin3d.engine import CardDrawn, Game, NextHand, RuleSet, best_melds, deadwood_of_mask
from gin3d.engine.cards import VALUES


def positions(games: int = 3, real: bool = False):
    """Seat 0's discard decisions in games of simple against eager (which takes the pile's
    card exactly when it makes a meld); with ``real``, each with the opponent's real hand."""
    players = [make_arena_player("simple", seed=1), make_arena_player("eager", seed=2)]
    for g in range(games):
        game = Game(RuleSet.preset("classic"), seed=f"deals:{g}")
        while not game.over:
            if game.hand.over:
                game.apply(NextHand())
                continue
            view = game.view(game.turn)
            if game.turn == 0 and view.phase == "discard":
                yield (view, game.hand.masks[1]) if real else view
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


def unexplained_high_cards(view, mask: int) -> int:
    """Loose cards of ``mask`` worth more than a card the opponent threw earlier, beyond the
    stock draws it made since (eager throws its highest loose card: those are impossible)."""
    moves = opponent_moves(view)
    loose = best_melds(bits(mask)).deadwood
    n = len(moves.thrown)
    extra = 0
    for j, (thrown, later) in enumerate(moves.thrown):
        draws = n - 1 - j - later.bit_count()
        high = sum(1 for c in loose if VALUES[c] > VALUES[thrown] and not later >> c & 1)
        extra += max(0, high - max(0, draws))
    return extra


def test_deals_keep_no_loose_card_above_what_the_opponent_threw_before():
    """Against eager, which throws its highest loose card each turn, a real hand never holds
    a loose card worth more than an earlier throw of its, bar the cards drawn since; the
    deals agree, and their deadwood is close to the real hand's (it was 5 to 11 points above
    when only the last throw was read)."""
    shares, above = [], []
    for view, real in positions(real=True):
        know = Knowledge.of(view)
        if know.opp_hidden == 0 or len(opponent_moves(view).thrown) < 3:
            continue
        assert unexplained_high_cards(view, real) == 0  # what eager's play guarantees
        shares.append(weighted_share(know, lambda m, v=view: unexplained_high_cards(v, m) > 0))
        deals = ExpertPlayer(seed=4).deals(know)
        above.append(float(np.dot(deals.deadwood, deals.norm)) - deadwood_of_mask(real))
    assert len(shares) >= 40
    assert np.mean(shares) < 0.15, np.mean(shares)
    assert abs(np.mean(above)) < 3.5, np.mean(above)


def test_deals_drawn_by_weight_follow_the_weights_exactly():
    view = next(positions(1))
    deals = ExpertPlayer(seed=4).deals(Knowledge.of(view))
    n = len(deals.masks)
    deals.norm = np.zeros(n)
    deals.norm[[n - 1, n - 3, n - 5]] = [0.5, 0.25, 0.25]  # the weight far past the first
    rng = np.random.default_rng(0)
    for _ in range(20):
        drawn = deals.drawn(24, rng)
        assert len(drawn) == 24
        assert {i: drawn.count(i) for i in set(drawn)} == {n - 1: 12, n - 3: 6, n - 5: 6}
