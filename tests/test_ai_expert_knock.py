"""Expert's knock timing: with little deadwood and stock left it plays on for gin/undercut."""

import dataclasses
import math

import numpy as np

import gin3d.ai.expert as expert_module
from gin3d.ai import make_player
from gin3d.ai.expert import ExpertPlayer, knock_edge
from gin3d.ai.knowledge import Knowledge
from gin3d.ai.rollout import play_out
from gin3d.ai.yardsticks import make_arena_player
from gin3d.engine import Discard, Hand, Knock, RuleSet, card, deadwood_of_mask, mask_of


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
    # priced without the rule, the sure small knock is worth no more than playing on now
    # that box bonuses (which never reach the target) are left out of the price
    pricing = ExpertPlayer(seed=3)
    pricing.weights = dataclasses.replace(pricing.weights, always_wait=0)
    assert type(pricing.choose(view)) is Discard


def high_knock_position():
    """Seed 1, hard against simple: hard may knock with 10 deadwood, 28 cards in the stock."""
    hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=1)
    players = [make_player("hard", seed=1), make_player("simple", seed=2)]
    while True:
        view = hand.view(hand.turn)
        if hand.turn == 0 and any(type(a) is Knock for a in view.legal):
            return view
        hand.apply(players[hand.turn].choose(view))


def seen(expert: ExpertPlayer, hands: int, knocks: int, deadwood: int) -> ExpertPlayer:
    """The expert's model after ``hands`` hands in which the opponent knocked ``knocks``
    times, each with ``deadwood``, and laid off everything it could."""
    m = expert.model
    m.hands, m.knocks, m.plain_knocks = hands, knocks, knocks
    m.knock_deadwood_sum = knocks * deadwood
    m.laid = m.layoff_chances = 6
    return expert


def hunting(seed: int = 3) -> ExpertPlayer:
    """The expert with its undercut-hunting rule instead of playing the deals out."""
    expert = ExpertPlayer(seed=seed)
    expert.weights = dataclasses.replace(expert.weights, rollouts=0)
    return expert


def test_the_hunting_rule_knocks_sooner_against_an_opponent_that_knocks_in_every_hand():
    view = high_knock_position()
    mask = mask_of(view.hand)
    knocks = [a.card for a in view.legal if type(a) is Knock]
    assert min(deadwood_of_mask(mask & ~(1 << c)) for c in knocks) == 10
    assert view.stock_count >= 20
    assert type(hunting().choose(view)) is Discard  # the prior: hunt undercuts
    # it knocks in every hand with about 7: waiting with 10 for an undercut is hopeless
    assert type(seen(hunting(), 12, 12, 7).choose(view)) is Knock
    # it keeps hunting against one that knocks in few hands, or only with little deadwood
    assert type(seen(hunting(), 12, 4, 7).choose(view)) is Discard
    assert type(seen(hunting(), 12, 12, 2).choose(view)) is Discard


def early_knock_position():
    """Seed 38, simple against eager, after 35 events: simple may knock with 10 deadwood
    and 26 cards in the stock."""
    hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=38)
    players = [make_player("simple", seed=1), make_arena_player("eager", seed=2)]
    while len(hand.view(hand.turn).history) < 35:
        hand.apply(players[hand.turn].choose(hand.view(hand.turn)))
    return hand.view(hand.turn)


def test_while_the_stock_lasts_the_expert_knocks_when_playing_on_is_worth_less():
    view = early_knock_position()
    mask = mask_of(view.hand)
    knocks = [a.card for a in view.legal if type(a) is Knock]
    assert min(deadwood_of_mask(mask & ~(1 << c)) for c in knocks) == 10
    assert view.stock_count == 26
    expert = ExpertPlayer(seed=3)
    assert type(expert.choose(view)) is Knock
    # the knock beats playing on (the deals played out to the hand's end) by the knock rule
    # (a fresh expert with the same seed draws the deals of that decision again)
    know = Knowledge.of(view)
    fresh = ExpertPlayer(seed=3)
    fresh.weights = dataclasses.replace(fresh.weights, budget_s=60.0)  # no time cut
    hand = mask & ~(1 << int(card("6H")))
    knock = fresh.knock_value(view, know, hand, 10)
    edge = knock_edge(fresh.weights, knock, fresh.hunt_value(view, know), 10, view.stock_count)
    assert edge > fresh.weights.knock_margin
    # the hunting rule would have played on for an undercut
    assert type(hunting().choose(view)) is Discard


