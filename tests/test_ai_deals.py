"""The expert's sampled opponent hands agree with what the opponent did with the pile."""

import dataclasses

import numpy as np

from gin3d.ai.deals import opponent_moves
from gin3d.ai.evaluate import bits
from gin3d.ai.expert import ExpertPlayer
from gin3d.ai.knowledge import Knowledge, completers
from gin3d.ai.opponent import OpponentModel
from gin3d.ai.yardsticks import make_arena_player
from gin3d.engine import (
    CardDrawn,
    Discard,
    Game,
    NextHand,
    RuleSet,
    best_melds,
    deadwood_of_mask,
)
from gin3d.engine.cards import VALUES
from gin3d.engine.layoffs import MeldShape


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


def fits_melds(mask: int, card: int) -> bool:
    """Whether ``card`` can be laid off on the melds the hand ``mask`` lays down (the
    engine's own rule, one meld at a time)."""
    return any(MeldShape.of(m).fits(card) for m in best_melds(bits(mask)).melds)


def test_layoff_share_is_the_deals_weight_on_the_cards_their_melds_take():
    checked = 0
    for view in positions(2):
        know = Knowledge.of(view)
        deals = ExpertPlayer(seed=4).deals(know)
        if not deals.masks:
            continue
        want = [
            sum(w for m, w in zip(deals.masks, deals.norm) if fits_melds(m, c)) for c in range(52)
        ]
        np.testing.assert_allclose(deals.layoff_share(), want, atol=1e-12)
        checked += 1
    assert checked >= 20


def test_layoff_share_points_at_the_cards_the_real_melds_take():
    """Against eager's real hands: the cards its real melds would take carry several times
    the share the other unseen cards do (the read is worth acting on)."""
    on, off = [], []
    for view, real in positions(real=True):
        know = Knowledge.of(view)
        if know.opp_hidden == 0:
            continue
        share = ExpertPlayer(seed=4).deals(know).layoff_share()
        for c in know.unseen:
            (on if fits_melds(real, c) else off).append(share[c])
    assert len(on) >= 100
    assert np.mean(on) > 3 * np.mean(off), (np.mean(on), np.mean(off))


def knocker(hands: int, deadwood: float) -> OpponentModel:
    """A model that has seen an opponent knock in 9 hands of 10 with ``deadwood`` each."""
    knocks = 0.9 * hands
    return OpponentModel(
        knocks=knocks, plain_knocks=knocks, knock_deadwood_sum=knocks * deadwood, hands=hands
    )


def late_throws(model: OpponentModel, keep: float) -> list[tuple[int, float]]:
    """The expert's throw late in the hands of 3 games, and the share of the deals whose
    melds would take it, with ``model`` for the opponent and ``layoff_keep`` = ``keep``."""
    expert = ExpertPlayer(seed=4)
    expert.weights = dataclasses.replace(expert.weights, layoff_keep=keep)
    expert.model = model
    out = []
    for view in positions(3):
        know = Knowledge.of(view)
        late = sum(1 for s, _ in view.discards if s != view.seat) > expert.weights.ramp_start
        discards = [a.card for a in view.legal if type(a) is Discard]
        if not late or not discards or know.opp_hidden == 0:
            continue
        card = expert.score_discards(know.mine, know, discards)[0].card
        out.append((card, expert.deals(know).layoff_share()[card]))
        expert._deals = None  # the next position's own deals
    return out


def test_expert_keeps_the_loose_cards_a_high_knockers_melds_would_take():
    """Late in a hand, against an opponent whose knocks carry plenty of deadwood (7), the
    expert throws fewer of the cards the deals' melds would take (laid off when that
    opponent knocks, they cost nothing and make undercuts) than with the layoffs left out."""
    fast = knocker(20, 7.0)
    off, on = late_throws(fast, 0.0), late_throws(fast, 1.0)
    assert len(on) >= 40
    shares = np.mean([s for _, s in off]), np.mean([s for _, s in on])
    assert shares[1] < 0.8 * shares[0], shares


def test_the_layoffs_count_from_a_games_first_hand():
    """Before the opponent has knocked (the model's prior: knocks of 5), the expert already
    keeps the cards the deals' melds would take: most opponents knock with more than a
    patient player, and waiting for their first knocks cost the first hands of each game."""
    fresh = late_throws(OpponentModel(), 1.0)
    assert len(fresh) >= 40
    assert fresh != late_throws(OpponentModel(), 0.0)


def test_against_a_patient_knocker_the_layoffs_change_no_throw():
    """Against one that knocks low (about 3 deadwood), keeping such cards costs gin chances
    and rarely wins an undercut: the expert's throws are those with the layoffs left out
    (its model's knock deadwood, 3.2 here, is below `fast_deadwood`, 4.9)."""
    patient = knocker(20, 3.0)
    assert late_throws(patient, 1.0) == late_throws(knocker(20, 3.0), 0.0)