RULE_BEFORE = dict(knock_margin=9.0, knock_hunt=1.0, knock_deadwood=0.0, knock_stock=0.0)


def test_the_fitted_knock_rule_knocks_early_with_a_high_hand_the_margin_rule_played_on():
    """Seed 9, simple against eager, after 35 events: a knock leaving 9 with 26 cards in the
    stock. The rule before (knock when the knock beats the play-outs by 9) played on; the
    rule fitted to what such knocks were really worth (bench/bench_knock_values.py) knocks:
    early in a hand, with 9 deadwood, waiting mostly waits for the opponent's knock."""
    hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=9)
    players = [make_player("simple", seed=1), make_arena_player("eager", seed=2)]
    while len(hand.view(hand.turn).history) < 35:
        hand.apply(players[hand.turn].choose(hand.view(hand.turn)))
    view = hand.view(hand.turn)
    assert view.stock_count == 26
    knocks = [a.card for a in view.legal if type(a) is Knock]
    assert min(deadwood_of_mask(mask_of(view.hand) & ~(1 << c)) for c in knocks) == 9
    assert ExpertPlayer(seed=3).choose(view) == Knock(card("QD"))
    before = ExpertPlayer(seed=3)
    before.weights = dataclasses.replace(before.weights, **RULE_BEFORE)
    assert before.choose(view) == Discard(card("QD"))


def test_the_play_outs_follow_the_deals_by_their_weight(monkeypatch):
    """A deal the opponent's play makes unlikely is played out no more than its weight says,
    however early it was drawn: with all the weight on the last deal, only it is played."""
    view = early_knock_position()
    know = Knowledge.of(view)
    expert = ExpertPlayer(seed=3)
    expert.weights = dataclasses.replace(expert.weights, budget_s=60.0)  # no time cut
    deals = expert.deals(know)
    heavy = len(deals.masks) - 1
    assert heavy >= expert.weights.rollouts
    deals.norm = np.zeros(len(deals.masks))
    deals.norm[heavy] = 1.0
    played = []

    def recorded(mine, theirs, top, stock, rules):
        played.append(theirs)
        return play_out(mine, theirs, top, stock, rules)

    monkeypatch.setattr(expert_module, "play_out", recorded)
    assert expert.hunt_value(view, know) > -math.inf
    assert played == [deals.masks[heavy]] * expert.weights.rollouts


def test_against_an_opponent_that_knocks_only_low_the_play_outs_let_it_run_longer():
    view = early_knock_position()
    expert = ExpertPlayer(seed=3)
    assert expert.their_knock(view) == view.knock_limit  # the prior: any knock
    patient = seen(ExpertPlayer(seed=3), 12, 6, 2)
    assert patient.their_knock(view) <= 6 < view.knock_limit


def test_a_knock_that_wins_the_game_in_most_deals_is_taken_at_once():
    view = knockable_position()  # a knock leaving 3, 23 cards in the stock: it plays on
    me = view.seat

    def needing(points: int, theirs: int = 100):
        scores = [0, 0]
        scores[me], scores[1 - me] = view.target - points, view.target - theirs
        return dataclasses.replace(view, scores=tuple(scores))

    assert type(ExpertPlayer(seed=3).choose(needing(100))) is Discard
    assert type(ExpertPlayer(seed=3).choose(needing(20))) is Discard
    # needing 10 or 5, the knock ends the game in most deals: no playing on for more
    for v in (needing(10), needing(5), needing(10, theirs=10)):
        assert type(ExpertPlayer(seed=3).choose(v)) is Knock
    # with the rule off it played on
    off = ExpertPlayer(seed=3)
    off.weights = dataclasses.replace(off.weights, game_knock=0.0)
    assert type(off.choose(needing(10))) is Discard
